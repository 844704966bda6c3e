// fusor/exec/segmented_eval.ipp: the definitions of segmented_eval.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/exec/segmented_eval.hpp>

namespace fusor::detail {

FUSOR_DEF byte_range range_of(const void* data,
                              const shape_t& shape,
                              const strides_t& strides,
                              std::size_t itemsize) {
    const auto [lo, hi] = bytes_touched(data, shape, strides, static_cast<index_t>(itemsize));
    return {reinterpret_cast<std::uintptr_t>(lo), reinterpret_cast<std::uintptr_t>(hi)};
}

} // namespace fusor::detail
