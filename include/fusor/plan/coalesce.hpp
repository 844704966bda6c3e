// fusor/plan/coalesce.hpp: loop order and dimension coalescing.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/plan/split.hpp>

namespace fusor::planning {

/// True when an element-wise loop nest's two inner levels run as one loop (the collapsed
/// kernel): rows short enough (`collapses`); the destination and every moving
/// operand at unit stride continuing from row to row (stride `cols` one level out); at least
/// one row operand (at unit stride but 0 one level out: read again for every row) or column
/// operand (0 in the row but moving one level out: one element per row, a row's statistic),
/// either of which keeps coalescing from merging the levels; the others scalars or still in
/// both levels; not a flat-rows plan computed a register at a time (`rows_in_registers`).
/// With rows that short, a loop per row costs more than the row (its setup, the bind of every
/// operand, a vectorised math function's call).
FUSOR_DECL bool collapsible_rows(const loop_plan& p);

/// Orders the iteration axes into loop levels and merges levels that walk memory as one.
///
/// Order: for an element-wise loop, by the destination's stride magnitude, largest outermost
/// (stable), so that writing a transposed view still walks its memory forwards; a reduction
/// keeps the logical order, so that arg-reductions meet candidates in index order.
/// Extent-1 axes are dropped (their strides never matter). Then the parallel split (split.hpp).
/// Coalescing: loop levels i (outer) and i+1 merge iff for every operand k
///     stride[k][i] == stride[k][i+1] * extent[i+1]
/// (stride-0 pairs merge too): a contiguous (4096, 4096) + (4096, 4096) becomes one loop of
/// 16M; (N, M) + (M,) stays two loops.
FUSOR_DECL void order_and_coalesce(loop_plan& p);

} // namespace fusor::planning

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/coalesce.ipp>
#endif
