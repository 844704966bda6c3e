// fusor/exec/gemm.hpp: runs a plan's matrix product (reduce_kernel::gemm, plan/gemm.hpp) through
// the BLAS: one cblas_sgemm / cblas_dgemm (or, when B is a vector, cblas_sgemv / cblas_dgemv) per
// element of the batch loops. The only file that names the BLAS.
#pragma once

#include <cstddef>
#include <type_traits>

#include <fusor/plan/gemm.hpp>
#include <fusor/plan/loop_plan.hpp>

#if FUSOR_BLAS_GEMM
#include <cblas.h>
#endif

namespace fusor::exec {

/// `C = A B` as `g` says, for every element of its batch loops (row-major C; A and B row- or
/// column-major; pointers at each operand's first element). The BLAS splits the product across
/// its own threads (OpenBLAS: OPENBLAS_NUM_THREADS); each result element is one dot product in
/// the BLAS's order whatever the thread count.
template <class T>
void run_gemm([[maybe_unused]] const gemm_plan& g,
              [[maybe_unused]] const T* a,
              [[maybe_unused]] const T* b,
              [[maybe_unused]] T* c) {
#if FUSOR_BLAS_GEMM
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
    const auto m = static_cast<int>(g.m), n = static_cast<int>(g.n), k = static_cast<int>(g.k);
    const auto lda = static_cast<int>(g.lda), ldb = static_cast<int>(g.ldb),
               ldc = static_cast<int>(g.ldc);
    const CBLAS_TRANSPOSE ta = g.trans_a ? CblasTrans : CblasNoTrans;
    const CBLAS_TRANSPOSE tb = g.trans_b ? CblasTrans : CblasNoTrans;
    // gemv: A (m x k) row-major, or column-major read as the transpose of a row-major k x m.
    const int rows = g.trans_a ? k : m, cols = g.trans_a ? m : k;
    g.for_each_batch([&](index_t oa, index_t ob, index_t oc) {
        if (g.gemv) {
            if constexpr (std::is_same_v<T, float>)
                cblas_sgemv(CblasRowMajor,
                            ta,
                            rows,
                            cols,
                            1.0f,
                            a + oa,
                            lda,
                            b + ob,
                            ldb,
                            0.0f,
                            c + oc,
                            ldc);
            else
                cblas_dgemv(
                    CblasRowMajor, ta, rows, cols, 1.0, a + oa, lda, b + ob, ldb, 0.0, c + oc, ldc);
        } else if constexpr (std::is_same_v<T, float>) {
            cblas_sgemm(
                CblasRowMajor, ta, tb, m, n, k, 1.0f, a + oa, lda, b + ob, ldb, 0.0f, c + oc, ldc);
        } else {
            cblas_dgemm(
                CblasRowMajor, ta, tb, m, n, k, 1.0, a + oa, lda, b + ob, ldb, 0.0, c + oc, ldc);
        }
    });
#endif
}

} // namespace fusor::exec
