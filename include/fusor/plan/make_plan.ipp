// fusor/plan/make_plan.ipp: the definitions of make_plan.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/make_plan.hpp>

namespace fusor {

FUSOR_DEF destination_layout contiguous_destination(std::string_view dtype,
                                                    index_t itemsize,
                                                    const shape_t& shape,
                                                    const void* address) {
    return {shape, row_major_strides(shape), address, dtype, itemsize};
}

} // namespace fusor

namespace fusor {
namespace planning {

FUSOR_DEF index_transform broadcast_into(const index_transform& t,
                                         const shape_t& parent,
                                         const shape_t& child) {
    const std::size_t rp = parent.size(), rc = child.size();
    index_transform c{rc, t.cols, {}, shape_t(rc, 0)};
    c.m.assign(rc * t.cols, 0);
    for (std::size_t k = 0; k < rc; ++k) {
        if (rc - k > rp)
            continue; // extra leading extent-1 axis of the child
        const std::size_t p = k + rp - rc;
        if (child[k] == 1 && parent[p] != 1)
            continue; // stretched: stride 0
        for (std::size_t j = 0; j < t.cols; ++j)
            c.m[k * t.cols + j] = t.m[p * t.cols + j];
        c.off[k] = t.off[p];
    }
    return c;
}

FUSOR_DEF index_transform through_view(const affine_map& v, const index_transform& t) {
    const std::size_t rc = v.in_shape.size(), rv = v.out_shape.size();
    index_transform c{rc, t.cols, {}, shape_t(rc, 0)};
    c.m.assign(rc * t.cols, 0);
    for (std::size_t k = 0; k < rc; ++k) {
        c.off[k] = v.offset[k];
        for (std::size_t i = 0; i < rv; ++i) {
            const index_t a = v.at(k, i);
            if (a == 0)
                continue;
            c.off[k] += a * t.off[i];
            for (std::size_t j = 0; j < t.cols; ++j)
                c.m[k * t.cols + j] += a * t.m[i * t.cols + j];
        }
    }
    return c;
}

FUSOR_DEF bool same_loop(const loop_plan& a, const loop_plan& b) {
    if (a.expression != b.expression || a.reducer != b.reducer || a.iter_shape != b.iter_shape
        || a.reduced_axes != b.reduced_axes || a.operands.size() != b.operands.size())
        return false;
    for (std::size_t k = 1; k < a.operands.size(); ++k) {
        const operand_plan &x = a.operands[k], &y = b.operands[k];
        if (x.kind != y.kind || x.dtype != y.dtype || x.address != y.address
            || x.iter_strides != y.iter_strides || x.offset != y.offset
            || x.scalar_bits != y.scalar_bits || x.temporary != y.temporary)
            return false;
    }
    return true;
}

FUSOR_DEF std::string
reduction_label(std::string_view name, bool flat, const shape_t& axes, bool keepdims) {
    std::string s = std::string(name) + "(";
    s += flat ? std::string("all axes") : "axes=" + to_string(axes);
    if (keepdims)
        s += ", keepdims";
    return s + ")";
}

FUSOR_DEF std::string temporary_name(int temporary) {
    return "tmp" + std::to_string(temporary);
}

FUSOR_DEF operand_plan destination_operand(const destination_layout& d, strides_t iter_strides) {
    operand_plan o;
    o.kind = operand_plan::role::destination;
    o.dtype = d.dtype;
    o.shape = d.shape;
    o.iter_strides = std::move(iter_strides);
    o.address = d.address;
    o.base = d.address;
    o.itemsize = d.itemsize;
    return o;
}

FUSOR_DEF void begin_reduction_plan(loop_plan& p,
                                    const shape_t& iter_shape,
                                    const shape_t& axes,
                                    index_t count,
                                    const destination_layout& d) {
    p.iter_shape = iter_shape;
    p.reduced_axes = axes;
    p.reduce_count = count;
    shape_t kept; // result shape without keepdims' 1s, in order
    boost::container::small_vector<bool, 8> reduced(p.iter_shape.size(), false);
    for (index_t a : axes)
        reduced[static_cast<std::size_t>(a)] = true;
    for (std::size_t k = 0; k < p.iter_shape.size(); ++k)
        if (!reduced[k])
            kept.push_back(p.iter_shape[k]);
    const strides_t kept_strides = row_major_strides(kept);
    strides_t acc(p.iter_shape.size(), 0);
    for (std::size_t k = 0, j = 0; k < p.iter_shape.size(); ++k)
        if (!reduced[k])
            acc[k] = kept_strides[j++];
    p.operands.push_back(destination_operand(d, acc));
}

FUSOR_DEF std::shared_ptr<loop_plan> finalize_plan(const destination_layout& d) {
    auto f = std::make_shared<loop_plan>();
    f->iter_shape = d.shape;
    f->operands.push_back(destination_operand(d, d.strides));
    // The evaluator passes the destination; the finalize loop does not record where it is.
    f->operands[0].address = f->operands[0].base = nullptr;
    operand_plan acc_operand;
    acc_operand.kind = operand_plan::role::temporary;
    acc_operand.shape = d.shape;
    acc_operand.iter_strides = row_major_strides(d.shape);
    f->operands.push_back(std::move(acc_operand));
    order_and_coalesce(*f);
    return f;
}

FUSOR_DEF std::pair<const char*, const char*> byte_range(const operand_plan& o,
                                                         const shape_t& iter) {
    const element_span s = span_of(iter, o.iter_strides);
    const char* base = static_cast<const char*>(o.address) + o.offset * o.itemsize;
    return {base + s.first * o.itemsize, base + (s.last + 1) * o.itemsize};
}

FUSOR_DEF boost::container::small_vector<int, 4> destination_overlaps(const loop_plan& p) {
    boost::container::small_vector<int, 4> found;
    const operand_plan& d = p.operands[0];
    if (!d.address || shape_size(p.iter_shape) == 0)
        return found;
    const auto [dlo, dhi] = byte_range(d, p.iter_shape);
    for (std::size_t k = 1; k < p.operands.size(); ++k) {
        const operand_plan& o = p.operands[k];
        // An operand planned over no memory (explain's filled segments, the row blocks' buffer:
        // plan/row_blocks.hpp) overlaps nothing.
        if ((o.kind != operand_plan::role::tensor && o.kind != operand_plan::role::view)
            || !o.address)
            continue;
        const auto [lo, hi] = byte_range(o, p.iter_shape);
        if (hi <= dlo || dhi <= lo)
            continue;
        const bool same_walk =
            o.itemsize == d.itemsize && o.iter_strides == d.iter_strides
            && static_cast<const char*>(o.address) + o.offset * o.itemsize
                   == static_cast<const char*>(d.address) + d.offset * d.itemsize;
        if (!same_walk)
            found.push_back(static_cast<int>(k));
    }
    return found;
}

FUSOR_DEF void plan_alias_copy(loop_plan& p,
                               const destination_layout& d,
                               const index_transform& t,
                               evaluation_state& state,
                               plan_notes* notes,
                               const walk_start& start,
                               boost::container::small_vector<int, 4> overlapping,
                               const destination_layout& temp,
                               tree_line right_line,
                               subplanner right,
                               boundary_plan::reason why) {
    if (state.names)
        state.names->tensors.resize(start.tensors);
    state.materialised.resize(start.materialised);
    state.temporaries = start.temporaries;
    loop_plan copy;
    copy.expression = p.expression;
    copy.iter_shape = d.shape;
    copy.alias_copy = true;
    copy.operands.push_back(destination_operand(d, d.strides));
    if (notes)
        *notes = plan_notes{{}, {"out"}, {}};
    tree_walker w{copy, state, notes};
    plan_notes sub_notes;
    auto sub = std::make_shared<loop_plan>();
    right.run(right.expression, *sub, temp, state, notes ? &sub_notes : nullptr);
    // A root computed over its own shape is named by its operation or reduction (`tmp1 = exp`),
    // as a hoisted child is.
    std::string label = "right side";
    if (why == boundary_plan::reason::broadcast_result && !sub_notes.tree.empty())
        label = sub_notes.tree[0].what;
    const std::size_t b = w.add_boundary(std::move(sub), temp, why, std::move(sub_notes));
    copy.boundaries[b].overlapping = std::move(overlapping);
    w.push_temporary_operand(
        temp.dtype, temp.itemsize, std::move(right_line), temp.shape, t, b, label);
    p = std::move(copy);
}

FUSOR_DEF walk_start begin_elementwise(loop_plan& p,
                                       const char* expression,
                                       const destination_layout& d,
                                       evaluation_state& state,
                                       plan_notes* notes) {
    // Walking only appends: remember how far, to plan again from here if needed.
    const walk_start start{state.names ? state.names->tensors.size() : 0,
                           state.materialised.size(),
                           state.temporaries};
    p.expression = expression;
    p.iter_shape = d.shape;
    p.operands.push_back(destination_operand(d, d.strides));
    if (notes)
        notes->names.push_back("out");
    return start;
}

FUSOR_DEF void finish_elementwise(loop_plan& p,
                                  const destination_layout& d,
                                  const index_transform& t,
                                  evaluation_state& state,
                                  plan_notes* notes,
                                  const walk_start& start,
                                  const shape_t& shape,
                                  const elementwise_facts& facts,
                                  subplanner right) {
    if (auto overlapping = destination_overlaps(p); !overlapping.empty()) {
        plan_alias_copy(p,
                        d,
                        t,
                        state,
                        notes,
                        start,
                        std::move(overlapping),
                        contiguous_destination(facts.dtype, facts.itemsize, shape),
                        notes ? tree_walker::make_line(facts.dtype, facts.itemsize, shape, 0)
                              : tree_line{},
                        right);
    }
    order_and_coalesce(p);
    choose_copy_kernel(p);
    choose_elementwise_kernel(p, facts, right.expression);
    choose_math_in_registers(
        p, facts, p.operands[0].dtype, p.extents.empty() ? 0 : p.stride(0, p.extents.size() - 1));
}

FUSOR_DEF void fill_flat_plan_of(loop_plan& p,
                                 const destination_ref& d,
                                 index_t operands,
                                 const elementwise_facts& facts,
                                 const void* e) {
    p.iter_shape = d.shape;
    p.extents.push_back(shape_size(d.shape));
    p.operand_count = operands;
    p.kernel = inner_kernel::contiguous;
    p.vector_bytes = compiled_simd_target().bytes;
    split_for_threads(p);
    choose_elementwise_kernel(p, facts, e);
    choose_math_in_registers(p, facts, d.dtype, 1);
    p.flat = true;
    p.stream_block = choose_stream_stores(p, shape_size(d.shape), d.itemsize, d.fresh);
}

FUSOR_DEF void plan_broadcast_root(loop_plan& p,
                                   const char* expression,
                                   std::string_view dtype,
                                   index_t itemsize,
                                   const shape_t& shape,
                                   subplanner root,
                                   const destination_layout& d,
                                   evaluation_state& state,
                                   plan_notes* notes) {
    const walk_start start = begin_elementwise(p, expression, d, state, notes);
    const auto t = broadcast_into(index_transform::identity(d.shape.size()), d.shape, shape);
    plan_alias_copy(p,
                    d,
                    t,
                    state,
                    notes,
                    start,
                    {},
                    contiguous_destination(dtype, itemsize, shape),
                    notes ? tree_walker::make_line(dtype, itemsize, shape, 0) : tree_line{},
                    root,
                    boundary_plan::reason::broadcast_result);
    order_and_coalesce(p);
    choose_copy_kernel(p); // a copy: no element-wise kernel choice beyond the held temporary
}

} // namespace planning
} // namespace fusor

