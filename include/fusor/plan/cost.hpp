// fusor/plan/cost.hpp: what a plan moves through memory and computes, fused and eager, and the
// time that is estimated to take. Pure arithmetic on a loop_plan and its notes; explain prints
// it as its "cost" part. The work of a loop is every operation and reduction step of its body,
// once per element of the loop's iteration space (so an operation repeated over a broadcast
// axis counts each time it runs), at the cost per element measured for it on this project's
// bench machine (plan/compute_costs.hpp, written by bench/bench_costs); bytes are charged at the
// measured streaming rate. The estimate is a model for large operands, not a prediction.
#pragma once

#include <string_view>

#include <fusor/plan/compute_costs.hpp>
#include <fusor/plan/loop_plan.hpp>

namespace fusor {

/// Memory traffic of one way of evaluating an expression, in bytes (every element counted
/// once per loop that touches it: the model `bench/` uses for GB/s).
struct traffic {
    index_t loops = 0;           ///< loops run, each one pass over its iteration space
    index_t temporaries = 0;     ///< intermediate arrays allocated (not the result)
    index_t temporary_bytes = 0; ///< their total size
    index_t bytes_read = 0;
    index_t bytes_written = 0; ///< the result and every temporary
    /// Estimated nanoseconds of arithmetic: each operation and reduction step of each loop, once
    /// per element of the loop's iteration space, at its measured cost per element.
    double compute_ns = 0;
    index_t bytes_moved() const { return bytes_read + bytes_written; }
    /// The estimated time in nanoseconds: `compute_ns` plus the bytes moved at the measured
    /// streaming rate (`measured_stream_bytes_per_ns`).
    double estimated_ns() const {
        return compute_ns + static_cast<double>(bytes_moved()) / measured_stream_bytes_per_ns;
    }
};

/// Fused against eager traffic of one plan.
struct cost_estimate {
    traffic fused; ///< the plan as fusor runs it
    traffic eager; ///< NumPy-style: every operation below the root writes a temporary that its
                   ///< parent reads; views stay free (as NumPy's), a reused reduction is
                   ///< recomputed (`eval_eager` has no common-subexpression reuse)
};

namespace planning {

// Distinct elements an operand touches: the extents of the iteration axes it moves along.
inline index_t elements_touched(const operand_plan& o, const shape_t& iter) {
    index_t n = 1;
    for (std::size_t j = 0; j < iter.size(); ++j)
        if (o.iter_strides[j] != 0)
            n *= iter[j];
    return n;
}

/// The measured cost in ns per element of the operation a tree line names (`exp`; a
/// reduction's `max(axes=(1,))` by its name before the parenthesis): the float64 column for
/// 8-byte elements, float32's otherwise; an operation not measured (a comparison, a cast)
/// costs what `add` does.
inline double op_ns(const tree_line& l) {
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

// The work of a plan's loops: each operation and reduction line of a loop's own tree (its
// boundaries' lines are theirs) once per element of its iteration space.
inline void fused_compute(const loop_plan& p, const plan_notes& n, traffic& t) {
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

inline void fused_traffic(const loop_plan& p, traffic& t) {
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
        else if (o.kind == operand_plan::role::tensor || o.kind == operand_plan::role::view
                 || o.kind == operand_plan::role::temporary)
            t.bytes_read += bytes;
    }
}

inline index_t line_bytes(const tree_line& l) {
    return shape_size(l.shape) * l.itemsize;
}

// Eager evaluation of one plan's tree: each operation (or reduction) line is one loop that
// reads its children whole and writes its own array; a root that is not an operation (a
// tensor, a view of one) is one copy loop. `as_temporary`: the root's array is a temporary
// too (the plan is a boundary of a larger one).
inline void eager_traffic(const loop_plan& p, const plan_notes& n, bool as_temporary, traffic& t) {
    for (std::size_t k = 0; k < p.boundaries.size(); ++k)
        eager_traffic(*p.boundaries[k].plan, n.boundaries[k], true, t);
    const auto& tree = n.tree;
    if (tree.empty())
        return;
    const bool root_computes = tree[0].kind == node_kind::operation
                               || tree[0].kind == node_kind::reduction
                               || tree[0].kind == node_kind::temporary;
    for (std::size_t i = 0; i < tree.size(); ++i) {
        const tree_line& l = tree[i];
        const bool copy_root = i == 0 && !root_computes;
        if (l.kind != node_kind::operation && l.kind != node_kind::reduction
            && !(i == 0 && (l.kind == node_kind::temporary || copy_root)))
            continue;
        t.loops += 1;
        t.bytes_written += line_bytes(l);
        if ((i != 0 || as_temporary) && !copy_root) {
            t.temporaries += 1;
            t.temporary_bytes += line_bytes(l);
        }
        if (l.kind == node_kind::temporary || copy_root) { // a copy: reads an array as large
            t.bytes_read += l.kind == node_kind::scalar ? 0 : line_bytes(l);
            continue;
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

/// The memory traffic and work of `p` (with its boundaries) fused, and of the same expression
/// evaluated eagerly, one temporary per operation (see `cost_estimate`; the work and the eager
/// side read the tree the planner recorded in `notes`). Pure: reads the plan and its notes only.
inline cost_estimate estimate_cost(const loop_plan& p, const plan_notes& n) {
    cost_estimate c;
    planning::fused_traffic(p, c.fused);
    planning::fused_compute(p, n, c.fused);
    planning::eager_traffic(p, n, false, c.eager);
    return c;
}

} // namespace fusor
