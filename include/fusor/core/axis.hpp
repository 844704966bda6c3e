// fusor/core/axis.hpp: axis normalisation (negative axes count from the end).
#pragma once

#include <algorithm>
#include <string>

#include <fusor/config.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>

namespace fusor {

/// Maps `axis` in `[-rank, rank)` to `[0, rank)`, as NumPy's `normalize_axis_index`.
/// Throws `axis_error`: `axis 3 is out of bounds for tensor of rank 2`.
// Inline in every mode (FUSOR_SEPARATE_COMPILATION included): each reduction built calls it.
inline index_t normalize_axis(index_t axis, index_t rank) {
    if (axis < -rank || axis >= rank)
        throw axis_error("axis " + std::to_string(axis) + " is out of bounds for tensor of rank "
                         + std::to_string(rank));
    return axis < 0 ? axis + rank : axis;
}

/// Normalises a list of axes and sorts it; a repeated axis throws `value_error`
/// (`duplicate value in 'axis'`, as NumPy).
FUSOR_DECL shape_t normalize_axes(const shape_t& axes, index_t rank);

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/axis.ipp>
#endif
