// fusor/algo/searching.ipp: the definitions of searching.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/searching.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF bool dense_row_major(const shape_t& shape, const strides_t& strides) {
    index_t expected = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        if (shape[i] == 0)
            return true;
        if (shape[i] != 1 && strides[i] != expected)
            return false;
        expected *= shape[i];
    }
    return true;
}

FUSOR_DEF index_t extent_of_1d(const shape_t& s, const char* what) {
    if (s.rank() != 1)
        throw value_error(std::string(what) + " must be 1-d, got shape " + to_string(s));
    return s[0];
}

} // namespace detail
} // namespace fusor
