// fusor/expr/shaping.ipp: the definitions of shaping.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/expr/shaping.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF void require_rank(const shape_t& in, index_t rank, const char* what) {
    if (in.rank() < rank)
        throw value_error(std::string(what) + ": Input must be >= " + std::to_string(rank)
                          + "-d, got shape " + to_string(in));
}

FUSOR_DEF affine_map identity_map(const shape_t& in, map_label label) {
    affine_map m(in, in, std::move(label));
    for (std::size_t k = 0; k < in.size(); ++k)
        m.at(k, k) = 1;
    return m;
}

FUSOR_DEF affine_map rot90_map(const shape_t& in, index_t k, const shape_t& axes) {
    const index_t r = in.rank();
    if (axes.size() != 2)
        throw value_error("rot90: len(axes) must be 2, got " + to_string(axes));
    const index_t a0 = axes[0], a1 = axes[1];
    if (a0 == a1 || (a0 - a1 == r) || (a1 - a0 == r))
        throw value_error("rot90: Axes must be different, got axes " + to_string(axes)
                          + " for a tensor of rank " + std::to_string(r));
    if (a0 >= r || a0 < -r || a1 >= r || a1 < -r)
        throw value_error("rot90: Axes=" + to_compact_string(axes)
                          + " out of range for array of ndim=" + std::to_string(r));
    const auto n0 = static_cast<std::size_t>(a0 < 0 ? a0 + r : a0);
    const auto n1 = static_cast<std::size_t>(a1 < 0 ? a1 + r : a1);
    const index_t turns = ((k % 4) + 4) % 4;
    const map_label label("rot90(k=%0, axes=(%1, %2))", {k, a0, a1});
    if (turns == 0)
        return identity_map(in, label);
    if (turns == 2) {
        affine_map m = flip_map(in, shape_t{a0, a1});
        m.label = label;
        return m;
    }
    shape_t perm;
    for (index_t j = 0; j < r; ++j)
        perm.push_back(j);
    std::swap(perm[n0], perm[n1]);
    affine_map m = transpose_map(in, perm);
    m.label = label;
    // k = 1: operand axis a1 (view axis a0) is read backwards; k = 3: operand axis a0 (view
    // axis a1).
    const std::size_t in_axis = turns == 1 ? n1 : n0, out_axis = turns == 1 ? n0 : n1;
    m.at(in_axis, out_axis) = -1;
    m.offset[in_axis] = in[in_axis] > 0 ? in[in_axis] - 1 : 0;
    return m;
}

FUSOR_DEF affine_map atleast_map(const shape_t& in, index_t rank) {
    shape_t axes;
    if (in.rank() < rank) {
        if (in.rank() == 0)
            for (index_t k = 0; k < rank; ++k)
                axes.push_back(k);
        else if (rank == 2) // (n,) → (1, n)
            axes = {0};
        else if (in.rank() == 1) // (n,) → (1, n, 1)
            axes = {0, 2};
        else // (m, n) → (m, n, 1)
            axes = {2};
    }
    affine_map m = expand_dims_map(in, axes);
    m.label = map_label("atleast_%0d", {rank});
    return m;
}

} // namespace detail
} // namespace fusor
