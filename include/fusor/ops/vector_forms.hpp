// fusor/ops/vector_forms.hpp: which math functions have a vectorised form in this build, as one
// list. The planner reads it to decide whether a loop runs its math in blocks, through SLEEF or
// the SIMD square root (plan/kernel_choice.hpp; explain prints that decision);
// exec/vector_math.hpp reads the same list to call them.
#pragma once

#include <string_view>
#include <type_traits>

#include <fusor/ops/math.hpp>

/// 1 when fusor was built with SLEEF (CMake `FUSOR_SLEEF`, or `-DFUSOR_HAS_SLEEF=1 -lsleef` by
/// hand) for an x86 SIMD target: then the functions of `FUSOR_VECTOR_FUNCTIONS` run in SIMD
/// registers over blocks of the inner loop.
#if defined(FUSOR_HAS_SLEEF) && (defined(__SSE2__) || defined(__AVX__) || defined(__AVX512F__))
#define FUSOR_VECTOR_MATH 1
#else
#define FUSOR_VECTOR_MATH 0
#endif

/// 1 when the compile target has SIMD square roots (x86 SSE2, AVX, AVX-512), with or without
/// SLEEF: then `sqrt` of float32 and float64 runs a register at a time over blocks of the inner
/// loop, as the SLEEF functions do. The instruction rounds correctly, as `std::sqrt` does: the
/// same bits. (g++ and clang++ vectorise `std::sqrt` themselves only under -fno-math-errno: it
/// may set errno.)
#if defined(__SSE2__) || defined(__AVX__) || defined(__AVX512F__)
#define FUSOR_VECTOR_SQRT 1
#else
#define FUSOR_VECTOR_SQRT 0
#endif

/// The functions with a vectorised form: X(numpy name, SLEEF name). Left out: sinh and cosh
/// (SLEEF's overflow to inf comes early: sinhf(89) is inf, not 2.2e38) and log1p (inf for the
/// largest finite values); those stay on the C library.
#define FUSOR_VECTOR_FUNCTIONS(X)                                                                  \
    X(exp, exp)                                                                                    \
    X(exp2, exp2)                                                                                  \
    X(expm1, expm1)                                                                                \
    X(log, log)                                                                                    \
    X(log2, log2)                                                                                  \
    X(log10, log10)                                                                                \
    X(cbrt, cbrt)                                                                                  \
    X(sin, sin)                                                                                    \
    X(cos, cos)                                                                                    \
    X(tan, tan)                                                                                    \
    X(arcsin, asin)                                                                                \
    X(arccos, acos)                                                                                \
    X(arctan, atan)                                                                                \
    X(tanh, tanh)

namespace fusor {

namespace detail {
template <class Op>
struct listed_vector_function : std::false_type {};
#define FUSOR_LIST_VECTOR_FUNCTION(OP, FN)                                                         \
    template <>                                                                                    \
    struct listed_vector_function<ops::OP> : std::true_type {};
FUSOR_VECTOR_FUNCTIONS(FUSOR_LIST_VECTOR_FUNCTION)
#undef FUSOR_LIST_VECTOR_FUNCTION

// `Op` has a vectorised form in this build, for float32 and float64.
template <class Op>
inline constexpr bool vectorised_op = (FUSOR_VECTOR_MATH != 0 && listed_vector_function<Op>::value)
                                      || (FUSOR_VECTOR_SQRT != 0 && std::is_same_v<Op, ops::sqrt>);
} // namespace detail

/// True when `Op` over element type `T` runs through a vectorised function in this build:
/// float32 and float64 results of the listed functions, with SLEEF, and of `sqrt` on a target
/// with SIMD square roots (`FUSOR_VECTOR_SQRT`).
template <class Op, class T>
inline constexpr bool has_vector_form =
    detail::vectorised_op<Op> && (std::is_same_v<T, float> || std::is_same_v<T, double>);

/// True for the vectorised functions that give exactly the C library's result, by numpy name:
/// `sqrt` (the SIMD instruction rounds correctly). The others are SLEEF's, within 1 ulp.
constexpr bool exact_vector_form(std::string_view numpy_name) {
    return numpy_name == ops::sqrt::name;
}

} // namespace fusor
