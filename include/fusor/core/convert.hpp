// fusor/core/convert.hpp: converting one element type to another as NumPy's `astype` does,
// without C++'s undefined behaviour (a float outside an integer's range).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include <fusor/config.hpp>

namespace fusor {

namespace detail {
// Float-to-integer conversions that NumPy makes through int32 on x86-64 (its C cast compiles to
// the 32-bit cvttsd2si): to the integer types of at most 32 bits that int32 holds.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class From, class To>
inline constexpr bool float_to_narrow_integer =
    std::is_floating_point_v<From> && std::is_integral_v<To>
    && (sizeof(To) < 4 || (sizeof(To) == 4 && std::is_signed_v<To>));
// clang-format on
} // namespace detail

/// `convert<To>(v)`: the value `v` as element type `To`, as NumPy's `astype(To)`:
///  - to `bool`: `v != 0` (NaN is true);
///  - integer to integer: modular (two's complement wrap-around), as NumPy;
///  - float to integer: truncation toward zero. Out of the target's range NumPy warns
///    ("invalid value encountered in cast") and its values are platform-specific; fusor gives
///    NumPy's x86-64 values where they follow one rule, and a defined value everywhere (never
///    C++'s undefined behaviour):
///    - `int8`, `int16`, `int32`, `uint8`, `uint16`: through `int32`, as x86-64's 32-bit
///      conversion: values inside `int32`'s range are truncated and wrapped to `To` (`-1.0` →
///      `uint8` 255, `70000.0` → `uint8` 112); everything else, NaN and infinities included, is
///      `INT32_MIN` wrapped to `To` (`int32` -2147483648, the narrower types 0): NumPy's values
///      on x86-64 (tests/ops: ops.integer_corners);
///    - `int64`, `uint32`: values inside `int64`'s range truncated and wrapped to `To`
///      (`-1.0` → `uint32` 4294967295), the rest `To(INT64_MIN)`;
///    - `uint64`: `[0, 2^64)` exactly, `[-2^63, 0)` wrapped, the rest 2^63;
///    (NumPy's out-of-range values for these three vary with its vector paths even on x86-64);
///  - anything to floating: the nearest value (IEEE rounding).
template <class To, class From>
FUSOR_INLINE constexpr To convert(From v) {
    if constexpr (std::is_same_v<To, From>) {
        return v;
    } else if constexpr (std::is_same_v<To, bool>) {
        return v != From(0);
    } else if constexpr (detail::float_to_narrow_integer<From, To>) {
        // 2^31 as a From exactly; [-2^31, 2^31) is int32's range.
        constexpr From two31 = From(2147483648.0);
        if (v >= -two31 && v < two31) // false for NaN
            return static_cast<To>(static_cast<std::int32_t>(v));
        return static_cast<To>(INT32_MIN);
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
