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

// The SSE2 target (x86-64's default) uses SSE2's instructions only: <emmintrin.h>, not
// <immintrin.h>, which declares every x86 extension's intrinsics and took 0.7 s of g++'s time on
// its own (about a tenth of `#include <fusor/fusor.hpp>`, docs/performance.md).
#if FUSOR_VECTOR_SQRT && defined(__AVX__)
#include <immintrin.h>
#elif FUSOR_VECTOR_SQRT
#include <emmintrin.h>
#endif
#if FUSOR_VECTOR_MATH
#include <sleef.h>
#endif

namespace fusor::exec {

/// `vector_function<Op, T>::available`: `Op` has a vectorised form for element type `T`
/// (`has_vector_form`); then `apply(x, n)` replaces x[0, n) by Op(x[i]) (x padded to a multiple
/// of `lanes`), `apply_exact(x, n)` does the same writing nothing past x[n), and
/// `apply_from(x, y, n)` writes Op(x[i]) to y[i], touching nothing past either end. Built without
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
    // The masked forms with every lane set are the same instruction; the plain ones pass
    // _mm512_undefined_ps() through, which g++ 12 reports under -Wmaybe-uninitialized once
    // inlined into a loop (the register form).
    static __m512 sqrt_ps(__m512 v) { return _mm512_mask_sqrt_ps(v, __mmask16(0xffff), v); }
    static __m512d sqrt_pd(__m512d v) { return _mm512_mask_sqrt_pd(v, __mmask8(0xff), v); }
    static __m512 splat(float x) { return _mm512_set1_ps(x); }
    static __m512d splat(double x) { return _mm512_set1_pd(x); }
    // The first n lanes (n <= lanes), the others zero: masked, so nothing past p + n is read.
    static __m512 load_partial(const float* p, index_t n) {
        return _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << n) - 1), p);
    }
    static __m512d load_partial(const double* p, index_t n) {
        return _mm512_maskz_loadu_pd(static_cast<__mmask8>((1u << n) - 1), p);
    }
    static void store_partial(float* p, __m512 v, index_t n) {
        _mm512_mask_storeu_ps(p, static_cast<__mmask16>((1u << n) - 1), v);
    }
    static void store_partial(double* p, __m512d v, index_t n) {
        _mm512_mask_storeu_pd(p, static_cast<__mmask8>((1u << n) - 1), v);
    }
    // Lane j is p[j * k], k = 1 or 2 (an operand at unit stride or at stride 2), the same
    // instructions for both: masked loads of the k * n - (k - 1) elements the first n lanes read
    // (nothing past them: the operand may end there) and a permute keeping every k-th. The other
    // lanes are zero.
    static __m512i every_lanes32(index_t k) {
        return _mm512_mask_blend_epi32(
            static_cast<__mmask16>(-(k - 1)), // every lane for k = 2, none for k = 1
            _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
            _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30));
    }
    static __m512i every_lanes64(index_t k) {
        return _mm512_mask_blend_epi64(static_cast<__mmask8>(-(k - 1)),
                                       _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7),
                                       _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14));
    }
    // A whole register that another of the operand's elements follows (p[k * lanes] exists:
    // exec/execute.hpp's registers_loop sends a row's last register through the partial form),
    // so plain loads: the second register ends at p[2 * lanes - 1], inside the operand.
    // For k = 1 it is p again. Masked loads of 15 lanes made `exp(a[::2])` over 2^22 float32
    // results 4.5-4.8 ms against 1.1 (AMD EPYC, AVX-512; scratch loop, best of 30).
    static __m512 load_every(const float* p, index_t k) {
        return _mm512_permutex2var_ps(
            _mm512_loadu_ps(p), every_lanes32(k), _mm512_loadu_ps(p + 16 * (k - 1)));
    }
    static __m512d load_every(const double* p, index_t k) {
        return _mm512_permutex2var_pd(
            _mm512_loadu_pd(p), every_lanes64(k), _mm512_loadu_pd(p + 8 * (k - 1)));
    }
    static __m512 load_every(const float* p, index_t k, index_t n) {
        const index_t need = k * n - (k - 1);
        return _mm512_permutex2var_ps(
            _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << std::min<index_t>(need, 16)) - 1),
                                  p),
            every_lanes32(k),
            _mm512_maskz_loadu_ps(
                static_cast<__mmask16>((1u << std::max<index_t>(need - 16, 0)) - 1), p + 16));
    }
    static __m512d load_every(const double* p, index_t k, index_t n) {
        const index_t need = k * n - (k - 1);
        return _mm512_permutex2var_pd(
            _mm512_maskz_loadu_pd(static_cast<__mmask8>((1u << std::min<index_t>(need, 8)) - 1), p),
            every_lanes64(k),
            _mm512_maskz_loadu_pd(static_cast<__mmask8>((1u << std::max<index_t>(need - 8, 0)) - 1),
                                  p + 8));
    }
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
    static __m256 splat(float x) { return _mm256_set1_ps(x); }
    static __m256d splat(double x) { return _mm256_set1_pd(x); }
    // The first n lanes (n <= lanes), the others zero: masked, so nothing past p + n is read.
    // The mask of n lanes is a window into a row of 8 set lanes followed by 8 clear ones.
    static __m256i lane_mask32(index_t n) {
        alignas(32) static constexpr int mask[16] = {-1, -1, -1, -1, -1, -1, -1, -1};
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask + 8 - n));
    }
    static __m256i lane_mask64(index_t n) {
        alignas(32) static constexpr long long mask[8] = {-1, -1, -1, -1};
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask + 4 - n));
    }
    static __m256 load_partial(const float* p, index_t n) {
        return _mm256_maskload_ps(p, lane_mask32(n));
    }
    static __m256d load_partial(const double* p, index_t n) {
        return _mm256_maskload_pd(p, lane_mask64(n));
    }
    static void store_partial(float* p, __m256 v, index_t n) {
        _mm256_maskstore_ps(p, lane_mask32(n), v);
    }
    static void store_partial(double* p, __m256d v, index_t n) {
        _mm256_maskstore_pd(p, lane_mask64(n), v);
    }
