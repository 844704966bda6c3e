// fusor/reduce/reduction.ipp: the definitions of reduction.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/reduce/reduction.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF shape_t resolve_axes(const std::optional<shape_t>& axes, index_t rank, bool lenient) {
    if (!axes) {
        shape_t all_axes;
        for (index_t i = 0; i < rank; ++i)
            all_axes.push_back(i);
        return all_axes;
    }
    if (rank == 0) {
        normalize_axes(*axes, lenient ? 1 : 0);
        return {};
    }
    return normalize_axes(*axes, rank);
}

} // namespace detail
} // namespace fusor
