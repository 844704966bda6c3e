// fusor/random/bounded.ipp: the definitions of bounded.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/random/bounded.hpp>

namespace fusor::random::detail {

FUSOR_DEF std::uint64_t covering_mask(std::uint64_t max) {
    for (unsigned shift = 1; shift < 64; shift *= 2)
        max |= max >> shift;
    return max;
}

FUSOR_DEF std::uint64_t random_interval(pcg64& g, std::uint64_t max) {
    if (max == 0)
        return 0;
    const std::uint64_t mask = covering_mask(max);
    std::uint64_t value;
    if (max <= 0xFFFFFFFFu) {
        while ((value = (g.next_uint32() & mask)) > max) {
        }
    } else {
        while ((value = (g.next_uint64() & mask)) > max) {
        }
    }
    return value;
}

FUSOR_DEF void bounded_fill_bool(pcg64& g, bool off, bool rng, bool* out, std::int64_t n) {
    std::uint32_t bits = 0;
    int left = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        if (!rng) {
            out[i] = off;
            continue;
        }
        if (left == 0) {
            bits = g.next_uint32();
            left = 31;
        } else {
            bits >>= 1;
            --left;
        }
        out[i] = (bits & 1u) != 0;
    }
}

FUSOR_DEF std::uint64_t bounded_uint64(pcg64& g, std::uint64_t max) {
    small_draw_buffer unused;
    if (max == 0)
        return 0;
    if (max == 0xFFFFFFFFu) // a whole 32-bit draw: Lemire's max + 1 would wrap to 0
        return g.next_uint32();
    if (max < 0xFFFFFFFFu)
        return bounded_lemire<std::uint32_t>(g, static_cast<std::uint32_t>(max), unused);
    if (max == std::numeric_limits<std::uint64_t>::max())
        return g.next_uint64();
    return bounded_lemire<std::uint64_t>(g, max, unused);
}

} // namespace fusor::random::detail
