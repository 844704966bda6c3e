// fusor/ops/math.hpp: the math functions of numpy: exp, log, sin, ..., rounding, sign, the
// floating-point classification (isnan ...), arctan2 and hypot.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/convert.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/ops/arithmetic.hpp>

namespace fusor::ops {

// A math function NAME computing STD in type COMPUTE (the result type, or double for the few
// whose float forms the C library rounds worse than NumPy does) and returning `result<A>`.
#define FUSOR_FLOAT_FUNCTION_IN(NAME, STD, COMPUTE)                                                \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        template <class A>                                                                         \
        using result = float_result_t<A>;                                                          \
        template <class A>                                                                         \
        FUSOR_INLINE result<A> operator()(A a) const {                                             \
            return static_cast<result<A>>(STD(static_cast<COMPUTE>(a)));                           \
        }                                                                                          \
    };
#define FUSOR_FLOAT_FUNCTION(NAME, STD) FUSOR_FLOAT_FUNCTION_IN(NAME, STD, result<A>)
/// numpy.exp, numpy.log, numpy.sin, ... (the C library's function of the same meaning):
/// floating types keep theirs; bool and 8/16-bit integers give float32, wider integers
/// float64. Domain errors give NaN, poles ±inf (IEEE), never a trap.
FUSOR_FLOAT_FUNCTION(exp, std::exp)
FUSOR_FLOAT_FUNCTION(exp2, std::exp2)
FUSOR_FLOAT_FUNCTION(expm1, std::expm1)
FUSOR_FLOAT_FUNCTION(log, std::log)
FUSOR_FLOAT_FUNCTION(log2, std::log2)
FUSOR_FLOAT_FUNCTION(log10, std::log10)
FUSOR_FLOAT_FUNCTION(log1p, std::log1p)
FUSOR_FLOAT_FUNCTION(sqrt, std::sqrt)
FUSOR_FLOAT_FUNCTION(cbrt, std::cbrt)
FUSOR_FLOAT_FUNCTION(sin, std::sin)
FUSOR_FLOAT_FUNCTION(cos, std::cos)
FUSOR_FLOAT_FUNCTION(tan, std::tan)
FUSOR_FLOAT_FUNCTION(arcsin, std::asin)
FUSOR_FLOAT_FUNCTION(arccos, std::acos)
FUSOR_FLOAT_FUNCTION(arctan, std::atan)
FUSOR_FLOAT_FUNCTION(sinh, std::sinh)
FUSOR_FLOAT_FUNCTION(cosh, std::cosh)
FUSOR_FLOAT_FUNCTION(tanh, std::tanh)
#undef FUSOR_FLOAT_FUNCTION

/// numpy.arcsinh, numpy.arccosh (NaN below 1), numpy.arctanh (±inf at ±1, NaN beyond): float32
/// computed in float64 and rounded once (the C library's float forms are off by up to 0.9 ulp
/// where NumPy's, SVML's on AVX-512 hosts, round correctly; this way fusor's float32 values
/// equal NumPy's for 94-99 % of random inputs and are within an ulp otherwise); float64 is the
/// C library's (within 1 ulp).
FUSOR_FLOAT_FUNCTION_IN(arcsinh, std::asinh, double)
FUSOR_FLOAT_FUNCTION_IN(arccosh, std::acosh, double)
FUSOR_FLOAT_FUNCTION_IN(arctanh, std::atanh, double)
#undef FUSOR_FLOAT_FUNCTION_IN

/// numpy.deg2rad (numpy.radians) and numpy.rad2deg (numpy.degrees): `x * (π / 180)` and
/// `x * (180 / π)` with the factor computed in the result type from π rounded to it, as NumPy's
/// npy_deg2rad (`NPY_PIf / 180.0f` for float32); type as every math function.
#define FUSOR_ANGLE_CONVERSION(NAME, NUM, DEN)                                                     \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        template <class A>                                                                         \
        using result = float_result_t<A>;                                                          \
        template <class A>                                                                         \
        FUSOR_INLINE result<A> operator()(A a) const {                                             \
            using R = result<A>;                                                                   \
            constexpr R pi = static_cast<R>(3.141592653589793238462643383279502884);               \
            constexpr R factor = static_cast<R>(NUM) / static_cast<R>(DEN);                        \
            return static_cast<R>(a) * factor;                                                     \
        }                                                                                          \
    };
FUSOR_ANGLE_CONVERSION(deg2rad, pi, 180)
FUSOR_ANGLE_CONVERSION(rad2deg, 180, pi)
#undef FUSOR_ANGLE_CONVERSION

