// fusor/exec/vector_math.hpp: vectorised exp, sin, log ... from SLEEF (Debian libsleef-dev),
// the only header naming it, and sqrt from the SIMD square-root instruction. A compiler cannot
// vectorise a call to std::exp (nor std::sqrt, which may set errno); SLEEF's u10 functions take a
// whole register of floats at once, within 1.0 ulp of the exact result. The element-wise kernels
// run them over blocks of the inner loop (the block evaluator, exec/evaluator.hpp).
#pragma once

#include <algorithm>

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/ops/math.hpp>
#include <fusor/ops/vector_forms.hpp>

#if FUSOR_VECTOR_SQRT
#include <immintrin.h>
#endif
#if FUSOR_VECTOR_MATH
#include <sleef.h>
#endif

namespace fusor::exec {

/// `vector_function<Op, T>::available`: `Op` has a vectorised form for element type `T`
/// (`has_vector_form`); then `apply(x, n)` replaces x[0, n) by Op(x[i]) (x padded to a multiple
/// of `lanes`) and `apply_exact(x, n)` does the same writing nothing past x[n). Built without
/// SLEEF, only `sqrt` is available (on a target with SIMD square roots).
template <class Op, class T>
struct vector_function {
    static constexpr bool available = false;
};

/// Extra elements a buffer passed to `vector_function::apply` needs past its end (a partial
/// last register is computed in full; the extra results are never read).
inline constexpr index_t vector_padding = 16;

#if FUSOR_VECTOR_SQRT

// The widest registers the compile target allows: lanes, load, store and the square root.
#if defined(__AVX512F__)
struct simd_isa {
    static constexpr index_t float_lanes = 16, double_lanes = 8;
    static __m512 load(const float* p) { return _mm512_loadu_ps(p); }
    static __m512d load(const double* p) { return _mm512_loadu_pd(p); }
    static void store(float* p, __m512 v) { _mm512_storeu_ps(p, v); }
    static void store(double* p, __m512d v) { _mm512_storeu_pd(p, v); }
    static __m512 sqrt_ps(__m512 v) { return _mm512_sqrt_ps(v); }
    static __m512d sqrt_pd(__m512d v) { return _mm512_sqrt_pd(v); }
};
#elif defined(__AVX__)
struct simd_isa {
    static constexpr index_t float_lanes = 8, double_lanes = 4;
    static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
    static __m256d load(const double* p) { return _mm256_loadu_pd(p); }
    static void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
    static void store(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
    static __m256 sqrt_ps(__m256 v) { return _mm256_sqrt_ps(v); }
    static __m256d sqrt_pd(__m256d v) { return _mm256_sqrt_pd(v); }
};
#else
struct simd_isa {
    static constexpr index_t float_lanes = 4, double_lanes = 2;
    static __m128 load(const float* p) { return _mm_loadu_ps(p); }
    static __m128d load(const double* p) { return _mm_loadu_pd(p); }
    static void store(float* p, __m128 v) { _mm_storeu_ps(p, v); }
    static void store(double* p, __m128d v) { _mm_storeu_pd(p, v); }
    static __m128 sqrt_ps(__m128 v) { return _mm_sqrt_ps(v); }
    static __m128d sqrt_pd(__m128d v) { return _mm_sqrt_pd(v); }
};
#endif

// `Fn` over x[0, n) a register at a time.
template <class T, auto Fn>
struct register_function {
    static constexpr bool available = true;
    static constexpr index_t lanes =
        sizeof(T) == 4 ? simd_isa::float_lanes : simd_isa::double_lanes;
    static_assert(lanes <= vector_padding);
    static void apply(T* x, index_t n) {
        for (index_t i = 0; i < n; i += lanes)
            simd_isa::store(x + i, Fn(simd_isa::load(x + i)));
    }
    // As apply, touching nothing past x[n): a partial last register goes through a copy.
    static void apply_exact(T* x, index_t n) {
        index_t i = 0;
        for (; i + lanes <= n; i += lanes)
            simd_isa::store(x + i, Fn(simd_isa::load(x + i)));
        if (i < n) {
            T tail[lanes] = {};
            std::copy_n(x + i, n - i, tail);
            simd_isa::store(tail, Fn(simd_isa::load(tail)));
            std::copy_n(tail, n - i, x + i);
        }
    }
};

// numpy.sqrt: the SIMD square root, correctly rounded (IEEE 754) as std::sqrt is, so the same
// bits, NaN for negative arguments and -0 for -0.
template <>
struct vector_function<ops::sqrt, float> : register_function<float, &simd_isa::sqrt_ps> {};
template <>
struct vector_function<ops::sqrt, double> : register_function<double, &simd_isa::sqrt_pd> {};

#endif // FUSOR_VECTOR_SQRT

#if FUSOR_VECTOR_MATH

// The SLEEF variant for simd_isa's registers.
#if defined(__AVX512F__)
#define FUSOR_SLEEF_F(fn) Sleef_##fn##f16_u10avx512f
#define FUSOR_SLEEF_D(fn) Sleef_##fn##d8_u10avx512f
#define FUSOR_SLEEF_ISA "avx512f"
#elif defined(__AVX__)
#if defined(__AVX2__) && defined(__FMA__)
#define FUSOR_SLEEF_F(fn) Sleef_##fn##f8_u10avx2
#define FUSOR_SLEEF_D(fn) Sleef_##fn##d4_u10avx2
#define FUSOR_SLEEF_ISA "avx2"
#else
#define FUSOR_SLEEF_F(fn) Sleef_##fn##f8_u10avx
#define FUSOR_SLEEF_D(fn) Sleef_##fn##d4_u10avx
#define FUSOR_SLEEF_ISA "avx"
#endif
#else
#if defined(__SSE4_1__)
#define FUSOR_SLEEF_F(fn) Sleef_##fn##f4_u10sse4
#define FUSOR_SLEEF_D(fn) Sleef_##fn##d2_u10sse4
#define FUSOR_SLEEF_ISA "sse4"
#else
#define FUSOR_SLEEF_F(fn) Sleef_##fn##f4_u10sse2
#define FUSOR_SLEEF_D(fn) Sleef_##fn##d2_u10sse2
#define FUSOR_SLEEF_ISA "sse2"
#endif
#endif

// numpy name -> SLEEF name, float and double, for every function of the one list
// (ops/vector_forms.hpp) the planner also reads.
#define FUSOR_VECTOR_FUNCTION(OP, FN)                                                              \
    template <>                                                                                    \
    struct vector_function<ops::OP, float> : register_function<float, &FUSOR_SLEEF_F(FN)> {};      \
    template <>                                                                                    \
    struct vector_function<ops::OP, double> : register_function<double, &FUSOR_SLEEF_D(FN)> {};
FUSOR_VECTOR_FUNCTIONS(FUSOR_VECTOR_FUNCTION)
#undef FUSOR_VECTOR_FUNCTION
#undef FUSOR_SLEEF_F
#undef FUSOR_SLEEF_D

/// The SLEEF variant this translation unit calls ("avx512f", "avx2", "avx", "sse4", "sse2").
inline constexpr const char* vector_math_isa = FUSOR_SLEEF_ISA;
#undef FUSOR_SLEEF_ISA
#else
inline constexpr const char* vector_math_isa = "";
#endif

} // namespace fusor::exec
