// fusor/core/parallel.ipp: the definitions of parallel.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/parallel.hpp>

namespace fusor {

FUSOR_DEF void set_num_threads(int n) {
    if (n < 1)
        throw value_error("set_num_threads: the thread count must be at least 1, got "
                          + std::to_string(n));
    detail::thread_cap.store(n, std::memory_order_relaxed);
}

FUSOR_DEF int num_threads() {
#if FUSOR_THREADS_OPENMP
    const int cap = detail::thread_cap.load(std::memory_order_relaxed);
    return cap > 0 ? cap : omp_get_max_threads();
#else
    return 1;
#endif
}

} // namespace fusor
