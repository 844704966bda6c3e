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
/// A loop that reads a BLAS product (one of `p.boundaries` computed by reduce_kernel::gemm:
/// the epilogue of `maximum(matmul(a, b) + bias, 0)`) stays on the calling thread too
/// (loop_plan::serial_reason::blas_product): the BLAS runs its own threads (OpenBLAS's pthreads),
/// and after a split loop libgomp's workers keep spinning (its default wait policy) while the
/// next product runs, on the cores the BLAS's threads need. W17 with two threads: 16.7-19.5 ms
/// split, 11.7 with `OMP_WAIT_POLICY=passive`, 10.9-11.0 on the calling thread; the loop itself
/// is a pass over the product, O(n^2) beside its O(n^3).
FUSOR_DECL void split_for_threads(loop_plan& p);

/// Whether loop `p` reads a temporary that the BLAS computes (a boundary whose plan's reduction
/// is reduce_kernel::gemm).
FUSOR_DECL bool reads_blas_product(const loop_plan& p);

/// Undoes the split of loop `p` (planned by split_for_threads) when it feeds a BLAS product (an
/// element-wise factor computed first, boundary_plan::reason::product_factor), for the reason
/// split_for_threads keeps a loop that reads one on the calling thread
/// (loop_plan::serial_reason::blas_product).
FUSOR_DECL void keep_beside_blas(loop_plan& p);

} // namespace fusor::planning

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/split.ipp>
#endif
