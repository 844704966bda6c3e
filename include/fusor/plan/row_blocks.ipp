// fusor/plan/row_blocks.ipp: the definitions of row_blocks.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/row_blocks.hpp>

namespace fusor {
namespace planning {

FUSOR_DEF int child_row_axis(const shape_t& p, int a, const shape_t& c) {
    if (a < 0)
        return -1;
    const int k = a - static_cast<int>(p.size()) + static_cast<int>(c.size());
    return k >= 0 && c[static_cast<std::size_t>(k)] == p[static_cast<std::size_t>(a)] ? k : -1;
}

FUSOR_DEF bool row_blocks_fit(const shape_t& node_shape, const shape_t& shape) {
    if (shape.size() < 2 || node_shape.size() > shape.size())
        return false;
    const index_t rows = shape[0];
    const index_t size = shape_size(shape);
    if (rows < 2 || size < row_block_min_elements)
        return false;
    const index_t row = size / rows;
    return row >= 1 && row <= row_block_elements;
}

} // namespace planning
} // namespace fusor
