// fusor/plan/split.hpp: the parallel split of a loop nest. The outermost loop is cut into
// chunks of at least `parallel_grain` elements; the chunk size depends only on the extents, so
// the split (and every result) is the same for any thread count.
#pragma once

#include <algorithm>

#include <fusor/config.hpp>
#include <fusor/core/parallel.hpp>
#include <fusor/plan/loop_plan.hpp>

namespace fusor::planning {

/// Narrowest chunk of a split innermost loop, in elements.
inline constexpr index_t split_inner_width = 1024;

/// Sets `p.threads`, `p.chunk` and `p.split_inner`. A loop stays on the calling thread when it
/// has fewer than `parallel_threshold` elements or makes a single chunk. A reduction whose
/// outermost loop reduces is cut along its innermost loop when that one is kept (chunks of the
/// outermost would update the same accumulators), else not at all: the split never changes the
/// order in which an accumulator sees its terms.
FUSOR_DECL void split_for_threads(loop_plan& p);

} // namespace fusor::planning

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/split.ipp>
#endif
