// fusor/exec/gemm.hpp: runs a plan's matrix product (reduce_kernel::gemm, plan/gemm.hpp) through
// the BLAS: one cblas_sgemm / cblas_dgemm (or, when B is a vector, cblas_sgemv / cblas_dgemv) per
// element of the batch loops. The only file that names the BLAS.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include <fusor/plan/gemm.hpp>
#include <fusor/plan/loop_plan.hpp>

#if FUSOR_BLAS_GEMM
#include <cblas.h>
#endif

namespace fusor::exec {

/// What the BLAS that runs fusor's matrix products says about itself, for explain (and for
/// users who want to check their BLAS). OpenBLAS picks its kernels for the processor when the
/// program starts; one that does not know the processor (OpenBLAS 0.3.21, Debian 12's, on Intel
/// Sapphire Rapids) falls back to its generic `Prescott` kernels, about 5x slower here, unless
/// the environment variable OPENBLAS_CORETYPE names a core (`SkylakeX`, `Haswell`, `Zen`).
struct blas_identity {
    /// OpenBLAS's configuration line (`openblas_get_config()`: version, build options, core);
    /// empty without a BLAS, or with a BLAS that is not OpenBLAS.
    std::string config;
    /// The core whose kernels OpenBLAS runs (`openblas_get_corename()`: `SkylakeX`, `Haswell`,
    /// `Zen`, `Prescott`, ...); empty when config is.
    std::string core;
    /// `core`'s kernels predate AVX2 while this processor has AVX2 (OpenBLAS did not recognise
    /// it): products run at a fraction of the processor's speed.
    bool generic = false;
    /// With `generic`: the OPENBLAS_CORETYPE value that selects this processor's kernels
    /// (`SkylakeX` with AVX-512, else `Haswell`).
    std::string suggested_core;
};

/// The BLAS's account of itself, asked of the BLAS on each call (found through weak references
/// to OpenBLAS's `openblas_get_config` and `openblas_get_corename`, so any other BLAS, or none,
/// gives an empty identity). Throws nothing.
FUSOR_DECL blas_identity query_blas_identity();

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

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/exec/gemm.ipp>
#endif
