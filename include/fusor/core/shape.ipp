// fusor/core/shape.ipp: the definitions of shape.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/shape.hpp>

namespace fusor {

FUSOR_DECL index_t shape_size(const shape_t& s) {
    index_t n = 1;
    for (index_t e : s)
        n *= e;
    return n;
}

FUSOR_DECL strides_t row_major_strides(const shape_t& s) {
    strides_t st(s.size());
    index_t acc = 1;
    for (index_t i = s.rank() - 1; i >= 0; --i) {
        st[static_cast<std::size_t>(i)] = acc;
        acc *= s[static_cast<std::size_t>(i)];
    }
    return st;
}

FUSOR_DECL element_span span_of(const shape_t& shape, const strides_t& strides) {
    element_span s;
    for (std::size_t j = 0; j < shape.size(); ++j) {
        const index_t step = (shape[j] - 1) * strides[j];
        (step < 0 ? s.first : s.last) += step;
    }
    return s;
}

FUSOR_DECL std::pair<const char*, const char*> bytes_touched(const void* address,
                                                             const shape_t& shape,
                                                             const strides_t& strides,
                                                             index_t itemsize) {
    if (!address || shape_size(shape) == 0)
        return {nullptr, nullptr};
    const element_span s = span_of(shape, strides);
    const char* base = static_cast<const char*>(address);
    return {base + s.first * itemsize, base + (s.last + 1) * itemsize};
}

FUSOR_DECL bool is_row_major(const shape_t& shape, const strides_t& strides) {
    if (shape.size() != strides.size())
        return false;
    index_t acc = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        if (strides[i] != acc)
            return false;
        acc *= shape[i];
    }
    return true;
}

FUSOR_DECL std::string to_string(const shape_t& s) {
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

FUSOR_DECL std::string to_compact_string(const shape_t& s) {
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

FUSOR_DECL std::ostream& operator<<(std::ostream& os, const shape_t& s) {
    return os << to_string(s);
}

} // namespace fusor
