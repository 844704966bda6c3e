// fusor/core/shape.ipp: the definitions of shape.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/shape.hpp>

namespace fusor {

FUSOR_DEF element_span span_of(const shape_t& shape, const strides_t& strides) {
    element_span s;
    for (std::size_t j = 0; j < shape.size(); ++j) {
        const index_t step = (shape[j] - 1) * strides[j];
        (step < 0 ? s.first : s.last) += step;
    }
    return s;
}

FUSOR_DEF std::string to_string(const shape_t& s) {
    std::string out = "(";
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i)
            out += ", ";
        out += std::to_string(s[i]);
    }
    if (s.size() == 1)
        out += ",";
    return out + ")";
}

FUSOR_DEF std::string to_compact_string(const shape_t& s) {
    std::string out = "(";
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i)
            out += ",";
        out += std::to_string(s[i]);
    }
    if (s.size() == 1)
        out += ",";
    return out + ")";
}

FUSOR_DEF std::ostream& operator<<(std::ostream& os, const shape_t& s) {
    return os << to_string(s);
}

} // namespace fusor
