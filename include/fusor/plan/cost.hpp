// fusor/plan/cost.hpp: what a plan moves through memory, fused and eager. Pure arithmetic on
// a loop_plan; explain prints it as its "cost" part.
#pragma once

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
    index_t bytes_moved() const { return bytes_read + bytes_written; }
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

/// The memory traffic of `p` (with its boundaries) fused, and of the same expression evaluated
/// eagerly, one temporary per operation (see `cost_estimate`; the eager side reads the tree the
/// planner recorded in `notes`). Pure: reads the plan and its notes only.
inline cost_estimate estimate_cost(const loop_plan& p, const plan_notes& n) {
    cost_estimate c;
    planning::fused_traffic(p, c.fused);
    planning::eager_traffic(p, n, false, c.eager);
    return c;
}

} // namespace fusor
