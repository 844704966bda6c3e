// fusor/plan/make_plan.hpp: PLAN. Reading this file is reading the planning algorithm:
//  1. the iteration space is the destination's shape (for a reduction, its operand's shape);
//  2. walk the tree top-down carrying an affine map from the iteration space to the current
//     node's index space; broadcasting zeroes the rows of stretched axes, views compose their
//     own map (so views of expressions cost nothing); at each leaf the map turns the leaf's
//     strides into strides over the iteration space (0 on broadcast axes);
//  3. a reduction below the root becomes a materialisation boundary with its own plan, and a
//     contiguous temporary leaf here;
//  4. order and coalesce the loops (coalesce.hpp).
#pragma once

#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/hana/for_each.hpp>

#include <fusor/core/affine_map.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/plan/coalesce.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/reduce/reduction.hpp>

namespace fusor {

/// Where a loop writes: shape, strides (elements), data address and dtype name.
struct destination_layout {
    shape_t shape;
    strides_t strides;
    const void* address = nullptr;
    std::string dtype;
    std::string name = "out";
    index_t itemsize = 0;
};

/// The layout of a fresh contiguous result of `shape`.
template <class T>
destination_layout contiguous_destination(const shape_t& shape, const void* address = nullptr) {
    return {
        shape, row_major_strides(shape), address, std::string(dtype_name<T>()), "out", sizeof(T)};
}

namespace planning {

// node index = m * iteration index + off, with m a (node rank × iteration rank) matrix.
struct index_transform {
    std::size_t rows = 0, cols = 0;
    std::vector<index_t> m;
    shape_t off;

