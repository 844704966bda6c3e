// fusor/ops/vector_forms.hpp: which math functions have a vectorised form in this build, as one
// list. The planner reads it to decide whether a loop runs its math in blocks, through SLEEF or
// the SIMD square root (plan/kernel_choice.hpp; explain prints that decision);
// exec/vector_math.hpp reads the same list to call them.
#pragma once

#include <string_view>
#include <type_traits>

#include <fusor/core/rounding.hpp> // FUSOR_FMA_TARGET
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

/// 1 when a loop's vectorised math functions can be computed a register at a time together with
/// their arguments (exec/evaluator.hpp, `get_register`): a target with masked loads and stores
/// (AVX, AVX-512), for the partial register at the end of a block, and some vectorised function
/// to compute (SLEEF's, or the SIMD square root). Below AVX the functions run over block buffers.
#if FUSOR_VECTOR_SQRT && (defined(__AVX__) || defined(__AVX512F__))
#define FUSOR_MATH_IN_REGISTERS 1
#else
#define FUSOR_MATH_IN_REGISTERS 0
#endif

/// 1 when the register form also reads operands at stride 2 (every second element: `a[::2]`,
/// a complex array's real parts) a register at a time, from two registers of their elements
/// with the even lanes picked (AVX2, AVX-512 permutes), instead of copying each block of them
/// into a buffer first (loop_plan::stride2_in_registers). Not the gather instructions: on this
/// project's host (microcode against "Downfall") they made exp(a[::2]) three times slower.
#if FUSOR_MATH_IN_REGISTERS && (defined(__AVX2__) || defined(__AVX512F__))
#define FUSOR_STRIDE2_IN_REGISTERS 1
#else
#define FUSOR_STRIDE2_IN_REGISTERS 0
#endif

/// 1 when a float32 sum's register accumulator converts its terms to float64 a 512-bit register
/// at a time (reduce_kernel::pairwise_simd, exec/register_sums.hpp): AVX-512, where one
/// conversion takes 8 floats; the compiler's own loop, in 256-bit vectors, converts 4.
#if FUSOR_MATH_IN_REGISTERS && defined(__AVX512F__)
#define FUSOR_SUM_IN_REGISTERS 1
#else
#define FUSOR_SUM_IN_REGISTERS 0
#endif

/// The functions with a vectorised form: X(numpy name, SLEEF name). Left out: sinh and cosh
/// (SLEEF's overflow to inf comes early: sinhf(89) is inf, not 2.2e38) and log1p (inf for the
/// largest finite values); those stay on the C library. FUSOR_VECTOR_FUNCTIONS_FAST are those
/// SLEEF also has within 3.5 ulp (its `u35` functions: FUSOR_FAST_MATH), FUSOR_VECTOR_FUNCTIONS
/// all of them.
#define FUSOR_VECTOR_FUNCTIONS_FAST(X)                                                             \
    X(exp2, exp2)                                                                                  \
    X(log, log)                                                                                    \
    X(log2, log2)                                                                                  \
    X(cbrt, cbrt)                                                                                  \
    X(sin, sin)                                                                                    \
    X(cos, cos)                                                                                    \
    X(tan, tan)                                                                                    \
    X(arcsin, asin)                                                                                \
    X(arccos, acos)                                                                                \
    X(arctan, atan)                                                                                \
    X(tanh, tanh)
#define FUSOR_VECTOR_FUNCTIONS_1ULP_ONLY(X)                                                        \
    X(exp, exp)                                                                                    \
    X(expm1, expm1)                                                                                \
    X(log10, log10)
#define FUSOR_VECTOR_FUNCTIONS(X)                                                                  \
    FUSOR_VECTOR_FUNCTIONS_1ULP_ONLY(X)                                                            \
    FUSOR_VECTOR_FUNCTIONS_FAST(X)

/// Opt-in (define it as 1 before including fusor, the same in every translation unit of a
/// program, or configure CMake with -DFUSOR_FAST_MATH=ON): the functions of
/// FUSOR_VECTOR_FUNCTIONS_FAST run SLEEF's faster 3.5-ulp (`u35`) forms instead of its 1-ulp
/// ones, as Eigen's and xtensor's vectorised functions trade accuracy for speed. `exp`, `expm1`
/// and `log10` have no such form and stay within 1 ulp; `sqrt` stays correctly rounded.
/// explain names the accuracy of each function it runs.
#ifndef FUSOR_FAST_MATH
#define FUSOR_FAST_MATH 0
#endif

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

/// True for the element-wise operations computed on whole SIMD registers in the register form
/// of a loop's math (FUSOR_MATH_IN_REGISTERS): `+`, `-`, `*`, `/`, unary `-` and `square` of
/// float32 or float64 operands of one type, which the instructions compute exactly as the
/// scalar operators do (IEEE 754, round to nearest).
template <class Op>
inline constexpr bool register_arithmetic = false;
template <>
inline constexpr bool register_arithmetic<ops::add> = true;
template <>
inline constexpr bool register_arithmetic<ops::subtract> = true;
template <>
inline constexpr bool register_arithmetic<ops::multiply> = true;
template <>
inline constexpr bool register_arithmetic<ops::divide> = true;
template <>
inline constexpr bool register_arithmetic<ops::negate> = true;
template <>
inline constexpr bool register_arithmetic<ops::square> = true;

/// True for the vectorised functions that give exactly the C library's result, by numpy name:
/// `sqrt` (the SIMD instruction rounds correctly). The others are SLEEF's, within 1 ulp (3.5
/// for those of FUSOR_VECTOR_FUNCTIONS_FAST under FUSOR_FAST_MATH: fast_vector_form).
constexpr bool exact_vector_form(std::string_view numpy_name) {
    return numpy_name == ops::sqrt::name;
}

/// True when the vectorised function `numpy_name` runs SLEEF's 3.5-ulp form in this
/// translation unit (FUSOR_FAST_MATH and a function of FUSOR_VECTOR_FUNCTIONS_FAST).
constexpr bool fast_vector_form(std::string_view numpy_name) {
    bool fast = false;
#define FUSOR_FAST_VECTOR_NAME(OP, FN) fast = fast || numpy_name == ops::OP::name;
    FUSOR_VECTOR_FUNCTIONS_FAST(FUSOR_FAST_VECTOR_NAME)
#undef FUSOR_FAST_VECTOR_NAME
    return FUSOR_FAST_MATH != 0 && fast;
}

} // namespace fusor
