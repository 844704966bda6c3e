// fusor/core/rounding.ipp: the definitions of rounding.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/rounding.hpp>

namespace fusor::detail {

FUSOR_HEADER_INLINE float rounded(float x) noexcept {
    return rounding::opaque(x);
}

FUSOR_HEADER_INLINE double rounded(double x) noexcept {
    return rounding::opaque(x);
}

} // namespace fusor::detail
