// fusor/exec/minmax_kernel.hpp: max, min, argmax and argmin along a contiguous inner loop in
// SIMD registers. The compiler does not vectorise a NaN-propagating compare-and-select kept
// in an array of lanes (perf showed scalar vcomiss on W7), so the lanes are a GCC/Clang vector
// type (`vector_size`) of one register of the target (`lane_vector_bytes`: 16 bytes on SSE2, 32
// on AVX, 64 on AVX-512; wider vectors went through the stack). Each lane keeps its best value (and
// its index); NaNs are tracked beside. The lanes merge with the reducer's own `merge`, which breaks
// ties by index, so the result is the sequential one. argmax and argmin take only strictly better
// values in their lanes, and when some lane saw a NaN the row is searched again for its first one
// (NumPy's result): the NaN test stays off the lanes' chain of compare and select, whose compares
// share one port on AVX-512. Their four sets of lanes merge in registers before the scalar merge
// (docs/performance.md, "argmax and argmin against NumPy, every layout").
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/plan/kernel_choice.hpp> // keeps_greater
#include <fusor/plan/loop_plan.hpp>     // lane_vector_bytes

namespace fusor::exec::detail {

template <class T>
struct minmax_lanes {
    static constexpr int width = static_cast<int>(lane_vector_bytes / sizeof(T));
    using index_type = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    typedef T vec __attribute__((vector_size(lane_vector_bytes)));
    typedef index_type ivec __attribute__((vector_size(lane_vector_bytes)));
    vec best, nan_seen;
    ivec best_at;

