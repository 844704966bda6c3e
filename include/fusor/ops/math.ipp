// fusor/ops/math.ipp: the definitions of math.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/ops/math.hpp>

namespace fusor::ops {
namespace detail {

FUSOR_DEF double power_of_ten(std::int64_t n) {
    return n <= max_finite_power_of_ten ? powers_of_ten[static_cast<std::size_t>(n)]
                                        : std::numeric_limits<double>::infinity();
}

} // namespace detail
} // namespace fusor::ops