namespace fusor::planning {

FUSOR_HEADER_INLINE std::string tree_walker::leaf_name(const void* address) {
    std::string name = state.names->tensor_name(address);
    int reads = 0;
    for (const void* a : seen_here)
        reads += a == address;
    seen_here.push_back(address);
    if (reads > 0 && reads < 3)
        name += std::string(static_cast<std::size_t>(reads), '\'');
    else if (reads >= 3) // three primes are hard to count: t0'4, t0'5, ...
        name += "'" + std::to_string(reads + 1);
    return name;
}

FUSOR_HEADER_INLINE tree_line tree_walker::make_line(std::string_view dtype,
                                                     index_t itemsize,
                                                     const shape_t& shape,
                                                     int depth) {
    tree_line line;
    line.depth = depth;
    line.dtype = std::string(dtype);
    line.itemsize = itemsize;
    line.shape = shape;
    return line;
}

FUSOR_HEADER_INLINE void tree_walker::push_operand(operand_plan o, std::string name) {
    plan.operands.push_back(std::move(o));
    if (notes)
        notes->names.push_back(std::move(name));
}

FUSOR_HEADER_INLINE void
tree_walker::push_operation_line(tree_line line, std::string_view name, std::string_view symbol) {
    line.what = std::string(name);
    line.symbol = std::string(symbol);
    notes->tree.push_back(std::move(line));
}

} // namespace fusor::planning

