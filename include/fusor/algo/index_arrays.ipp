// fusor/algo/index_arrays.ipp: the definitions of index_arrays.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/index_arrays.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF index_t checked_index(std::int64_t index, index_t n, index_t axis) {
    const index_t j = index < 0 ? index + n : index;
    if (j < 0 || j >= n)
        throw index_error("index " + std::to_string(index) + " is out of bounds for axis "
                          + std::to_string(axis) + " with size " + std::to_string(n));
    return j;
}

FUSOR_DEF shape_t along_axis_shape(const shape_t& arr, const shape_t& idx, index_t axis) {
    shape_t out(arr.size(), 0);
    for (std::size_t d = 0; d < arr.size(); ++d) {
        if (static_cast<index_t>(d) == axis)
            out[d] = idx[d];
        else if (arr[d] == idx[d] || idx[d] == 1)
            out[d] = arr[d];
        else if (arr[d] == 1)
            out[d] = idx[d];
        else
            throw index_error("shape mismatch: indexing arrays could not be broadcast together "
                              "with shapes: the tensor of shape "
                              + to_string(arr) + " and the indices of shape " + to_string(idx)
                              + " differ on axis " + std::to_string(d) + " (along axis "
                              + std::to_string(axis) + ")");
    }
    return out;
}

FUSOR_DEF shape_t flat_shape(const shape_t& s) {
    return shape_t{shape_size(s)};
}

} // namespace detail
} // namespace fusor
