// fusor/core/shape.ipp: the definitions of shape.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/error.hpp>
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

FUSOR_DEF void detail::check_truth_value(const shape_t& shape) {
    const index_t n = shape_size(shape);
    if (n > 1)
        throw value_error("the truth value of an array with more than one element is ambiguous "
                          "(shape "
                          + to_string(shape) + "): use any(e) or all(e)");
    if (n == 0)
        throw value_error("the truth value of an empty array is ambiguous (shape "
                          + to_string(shape) + "): test e.size() > 0");
}

} // namespace fusor
