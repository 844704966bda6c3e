// fusor/exec/threads.hpp: the thread adapter, the only header naming OpenMP. A loop nest is
// split into chunks of its outermost loop whose size depends only on the loop's extents (never
// on the thread count), so every element and every accumulator sees the same operations in
// the same order however many threads run them: results are identical for 1 and N threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>

#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>

#if defined(FUSOR_HAS_OPENMP) && defined(_OPENMP)
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

/// True when fusor was built with its threading option (CMake `FUSOR_OPENMP`, on by default
/// when OpenMP is found): loops above `parallel_threshold` elements may then run on several
/// threads.
inline constexpr bool threads_enabled = FUSOR_THREADS_OPENMP != 0;

/// Caps the number of threads a loop may use at `n` (≥ 1; 1 runs everything on the calling
/// thread). The default is OpenMP's (OMP_NUM_THREADS, else one per core). Results do not
/// depend on it. Without the threading option every loop is single-threaded and this only
/// records the cap. Throws `value_error` for n < 1. (As torch.set_num_threads.)
inline void set_num_threads(int n) {
    if (n < 1)
        throw value_error("set_num_threads: the thread count must be at least 1, got "
                          + std::to_string(n));
    detail::thread_cap.store(n, std::memory_order_relaxed);
}

/// The most threads a loop may use now: the cap of `set_num_threads`, else OpenMP's default;
/// 1 without the threading option.
inline int num_threads() {
#if FUSOR_THREADS_OPENMP
    const int cap = detail::thread_cap.load(std::memory_order_relaxed);
    return cap > 0 ? cap : omp_get_max_threads();
#else
    return 1;
#endif
}

/// Loops over fewer elements than this run on the calling thread: below it, starting and
/// joining threads (several microseconds here) costs more than it saves: bench_elementwise's
/// T_threshold_* cases measure it (on 2 cores, 32K elements in cache ran at half speed split in
/// two; 64K ran 1.4x faster).
inline constexpr index_t parallel_threshold = index_t{1} << 16;

/// Elements per chunk of a split loop: the outermost loop is cut into pieces of at least this
/// many elements, so a loop just above the threshold makes two chunks.
inline constexpr index_t parallel_grain = index_t{1} << 15;

namespace detail {
// What one thread of a team runs: `thread` of `team` (0-based). It must not throw: an
// exception cannot leave an OpenMP region.
using team_member_fn = void (*)(void* context, int thread, int team) noexcept;

// The one OpenMP region in fusor, deliberately not a template: every expression's split loop
// goes through this function, so the compiler outlines one parallel region for the program
// instead of one per expression type (with -fopenmp that outlining was a third of the compile
// time of a TU with many expressions).
inline void run_team(int threads, void* context, team_member_fn member) noexcept {
#if FUSOR_THREADS_OPENMP
#pragma omp parallel num_threads(threads)
    member(context, omp_get_thread_num(), omp_get_num_threads());
#else
    (void)threads;
    member(context, 0, 1);
#endif
}
} // namespace detail

namespace exec {

/// Runs `body(local, begin, end)` for each chunk [c * chunk, min((c + 1) * chunk, extent)) of
/// an outermost loop of `extent` iterations, on up to `threads` threads. `make_local()` is
/// called once per thread for its private state (evaluator copies with their own buffers).
/// Each thread takes one contiguous run of chunks (as OpenMP's schedule(static)); an exception
/// thrown in any chunk is rethrown on the calling thread after every thread has stopped (the
/// other chunks may have run).
template <class MakeLocal, class Body>
void parallel_chunks(
    int threads, index_t extent, index_t chunk, MakeLocal&& make_local, Body&& body) {
    const index_t chunks = (extent + chunk - 1) / chunk;
    if (threads_enabled && threads > 1 && chunks > 1) {
        struct team_context {
            MakeLocal& make_local;
            Body& body;
            index_t extent, chunk, chunks;
            std::atomic<bool> failed{false};
            std::exception_ptr failure; // written once, by the thread that set `failed`
        } context{make_local, body, extent, chunk, chunks, {false}, {}};
        auto member = [](void* erased, int thread, int team) noexcept {
            auto& c = *static_cast<team_context*>(erased);
            const index_t first = c.chunks * thread / team, last = c.chunks * (thread + 1) / team;
            if (first == last)
                return;
            try {
                auto local = c.make_local();
                for (index_t k = first; k < last; ++k)
                    c.body(local, k * c.chunk, std::min(c.extent, (k + 1) * c.chunk));
            } catch (...) {
                if (!c.failed.exchange(true))
                    c.failure = std::current_exception();
            }
        };
        fusor::detail::run_team(threads, &context, member);
        if (context.failure) // the region's end is a barrier: every write above is visible
            std::rethrow_exception(context.failure);
        return;
    }
    auto local = make_local();
    for (index_t c = 0; c < chunks; ++c)
        body(local, c * chunk, std::min(extent, (c + 1) * chunk));
}

} // namespace exec
} // namespace fusor
