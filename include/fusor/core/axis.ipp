// fusor/core/axis.ipp: the definitions of axis.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/axis.hpp>

namespace fusor {

FUSOR_DEF shape_t normalize_axes(const shape_t& axes, index_t rank) {
    shape_t out;
    for (index_t a : axes)
        out.push_back(normalize_axis(a, rank));
    std::sort(out.begin(), out.end());
    if (std::adjacent_find(out.begin(), out.end()) != out.end())
        throw value_error("duplicate value in 'axis'");
    return out;
}

} // namespace fusor
