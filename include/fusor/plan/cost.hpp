// fusor/plan/cost.hpp: what a plan moves through memory and computes, fused and eager, and the
// time that is estimated to take. Pure arithmetic on a loop_plan and its notes; explain prints
// it as its "cost" part. The work of a loop is every operation and reduction step of its body,
// once per element of the loop's iteration space (so an operation repeated over a broadcast
// axis counts each time it runs), at the cost per element measured for it on this project's
// bench machine (plan/compute_costs.hpp, written by bench/bench_costs); bytes are charged at the
// measured streaming rate. The estimate is a model for large operands, not a prediction.
#pragma once

#include <string_view>

#include <fusor/config.hpp>
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
FUSOR_DECL index_t elements_touched(const operand_plan& o, const shape_t& iter);

/// The measured cost in ns per element of the operation a tree line names (`exp`; a
/// reduction's `max(axes=(1,))` by its name before the parenthesis): the float64 column for
/// 8-byte elements, float32's otherwise; an operation not measured (a comparison, a cast)
/// costs what `add` does.
FUSOR_DECL double op_ns(const tree_line& l);

// The work of a plan's loops: each operation and reduction line of a loop's own tree (its
// boundaries' lines are theirs) once per element of its iteration space.
FUSOR_DECL void fused_compute(const loop_plan& p, const plan_notes& n, traffic& t);

// Its loops' bytes read and written; an operand read again the same way in one loop (`a * a`:
// t0 and t0', the same data, offset and strides) is one stream, counted once (read_before).
FUSOR_DECL void fused_traffic(const loop_plan& p, traffic& t);

// Whether operand `k` of `p` reads what an earlier operand (not the destination) reads: the same
// tensor's data at the same offset and strides. Temporaries are distinct arrays.
FUSOR_DECL bool read_before(const loop_plan& p, std::size_t k);

FUSOR_DECL index_t line_bytes(const tree_line& l);

// Eager evaluation of one plan's tree: each operation (or reduction) line is one loop that
// reads its children whole and writes its own array; a root that is not an operation (a
// tensor, a view of one) is one copy loop. `as_temporary`: the root's array is a temporary
// too (the plan is a boundary of a larger one).
FUSOR_DECL void
eager_traffic(const loop_plan& p, const plan_notes& n, bool as_temporary, traffic& t);

} // namespace planning

/// The memory traffic and work of `p` (with its boundaries) fused, and of the same expression
/// evaluated eagerly, one temporary per operation (see `cost_estimate`; the work and the eager
/// side read the tree the planner recorded in `notes`). Pure: reads the plan and its notes only.
FUSOR_DECL cost_estimate estimate_cost(const loop_plan& p, const plan_notes& n);

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/cost.ipp>
#endif