#define FUSOR_FLOAT_FUNCTION2(NAME, STD)                                                           \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        template <class A, class B>                                                                \
        using result = float_result_t<promote_t<A, B>>;                                            \
        template <class A, class B>                                                                \
        FUSOR_INLINE result<A, B> operator()(A a, B b) const {                                     \
            using R = result<A, B>;                                                                \
            return STD(static_cast<R>(a), static_cast<R>(b));                                      \
        }                                                                                          \
    };
/// numpy.arctan2 (the angle of the point (b, a), in radians, in [-π, π]) and numpy.hypot
/// (sqrt(a² + b²) without overflow): computed in `float_result_t<promote_t<A, B>>`.
FUSOR_FLOAT_FUNCTION2(arctan2, std::atan2)
FUSOR_FLOAT_FUNCTION2(hypot, std::hypot)
/// numpy.copysign: the magnitude of `a` with the sign of `b`.
FUSOR_FLOAT_FUNCTION2(copysign, std::copysign)
#undef FUSOR_FLOAT_FUNCTION2

/// numpy.logaddexp: `log(exp(a) + exp(b))` without overflow, by NumPy's npy_logaddexp: equal
/// operands (infinities of one sign included) give `a + ln 2`, else the larger plus
/// `log1p(exp(-|a - b|))`; NaN stays NaN. Type `float_result_t<promote_t<A, B>>`.
struct logaddexp {
    static constexpr std::string_view name = "logaddexp";
    template <class A, class B>
    using result = float_result_t<promote_t<A, B>>;
    template <class A, class B>
    FUSOR_INLINE result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        const R x = static_cast<R>(a_), y = static_cast<R>(b_);
        if (x == y)
            return x + static_cast<R>(0.693147180559945309417232121458176568);
        const R d = x - y;
        if (d > R(0))
            return x + std::log1p(std::exp(-d));
        if (d <= R(0))
            return y + std::log1p(std::exp(d));
        return d; // NaN
    }
};

/// numpy.fmod: the C remainder, with the sign of the dividend `a` (numpy.mod's has the
/// divisor's). Integers: `x fmod 0` is 0 (NumPy warns) and `INT_MIN fmod -1` 0; floats:
/// std::fmod (`fmod(x, 0.0)` NaN). Type `promote(a, b)`, two bools int8.
struct fmod {
    static constexpr std::string_view name = "fmod";
    template <class A, class B>
    using result = detail::bool_as_int8_t<promote_t<A, B>>;
    template <class A, class B>
    FUSOR_INLINE result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        if constexpr (std::is_floating_point_v<R>) {
            return std::fmod(a, b);
        } else {
            if (b == R(0))
                return R(0);
            if constexpr (std::is_signed_v<R>)
                if (b == R(-1))
                    return R(0); // INT_MIN % -1 would overflow in C++
            return static_cast<R>(a % b);
        }
    }
};

// Rounding keeps integer and bool types (NumPy 2.1+: a no-op there); floats round in their
// own type.
#define FUSOR_ROUNDING_FUNCTION(NAME, STD)                                                         \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        template <class A>                                                                         \
        using result = A;                                                                          \
        template <class A>                                                                         \
        FUSOR_INLINE A operator()(A a) const {                                                     \
            if constexpr (std::is_floating_point_v<A>)                                             \
                return STD(a);                                                                     \
            else                                                                                   \
                return a;                                                                          \
        }                                                                                          \
    };
/// numpy.floor, numpy.ceil, numpy.trunc, and numpy.round (numpy.rint: halves to even, via
/// std::nearbyint in the default rounding mode): floats keep their type; integers and bools
/// are returned unchanged.
FUSOR_ROUNDING_FUNCTION(floor, std::floor)
FUSOR_ROUNDING_FUNCTION(ceil, std::ceil)
FUSOR_ROUNDING_FUNCTION(trunc, std::trunc)
FUSOR_ROUNDING_FUNCTION(round, std::nearbyint)
#undef FUSOR_ROUNDING_FUNCTION

namespace detail {
// 10^n for 0 <= n as NumPy's round computes it (numpy/core/src/multiarray/calculation.c,
// power_of_ten): exact to 1e22, then products by 10 (inexact past 1e22; inf from 1e309 on). A
// table computed at compile time, so a call is one load: round_decimals asks once per element.
inline constexpr int max_finite_power_of_ten = 308;
inline constexpr auto powers_of_ten = [] {
    std::array<double, max_finite_power_of_ten + 1> table{};
    table[0] = 1.0;
    for (std::size_t n = 1; n < table.size(); ++n)
        table[n] = table[n - 1] * 10.0;
    return table;
}();
FUSOR_DECL double power_of_ten(std::int64_t n);

// signbit of an integer: `a < 0`, false for unsigned types and bool (no always-false compare).
template <class A>
constexpr bool is_negative(A a) {
    if constexpr (std::is_signed_v<A>)
        return a < A(0);
    else
        return false;
}
} // namespace detail

