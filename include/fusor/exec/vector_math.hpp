// fusor/exec/vector_math.hpp: vectorised exp, sin, log ... from SLEEF (Debian libsleef-dev),
// the only header naming it. A compiler cannot vectorise a call to std::exp; SLEEF's u10
// functions take a whole register of floats at once, within 1.0 ulp of the exact result. The
// element-wise kernels run them over blocks of the inner loop (the block evaluator below).
#pragma once

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/ops/math.hpp>
#include <fusor/ops/vector_forms.hpp>

#if FUSOR_VECTOR_MATH
#include <immintrin.h>
#include <sleef.h>
#endif

namespace fusor::exec {

/// `vector_function<Op, T>::available`: `Op` has a vectorised form for element type `T`;
/// then `apply(x, n)` replaces x[0, n) by Op(x[i]) (x padded to a multiple of `lanes`), and
/// `name` is the function it calls. Built without SLEEF, nothing is available.
template <class Op, class T>
struct vector_function {
    static constexpr bool available = false;
};

/// Extra elements a buffer passed to `vector_function::apply` needs past its end (a partial
/// last register is computed in full; the extra results are never read).
inline constexpr index_t vector_padding = 16;

#if FUSOR_VECTOR_MATH

// The widest SLEEF variant the compile target allows: lanes, register types, load and store.
#if defined(__AVX512F__)
#define FUSOR_SLEEF_F(fn) Sleef_##fn##f16_u10avx512f
#define FUSOR_SLEEF_D(fn) Sleef_##fn##d8_u10avx512f
#define FUSOR_SLEEF_ISA "avx512f"
struct sleef_isa {
    static constexpr index_t float_lanes = 16, double_lanes = 8;
    static __m512 load(const float* p) { return _mm512_loadu_ps(p); }
    static __m512d load(const double* p) { return _mm512_loadu_pd(p); }
    static void store(float* p, __m512 v) { _mm512_storeu_ps(p, v); }
    static void store(double* p, __m512d v) { _mm512_storeu_pd(p, v); }
};
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
struct sleef_isa {
    static constexpr index_t float_lanes = 8, double_lanes = 4;
    static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
    static __m256d load(const double* p) { return _mm256_loadu_pd(p); }
    static void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
    static void store(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
};
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
struct sleef_isa {
    static constexpr index_t float_lanes = 4, double_lanes = 2;
    static __m128 load(const float* p) { return _mm_loadu_ps(p); }
    static __m128d load(const double* p) { return _mm_loadu_pd(p); }
    static void store(float* p, __m128 v) { _mm_storeu_ps(p, v); }
    static void store(double* p, __m128d v) { _mm_storeu_pd(p, v); }
};
#endif

template <class T, auto Fn>
struct sleef_function {
    static constexpr bool available = true;
    static constexpr index_t lanes =
        sizeof(T) == 4 ? sleef_isa::float_lanes : sleef_isa::double_lanes;
    static_assert(lanes <= vector_padding);
    static void apply(T* x, index_t n) {
        for (index_t i = 0; i < n; i += lanes)
            sleef_isa::store(x + i, Fn(sleef_isa::load(x + i)));
    }
};

// numpy name -> SLEEF name, float and double, for every function of the one list
// (ops/vector_forms.hpp) the planner also reads.
#define FUSOR_VECTOR_FUNCTION(OP, FN)                                                              \
    template <>                                                                                    \
    struct vector_function<ops::OP, float> : sleef_function<float, &FUSOR_SLEEF_F(FN)> {           \
        static constexpr const char* name = "Sleef_" #FN "f_u10 (" FUSOR_SLEEF_ISA ")";            \
    };                                                                                             \
    template <>                                                                                    \
    struct vector_function<ops::OP, double> : sleef_function<double, &FUSOR_SLEEF_D(FN)> {         \
        static constexpr const char* name = "Sleef_" #FN "d_u10 (" FUSOR_SLEEF_ISA ")";            \
    };
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