#if defined(__AVX2__)
    // Lane j is p[j * k], k = 1 or 2 (an operand at unit stride or at stride 2), the same
    // instructions for both: loads of the k * n - (k - 1) elements the first n lanes read
    // (masked: nothing past them, the operand may end there), then the first register or the
    // even lanes of both, chosen by a blend, not a branch. The other lanes are zero.
    static __m256 pick_even(__m256 lo, __m256 hi) {
        // [lo0 lo2 hi0 hi2 | lo4 lo6 hi4 hi6], then its 64-bit quarters in the order 0 2 1 3.
        const __m256 pairs = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
        return _mm256_castpd_ps(
            _mm256_permute4x64_pd(_mm256_castps_pd(pairs), _MM_SHUFFLE(3, 1, 2, 0)));
    }
    static __m256d pick_even(__m256d lo, __m256d hi) {
        // [lo0 hi0 lo2 hi2], then its quarters in the order 0 2 1 3.
        return _mm256_permute4x64_pd(_mm256_unpacklo_pd(lo, hi), _MM_SHUFFLE(3, 1, 2, 0));
    }
    static __m256 load_every(const float* p, index_t k, index_t n) {
        const index_t need = k * n - (k - 1);
        return every(load_partial(p, std::min<index_t>(need, 8)),
                     load_partial(p + 8, std::max<index_t>(need - 8, 0)),
                     k);
    }
    static __m256d load_every(const double* p, index_t k, index_t n) {
        const index_t need = k * n - (k - 1);
        return every(load_partial(p, std::min<index_t>(need, 4)),
                     load_partial(p + 4, std::max<index_t>(need - 4, 0)),
                     k);
    }
    // A whole register that another of the operand's elements follows (as AVX-512's): plain
    // loads, the second ending at p[2 * lanes - 1], inside the operand (p again for k = 1).
    // Masked loads cost on AMD: a masked load of all 8 lanes made exp(a[::2]) over 2^22 float32
    // results take twice as long on Zen 3 (10 ms against 5.3).
    static __m256 load_every(const float* p, index_t k) {
        return every(_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8 * (k - 1)), k);
    }
    static __m256d load_every(const double* p, index_t k) {
        return every(_mm256_loadu_pd(p), _mm256_loadu_pd(p + 4 * (k - 1)), k);
    }
    static __m256 every(__m256 lo, __m256 hi, index_t k) {
        const __m256 even = _mm256_castsi256_ps(_mm256_set1_epi32(-static_cast<int>(k - 1)));
        return _mm256_blendv_ps(lo, pick_even(lo, hi), even);
    }
    static __m256d every(__m256d lo, __m256d hi, index_t k) {
        const __m256d even = _mm256_castsi256_pd(_mm256_set1_epi64x(-(k - 1)));
        return _mm256_blendv_pd(lo, pick_even(lo, hi), even);
    }
