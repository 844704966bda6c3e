// fusor/plan/segment_cells.ipp: the definitions of segment_cells.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/segment_cells.hpp>

namespace fusor {
namespace planning {

FUSOR_DEF bool
aligned_axis(const shape_t& node, std::size_t k, const shape_t& space, std::size_t& j) {
    j = k + space.size() - node.size();
    return node[k] == space[j];
}

FUSOR_DEF std::size_t segment_at(const segment_source& s, const shape_t& space, const shape_t& at) {
    for (std::size_t i = 0; i < s.starts.size(); ++i) {
        bool inside = true;
        for (std::size_t k = 0; k < s.shape.size() && inside; ++k) {
            std::size_t j = 0;
            const index_t p = aligned_axis(s.shape, k, space, j) ? at[j] : 0;
            inside = s.starts[i][k] <= p && p < s.starts[i][k] + s.extents[i][k];
        }
        if (inside)
            return i;
    }
    return s.starts.size(); // not reached: a list's boxes cover its space
}

} // namespace planning
} // namespace fusor
