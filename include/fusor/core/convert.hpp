// fusor/core/convert.hpp: converting one element type to another as NumPy's `astype` does,
// without C++'s undefined behaviour (a float outside an integer's range).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include <fusor/config.hpp>

namespace fusor {

/// `convert<To>(v)`: the value `v` as element type `To`, as NumPy's `astype(To)`:
///  - to `bool`: `v != 0` (NaN is true);
///  - integer to integer: modular (two's complement wrap-around), as NumPy;
///  - float to integer: truncation toward zero. Values inside `int64`'s range (and, for a
///    `uint64` target, inside `[0, 2^64)`) are truncated and then wrapped to `To`, which is what
///    NumPy does on x86-64 for every value the target can hold and for most it cannot
///    (`-1.0` → `uint8` 255). NaN, infinities and values beyond `int64` (NumPy warns "invalid
///    value encountered in cast" and gives a platform-specific value) give
///    `To(INT64_MIN)`: defined, never undefined behaviour;
///  - anything to floating: the nearest value (IEEE rounding).
template <class To, class From>
FUSOR_INLINE constexpr To convert(From v) {
    if constexpr (std::is_same_v<To, From>) {
        return v;
    } else if constexpr (std::is_same_v<To, bool>) {
        return v != From(0);
    } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
        // 2^63 as a From exactly; [-2^63, 2^63) is int64's range.
        constexpr From two63 = From(9223372036854775808.0);
        if (v >= -two63 && v < two63) // false for NaN
            return static_cast<To>(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
        if constexpr (std::is_same_v<To, std::uint64_t>)
            if (v >= two63 && v < 2 * two63)
                return static_cast<To>(v);
        return static_cast<To>(static_cast<std::uint64_t>(INT64_MIN));
    } else {
        return static_cast<To>(v); // integer → integer is modular in C++20; → float rounds
    }
}

} // namespace fusor