#endif
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
    /// The function on one register (the register form: exec/evaluator.hpp, `get_register`).
    template <class V>
    FUSOR_INLINE static V compute(V v) {
        return Fn(v);
    }
    static void apply(T* x, index_t n) {
        for (index_t i = 0; i < n; i += lanes)
            simd_isa::store(x + i, Fn(simd_isa::load(x + i)));
    }
    // As apply, touching nothing past x[n): a partial last register goes through a copy.
    static void apply_exact(T* x, index_t n) { apply_from(x, x, n); }
    // y[i] = Fn(x[i]) for i in [0, n), reading nothing past x[n) and writing nothing past
    // y[n): the function straight from an operand's elements, without first copying them
    // into the buffer (x == y computes in place).
    static void apply_from(const T* x, T* y, index_t n) {
        index_t i = 0;
        for (; i + lanes <= n; i += lanes)
            simd_isa::store(y + i, Fn(simd_isa::load(x + i)));
        if (i < n) {
            T tail[lanes] = {};
            std::copy_n(x + i, n - i, tail);
            simd_isa::store(tail, Fn(simd_isa::load(tail)));
            std::copy_n(tail, n - i, y + i);
        }
    }
};

// numpy.sqrt: the SIMD square root, correctly rounded (IEEE 754) as std::sqrt is, so the same
// bits, NaN for negative arguments and -0 for -0.
template <>
struct vector_function<ops::sqrt, float> : register_function<float, &simd_isa::sqrt_ps> {};
template <>
struct vector_function<ops::sqrt, double> : register_function<double, &simd_isa::sqrt_pd> {};

#if FUSOR_MATH_IN_REGISTERS
/// The lanes of a register of `T` (float or double) on this target.
template <class T>
inline constexpr index_t register_lanes = sizeof(T) == 4 ? simd_isa::float_lanes
                                                         : simd_isa::double_lanes;

/// An operation of `register_arithmetic` (ops/vector_forms.hpp) on registers: the vector
/// instruction of the scalar operator, so each lane gets the scalar operator's bits.
template <class Op>
struct register_operation;
template <>
struct register_operation<ops::add> {
    template <class V>
    FUSOR_INLINE static V apply(V a, V b) {
        return a + b;
    }
};
template <>
struct register_operation<ops::subtract> {
    template <class V>
    FUSOR_INLINE static V apply(V a, V b) {
        return a - b;
    }
};
template <>
struct register_operation<ops::multiply> {
    template <class V>
    FUSOR_INLINE static V apply(V a, V b) {
        return a * b;
    }
};
template <>
struct register_operation<ops::divide> {
    template <class V>
    FUSOR_INLINE static V apply(V a, V b) {
        return a / b;
    }
};
template <>
struct register_operation<ops::negate> {
    template <class V>
    FUSOR_INLINE static V apply(V a) {
        return -a;
    }
};
template <>
struct register_operation<ops::square> {
    template <class V>
    FUSOR_INLINE static V apply(V a) {
        return a * a;
    }
};
#endif // FUSOR_MATH_IN_REGISTERS

#endif // FUSOR_VECTOR_SQRT

#if FUSOR_VECTOR_MATH

