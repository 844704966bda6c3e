// fusor/plan/gemm.ipp: the definitions of gemm.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/gemm.hpp>

namespace fusor::planning {
namespace gemm_detail {

FUSOR_DEF bool
as_blas_matrix(index_t rows, index_t cols, index_t sr, index_t sc, bool& transposed, index_t& ld) {
    if ((cols == 1 || sc == 1) && (rows == 1 || sr >= cols)) {
        transposed = false;
        ld = rows == 1 ? cols : sr;
        return ld >= 1;
    }
    if ((rows == 1 || sr == 1) && (cols == 1 || sc >= rows)) {
        transposed = true;
        ld = cols == 1 ? rows : sc;
        return ld >= 1;
    }
    return false;
}

FUSOR_DEF bool fits_int(index_t v) {
    return v >= 0 && v <= INT_MAX;
}

FUSOR_DEF bool classify_axes(const loop_plan& p, std::size_t ia, std::size_t ib, product_axes& x) {
    return classify_axes(p.iter_shape.data(),
                         p.iter_shape.size(),
                         p.operands[ia].iter_strides.data(),
                         p.operands[ib].iter_strides.data(),
                         p.operands[0].iter_strides.data(),
                         x);
}

FUSOR_DEF bool as_product(const loop_plan& p, std::size_t ia, std::size_t ib, gemm_plan& g) {
    product_axes x;
    if (!classify_axes(p, ia, ib, x))
        return false;
    auto& [rows, cols, sums, batch] = x;
    if (!merge_into_one(rows) || !merge_into_one(cols) || !merge_into_one(sums))
        return false;
    g.m = rows.empty() ? 1 : rows[0].n;
    g.n = cols.empty() ? 1 : cols[0].n;
    g.k = sums.empty() ? 1 : sums[0].n;
    // Nothing summed (an outer product, `"i,j->ij"`) never gets here: it is planned as the
    // element-wise loop of its terms (reduce_kernel::single_term).
    if (g.m < 2 || g.k < 2 || g.m * g.n * g.k < gemm_min_work)
        return false;
    const index_t ak = sums[0].a, bk = sums[0].b;
    if (cols.empty()) { // B is a vector: y = A x, the BLAS's gemv
        if (!as_blas_matrix(g.m, g.k, rows[0].a, ak, g.trans_a, g.lda) || bk < 1 || rows[0].c < 1)
            return false;
        g.gemv = true;
        g.ldb = bk;
        g.ldc = rows[0].c;
    } else {
        if (g.n < 2 || !as_blas_matrix(g.m, g.k, rows[0].a, ak, g.trans_a, g.lda)
            || !as_blas_matrix(g.k, g.n, bk, cols[0].b, g.trans_b, g.ldb) || cols[0].c != 1
            || rows[0].c < g.n)
            return false;
        g.ldc = rows[0].c;
    }
    for (const index_t v : {g.m, g.n, g.k, g.lda, g.ldb, g.ldc})
        if (!fits_int(v))
            return false;
    set_batch(x, g);
    return true;
}

FUSOR_DEF bool as_small_product(const loop_plan& p, std::size_t ia, std::size_t ib, gemm_plan& g) {
    product_axes x;
    return classify_axes(p, ia, ib, x) && small_product_from(x, g);
}

} // namespace gemm_detail
} // namespace fusor::planning

namespace fusor::planning {

FUSOR_DEF bool choose_small_gemm(loop_plan& p) {
    const bool one_at_a_time = p.reduction == reduce_kernel::row || jammed_rows(p.reduction) != 0
                               || (p.reduction == reduce_kernel::pairwise && p.reduce_count < 8);
    if (!small_gemm_enabled || p.operands.size() != 3 || p.empty || p.threads > 1 || !one_at_a_time)
        return false;
    // A is operand 1: the kernel takes any strides, so the other order adds nothing.
    gemm_plan g;
    if (!gemm_detail::as_small_product(p, 1, 2, g) || g.m * g.n * g.k >= gemm_min_work)
        return false;
    p.gemm = std::move(g);
    p.reduction = reduce_kernel::small_gemm;
    p.kernel = inner_kernel::strided; // no splat buffers: the kernel reads the matrices itself
    return true;
}

FUSOR_DEF bool flat_product_of(const shape_t& space,
                               index_t summed,
                               const strides_t& sa,
                               const strides_t& sb,
                               bool destination_row_major,
                               bool compensated,
                               gemm_plan& g) {
    const std::size_t rank = space.size(), ks = static_cast<std::size_t>(summed);
    if (!small_gemm_enabled || !destination_row_major || rank == 0 || rank > 3 || ks >= rank
        || shape_size(space) >= gemm_min_work)
        return false;
    if (rank == 3 && ks == 1 && sa[0] > 0 && sa[1] > 0 && sa[2] == 0 && sb[0] == 0 && sb[1] > 0
        && sb[2] > 0 && space[0] > 1 && space[1] > 1 && space[2] > 1
        && space[0] * space[2] <= flat_product_max_results) {
        // A matrix times a matrix (matmul's (m, k, n) space, A (m, k), B (k, n), each moving
        // along its own axes): one row, one summed and one column axis, as classify_axes and
        // small_product_from would find them, without their lists.
        using gemm_detail::gemm_axis;
        gemm_detail::set_small_product(gemm_axis{space[0], sa[0], 0, space[2]},
                                       gemm_axis{space[2], 0, sb[2], 1},
                                       gemm_axis{space[1], sa[1], sb[1], 0},
                                       g);
        return true;
    }
    index_t sc[3]; // the accumulators: row-major over the result, still along `summed`
    index_t results = 1;
    for (std::size_t j = rank; j-- > 0;) {
        sc[j] = j == ks ? 0 : results;
        results *= j == ks ? 1 : space[j];
    }
    if (results > flat_product_max_results)
        return false;
    std::size_t innermost = rank; // the last axis of extent > 1 (none: a 0-level loop)
    for (std::size_t j = rank; j-- > 0;)
        if (space[j] > 1) {
            innermost = j;
            break;
        }
    if ((innermost == ks || innermost == rank) && (compensated || space[ks] >= 8))
        return false; // a register run of compensated lanes, or of 8 or more pairwise terms
    gemm_detail::flat_product_axes x;
    return gemm_detail::classify_axes(space.data(), rank, sa.data(), sb.data(), sc, x)
           && x.batch.empty() && gemm_detail::small_product_from(x, g);
}

} // namespace fusor::planning
