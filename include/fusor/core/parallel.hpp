// fusor/core/parallel.hpp: the thread-count policy: whether fusor may use threads, how many,
// and above which loop size. The planner reads it to split loops (plan/split.hpp); the thread
// adapter that runs the split is exec/threads.hpp.
#pragma once

#include <atomic>
#include <string>

#include <fusor/config.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>

// Threads are on whenever the compiler runs with OpenMP (`-fopenmp` defines `_OPENMP`), with or
// without CMake; `-DFUSOR_HAS_OPENMP=0` turns them off in such a build.
#if defined(_OPENMP) && !(defined(FUSOR_HAS_OPENMP) && FUSOR_HAS_OPENMP == 0)
#include <omp.h>
#define FUSOR_THREADS_OPENMP 1
#else
#define FUSOR_THREADS_OPENMP 0
#endif

namespace fusor {

namespace detail {
// 0: not set, use OpenMP's default (OMP_NUM_THREADS, else one per core).
inline std::atomic<int> thread_cap{0};
} // namespace detail

/// True when this translation unit is compiled with OpenMP (`-fopenmp`; CMake's `FUSOR_OPENMP`
/// option, on by default when OpenMP is found, adds it): loops above `parallel_threshold`
/// elements may then run on several threads.
inline constexpr bool threads_enabled = FUSOR_THREADS_OPENMP != 0;

/// Caps the number of threads a loop may use at `n` (≥ 1; 1 runs everything on the calling
/// thread). The default is OpenMP's (OMP_NUM_THREADS, else one per core). Results do not
/// depend on it. Without the threading option every loop is single-threaded and this only
/// records the cap. Throws `value_error` for n < 1. (As torch.set_num_threads.)
FUSOR_DECL void set_num_threads(int n);

/// The most threads a loop may use now: the cap of `set_num_threads`, else OpenMP's default;
/// 1 without the threading option.
FUSOR_DECL int num_threads();

/// Loops over fewer elements than this run on the calling thread: below it, starting and
/// joining threads (several microseconds here) costs more than it saves: bench_elementwise's
/// T_threshold_* cases measure it (on 2 cores, 32K elements in cache ran at half speed split in
/// two; 64K ran 1.4x faster).
inline constexpr index_t parallel_threshold = index_t{1} << 16;

/// Elements per chunk of a split loop: the outermost loop is cut into pieces of at least this
/// many elements, so a loop just above the threshold makes two chunks.
inline constexpr index_t parallel_grain = index_t{1} << 15;

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/parallel.ipp>
#endif
