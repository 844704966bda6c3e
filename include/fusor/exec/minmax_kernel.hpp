// fusor/exec/minmax_kernel.hpp: max, min, argmax and argmin along a contiguous inner loop in
// SIMD registers. The compiler does not vectorise a NaN-propagating compare-and-select kept
// in an array of lanes (perf showed scalar vcomiss on W7), so the lanes are a GCC/Clang vector
// type (`vector_size`, lowered to whatever registers the target has: 4 SSE2, 2 AVX or 1
// AVX-512 register per 64 bytes). Each lane keeps its best value (and its index); NaNs are
// tracked beside. The lanes merge with the reducer's own `merge`, which breaks ties by index,
// so the result is the sequential one.
#pragma once

#include <cstdint>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>

namespace fusor::exec::detail {

/// True when `Impl` (a reducer's impl) is max, min, argmax or argmin over a 4- or 8-byte
/// arithmetic element type: the types this kernel handles.
template <class Impl, class T>
concept vector_minmax = requires {
    Impl::order;
}
&&std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);

template <class Impl, class T, class Ev>
typename Impl::acc_type vector_minmax_reduce(const Ev& ev, index_t n, index_t i0, index_t si) {
    constexpr int W = 64 / sizeof(T);
    using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    typedef T vec __attribute__((vector_size(64)));
    typedef I ivec __attribute__((vector_size(64)));
    constexpr bool greater = Impl::order > 0;
    T start;
    if constexpr (Impl::needs_index)
        start = Impl::identity().best;
    else
        start = Impl::identity();

    vec best, nan_seen;
    ivec best_at, at;
    for (int j = 0; j < W; ++j) {
        best[j] = start;
        nan_seen[j] = 0;
        best_at[j] = j;
        at[j] = j;
    }
    index_t i = 0;
    // The index lanes are 32-bit for floats: longer loops take the sequential tail instead.
    const index_t vector_end = sizeof(I) == 4 && n > index_t{INT32_MAX} - W ? 0 : n - n % W;
    for (; i < vector_end; i += W) {
        vec v;
        for (int j = 0; j < W; ++j)
            v[j] = ev.template get<true>(i + j);
        if constexpr (Impl::needs_index) {
            // A lane takes v when strictly better, or when v is its first NaN.
            auto better = greater ? (v > best) : (v < best);
            better |= (v != v) & (best == best);
            best = better ? v : best;
            best_at = better ? at : best_at;
            at += W;
        } else {
            best = (greater ? (v > best) : (v < best)) ? v : best;
            nan_seen = (v != v) ? v : nan_seen;
        }
    }
    typename Impl::acc_type acc = Impl::identity();
    if constexpr (Impl::needs_index) {
        for (int j = 0; j < W; ++j)
            acc = Impl::merge(acc, {best[j], i0 + static_cast<index_t>(best_at[j]) * si});
    } else {
        for (int j = 0; j < W; ++j)
            acc = Impl::merge(acc, best[j]);
        for (int j = 0; j < W; ++j)
            if (nan_seen[j] != nan_seen[j])
                acc = nan_seen[j];
    }
    for (; i < n; ++i)
        acc = Impl::step(acc, ev.template get<true>(i), i0 + i * si);
    return acc;
}

} // namespace fusor::exec::detail
