// fusor/exec/threads.hpp: the thread adapter, the one OpenMP parallel region (the thread-count
// policy is core/parallel.hpp, which the planner reads). A loop nest is
// split into chunks of its outermost loop whose size depends only on the loop's extents (never
// on the thread count), so every element and every accumulator sees the same operations in
// the same order however many threads run them: results are identical for 1 and N threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <new>
#include <type_traits>

#include <fusor/config.hpp>
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
FUSOR_DECL void run_team(int threads, void* context, team_member_fn member) noexcept;
} // namespace detail

namespace exec {

namespace detail {
// A chunked loop with its per-type parts behind plain function pointers: making a thread's
// state, destroying it and running one chunk with it. The team, the chunk arithmetic, the
// state's storage and the hand-over of an exception are compiled once for the program, not
// once per expression type and loop kind (as a template they were about a quarter of the code
// of a test with many expressions: g++ -O3, tests/exec/test_assign.cpp). Plain values only, so
// that making one costs a caller a few stores.
struct chunk_work {
    void* context;                                   // what `run` is given
    void* local_source;                              // what `make_local` is given
    std::size_t local_size, local_align;             // of a thread's state
    void (*make_local)(void* source, void* storage); // constructs a thread's state in `storage`
    void (*destroy_local)(void* local) noexcept;
    void (*run)(void* context, void* local, index_t begin, index_t end);
    index_t extent, chunk;
};

// A chunked loop under way: its work, and the first exception a chunk threw.
struct chunk_loop {
    const chunk_work& work;
    index_t chunks;
    std::atomic<bool> failed{false};
    std::exception_ptr failure; // written once, by the thread that set `failed`
};

// What each thread of the team runs: its contiguous run of chunks of a chunk_loop, with its own
// state. It must not throw (an exception cannot leave an OpenMP region): the first one is kept
// for the calling thread.
FUSOR_DECL void run_chunk_share(void* loop, int thread, int team) noexcept;

// Runs `w` on up to `threads` threads (on the calling thread alone when there is one chunk or
// one thread) and rethrows the first exception any chunk threw, after every thread stopped.
FUSOR_DECL void run_chunk_loop(int threads, const chunk_work& w);

// The per-type parts of a chunk loop: static member functions rather than lambdas converted to
// function pointers, which an unoptimised build compiles as three functions each.
template <class Local, class MakeLocal, class Body>
struct chunk_parts {
    struct context {
        MakeLocal& make_local;
        Body& body;
    };
    static void make(void* c, void* storage) {
        ::new (storage) Local(static_cast<context*>(c)->make_local());
    }
    static void destroy(void* local) noexcept { static_cast<Local*>(local)->~Local(); }
    static void run(void* c, void* local, index_t begin, index_t end) {
        static_cast<context*>(c)->body(*static_cast<Local*>(local), begin, end);
    }
};

/// parallel_chunks' split, always through the team's shared code (one thread and one chunk
/// included): what a kernel's loop nest calls when its plan has threads.
template <class MakeLocal, class Body>
void run_chunks(int threads, index_t extent, index_t chunk, MakeLocal& make_local, Body& body) {
    using Local = std::remove_cvref_t<std::invoke_result_t<MakeLocal&>>;
    using parts = chunk_parts<Local, MakeLocal, Body>;
    typename parts::context context{make_local, body};
    const chunk_work w{&context,
                       &context,
                       sizeof(Local),
                       alignof(Local),
                       &parts::make,
                       &parts::destroy,
                       &parts::run,
                       extent,
                       chunk};
    run_chunk_loop(threads, w);
}
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
            detail::run_chunks(threads, extent, chunk, make_local, body);
            return;
        }
    }
    auto local = make_local();
    for (index_t c = 0; c < chunks; ++c)
        body(local, c * chunk, std::min(extent, (c + 1) * chunk));
}

} // namespace exec
} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/exec/threads.ipp>
#endif
