// fusor/plan/hoisting.hpp: which sub-expressions are hoisted out of the loop that reads them
// (loop-invariant code motion over the plan).
//
// An element-wise node whose operands are only reductions and scalars (std's `sqrt(ss / n)`,
// `max(x, 1) - 1`) has the shape of its reductions' results: it varies only along the axes
// the reading loop keeps of those results, so computing it in that loop repeats the same work
// once per broadcast element (100,000 times per column in a (100000, 8) z-score). The planner
// computes it once per result element instead, into a temporary of its own shape, in a loop
// of its own after the reductions it reads (a materialisation boundary with
// `boundary_plan::reason::hoisted`); the reading loop reads the temporary. The values are the
// same: the same operations on the same operands in the same element type.
//
// The decision depends only on node types, so the planner (plan/make_plan.hpp) and the
// evaluator builder (exec/evaluator.hpp) both ask `planning::hoisted<Parent, Child>` and agree
// by construction. The root of a loop is not hoisted; but any element-wise root whose result
// broadcasts into a destination with at least hoisted_root_min_repeats elements more
// (`view(out, all) = exp(sum(x, 1, keepdims))`, or `= exp(col)`), which only the destination's
// shape tells, is computed over its own shape into a boundary (`broadcast_result`) and the loop
// is a copy (planning::plan_root_loops, plan_broadcast_result), which exec runs as any aliasing
// copy.
#pragma once

#include <fusor/core/expression.hpp>
#include <fusor/expr/elementwise.hpp>

namespace fusor::planning {

// What node type `N` reads: 0 anything else (a tensor, a view of an expression, a reshape),
// 1 only scalars, 2 only reductions and scalars, at least one reduction.
template <class N>
inline constexpr int invariant_reads = tag_of<N> == node_tag::reduction ? 2
                                       : tag_of<N> == node_tag::scalar  ? 1
                                                                        : 0;
template <class Op, class... Cs>
inline constexpr int invariant_reads<elementwise<Op, Cs...>> =
    ((invariant_reads<Cs> > 0) && ...) ? ((invariant_reads<Cs> == 2) || ...) ? 2 : 1 : 0;

/// True when node type `N` is element-wise work over reductions and scalars only (at least one
/// reduction): loop-invariant wherever its result is broadcast.
template <class N>
inline constexpr bool hoistable = tag_of<N> == node_tag::elementwise&& invariant_reads<N> == 2;

/// True when child type `C` of element-wise node type `N` is hoisted: `C` is hoistable and `N`
/// is not (`N` reads something that varies faster, so `C` would be recomputed for every
/// element `N` broadcasts it over; inside a hoistable `N` the whole of `N` is hoisted already).
template <class N, class C>
inline constexpr bool hoisted = hoistable<C> && !hoistable<N>;

/// An element-wise root whose result broadcasts into a larger destination is computed over its
/// own shape first, then copied (broadcast_root_pays), when the destination has at least this
/// many elements more than the root (the repeated work): below, the extra loop and temporary
/// cost about what the repeats save. Measured on the AVX-512 EPYC,
/// float32, `view(out, all) = f(sum(x, 1, keepdims))` with f `* 2`, `exp`, `sqrt(+ 1)`, the root
/// hoisted at every size: into (8, 8) 230-370 ns against 150-190 in the loop; into (8, 64) and
/// (32, 32) the two within the runs' spread; into (64, 64) `exp` 0.9-1.3 us against 1.5, into
/// (256, 256) every f 4.4-4.6 us against 6.3-14.4 (docs/performance.md, "A root computed once
/// per result").
inline constexpr index_t hoisted_root_min_repeats = 1024;

/// Whether an element-wise root of shape `root` assigned to a destination of `dest_size`
/// elements is computed over its own shape and then copied: `view(out, all) =
/// exp(sum(x, 1, keepdims))` or `= exp(col)`, col (n, 1), out (n, m), m large (NumPy's
/// `out[...] = np.exp(col)` computes n values, the loop over `out` n * m). The planner
/// (plan_root_loops) and the evaluation's inline paths (exec/assign.hpp) ask it alike.
inline bool broadcast_root_pays(const shape_t& root, index_t dest_size) {
    return shape_size(root) <= dest_size - hoisted_root_min_repeats;
}

} // namespace fusor::planning
