// tests/oracle/check.hpp: the two helpers the NumPy-generated oracle tests use (numpy_cases*.hpp,
// written by generate.py): `make` builds an input tensor from literal values, `check_tensor`
// compares a result with NumPy's dtype, shape and values.
//
// Expected values are passed as `long double`: every float32/float64 value and every integer
// the generator emits (it keeps them within ±2^53) converts to it exactly, so an exact check
// really is exact. The generator writes floats as Python's repr() (shortest text that
// round-trips to the same double), and NaN / ±infinity as `NaN` / `Inf` below.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace oracle {

inline constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double Inf = std::numeric_limits<double>::infinity();

// Tolerances (relative) for the transcendental functions exp and log. NumPy 1.24 evaluates
// float32 exp/log with its own SIMD kernels (AVX2/AVX512F, a few ulp of maximum error) and
// float64 exp/log with AVX512F kernels on machines that have it, otherwise with libm; fusor
// calls std::exp/std::log (glibc: < 1 ulp). Measured on the machine that generated the cases,
// over 2e5 random inputs: NumPy and glibc differ by at most 2 ulp (float32) and 1 ulp (float64).
// One ulp of a normal number is at most eps * |value|, so 4 eps (float32: 4.8e-7, float64:
// 8.9e-16) separates "same function, different rounding" from "wrong" with a 2x margin and
// admits no real error. sqrt is correctly rounded (IEEE 754) on both sides: checked exactly.
inline constexpr double rtol_transcendental_f32 = 4.0 * FLT_EPSILON;
inline constexpr double rtol_transcendental_f64 = 4.0 * DBL_EPSILON;

// Tolerances (relative) for every math function the random element-wise cases compare (section 6
// of generate.py): exp exp2 expm1 log log2 log10 log1p cbrt sin cos tan arcsin arccos arctan sinh
// cosh tanh arctan2 hypot and float power. On an AVX512 machine NumPy 1.24 runs most of them with
// SVML or its own SIMD kernels, fusor calls the C library (glibc). Measured on the machine that
// generated the cases, over 2.8e6 inputs per function and type (normal, uniform [-1, 1], small
// integers, halves, magnitudes e^-80..e^80, 1 - e^-30..1, pi/2 +- 1e-3, signed zeros, inf, NaN;
// subnormal results excluded, as the generator excludes them): |numpy - glibc| / |numpy| is at most
// 2.94 eps (cbrt, float64; arcsin 2.85 eps float32, arctan2 2.55 eps float32, every other <= 2.2
// eps), and NaN / inf agree everywhere. 8 eps keeps a 2.7x margin over the worst case and still
// catches any real error (a wrong rounding mode, a float computed in double, a wrong branch).
inline constexpr double rtol_math_f32 = 8.0 * FLT_EPSILON;
inline constexpr double rtol_math_f64 = 8.0 * DBL_EPSILON;

/// The literal type an input tensor of element type T is written in: double for floats (every
/// float32 value is a double exactly), bool for bool, long long for integers.
template <class T>
using literal_t = std::conditional_t<std::is_floating_point_v<T>,
                                     double,
                                     std::conditional_t<std::is_same_v<T, bool>, bool, long long>>;

/// A tensor of `shape` holding `values` (row-major), each converted exactly to T.
/// Example: `make<float>({2, 3}, {1.5, -2.0, 0.25, NaN, Inf, 0.0})`; `make<int>({}, {7})` is 0-d.
template <class T>
fusor::tensor<T> make(fusor::shape_t shape, std::initializer_list<literal_t<T>> values) {
    fusor::tensor<T> t(shape);
    REQUIRE_MESSAGE(static_cast<fusor::index_t>(values.size()) == t.size(),
                    "oracle::make: " << values.size() << " values for shape " << shape);
    std::size_t k = 0;
    for (literal_t<T> v : values)
        t.data()[k++] = static_cast<T>(v);
    return t;
}

namespace detail {
inline std::string show(long double v) {
    std::ostringstream os;
    os << std::setprecision(21) << v;
    if (std::isfinite(v) && v != std::floor(v))
        os << " (" << std::hexfloat << static_cast<double>(v) << ")";
    return os.str();
}

// Exact unless a tolerance is given; NaN matches NaN; an infinity only matches itself.
inline bool matches(long double got, long double want, double rtol, double atol) {
    if (std::isnan(want) || std::isnan(got))
        return std::isnan(want) && std::isnan(got);
    if (got == want)
        return true;
    if (std::isinf(want) || std::isinf(got))
        return false;
    return std::fabs(got - want)
           <= static_cast<long double>(atol) + static_cast<long double>(rtol) * std::fabs(want);
}
} // namespace detail

/// Checks `got` against NumPy: dtype name (`fusor::dtype_name<T>()` against numpy's
/// `dtype.name`), shape, then every value in row-major order. Values compare exactly (NaN equal
/// to NaN) unless a tolerance is given: |got - want| <= atol + rtol * |want|. The generator
/// passes a tolerance only for transcendental functions and floating-point sums, means and
/// variances, and justifies each where it computes it.
template <class T>
void check_tensor(const fusor::tensor<T>& got,
                  std::string_view dtype,
                  const fusor::shape_t& shape,
                  const std::vector<long double>& expected,
                  double rtol = 0.0,
                  double atol = 0.0) {
    CHECK(fusor::dtype_name<T>() == dtype);
    CHECK(got.shape() == shape);
    REQUIRE(static_cast<std::size_t>(got.size()) == expected.size());
    if (got.shape() != shape)
        return;
    std::size_t k = 0;
    for (T v : got) {
        const long double g = static_cast<long double>(v), w = expected[k];
        CHECK_MESSAGE(detail::matches(g, w, rtol, atol),
                      "element " << k << " (row-major): got " << detail::show(g) << ", numpy "
                                 << detail::show(w) << " (rtol " << rtol << ", atol " << atol
                                 << ")");
        ++k;
    }
}

} // namespace oracle

/// A SUBCASE named `EXPR | numpy: NUMPY` that checks `fusor::eval(EXPR)` with
/// `oracle::check_tensor(result, dtype, shape, values[, rtol[, atol]])`, the arguments after
/// NUMPY. The generated headers use it so that an expression is written once, both as the code
/// that runs and as the name a failure prints.
#define ORACLE_SUBCASE(EXPR, NUMPY, ...)                                                           \
    SUBCASE(#EXPR " | numpy: " NUMPY) {                                                            \
        ::oracle::check_tensor(::fusor::eval(EXPR), __VA_ARGS__);                                  \
    }

/// A SUBCASE that checks that evaluating EXPR throws EXC (where NumPy raises).
#define ORACLE_SUBCASE_THROWS(EXPR, NUMPY, EXC)                                                    \
    SUBCASE(#EXPR " throws " #EXC " | numpy: " NUMPY) {                                            \
        CHECK_THROWS_AS(::fusor::eval(EXPR), EXC);                                                 \
    }
