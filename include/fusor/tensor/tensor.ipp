// fusor/tensor/tensor.ipp: the definitions of tensor.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/tensor/tensor.hpp>

namespace fusor {
namespace detail {

FUSOR_DECL void check_shape(const shape_t& shape, index_t itemsize) {
    index_t bytes = itemsize;
    for (index_t n : shape) {
        if (n < 0)
            throw value_error("negative dimensions are not allowed: shape " + to_string(shape));
        if (n != 0 && bytes > std::numeric_limits<index_t>::max() / n)
            throw value_error("array is too big: shape " + to_string(shape) + " of "
                              + std::to_string(itemsize) + "-byte elements");
        if (n != 0)
            bytes *= n;
    }
}

} // namespace detail
} // namespace fusor
