// fusor/algo/multi_index.ipp: the definitions of multi_index.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/multi_index.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF void unravel_into(index_t flat, const shape_t& shape, shape_t& out) {
    for (std::size_t d = shape.size(); d-- > 0;) {
        out[d] = flat % shape[d];
        flat /= shape[d];
    }
}

FUSOR_DEF shape_t broadcast_all(const std::vector<const shape_t*>& shapes) {
    shape_t out;
    try {
        for (const shape_t* s : shapes)
            out = broadcast_shapes(out, *s);
    } catch (const broadcast_error&) {
        std::string msg = "operands could not be broadcast together with shapes";
        for (const shape_t* s : shapes)
            msg += " " + to_compact_string(*s);
        throw broadcast_error(msg);
    }
    return out;
}

FUSOR_DEF void require_non_negative(const shape_t& shape) {
    for (index_t n : shape)
        if (n < 0)
            throw value_error("negative dimensions are not allowed: shape " + to_string(shape));
}

} // namespace detail
} // namespace fusor
