// fusor/plan/split.ipp: the definitions of split.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/split.hpp>

namespace fusor::planning {

FUSOR_DEF void split_for_threads(loop_plan& p) {
    using why = loop_plan::serial_reason;
    p.threads = 1;
    p.chunk = 0;
    p.split_inner = false;
    p.serial = why::small;
    if (p.empty || p.extents.empty())
        return;
    index_t total = 1, per_outer = 1;
    for (std::size_t l = 0; l < p.extents.size(); ++l) {
        total *= p.extents[l];
        if (l > 0)
            per_outer *= p.extents[l];
    }
    if (total < parallel_threshold)
        return;
    if (!threads_enabled) {
        p.serial = why::no_openmp;
        return;
    }
    if (num_threads() <= 1) {
        p.serial = why::one_thread;
        return;
    }
    if (reads_blas_product(p)) {
        p.serial = why::blas_product;
        return;
    }
    if (!p.reducer.empty() && p.operands[0].strides[0] == 0) {
        // The outermost loop reduces: cut the innermost loop instead when it is kept, in
        // chunks at least `split_inner_width` wide (each chunk's inner loops stay long enough
        // to vectorise, and its accumulators share no cache line with another chunk's).
        const std::size_t last = p.extents.size() - 1;
        if (last == 0 || p.operands[0].strides[last] == 0 || p.kernel == inner_kernel::tiled) {
            p.serial = why::reduce_order;
            return;
        }
        const index_t inner = p.extents[last], per_column = total / inner;
        const index_t chunk =
            std::max(split_inner_width, (parallel_grain + per_column - 1) / per_column);
        const index_t chunks = (inner + chunk - 1) / chunk;
        const int threads = static_cast<int>(std::min<index_t>(num_threads(), chunks));
        if (threads <= 1) {
            p.serial = why::one_chunk;
            return;
        }
        p.threads = threads;
        p.chunk = chunk;
        p.split_inner = true;
        p.serial = why::none;
        return;
    }
    index_t chunk = std::max<index_t>(1, (parallel_grain + per_outer - 1) / per_outer);
    // A tiled loop nest of two levels splits its tile rows: whole tiles per chunk.
    if (p.kernel == inner_kernel::tiled && p.extents.size() == 2)
        chunk = (chunk + tile_rows - 1) / tile_rows * tile_rows;
    const index_t chunks = (p.extents[0] + chunk - 1) / chunk;
    const int threads = static_cast<int>(std::min<index_t>(num_threads(), chunks));
    if (threads <= 1) {
        p.serial = why::one_chunk;
        return;
    }
    p.threads = threads;
    p.chunk = chunk;
    p.serial = why::none;
}

FUSOR_DEF bool reads_blas_product(const loop_plan& p) {
    for (const boundary_plan& b : p.boundaries)
        if (b.plan && b.plan->reduction == reduce_kernel::gemm)
            return true;
    return false;
}

FUSOR_DEF void keep_beside_blas(loop_plan& p) {
    if (p.threads <= 1)
        return;
    p.threads = 1;
    p.chunk = 0;
    p.split_inner = false;
    p.serial = loop_plan::serial_reason::blas_product;
}

} // namespace fusor::planning
