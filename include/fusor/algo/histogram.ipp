// fusor/algo/histogram.ipp: the definitions of histogram.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/histogram.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF bool fits_float32(double v) {
    return !std::isfinite(v) || (v > -3.4e38 && v < 3.4e38);
}

FUSOR_DEF histogram_range range_source(const std::optional<range>& bounds, index_t size) {
    return bounds ? histogram_range::given
                  : (size == 0 ? histogram_range::unit : histogram_range::data);
}

FUSOR_DEF read_plan in_place(const read_plan& r) {
    return read_plan{read_mode::in_place, r.chunks};
}

} // namespace detail
} // namespace fusor
