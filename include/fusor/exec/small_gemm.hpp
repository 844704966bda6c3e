// fusor/exec/small_gemm.hpp: fusor's own matrix product for products too small for the BLAS
// (reduce_kernel::small_gemm, plan/gemm.hpp): the i-k-j loop, `C[i, :] += A[i, k] * B[k, :]`,
// straight over the three matrices at their strides. It adds each accumulator's terms one at
// a time in k order, as the kernel it replaces does (exec/execute.hpp: the row of accumulators,
// or a pairwise register run of fewer than 8 terms), so the bits are the same; what it leaves
// out is the loop nest's driver, one call per row of four or eight elements.
#pragma once

#include <cstring>
#include <type_traits>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <fusor/config.hpp>
#include <fusor/core/rounding.hpp> // FUSOR_FMA_TARGET, rounding::opaque
#include <fusor/core/shape.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/reduce/reducers.hpp> // compensated_sum

namespace fusor::exec {

namespace detail {
// The term x * y in T, rounded before the reducer's step adds it, as NumPy rounds it: on an FMA
// target g++ fused a float64 product into the compensated sum's first add (contraction), bits
// NumPy does not give (found by tests/contract/test_small_products_avx512.cpp; the row kernels
// still contract it there: docs/explain.md, "FMA contraction"). A float32 product is rounded
// anyway: it is widened to float64 before it is added.
template <class T>
FUSOR_INLINE T rounded_product(T x, T y) {
#if FUSOR_FMA_TARGET
    if constexpr (std::is_same_v<T, double>)
        return fusor::detail::rounding::opaque(x * y);
#endif
    return static_cast<T>(x * y);
}

// float64 products summed in compensated accumulators: small_gemm_block's vector lanes.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class Impl, class T, class Acc>
inline constexpr bool compensated_double_lanes =
    std::is_same_v<T, double> && std::is_same_v<Acc, reducers::detail::compensated_sum>
    && Impl::term_is_element;
// clang-format on

// `acc += f` lane by lane, the W floats of `f` widened to doubles (exact). Both types given: g++
// deduces a vector parameter as its element type; by reference, not returned: a vector's return
// convention depends on the target flags. Eight floats on AVX-512 widen in one vcvtps2pd: g++ 12
// lowered __builtin_convertvector of 8 floats to two 4-wide conversions, an extract and an
// insert, the most instructions of an 8 x 8 product's loop.
template <class DVec, class FVec>
FUSOR_INLINE void add_widened(DVec& acc, const FVec& f) {
#if defined(__AVX512F__)
    if constexpr (sizeof(FVec) == sizeof(__m256) && sizeof(DVec) == sizeof(__m512d)) {
        __m256 v;
        std::memcpy(&v, &f, sizeof v);
        const __m512d w = _mm512_cvtps_pd(v);
        DVec d;
        std::memcpy(&d, &w, sizeof d);
        acc += d;
        return;
    }
#endif
    acc += __builtin_convertvector(f, DVec);
}

// Rows [i, i + R) and columns [j, j + W) of C: R x W accumulators held in registers while k
// runs, each taking its terms in k order. R and W are constants, so the compiler keeps them in
// registers; R rows make R independent chains of adds (one row's k steps wait on each other).
FUSOR_LANES_FILLED_BEGIN
template <index_t R, index_t W, class Impl, class T, class Acc>
FUSOR_INLINE void
small_gemm_block(const gemm_plan& g, const T* a, const T* b, Acc* c, index_t i, index_t j) {
    const T* ai = a + i * g.a_m;
    Acc* ci = c + i * g.c_m + j;
    if constexpr (std::is_same_v<T, float> && std::is_same_v<Acc, double> && Impl::term_is_element
                  && W > 1) {
        // float32 into float64 accumulators (a float32 product's sum): W floats multiplied by
        // A's element, converted and added, as vectors. Each lane is the scalar step's
        // arithmetic (a float product, exact in double, a double add), so the same bits;
        // written out because g++ split the scalar form into pieces of 4, 2 and 1.
        typedef float fvec __attribute__((vector_size(W * sizeof(float))));
        typedef double dvec __attribute__((vector_size(W * sizeof(double))));
        // C's rows stored as whole vectors at their (8-byte) alignment: through memcpy g++
        // spilled the accumulators and copied them 32 bytes at a time.
        typedef double dvec_store
            __attribute__((vector_size(W * sizeof(double)), aligned(alignof(double))));
        dvec acc[R];
        for (index_t r = 0; r < R; ++r)
            acc[r] = dvec{} + Impl::identity();
        for (index_t k = 0; k < g.k; ++k) {
            fvec row;
            std::memcpy(&row, b + k * g.b_k + j, sizeof row);
            for (index_t r = 0; r < R; ++r)
                add_widened<dvec, fvec>(acc[r], ai[r * g.a_m + k * g.a_k] * row);
        }
        for (index_t r = 0; r < R; ++r)
            *reinterpret_cast<dvec_store*>(ci + r * g.c_m) = acc[r];
    } else if constexpr (compensated_double_lanes<Impl, T, Acc> && W > 1) {
        // float64 into compensated accumulators: the sums and their corrections as vectors of
        // W lanes, each lane the scalar step's TwoSum on the same product in the same order, so
        // the same bits. As structs of two doubles g++ kept them scalar (an 8 x 8 float64
        // product at 11 times Eigen's time).
        typedef double dvec __attribute__((vector_size(W * sizeof(double))));
        dvec sum[R], corr[R];
        for (index_t r = 0; r < R; ++r)
            for (index_t w = 0; w < W; ++w) {
                sum[r][w] = Impl::identity().sum;
                corr[r][w] = Impl::identity().correction;
            }
        for (index_t k = 0; k < g.k; ++k) {
            dvec row;
            std::memcpy(&row, b + k * g.b_k + j, sizeof row);
            for (index_t r = 0; r < R; ++r) {
                dvec p = ai[r * g.a_m + k * g.a_k] * row;
#if FUSOR_FMA_TARGET && (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
                // rounded_product's barrier: on the register on AVX-512 (a vector of W doubles
                // is one), through memory elsewhere (g++ 12 found no AVX2 register for it).
#if defined(__AVX512F__)
                __asm__("" : "+x"(p));
#else
                __asm__("" : "+m"(p));
#endif
#endif
                // reducers::detail::two_sum_into, written out: g++ drops the vector attribute
                // of this W-dependent type when it is a template argument.
                const dvec t = sum[r] + p;
                const dvec z = t - sum[r];
                corr[r] += (sum[r] - (t - z)) + (p - z);
                sum[r] = t;
            }
        }
        for (index_t r = 0; r < R; ++r)
            for (index_t w = 0; w < W; ++w)
                ci[r * g.c_m + w] = Acc{sum[r][w], corr[r][w]};
    } else {
        Acc acc[R][W];
        for (index_t r = 0; r < R; ++r)
            for (index_t w = 0; w < W; ++w)
                acc[r][w] = Impl::identity();
        for (index_t k = 0; k < g.k; ++k) {
            const T* bk = b + k * g.b_k + j;
            for (index_t r = 0; r < R; ++r) {
                const T x = ai[r * g.a_m + k * g.a_k];
                for (index_t w = 0; w < W; ++w)
                    acc[r][w] = Impl::step(acc[r][w], rounded_product(x, bk[w]), 0);
            }
        }
        for (index_t r = 0; r < R; ++r)
            for (index_t w = 0; w < W; ++w)
                ci[r * g.c_m + w] = acc[r][w];
    }
}
FUSOR_LANES_FILLED_END

// Rows [i, i + R) of C over all its columns: blocks of 8, then 4, then single columns.
template <index_t R, class Impl, class T, class Acc>
FUSOR_INLINE void small_gemm_rows(const gemm_plan& g, const T* a, const T* b, Acc* c, index_t i) {
    index_t j = 0;
    for (; j + 8 <= g.n; j += 8)
        small_gemm_block<R, 8, Impl>(g, a, b, c, i, j);
    if (j + 4 <= g.n) {
        small_gemm_block<R, 4, Impl>(g, a, b, c, i, j);
        j += 4;
    }
    for (; j < g.n; ++j)
        small_gemm_block<R, 1, Impl>(g, a, b, c, i, j);
}
} // namespace detail

/// `C = A B` as `g` says (m x n x k, each matrix at its strides, once per element of the batch
/// loops), where C holds `Impl`'s accumulators, each started at `Impl::identity()` and taking
/// the products `a * b` in `T` (the contraction's product node) by `Impl::step`. A and B point
/// at their first elements, C at the first accumulator; C's old contents are never read.
template <class Impl, class T, class Acc>
void run_small_gemm(const gemm_plan& g, const T* a, const T* b, Acc* c) {
    const bool unit = g.b_n == 1 && g.c_n == 1; // B's and C's rows contiguous
    g.for_each_batch([&](index_t oa, index_t ob, index_t oc) {
        if (unit) { // the usual row-major case: blocks of 4 rows by 8 or 4 columns in registers
            index_t i = 0;
            for (; i + 4 <= g.m; i += 4)
                detail::small_gemm_rows<4, Impl>(g, a + oa, b + ob, c + oc, i);
            for (; i < g.m; ++i)
                detail::small_gemm_rows<1, Impl>(g, a + oa, b + ob, c + oc, i);
            return;
        }
        for (index_t i = 0; i < g.m; ++i) {
            for (index_t j = 0; j < g.n; ++j)
                c[oc + i * g.c_m + j * g.c_n] = Impl::identity();
            for (index_t k = 0; k < g.k; ++k) {
                const T x = a[oa + i * g.a_m + k * g.a_k];
                const T* bk = b + ob + k * g.b_k;
                Acc* ci = c + oc + i * g.c_m;
                for (index_t j = 0; j < g.n; ++j)
                    ci[j * g.c_n] =
                        Impl::step(ci[j * g.c_n], detail::rounded_product(x, bk[j * g.b_n]), 0);
            }
        }
    });
}

} // namespace fusor::exec