    static index_transform identity(std::size_t n) {
        index_transform t{n, n, std::vector<index_t>(n * n, 0), shape_t(n, 0)};
        for (std::size_t i = 0; i < n; ++i)
            t.m[i * n + i] = 1;
        return t;
    }
    // Leaf strides over the iteration space: Σ_k strides[k] * m[k][j]; base offset likewise.
    strides_t strides_of(const strides_t& st) const {
        strides_t out(cols, 0);
        for (std::size_t k = 0; k < rows; ++k)
            for (std::size_t j = 0; j < cols; ++j)
                out[j] += st[k] * m[k * cols + j];
        return out;
    }
    index_t offset_of(const strides_t& st) const {
        index_t o = 0;
        for (std::size_t k = 0; k < rows; ++k)
            o += st[k] * off[k];
        return o;
    }
};

// A child of shape `child` broadcast into a parent of shape `parent`: axes align on the right;
// a stretched axis (child extent 1, parent extent > 1) and an extra leading child axis read
// index 0 always, a zero row.
inline index_transform
broadcast_into(const index_transform& t, const shape_t& parent, const shape_t& child) {
    const std::size_t rp = parent.size(), rc = child.size();
    index_transform c{rc, t.cols, std::vector<index_t>(rc * t.cols, 0), shape_t(rc, 0)};
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

// Through a view: child index = M * view index + off_M, view index = T x + off_T.
inline index_transform through_view(const affine_map& v, const index_transform& t) {
    const std::size_t rc = v.in_shape.size(), rv = v.out_shape.size();
    index_transform c{rc, t.cols, std::vector<index_t>(rc * t.cols, 0), shape_t(rc, 0)};
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

template <class T>
std::string scalar_text(T v) {
    if constexpr (std::is_same_v<T, bool>)
        return v ? "true" : "false";
    else {
        char buf[64];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        return std::string(buf, r.ptr);
    }
}

// What a loop computes, as text: its tree, reduction and every operand's identity (address,
// dtype, strides over the iteration space, offset, scalar value), but not the destination's
// name. Two reductions with the same signature read the same elements through the same
// operations, so they have the same result: the second one reuses the first's temporary.
inline std::string plan_signature(const loop_plan& p) {
    std::string s = p.reducer + to_string(p.iter_shape) + to_string(p.reduced_axes);
    for (const tree_line& l : p.tree)
        s += '|' + std::to_string(l.depth) + l.what + l.dtype + to_string(l.shape);
    for (std::size_t k = 1; k < p.operands.size(); ++k) {
        const operand_plan& o = p.operands[k];
        s += '|' + std::to_string(static_cast<int>(o.kind)) + o.name + o.dtype
             + to_string(o.iter_strides) + std::to_string(o.offset) + '@'
             + std::to_string(reinterpret_cast<std::uintptr_t>(o.address));
    }
    return s;
}

// Names shared by a plan and its nested plans: the same tensor gets the same name, and the
// same reduction the same temporary.
struct naming {
    std::vector<const void*> tensors;
    std::vector<std::pair<std::string, std::string>> materialised; // signature, temporary
    int temporaries = 0;
    std::string tensor_name(const void* address) {
        for (std::size_t i = 0; i < tensors.size(); ++i)
            if (tensors[i] == address)
                return "t" + std::to_string(i);
        tensors.push_back(address);
        return "t" + std::to_string(tensors.size() - 1);
    }
};

template <class R, class C>
loop_plan plan_reduction(const reduction<R, C>& r, const destination_layout& d, naming& names);
template <class E>
loop_plan plan_elementwise(const E& e, const destination_layout& d, naming& names);

// The loop that computes `e` into a temporary `d`: a reduction's or an element-wise one.
template <class E>
loop_plan plan_subexpression(const E& e, const destination_layout& d, naming& names) {
    if constexpr (requires { e.axes; })
        return plan_reduction(e, d, names);
    else
        return plan_elementwise(e, d, names);
}

template <class R, class C>
std::string reduction_label(const reduction<R, C>& r) {
    std::string s = std::string(R::name) + "(";
    s += r.flat ? std::string("all axes") : "axes=" + to_string(r.axes);
    if (r.keepdims)
        s += ", keepdims";
    return s + ")";
}

// The top-down walk. Operands are appended in depth-first, left-to-right order; exec/ builds
// its evaluators in the same order (exec/evaluator.hpp).
struct tree_walker {
    loop_plan& plan;
    naming& names;
    std::vector<const void*> seen_here = {}; // leaves met in this loop, for t0, t0', t0'' ...

    // The same tensor read twice in one loop (e.g. through two views) gets primes, so every
    // operand of the loop has its own name.
    std::string leaf_name(const void* address) {
        std::string name = names.tensor_name(address);
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

    // A materialisation boundary: plans the loop computing `n` into a contiguous temporary `d`
    // (or finds the same loop planned earlier in this evaluation: then its result is reused)
    // and records it. Returns the temporary's name and boundary index.
    template <class N>
    std::pair<std::string, int>
    materialise(const N& n, const destination_layout& d, const std::string& why) {
        auto sub = std::make_shared<loop_plan>(plan_subexpression(n, d, names));
        const std::string signature = plan_signature(*sub);
        std::string tmp;
        bool reused = false;
        for (const auto& [sig, name] : names.materialised)
            if (sig == signature) {
                tmp = name;
                reused = true;
            }
        if (!reused) {
            tmp = "tmp" + std::to_string(names.temporaries++);
            names.materialised.emplace_back(signature, tmp);
        }
        sub->operands[0].name = tmp;
        const index_t bytes = shape_size(d.shape) * d.itemsize;
        plan.boundaries.push_back({tmp, why, d.dtype, d.shape, bytes, sub, reused});
        return {tmp, static_cast<int>(plan.boundaries.size() - 1)};
    }

    // The operand that reads a materialised temporary, contiguous in `shape`, through `t`.
    void push_temporary(tree_line line,
                        const shape_t& shape,
                        const index_transform& t,
                        const std::pair<std::string, int>& made,
                        std::string what) {
        operand_plan o;
        o.kind = operand_plan::role::temporary;
        o.name = made.first;
        o.dtype = line.dtype;
        o.shape = shape;
        const strides_t st = row_major_strides(shape);
        o.iter_strides = t.strides_of(st);
        o.offset = t.offset_of(st);
        o.base_offset = o.offset;
        o.itemsize = line.itemsize;
        line.kind = node_kind::temporary;
        line.what = std::move(what);
        line.operand = static_cast<int>(plan.operands.size());
        line.boundary = made.second;
        plan.operands.push_back(std::move(o));
        plan.tree.push_back(std::move(line));
    }

    template <class N>
    void visit(const N& n, const index_transform& t, int depth) {
        using operand = operand_plan;
        tree_line line;
        line.depth = depth;
        line.dtype = std::string(dtype_name<typename N::value_type>());
        line.itemsize = sizeof(typename N::value_type);
        line.shape = n.shape();
        if constexpr (requires { n.is_view; }) { // leaf
            line.kind = node_kind::tensor;
            operand o;
            o.kind = n.is_view ? operand::role::view : operand::role::tensor;
            // Views of one tensor share its name (t0, t0', ...) and count offsets from its start.
            const auto* base = n.base ? n.base : n.data;
            o.name = leaf_name(base);
            o.dtype = line.dtype;
            o.shape = n.shape();
            o.iter_strides = t.strides_of(n.strides);
            o.offset = t.offset_of(n.strides);
            o.address = n.data;
            o.base_offset = o.offset + static_cast<index_t>(n.data - base);
            o.itemsize = sizeof(typename N::value_type);
            line.what = o.name + " = "
                        + (!n.is_view ? "tensor"
                           : n.owner  ? "view (reshape copy)"
                                      : "view");
            line.operand = static_cast<int>(plan.operands.size());
            plan.operands.push_back(std::move(o));
            plan.tree.push_back(std::move(line));
        } else if constexpr (requires { n.value; }) { // scalar
            operand o;
            o.kind = operand::role::scalar;
            o.name = scalar_text(n.value);
            o.dtype = line.dtype;
            o.iter_strides = strides_t(t.cols, 0);
            line.kind = node_kind::scalar;
            line.what = "scalar " + o.name;
            line.operand = static_cast<int>(plan.operands.size());
            plan.operands.push_back(std::move(o));
            plan.tree.push_back(std::move(line));
        } else if constexpr (requires { n.split; }) { // reshape of an expression
            if (n.split) {                            // an index remap, like any view
                line.kind = node_kind::view;
                line.what = n.split->label;
                plan.tree.push_back(std::move(line));
                visit(n.child, through_view(*n.split, t), depth + 1);
                return;
            }
            using V = typename N::value_type;
            const std::string from = to_string(n.child.shape());
            auto made = materialise(n.child,
                                    contiguous_destination<V>(n.child.shape()),
                                    "reshape copy of " + from + " into " + to_string(n.shape()));
            // The temporary is contiguous in the child's shape, hence in the new shape too.
            push_temporary(std::move(line),
                           n.shape(),
                           t,
                           made,
                           made.first + " = reshape(shape=" + to_string(n.shape()) + ")");
        } else if constexpr (requires { n.map; }) { // remap (a view of an expression)
            line.kind = node_kind::view;
            line.what = n.map.label;
            plan.tree.push_back(std::move(line));
            visit(n.child, through_view(n.map, t), depth + 1);
        } else if constexpr (requires { n.axes; }) { // reduction below the root: a boundary
            using V = typename N::value_type;
            auto made = materialise(n, contiguous_destination<V>(n.shape()), "reduction result");
            push_temporary(
                std::move(line), n.shape(), t, made, made.first + " = " + reduction_label(n));
        } else { // element-wise
            line.what = std::string(N::op_type::name);
            if constexpr (requires { N::op_type::symbol; })
                line.symbol = std::string(N::op_type::symbol);
            plan.tree.push_back(std::move(line));
            boost::hana::for_each(n.children, [&](const auto& c) {
                visit(c, broadcast_into(t, n.shape(), c.shape()), depth + 1);
            });
        }
    }
};

inline operand_plan destination_operand(const destination_layout& d, strides_t iter_strides) {
    operand_plan o;
    o.kind = operand_plan::role::destination;
    o.name = d.name;
    o.dtype = d.dtype;
    o.shape = d.shape;
    o.iter_strides = std::move(iter_strides);
    o.address = d.address;
    o.itemsize = d.itemsize;
    return o;
}

// A reduction as the root of its loop: iterate over the operand's shape; the accumulator
// (operand 0, contiguous over the result) has stride 0 on every reduced axis; arg-reductions
// add an index operand whose strides count candidates (flat row-major, or along the axis).
template <class R, class C>
loop_plan plan_reduction(const reduction<R, C>& r, const destination_layout& d, naming& names) {
    loop_plan p;
    p.reducer = std::string(R::name);
    p.iter_shape = r.child.shape();
    p.reduced_axes = r.axes;
    p.reduce_count = r.count();
    shape_t kept; // result shape without keepdims' 1s, in order
    std::vector<bool> reduced(p.iter_shape.size(), false);
    for (index_t a : r.axes)
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
    tree_line root;
    root.kind = node_kind::reduction;
    root.what = reduction_label(r);
    root.itemsize = sizeof(typename reduction<R, C>::value_type);
    root.dtype = std::string(dtype_name<typename reduction<R, C>::value_type>());
    root.shape = r.shape();
    p.tree.push_back(std::move(root));
    tree_walker{p, names}.visit(r.child, index_transform::identity(p.iter_shape.size()), 1);
    if constexpr (reduction<R, C>::impl::needs_index) {
        operand_plan idx;
        idx.kind = operand_plan::role::index;
        idx.name = "idx";
        idx.dtype = "int64";
        idx.shape = p.iter_shape;
        idx.iter_strides = strides_t(p.iter_shape.size(), 0);
        if (r.flat)
            idx.iter_strides = row_major_strides(p.iter_shape);
        else if (!r.axes.empty())
            idx.iter_strides[static_cast<std::size_t>(r.axes[0])] = 1;
        p.operands.push_back(std::move(idx));
    }
    order_and_coalesce(p);
    return p;
}

// Byte range [lo, hi) an operand touches over the iteration space.
inline std::pair<const char*, const char*> byte_range(const operand_plan& o, const shape_t& iter) {
    const char* base = static_cast<const char*>(o.address) + o.offset * o.itemsize;
    index_t lo = 0, hi = 0;
    for (std::size_t j = 0; j < iter.size(); ++j) {
        const index_t span = (iter[j] - 1) * o.iter_strides[j];
        (span < 0 ? lo : hi) += span;
    }
    return {base + lo * o.itemsize, base + (hi + 1) * o.itemsize};
}

// NumPy's overlap rule: the result must be as if the right side were evaluated first. An
// operand that overlaps the destination forces a copy, unless it reads exactly the element
// being written (same address and strides: `c = c + 1` needs no copy, `c = transpose(c)` does).
// Returns the names of the operands that force the copy, empty when none does.
inline std::string destination_overlaps(const loop_plan& p) {
    std::string names;
    const operand_plan& d = p.operands[0];
    if (!d.address || shape_size(p.iter_shape) == 0)
        return names;
    const auto [dlo, dhi] = byte_range(d, p.iter_shape);
    for (std::size_t k = 1; k < p.operands.size(); ++k) {
        const operand_plan& o = p.operands[k];
        if (o.kind != operand_plan::role::tensor && o.kind != operand_plan::role::view)
            continue;
        const auto [lo, hi] = byte_range(o, p.iter_shape);
        if (hi <= dlo || dhi <= lo)
            continue;
        const bool same_walk =
            o.itemsize == d.itemsize && o.iter_strides == d.iter_strides
            && static_cast<const char*>(o.address) + o.offset * o.itemsize
                   == static_cast<const char*>(d.address) + d.offset * d.itemsize;
        if (!same_walk)
            names += (names.empty() ? "" : ", ") + o.name;
    }
    return names;
}

// An element-wise loop over `d.shape` with `e` broadcast into it. When the destination
// overlaps what `e` reads (NumPy's overlap rule), `e` becomes a boundary of its own, computed
// into a contiguous temporary, and this loop copies the temporary into the destination.
template <class E>
loop_plan plan_elementwise(const E& e, const destination_layout& d, naming& names) {
    // Walking only appends names: remember how far, to plan again from here if needed.
    const std::size_t tensors_before = names.tensors.size();
    const std::size_t materialised_before = names.materialised.size();
    const int temporaries_before = names.temporaries;
    loop_plan p;
    p.iter_shape = d.shape;
    p.operands.push_back(destination_operand(d, d.strides));
    const auto t = broadcast_into(index_transform::identity(d.shape.size()), d.shape, e.shape());
    tree_walker{p, names}.visit(e, t, 0);
    if (const std::string read = destination_overlaps(p); !read.empty()) {
        // Plan again from the same naming state: the same names, no false reuse.
        names.tensors.resize(tensors_before);
        names.materialised.resize(materialised_before);
        names.temporaries = temporaries_before;
        loop_plan copy;
        copy.iter_shape = d.shape;
        copy.alias_copy = true;
        copy.operands.push_back(destination_operand(d, d.strides));
        tree_walker w{copy, names};
        using V = typename E::value_type;
        const std::string why = "aliasing copy: " + d.name + " overlaps " + read;
        auto made = w.materialise(e, contiguous_destination<V>(e.shape()), why);
        tree_line line;
        line.dtype = std::string(dtype_name<V>());
        line.itemsize = sizeof(V);
        line.shape = e.shape();
        w.push_temporary(std::move(line), e.shape(), t, made, made.first + " = right side");
        p = std::move(copy);
    }
    order_and_coalesce(p);
    return p;
}

/// True when the loop's expression is element-wise operations over tensors, views and scalars
/// only: no reduction, temporary, reshape copy or view of an expression (what the evaluator
/// builds from leaves, scalars and element-wise nodes alone).
inline bool flat_tree(const loop_plan& p) {
    for (const tree_line& l : p.tree)
        if (l.kind != node_kind::operation && l.kind != node_kind::tensor
            && l.kind != node_kind::scalar)
            return false;
    return true;
}

/// True when `p` is a loop the same-shape fast path runs without a plan (exec/fast_path.hpp
/// decides the same from the expression and destination before planning; tests check that
/// both agree): element-wise, not empty, one contiguous level (at least 2 elements), one thread,
/// nothing materialised, no view of an expression, every tensor operand of the destination's shape
/// and row-major like it.
inline bool same_shape_fast_path(const loop_plan& p) {
    if (!p.reducer.empty() || p.empty || p.alias_copy || !p.boundaries.empty() || p.threads > 1
        || p.kernel != inner_kernel::contiguous || p.extents.size() != 1)
        return false;
    if (!flat_tree(p))
        return false;
    const strides_t row_major = row_major_strides(p.iter_shape);
    for (const operand_plan& o : p.operands)
        if (o.kind != operand_plan::role::scalar
            && (o.shape != p.iter_shape || o.iter_strides != row_major))
            return false;
    return true;
}

} // namespace planning

/// Plans the loop that evaluates `e` into the destination `d` (shape, strides, dtype): an
/// element-wise loop over `d.shape` with `e` broadcast into it, or, when `e` is a reduction, a
/// reduction loop over its operand's shape. Nested reductions become boundaries with plans of
/// their own. Pure: reads shapes and strides, touches no element.
template <class E>
loop_plan make_plan(const E& e, const destination_layout& d) {
    planning::naming names;
    loop_plan p = planning::plan_subexpression(e, d, names);
    p.fast_path = planning::same_shape_fast_path(p);
    return p;
}

} // namespace fusor
