// fusor/plan/split.hpp: the parallel split of a loop nest. The outermost loop is cut into
// chunks of at least `parallel_grain` elements; the chunk size depends only on the extents, so
// the split (and every result) is the same for any thread count.
#pragma once

#include <algorithm>

#include <fusor/exec/threads.hpp>
#include <fusor/plan/loop_plan.hpp>

namespace fusor::planning {

/// Sets `p.threads` and `p.chunk` (outermost iterations per chunk). A loop stays on the calling
/// thread when it has fewer than `parallel_threshold` elements, makes a single chunk, or is a
/// reduction whose outermost loop reduces (its chunks would update the same accumulators: the
/// split never changes the order in which an accumulator sees its terms).
inline void split_for_threads(loop_plan& p) {
    p.threads = 1;
    p.chunk = 0;
    if (p.empty || p.extents.empty())
        return;
    if (!p.reducer.empty() && p.operands[0].strides[0] == 0)
        return;
    index_t total = 1, per_outer = 1;
    for (std::size_t l = 0; l < p.extents.size(); ++l) {
        total *= p.extents[l];
        if (l > 0)
            per_outer *= p.extents[l];
    }
    if (total < parallel_threshold)
        return;
    index_t chunk = std::max<index_t>(1, (parallel_grain + per_outer - 1) / per_outer);
    // A tiled loop nest of two levels splits its tile rows: whole tiles per chunk.
    if (p.kernel == inner_kernel::tiled && p.extents.size() == 2)
        chunk = (chunk + tile_rows - 1) / tile_rows * tile_rows;
    const index_t chunks = (p.extents[0] + chunk - 1) / chunk;
    const int threads = static_cast<int>(std::min<index_t>(num_threads(), chunks));
    if (threads <= 1)
        return;
    p.threads = threads;
    p.chunk = chunk;
}

} // namespace fusor::planning