/// numpy.round (numpy.around) with `decimals`: `x` rounded to `decimals` digits after the point
/// (before it when negative), halves to even, by NumPy's arithmetic in `x`'s type: with `f =
/// 10^|decimals|` converted to that type, `nearbyint(x * f) / f` for `decimals >= 0`,
/// `nearbyint(x / f) * f` below (so `round(2.675, 2)` is 2.67, as NumPy: 2.675 is stored as
/// 2.67499...). Integers: unchanged for `decimals >= 0`; below, computed in float64 and converted
/// back (`round(int8(25), -1)` is 20, `round(int8(127), -1)` wraps to -126, as NumPy's cast).
/// Does not compile on bool (NumPy raises).
struct round_decimals {
    static constexpr std::string_view name = "round";
    template <class A, class B>
    using result = A;
    template <class A, class B>
    FUSOR_INLINE A operator()(A x, B decimals) const {
        static_assert(!std::is_same_v<A, bool>,
                      "fusor: round(e, decimals) of bool is not supported (NumPy raises); "
                      "cast<int8_t> or cast<double> first");
        // Every |decimals| past 308 gives the same inf factor: clamping keeps NumPy's results
        // and makes -decimals defined for INT64_MIN.
        const auto d = std::clamp<std::int64_t>(static_cast<std::int64_t>(decimals),
                                                -detail::max_finite_power_of_ten - 1,
                                                detail::max_finite_power_of_ten + 1);
        const double f = detail::power_of_ten(d >= 0 ? d : -d);
        if constexpr (std::is_floating_point_v<A>) {
            const A fa = static_cast<A>(f);
            return d >= 0 ? static_cast<A>(std::nearbyint(x * fa) / fa)
                          : static_cast<A>(std::nearbyint(x / fa) * fa);
        } else {
            if (d >= 0)
                return x;
            return convert<A>(std::nearbyint(static_cast<double>(x) / f) * f);
        }
    }
};

/// numpy.sign: -1, 0 or 1 in the operand's type; NaN stays NaN; -0.0 gives 0.0. Does not compile
/// on bool (NumPy has no bool loop).
struct sign {
    static constexpr std::string_view name = "sign";
    template <class A>
    using result = A;
    template <class A>
    FUSOR_INLINE constexpr A operator()(A a) const {
        static_assert(!std::is_same_v<A, bool>,
                      "fusor: sign of bool is not supported (as NumPy); cast<int8_t> first");
        if constexpr (std::is_floating_point_v<A>)
            return a > A(0) ? A(1) : a < A(0) ? A(-1) : a == A(0) ? A(0) : a;
        else if constexpr (std::is_unsigned_v<A>)
            return static_cast<A>(a > A(0));
        else
            return static_cast<A>((a > A(0)) - (a < A(0)));
    }
};

#define FUSOR_CLASSIFICATION(NAME, FLOAT_EXPR, INTEGER_VALUE)                                      \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        template <class A>                                                                         \
        using result = bool;                                                                       \
        template <class A>                                                                         \
        FUSOR_INLINE constexpr bool operator()(A a) const {                                        \
            if constexpr (std::is_floating_point_v<A>)                                             \
                return FLOAT_EXPR;                                                                 \
            else                                                                                   \
                return INTEGER_VALUE;                                                              \
        }                                                                                          \
    };
/// numpy.isnan, numpy.isinf, numpy.isfinite → bool; integers and bools are never NaN or
/// infinite.
FUSOR_CLASSIFICATION(isnan, a != a, false)
FUSOR_CLASSIFICATION(isinf,
                     a == std::numeric_limits<A>::infinity()
                         || a == -std::numeric_limits<A>::infinity(),
                     false)
FUSOR_CLASSIFICATION(isfinite, a - a == A(0), true)
/// numpy.signbit → bool: the sign bit (true for -0.0 and negative NaN); for integers `a < 0`.
FUSOR_CLASSIFICATION(signbit, std::signbit(a), detail::is_negative(a))
#undef FUSOR_CLASSIFICATION

/// numpy.absolute: keeps the type; wraps on the most negative integer (`abs(INT_MIN)` is
/// `INT_MIN`, as NumPy); identity on bool and unsigned types.
struct abs {
    static constexpr std::string_view name = "absolute";
    template <class A>
    using result = A;
    template <class A>
    FUSOR_INLINE constexpr A operator()(A a) const {
        if constexpr (std::is_same_v<A, bool> || std::is_unsigned_v<A>)
            return a;
        else if constexpr (std::is_floating_point_v<A>)
            return std::fabs(a);
        else
            return a < 0 ? negate{}(a) : a;
    }
};

} // namespace fusor::ops

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/ops/math.ipp>
#endif
