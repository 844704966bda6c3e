// fusor/exec/threads.hpp: the thread adapter, the one OpenMP parallel region (the thread-count
// policy is core/parallel.hpp, which the planner reads). A loop nest is
// split into chunks of its outermost loop whose size depends only on the loop's extents (never
// on the thread count), so every element and every accumulator sees the same operations in
// the same order however many threads run them: results are identical for 1 and N threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <type_traits>

#include <fusor/core/error.hpp>
#include <fusor/core/parallel.hpp>
#include <fusor/core/shape.hpp>

namespace fusor {

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

namespace detail {
// What the threads of parallel_chunks share, and the one function each of them runs: a static
// member function rather than a lambda converted to a function pointer, which an unoptimised
// build compiles as three functions (the lambda, its static invoker and the conversion) per
// expression type and loop kind.
template <class MakeLocal, class Body>
struct chunk_team {
    MakeLocal& make_local;
    Body& body;
    index_t extent, chunk, chunks;
    std::atomic<bool> failed{false};
    std::exception_ptr failure; // written once, by the thread that set `failed`

    static void member(void* erased, int thread, int team) noexcept {
        auto& c = *static_cast<chunk_team*>(erased);
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
    }
};
} // namespace detail

/// Runs `body(local, begin, end)` for each chunk [c * chunk, min((c + 1) * chunk, extent)) of
/// an outermost loop of `extent` iterations, on up to `threads` threads. `make_local()` is
/// called once per thread for its private state (evaluator copies with their own buffers).
/// Each thread takes one contiguous run of chunks (as OpenMP's schedule(static)); an exception
/// thrown in any chunk is rethrown on the calling thread after every thread has stopped (the
/// other chunks may have run). Without OpenMP the team's code is not compiled at all.
template <class MakeLocal, class Body>
void parallel_chunks(
    int threads, index_t extent, index_t chunk, MakeLocal&& make_local, Body&& body) {
    const index_t chunks = (extent + chunk - 1) / chunk;
    if constexpr (threads_enabled) {
        if (threads > 1 && chunks > 1) {
            using team = detail::chunk_team<std::remove_reference_t<MakeLocal>,
                                            std::remove_reference_t<Body>>;
            team context{make_local, body, extent, chunk, chunks, {false}, {}};
            fusor::detail::run_team(threads, &context, &team::member);
            if (context.failure) // the region's end is a barrier: every write above is visible
                std::rethrow_exception(context.failure);
            return;
        }
    }
    auto local = make_local();
    for (index_t c = 0; c < chunks; ++c)
        body(local, c * chunk, std::min(extent, (c + 1) * chunk));
}

} // namespace exec
} // namespace fusor