namespace fusor::planning {

FUSOR_HEADER_INLINE std::string naming::tensor_name(const void* address) {
    for (std::size_t i = 0; i < tensors.size(); ++i)
        if (tensors[i] == address)
            return "t" + std::to_string(i);
    tensors.push_back(address);
    return "t" + std::to_string(tensors.size() - 1);
}

} // namespace fusor::planning

namespace fusor::planning {

FUSOR_HEADER_INLINE index_transform index_transform::identity(std::size_t n) {
    index_transform t{n, n, {}, shape_t(n, 0)};
    t.m.assign(n * n, 0);
    for (std::size_t i = 0; i < n; ++i)
        t.m[i * n + i] = 1;
    return t;
}

FUSOR_HEADER_INLINE strides_t index_transform::strides_of(const strides_t& st) const {
    strides_t out(cols, 0);
    for (std::size_t k = 0; k < rows; ++k)
        for (std::size_t j = 0; j < cols; ++j)
            out[j] += st[k] * m[k * cols + j];
    return out;
}

FUSOR_HEADER_INLINE index_t index_transform::offset_of(const strides_t& st) const {
    index_t o = 0;
    for (std::size_t k = 0; k < rows; ++k)
        o += st[k] * off[k];
    return o;
}

} // namespace fusor::planning
