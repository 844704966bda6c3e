// fusor/exec/threads.ipp: the definitions of threads.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/exec/threads.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF void run_team(int threads, void* context, team_member_fn member) noexcept {
#if FUSOR_THREADS_OPENMP
#pragma omp parallel num_threads(threads)
    member(context, omp_get_thread_num(), omp_get_num_threads());
#else
    (void)threads;
    member(context, 0, 1);
#endif
}

} // namespace detail
} // namespace fusor

namespace fusor {
namespace exec {
namespace detail {

FUSOR_DEF void run_chunk_share(void* loop, int thread, int team) noexcept {
    auto& c = *static_cast<chunk_loop*>(loop);
    const chunk_work& w = c.work;
    const index_t first = c.chunks * thread / team, last = c.chunks * (thread + 1) / team;
    if (first == last)
        return;
    void* storage = nullptr;
    bool made = false;
    try {
        storage = ::operator new (w.local_size, std::align_val_t{w.local_align});
        w.make_local(w.local_source, storage);
        made = true;
        for (index_t k = first; k < last; ++k)
            w.run(w.context, storage, k * w.chunk, std::min(w.extent, (k + 1) * w.chunk));
    } catch (...) {
        if (!c.failed.exchange(true))
            c.failure = std::current_exception();
    }
    if (made)
        w.destroy_local(storage);
    if (storage)
        ::operator delete (storage, std::align_val_t{w.local_align});
}

FUSOR_DEF void run_chunk_loop(int threads, const chunk_work& w) {
    chunk_loop c{w, (w.extent + w.chunk - 1) / w.chunk, {false}, {}};
    if (threads > 1 && c.chunks > 1)
        fusor::detail::run_team(threads, &c, &run_chunk_share);
    else
        run_chunk_share(&c, 0, 1);
    if (c.failure) // the region's end is a barrier: every write above is visible
        std::rethrow_exception(c.failure);
}

} // namespace detail
} // namespace exec
} // namespace fusor
