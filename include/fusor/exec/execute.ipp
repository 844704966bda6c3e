// fusor/exec/execute.ipp: the definitions of execute.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/exec/execute.hpp>

namespace fusor::exec {
namespace detail {

FUSOR_DEF void tile_block(const loop_plan& p, const block& b, const tile_callbacks& cb) {
    const std::size_t L = p.extents.size(), ops = p.operand_count;
    if (p.tile_packed) {
        // Whole rows per tile (b.cols <= tile_cols), staged one after another: every operand
        // runs on from a row to the next, so a tile is one loop of rn * b.cols elements; the
        // staged operands read their buffer from its start.
        index_buffer at(b.offsets, ops), row(ops);
        for (index_t r0 = 0; r0 < b.rows; r0 += tile_rows) {
            const index_t rn = std::min(tile_rows, b.rows - r0);
            cb.stage(cb.context, at.data(), rn, b.cols, b.cols);
            for (std::size_t k = 0; k < ops; ++k) {
                const index_t outer = p.stride(k, L - 2);
                const bool staged = k > 0 && p.operands[k].kind != operand_plan::role::scalar
                                    && p.stride(k, L - 1) != 1;
                row[k] = staged ? 0 : at[k];
                at[k] += rn * outer;
            }
            cb.row(cb.context, row.data(), rn * b.cols);
        }
        return;
    }
    // Per operand, read once per block: the strides of the two levels, and whether it is staged
    // (off unit stride: read from its tile buffer, row r at r * tile_cols).
    index_buffer outer(ops), inner(ops), tile(ops), row(ops);
    boost::container::small_vector<char, 8> staged(ops, 0);
    for (std::size_t k = 0; k < ops; ++k) {
        outer[k] = p.stride(k, L - 2);
        inner[k] = p.stride(k, L - 1);
        staged[k] = k > 0 && p.operands[k].kind != operand_plan::role::scalar && inner[k] != 1;
    }
    for (index_t r0 = 0; r0 < b.rows; r0 += tile_rows) {
        const index_t rn = std::min(tile_rows, b.rows - r0);
        for (index_t c0 = 0; c0 < b.cols; c0 += tile_cols) {
            const index_t cn = std::min(tile_cols, b.cols - c0);
            for (std::size_t k = 0; k < ops; ++k)
                tile[k] = b.offsets[k] + r0 * outer[k] + c0 * inner[k];
            cb.stage(cb.context, tile.data(), rn, cn, tile_cols);
            for (index_t r = 0; r < rn; ++r) {
                for (std::size_t k = 0; k < ops; ++k)
                    row[k] = staged[k] ? r * tile_cols : tile[k] + r * outer[k];
                cb.row(cb.context, row.data(), cn);
            }
        }
    }
}

FUSOR_HEADER_INLINE void throw_empty_reduction(std::string_view name,
                                               std::string_view numpy_name,
                                               bool single_axis,
                                               const shape_t& axes,
                                               const shape_t& shape) {
    const std::string what = single_axis
                                 ? "attempt to get " + std::string(name) + " of an empty sequence"
                                 : "zero-size array to reduction operation "
                                       + std::string(numpy_name) + " which has no identity";
    throw value_error(what + " (reducing axes " + to_string(axes) + " of shape " + to_string(shape)
                      + ")");
}

FUSOR_DEF int tensor_ordinal(const loop_plan& p, int k) {
    int ordinal = 0;
    for (int j = 1; j < k; ++j) {
        const auto role = p.operands[static_cast<std::size_t>(j)].kind;
        ordinal += role == operand_plan::role::tensor || role == operand_plan::role::view;
    }
    return ordinal;
}

} // namespace detail
} // namespace fusor::exec
