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
FUSOR_DECL index_t normalize_axis(index_t axis, index_t rank);

/// Normalises a list of axes and sorts it; a repeated axis throws `value_error`
/// (`duplicate value in 'axis'`, as NumPy).
FUSOR_DECL shape_t normalize_axes(const shape_t& axes, index_t rank);

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/axis.ipp>
#endif
