// fusor/plan/coalesce.ipp: the definitions of coalesce.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/coalesce.hpp>

namespace fusor::planning {

FUSOR_DEF bool collapsible_rows(const loop_plan& p) {
    const std::size_t L = p.extents.size();
    if (L < 2 || !p.reducer.empty() || p.rows_in_registers // exec::execute_flat: row by row
        || !collapses(p.extents[L - 2],
                      p.extents[L - 1],
                      p.operands[0].itemsize,
                      !p.vector_functions.empty()))
        return false;
    const index_t cols = p.extents[L - 1];
    bool repeated = false; // a row or a column operand
    for (std::size_t k = 0; k < p.operands.size(); ++k) {
        const operand_plan& o = p.operands[k];
        if (o.kind == operand_plan::role::scalar)
            continue;
        const index_t inner = o.strides[L - 1], outer = o.strides[L - 2];
        if (inner == 1 && outer == cols)
            continue;
        if (k == 0 || (inner != 0 && inner != 1) || (inner == 1 && outer != 0))
            return false;
        repeated = repeated || inner == 1 || outer != 0; // a row, a column; else still
    }
    return repeated;
}

FUSOR_DEF void order_and_coalesce(loop_plan& p) {
    const std::size_t rank = p.iter_shape.size();
    boost::container::small_vector<std::size_t, 6> order(rank);
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (p.reducer.empty()) {
        // A stable insertion sort: a handful of axes, and std::stable_sort allocates a buffer.
        const strides_t& d = p.operands[0].iter_strides;
        for (std::size_t i = 1; i < rank; ++i)
            for (std::size_t j = i; j > 0 && std::abs(d[order[j]]) > std::abs(d[order[j - 1]]); --j)
                std::swap(order[j], order[j - 1]);
    }
    p.empty = shape_size(p.iter_shape) == 0;

    // Inline storage (rank <= 6, up to 6 operands): planning allocates nothing.
    shape_t ext;
    boost::container::small_vector<shape_t, 6> axes;
    boost::container::small_vector<shape_t, 6> st(p.operands.size());
    for (std::size_t ax : order) {
        const index_t n = p.iter_shape[ax];
        if (n == 1)
            continue;
        const std::size_t L = ext.size();
        bool merge = L > 0;
        for (std::size_t k = 0; merge && k < p.operands.size(); ++k)
            merge = st[k][L - 1] == p.operands[k].iter_strides[ax] * n;
        if (merge) {
            ext[L - 1] *= n;
            for (std::size_t k = 0; k < p.operands.size(); ++k)
                st[k][L - 1] = p.operands[k].iter_strides[ax];
            axes[L - 1].push_back(static_cast<index_t>(ax));
        } else {
            ext.push_back(n);
            axes.push_back(shape_t{static_cast<index_t>(ax)});
            for (std::size_t k = 0; k < p.operands.size(); ++k)
                st[k].push_back(p.operands[k].iter_strides[ax]);
        }
    }
    p.extents = ext;
    p.loop_axes = std::move(axes);
    for (std::size_t k = 0; k < p.operands.size(); ++k)
        p.operands[k].strides = std::move(st[k]);

    // The innermost loop is contiguous when every operand moves by exactly one element (or is
    // a scalar, which the evaluator never indexes) and the destination does too.
    bool contiguous = !ext.empty();
    for (std::size_t k = 0; contiguous && k < p.operands.size(); ++k) {
        const auto& o = p.operands[k];
        if (o.kind == operand_plan::role::scalar)
            continue;
        const index_t s = o.strides.back();
        const bool reduce_dest = k == 0 && !p.reducer.empty();
        contiguous = s == 1 || (reduce_dest && s == 0) || o.kind == operand_plan::role::index;
    }
    // Broadcast: an element-wise loop whose operands all move by 1 or stand still (0) in the
    // innermost loop, the destination by 1: MNN's stride-0 broadcast, made contiguous by
    // splatting the still operands.
    bool broadcast =
        !contiguous && !ext.empty() && p.reducer.empty() && p.operands[0].strides.back() == 1;
    for (std::size_t k = 1; broadcast && k < p.operands.size(); ++k) {
        const auto& o = p.operands[k];
        const index_t s = o.strides.back();
        broadcast = o.kind == operand_plan::role::scalar || s == 0 || s == 1;
    }
    // Tiled: an element-wise loop writing at unit stride where some operand moves by 1 one level
    // out but not in the innermost loop (a transposed operand: a plain loop reads its rows
    // apart, a cache line per element at large sizes, and cannot vectorise). Two ways:
    //  - packed (loop_plan::tile_packed): rows of 4 to tile_cols elements, at least 4 of them,
    //    over which the destination and every operand moving by 1 run on from row to row; a
    //    tile is then one contiguous loop, which pays from (4, 4) on: a whole (8, 8) float32
    //    `c = transpose(a) + b` took 2,737 instructions with the strided kernel, 2,880 tiled a
    //    row at a time, 2,094 packed; 135 -> 101 ns, and (65536, 8) 3x faster
    //    (docs/performance.md, "Packed tiles");
    //  - otherwise at least a tile's rows and half its columns (tile_min_cols), the transposed
    //    operand jumping 16 or more elements per step.
    const std::size_t L = ext.size();
    const bool tileable = !contiguous && !broadcast && L >= 2 && p.reducer.empty()
                          && p.operands[0].strides[L - 1] == 1;
    bool packed = tileable && ext[L - 1] >= 4 && ext[L - 1] <= tile_cols && ext[L - 2] >= 4
                  && p.operands[0].strides[L - 2] == ext[L - 1];
    bool transposed = false, far = false;
    for (std::size_t k = 1; tileable && k < p.operands.size(); ++k) {
        const auto& o = p.operands[k];
        if (o.kind == operand_plan::role::scalar)
            continue;
        const index_t s = o.strides[L - 1];
        if (o.strides[L - 2] == 1 && std::abs(s) >= 2) {
            transposed = true;
            far = far || std::abs(s) >= 16;
        }
        if (s == 1 && o.strides[L - 2] != ext[L - 1])
            packed = false;
    }
    const bool wide = tileable && ext[L - 1] >= tile_min_cols && ext[L - 2] >= tile_rows && far;
    const bool tiled = tileable && transposed && (packed || wide);
    p.kernel = contiguous  ? inner_kernel::contiguous
               : broadcast ? inner_kernel::broadcast
               : tiled     ? inner_kernel::tiled
                           : inner_kernel::strided;
    p.tile_packed = tiled && packed;
    if ((contiguous || broadcast) && collapsible_rows(p))
        p.kernel = inner_kernel::collapsed;
    p.vector_bytes = compiled_simd_target().bytes;
    p.operand_count = p.operands.size();
    split_for_threads(p);
}

} // namespace fusor::planning
