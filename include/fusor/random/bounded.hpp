// fusor/random/bounded.hpp: NumPy's bounded integers: Lemire's multiply-and-reject method per
// integer width, the 8- and 16-bit draws that share one 32-bit draw, the bool draws that share
// its bits, and the masked rejection (`random_interval`) that shuffles use. Each follows NumPy's
// distributions.c step for step, so the same bits in give the same integers out.
#pragma once

#include <cstdint>
#include <limits>

#include <fusor/config.hpp>
#include <fusor/random/pcg64.hpp>

namespace fusor::random::detail {

// The smallest all-ones mask covering `max`.
FUSOR_DECL std::uint64_t covering_mask(std::uint64_t max);

// A uniform integer in [0, max] by masked rejection, 32-bit draws when max fits (NumPy's
// random_interval: the draws shuffle and permutation use).
FUSOR_DECL std::uint64_t random_interval(pcg64& g, std::uint64_t max);

// 8- and 16-bit draws cut from one 32-bit draw, lowest bits first; the buffer lives for one
// fill (NumPy's buffered_uint8/16 with bcnt and buf).
struct small_draw_buffer {
    std::uint32_t bits = 0;
    int left = 0;

    template <class U>
    U next(pcg64& g) {
        constexpr int per_draw = 32 / (8 * static_cast<int>(sizeof(U)));
        if (left == 0) {
            bits = g.next_uint32();
            left = per_draw - 1;
        } else {
            bits >>= 8 * sizeof(U);
            --left;
        }
        return static_cast<U>(bits);
    }
};

// Lemire's method for a range [0, rng] with rng < the type's maximum, for U of 8, 16, 32 or 64
// bits: scale a draw by rng + 1, reject the few products whose low half falls under the bias
// threshold.
template <class U>
U bounded_lemire(pcg64& g, U rng, small_draw_buffer& buffer) {
    using wide =
        std::conditional_t<sizeof(U) == 8,
                           uint128_t,
                           std::conditional_t<sizeof(U) == 4, std::uint64_t, std::uint32_t>>;
    constexpr unsigned bits = 8 * sizeof(U);
    const U rng_excl = static_cast<U>(rng + 1);
    auto draw = [&]() -> U {
        if constexpr (sizeof(U) == 8)
            return g.next_uint64();
        else if constexpr (sizeof(U) == 4)
            return g.next_uint32();
        else
            return buffer.next<U>(g);
    };
    wide m = static_cast<wide>(draw()) * rng_excl;
    U leftover = static_cast<U>(m);
    if (leftover < rng_excl) {
        const U threshold =
            static_cast<U>(static_cast<U>(std::numeric_limits<U>::max() - rng) % rng_excl);
        while (leftover < threshold) {
            m = static_cast<wide>(draw()) * rng_excl;
            leftover = static_cast<U>(m);
        }
    }
    return static_cast<U>(m >> bits);
}

// Fills `out[0, n)` with off + [0, rng] as NumPy's random_bounded_uint{64,32,16,8}_fill: U is
// the unsigned type of the output's width (the sum wraps, so signed outputs come out right).
template <class U>
void bounded_fill(pcg64& g, U off, U rng, U* out, std::int64_t n) {
    small_draw_buffer buffer;
    if (rng == 0) {
        for (std::int64_t i = 0; i < n; ++i)
            out[i] = off;
    } else if constexpr (sizeof(U) == 8) {
        if (rng == 0xFFFFFFFFu) { // a whole 32-bit draw: Lemire's rng + 1 would wrap to 0
            for (std::int64_t i = 0; i < n; ++i)
                out[i] = off + g.next_uint32();
        } else if (rng < 0xFFFFFFFFu) {
            const auto r32 = static_cast<std::uint32_t>(rng);
            for (std::int64_t i = 0; i < n; ++i)
                out[i] = off + bounded_lemire<std::uint32_t>(g, r32, buffer);
        } else if (rng == std::numeric_limits<U>::max()) {
            for (std::int64_t i = 0; i < n; ++i)
                out[i] = off + g.next_uint64();
        } else {
            for (std::int64_t i = 0; i < n; ++i)
                out[i] = off + bounded_lemire<U>(g, rng, buffer);
        }
    } else {
        for (std::int64_t i = 0; i < n; ++i) {
            U r;
            if (rng == std::numeric_limits<U>::max()) {
                if constexpr (sizeof(U) == 4)
                    r = g.next_uint32();
                else
                    r = buffer.next<U>(g);
            } else {
                r = bounded_lemire<U>(g, rng, buffer);
            }
            out[i] = static_cast<U>(off + r);
        }
    }
}

// Bools: off when the range is empty, else one bit of a 32-bit draw per value, lowest first
// (NumPy's buffered_bounded_bool).
FUSOR_DECL void bounded_fill_bool(pcg64& g, bool off, bool rng, bool* out, std::int64_t n);

// NumPy's random_bounded_uint64 for one value in [0, max] (choice's Floyd sampling and the
// integer shuffles): a 32-bit Lemire draw when max fits.
FUSOR_DECL std::uint64_t bounded_uint64(pcg64& g, std::uint64_t max);

} // namespace fusor::random::detail

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/random/bounded.ipp>
#endif