// The SLEEF variant for simd_isa's registers, of accuracy `acc` (u10: 1 ulp, u35: 3.5 ulp).
// Two levels, so that an `acc` given as a macro is expanded before it is pasted.
#define FUSOR_SLEEF_F(fn, acc) FUSOR_SLEEF_F_(fn, acc)
#define FUSOR_SLEEF_D(fn, acc) FUSOR_SLEEF_D_(fn, acc)
#if defined(__AVX512F__)
#define FUSOR_SLEEF_F_(fn, acc) Sleef_##fn##f16_##acc##avx512f
#define FUSOR_SLEEF_D_(fn, acc) Sleef_##fn##d8_##acc##avx512f
#define FUSOR_SLEEF_ISA "avx512f"
#elif defined(__AVX__)
#if defined(__AVX2__) && defined(__FMA__)
#define FUSOR_SLEEF_F_(fn, acc) Sleef_##fn##f8_##acc##avx2
#define FUSOR_SLEEF_D_(fn, acc) Sleef_##fn##d4_##acc##avx2
#define FUSOR_SLEEF_ISA "avx2"
#else
#define FUSOR_SLEEF_F_(fn, acc) Sleef_##fn##f8_##acc##avx
#define FUSOR_SLEEF_D_(fn, acc) Sleef_##fn##d4_##acc##avx
#define FUSOR_SLEEF_ISA "avx"
#endif
#else
#if defined(__SSE4_1__)
#define FUSOR_SLEEF_F_(fn, acc) Sleef_##fn##f4_##acc##sse4
#define FUSOR_SLEEF_D_(fn, acc) Sleef_##fn##d2_##acc##sse4
#define FUSOR_SLEEF_ISA "sse4"
#else
#define FUSOR_SLEEF_F_(fn, acc) Sleef_##fn##f4_##acc##sse2
#define FUSOR_SLEEF_D_(fn, acc) Sleef_##fn##d2_##acc##sse2
#define FUSOR_SLEEF_ISA "sse2"
#endif
#endif

// The accuracy of the functions that have a 3.5-ulp form (FUSOR_FAST_MATH).
#if FUSOR_FAST_MATH
#define FUSOR_SLEEF_FAST_ACCURACY u35
#else
#define FUSOR_SLEEF_FAST_ACCURACY u10
#endif

// numpy name -> SLEEF name, float and double, for every function of the one list
// (ops/vector_forms.hpp) the planner also reads; under FUSOR_FAST_MATH the functions that have
// one take SLEEF's 3.5-ulp form.
#define FUSOR_VECTOR_FUNCTION(OP, FN, ACC)                                                         \
    template <>                                                                                    \
    struct vector_function<ops::OP, float> : register_function<float, &FUSOR_SLEEF_F(FN, ACC)> {}; \
    template <>                                                                                    \
    struct vector_function<ops::OP, double> : register_function<double, &FUSOR_SLEEF_D(FN, ACC)> { \
    };
#define FUSOR_VECTOR_FUNCTION_1ULP(OP, FN) FUSOR_VECTOR_FUNCTION(OP, FN, u10)
#define FUSOR_VECTOR_FUNCTION_FAST(OP, FN) FUSOR_VECTOR_FUNCTION(OP, FN, FUSOR_SLEEF_FAST_ACCURACY)
FUSOR_VECTOR_FUNCTIONS_1ULP_ONLY(FUSOR_VECTOR_FUNCTION_1ULP)
FUSOR_VECTOR_FUNCTIONS_FAST(FUSOR_VECTOR_FUNCTION_FAST)
#undef FUSOR_VECTOR_FUNCTION
#undef FUSOR_VECTOR_FUNCTION_1ULP
#undef FUSOR_VECTOR_FUNCTION_FAST
#undef FUSOR_SLEEF_FAST_ACCURACY
#undef FUSOR_SLEEF_F
#undef FUSOR_SLEEF_D
#undef FUSOR_SLEEF_F_
#undef FUSOR_SLEEF_D_

/// The SLEEF variant this translation unit calls ("avx512f", "avx2", "avx", "sse4", "sse2").
inline constexpr const char* vector_math_isa = FUSOR_SLEEF_ISA;
#undef FUSOR_SLEEF_ISA
#else
inline constexpr const char* vector_math_isa = "";
#endif

} // namespace fusor::exec
