// The io tests' shared vocabulary: every element type fusor stores, a loop over them, and
// bit-exact comparison of values (what a file round trip must preserve).
#pragma once

#include <cmath>
#include <cstdint>
#include <tuple>
#include <type_traits>

namespace io_test {

using all_types = std::tuple<bool,
                             std::int8_t,
                             std::int16_t,
                             std::int32_t,
                             std::int64_t,
                             std::uint8_t,
                             std::uint16_t,
                             std::uint32_t,
                             std::uint64_t,
                             float,
                             double>;

/// Calls `f(T{})` for every element type.
template <class F>
void for_each_type(F&& f) {
    std::apply([&](auto... t) { (f(t), ...); }, all_types{});
}

/// Equal values, NaN equal to NaN, and the sign of a zero counts.
template <class T>
bool same_bits(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
    else
        return a == b;
}

} // namespace io_test
