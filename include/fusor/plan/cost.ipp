// fusor/plan/cost.ipp: the definitions of cost.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/cost.hpp>

namespace fusor {
namespace planning {

FUSOR_DEF index_t elements_touched(const operand_plan& o, const shape_t& iter) {
    index_t n = 1;
    for (std::size_t j = 0; j < iter.size(); ++j)
        if (o.iter_strides[j] != 0)
            n *= iter[j];
    return n;
}

FUSOR_DEF double op_ns(const tree_line& l) {
    std::string_view name = l.what;
    name = name.substr(0, name.find('('));
    const bool wide = l.itemsize >= 8;
    double add = 0;
    for (const op_cost& c : measured_op_costs) {
        if (c.name == name)
            return wide ? c.ns_float64 : c.ns_float32;
        if (c.name == "add")
            add = wide ? c.ns_float64 : c.ns_float32;
    }
    return add;
}

FUSOR_DEF void fused_compute(const loop_plan& p, const plan_notes& n, traffic& t) {
    for (std::size_t k = 0; k < p.boundaries.size() && k < n.boundaries.size(); ++k)
        if (!p.boundaries[k].reused)
            fused_compute(*p.boundaries[k].plan, n.boundaries[k], t);
    if (p.empty)
        return;
    const double elements = static_cast<double>(shape_size(p.iter_shape));
    for (const tree_line& l : n.tree)
        if (l.kind == node_kind::operation || l.kind == node_kind::reduction)
            t.compute_ns += elements * op_ns(l);
}

FUSOR_DEF void fused_traffic(const loop_plan& p, traffic& t) {
    for (const boundary_plan& b : p.boundaries)
        if (!b.reused) {
            fused_traffic(*b.plan, t);
            t.temporaries += 1;
            t.temporary_bytes += b.bytes;
        }
    t.loops += 1;
    if (p.empty)
        return;
    for (std::size_t k = 0; k < p.operands.size(); ++k) {
        const operand_plan& o = p.operands[k];
        const index_t bytes = elements_touched(o, p.iter_shape) * o.itemsize;
        if (k == 0)
            t.bytes_written += bytes;
        else if ((o.kind == operand_plan::role::tensor || o.kind == operand_plan::role::view
                  || o.kind == operand_plan::role::temporary)
                 && !read_before(p, k))
            t.bytes_read += bytes;
    }
}

FUSOR_DEF bool read_before(const loop_plan& p, std::size_t k) {
    const operand_plan& o = p.operands[k];
    if (o.address == nullptr || o.kind == operand_plan::role::temporary)
        return false;
    for (std::size_t j = 1; j < k; ++j) {
        const operand_plan& e = p.operands[j];
        if (e.address == o.address && e.offset == o.offset && e.itemsize == o.itemsize
            && e.iter_strides == o.iter_strides)
            return true;
    }
    return false;
}

FUSOR_DEF index_t line_bytes(const tree_line& l) {
    return shape_size(l.shape) * l.itemsize;
}

FUSOR_DEF void
eager_traffic(const loop_plan& p, const plan_notes& n, bool as_temporary, traffic& t) {
    for (std::size_t k = 0; k < p.boundaries.size(); ++k)
        eager_traffic(*p.boundaries[k].plan, n.boundaries[k], true, t);
    const auto& tree = n.tree;
    if (tree.empty())
        return;
    const bool root_computes = tree[0].kind == node_kind::operation
                               || tree[0].kind == node_kind::reduction
                               || tree[0].kind == node_kind::temporary;
    // The destination's bytes, which NumPy's `out[...] = ...` writes: more than the root's when
    // the root's result broadcasts into it or widens into it (the root computed into an array of
    // its own, then copied: one loop more).
    const index_t root_bytes = line_bytes(tree[0]);
    index_t dest_bytes = root_bytes;
    if (!as_temporary && !p.empty && !p.operands.empty())
        dest_bytes = elements_touched(p.operands[0], p.iter_shape) * p.operands[0].itemsize;
    const bool broadcast_root = dest_bytes > root_bytes && tree[0].kind != node_kind::scalar;
    for (std::size_t i = 0; i < tree.size(); ++i) {
        const tree_line& l = tree[i];
        const bool copy_root = i == 0 && !root_computes;
        if (l.kind != node_kind::operation && l.kind != node_kind::reduction
            && !(i == 0 && (l.kind == node_kind::temporary || copy_root)))
            continue;
        t.loops += 1;
        const bool copy = l.kind == node_kind::temporary || copy_root;
        t.bytes_written += i == 0 && copy ? dest_bytes : line_bytes(l);
        if ((i != 0 || as_temporary || (broadcast_root && !copy)) && !copy_root) {
            t.temporaries += 1;
            t.temporary_bytes += line_bytes(l);
        }
        if (copy) { // a copy: reads an array as large as the line
            t.bytes_read += l.kind == node_kind::scalar ? 0 : line_bytes(l);
            continue;
        }
        if (i == 0 && broadcast_root) { // then copied into the destination, broadcast
            t.loops += 1;
            t.bytes_read += root_bytes;
            t.bytes_written += dest_bytes;
        }
        // Its work: an operation once per element of its own shape, a reduction once per
        // element of its operand (the line below it).
        if (l.kind == node_kind::operation)
            t.compute_ns += static_cast<double>(shape_size(l.shape)) * op_ns(l);
        else if (i + 1 < tree.size())
            t.compute_ns += static_cast<double>(shape_size(tree[i + 1].shape)) * op_ns(l);
        // Direct children; a view line stands for the line below it (views are free).
        for (std::size_t j = i + 1; j < tree.size() && tree[j].depth > l.depth; ++j) {
            if (tree[j].depth != l.depth + 1)
                continue;
            std::size_t c = j;
            while (tree[c].kind == node_kind::view && c + 1 < tree.size())
                ++c;
            if (tree[c].kind != node_kind::scalar)
                t.bytes_read += line_bytes(tree[c]);
        }
    }
}

} // namespace planning
} // namespace fusor

namespace fusor {

FUSOR_DEF cost_estimate estimate_cost(const loop_plan& p, const plan_notes& n) {
    cost_estimate c;
    planning::fused_traffic(p, c.fused);
    planning::fused_compute(p, n, c.fused);
    planning::eager_traffic(p, n, false, c.eager);
    return c;
}

} // namespace fusor