    minmax_lanes(T start, index_type first) {
        for (int j = 0; j < width; ++j) {
            best[j] = start;
            nan_seen[j] = 0;
            best_at[j] = static_cast<index_type>(first + j);
        }
    }
    // Takes register v, whose elements have indices `at`. `NoteNans`: NaNs are noted beside
    // (max, min, argmax, argmin); nanmax and nanmin's lanes simply never take one.
    template <bool Greater, bool NeedsIndex, bool NoteNans = true>
    FUSOR_INLINE void take(const vec& v, const ivec& at) {
        if constexpr (NeedsIndex) {
            // A lane takes v when strictly better; NaNs are noted beside (the row is searched
            // for its first NaN afterwards).
            auto better = Greater ? (v > best) : (v < best);
            best = better ? v : best;
            best_at = better ? at : best_at;
            nan_seen = (v != v) ? v : nan_seen;
        } else {
            best = (Greater ? (v > best) : (v < best)) ? v : best;
            if constexpr (NoteNans)
                nan_seen = (v != v) ? v : nan_seen;
        }
    }
    // Lane by lane, the better of this set's and `o`'s (value, index), ties to the lower index:
    // four sets become one in registers before the scalar merge. Exact when no lane holds a
    // NaN, as argmax's and argmin's lanes never do.
    template <bool Greater>
    FUSOR_INLINE void absorb(const minmax_lanes& o) {
        auto better = Greater ? (o.best > best) : (o.best < best);
        better |= (o.best == best) & (o.best_at < best_at);
        best = better ? o.best : best;
        best_at = better ? o.best_at : best_at;
    }
    // max and min: lane by lane, the better of this set's and `o`'s values (neither holds a
    // NaN: those are in nan_seen).
    template <bool Greater>
    FUSOR_INLINE void absorb_values(const minmax_lanes& o) {
        best = (Greater ? (o.best > best) : (o.best < best)) ? o.best : best;
    }
    // max and min: the best of the lanes, halving: a tree of log2(width) steps, where merging
    // lane after lane was a chain of `width` dependent compare-and-selects per run (at rows of
    // 64 the chain cost more than the loads).
    template <bool Greater>
    FUSOR_INLINE T best_value() const {
        T t[width];
        for (int j = 0; j < width; ++j)
            t[j] = best[j];
        for (int half = width / 2; half > 0; half /= 2)
            for (int j = 0; j < half; ++j)
                t[j] = (Greater ? (t[j + half] > t[j]) : (t[j + half] < t[j])) ? t[j + half] : t[j];
        return t[0];
    }
    // argmax and argmin: the best lane and its index (ties to the lower index), halving as
    // best_value does; what merging the lanes one after another with the reducer's merge gives,
    // without its chain of dependent compares.
    template <bool Greater>
    FUSOR_INLINE void best_and_index(T& value, index_type& index) const {
        T t[width];
        index_type at[width];
        for (int j = 0; j < width; ++j) {
            t[j] = best[j];
            at[j] = best_at[j];
        }
        for (int half = width / 2; half > 0; half /= 2)
            for (int j = 0; j < half; ++j) {
                const T u = t[j + half];
                const bool better =
                    (Greater ? (u > t[j]) : (u < t[j])) | ((u == t[j]) & (at[j + half] < at[j]));
                t[j] = better ? u : t[j];
                at[j] = better ? at[j + half] : at[j];
            }
        value = t[0];
        index = at[0];
    }
    // Lane by lane, `o`'s NaN where it saw one: the sets' NaNs in one register.
    FUSOR_INLINE void absorb_nans(const minmax_lanes& o) {
        nan_seen = (o.nan_seen != o.nan_seen) ? o.nan_seen : nan_seen;
    }
    // Whether some lane saw a NaN, tested as one register (no branch per lane).
    FUSOR_INLINE bool saw_nan() const {
        const auto nan = nan_seen != nan_seen;
        bool any = false;
        for (int j = 0; j < width; ++j)
            any |= nan[j] != 0;
        return any;
    }
    // A NaN any lane saw (max and min propagate it), else acc unchanged.
    void nan_into(T& acc) const {
        for (int j = 0; j < width; ++j)
            if (nan_seen[j] != nan_seen[j])
                acc = nan_seen[j];
    }
};

FUSOR_LANES_FILLED_BEGIN
template <class Impl, class T, class Ev>
typename Impl::acc_type vector_minmax_reduce(const Ev& ev, index_t n, index_t i0, index_t si) {
    using lanes = minmax_lanes<T>;
    using I = typename lanes::index_type;
    using vec = typename lanes::vec;
    using ivec = typename lanes::ivec;
    constexpr int W = lanes::width;
    // nanmax and nanmin (`nan_ignoring_order`): lanes that start at -inf (+inf) and never take a
    // NaN; the accumulator they merge into starts at NaN, "nothing seen yet".
    constexpr bool ignores_nan = requires {
        Impl::nan_ignoring_order;
    };
    constexpr bool greater = planning::keeps_greater<Impl>;
    constexpr bool needs_index = Impl::needs_index, note_nans = !ignores_nan;
    T start;
    if constexpr (ignores_nan)
        start = greater ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    else if constexpr (needs_index)
        start = Impl::identity().best;
    else
        start = Impl::identity();
    // (By reference, not returned: a vector's return convention depends on the target flags.)
    auto load = [&ev](vec& v, index_t i) {
        for (int j = 0; j < W; ++j)
            v[j] = ev.template get<true>(i + j);
    };
    lanes s0(start, 0), s1(start, W), s2(start, 2 * W), s3(start, 3 * W);
    ivec at; // the indices of the register at i
    for (int j = 0; j < W; ++j)
        at[j] = static_cast<I>(j);
    index_t i = 0;
    // The index lanes are 32-bit for floats: longer loops take the sequential tail instead.
    const bool indexable = !(sizeof(I) == 4 && n > index_t{INT32_MAX} - 4 * W);
    const index_t sets_end = indexable ? n - n % (4 * W) : 0;
    vec v0, v1, v2, v3;
    for (; i < sets_end; i += 4 * W) {
        load(v0, i);
        load(v1, i + W);
        load(v2, i + 2 * W);
        load(v3, i + 3 * W);
        s0.template take<greater, needs_index, note_nans>(v0, at);
        s1.template take<greater, needs_index, note_nans>(v1, at + W);
        s2.template take<greater, needs_index, note_nans>(v2, at + 2 * W);
        s3.template take<greater, needs_index, note_nans>(v3, at + 3 * W);
        at += 4 * W;
    }
    // Whole registers left over go to set 0.
    const index_t vector_end = indexable ? n - n % W : 0;
    for (; i < vector_end; i += W) {
        load(v0, i);
        s0.template take<greater, needs_index, note_nans>(v0, at);
        at += W;
    }
    typename Impl::acc_type acc = Impl::identity();
    // Sets that never took a register still hold their starting indices: left out.
    if constexpr (needs_index) {
        if (sets_end > 0) {
            s0.template absorb<greater>(s1);
            s2.template absorb<greater>(s3);
            s0.template absorb<greater>(s2);
        }
        T value;
        I at0;
        s0.template best_and_index<greater>(value, at0);
        acc = Impl::merge(acc, {value, i0 + static_cast<index_t>(at0) * si});
    } else {
        if (sets_end > 0) {
            s0.template absorb_values<greater>(s1);
            s2.template absorb_values<greater>(s3);
            s0.template absorb_values<greater>(s2);
        }
        if (vector_end > 0) {
            const T best = s0.template best_value<greater>();
            if constexpr (ignores_nan) {
                // Still the start: a number equal to it, or only NaNs?
                bool seen = best != start;
                for (index_t j = 0; !seen && j < i; ++j)
                    seen = ev.template get<true>(j) == start;
                if (seen)
                    acc = Impl::merge(acc, best);
            } else {
                acc = Impl::merge(acc, best);
            }
        }
    }
    if constexpr (note_nans) {
        if (sets_end > 0) {
            s0.absorb_nans(s1);
            s2.absorb_nans(s3);
            s0.absorb_nans(s2);
        }
    }
    if constexpr (!note_nans) {
        // nanmax and nanmin: no NaN to propagate
    } else if constexpr (!needs_index) {
        if (s0.saw_nan())
            s0.nan_into(acc);
    } else {
        if (s0.saw_nan()) { // some lane saw a NaN: the first NaN of [0, i) is the result so far
            for (index_t j = 0; j < i; ++j) {
                const T x = ev.template get<true>(j);
                if (x != x) {
                    acc = {x, i0 + j * si};
                    break;
                }
            }
        }
    }
    for (; i < n; ++i)
        acc = Impl::step(acc, ev.template get<true>(i), i0 + i * si);
    return acc;
}
FUSOR_LANES_FILLED_END

} // namespace fusor::exec::detail
