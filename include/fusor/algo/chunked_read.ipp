// fusor/algo/chunked_read.ipp: the definitions of chunked_read.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/chunked_read.hpp>

namespace fusor {

FUSOR_DEF chunking chunks_of(const shape_t& s, index_t chunk_elements) {
    chunking c;
    if (shape_size(s) <= chunk_elements) {
        c.chunk_shape = s;
        return c;
    }
    index_t k = s.rank() - 1, inner = 1; // inner = prod(s[k+1:])
    while (k > 0 && inner * s[static_cast<std::size_t>(k)] <= chunk_elements) {
        inner *= s[static_cast<std::size_t>(k)];
        --k;
    }
    const index_t extent = s[static_cast<std::size_t>(k)];
    c.axis = k;
    c.rows = std::min(extent, std::max<index_t>(1, chunk_elements / inner));
    for (index_t a = 0; a < k; ++a)
        c.outer *= s[static_cast<std::size_t>(a)];
    c.full = extent / c.rows;
    c.rest = extent % c.rows;
    c.chunk_shape = shape_t(s.begin() + k, s.end());
    c.chunk_shape[0] = c.rows;
    if (c.rest > 0) {
        c.short_shape = c.chunk_shape;
        c.short_shape[0] = c.rest;
    }
    return c;
}

} // namespace fusor

namespace fusor {
namespace detail {

FUSOR_DEF std::vector<view_index> first_chunk_index(const chunking& c, bool short_chunk) {
    std::vector<view_index> index(static_cast<std::size_t>(c.axis + 1), index_t{0});
    const index_t start = short_chunk ? c.full * c.rows : 0;
    index[static_cast<std::size_t>(c.axis)] = slice(start, start + (short_chunk ? c.rest : c.rows));
    return index;
}

} // namespace detail
} // namespace fusor
