// fusor/ops/math.hpp: the math functions of numpy: exp, log, sin, ..., rounding, sign, the
// floating-point classification (isnan ...), arctan2 and hypot.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/convert.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/ops/arithmetic.hpp>

namespace fusor::ops {

#define FUSOR_FLOAT_FUNCTION(NAME, STD)                                                            \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        template <class A>                                                                         \
        using result = float_result_t<A>;                                                          \
        template <class A>                                                                         \
        FUSOR_INLINE result<A> operator()(A a) const {                                             \
            return STD(static_cast<result<A>>(a));                                                 \
        }                                                                                          \
    };
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
#undef FUSOR_FLOAT_FUNCTION2

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
// 10^n as NumPy's round computes it (numpy/core/src/multiarray/calculation.c, power_of_ten): the
// exact powers to 1e22 (the same values as its table to 1e8 and its products by 10 after it),
// then products by 10 (inexact past 1e22; inf from 1e309 on).
inline double power_of_ten(std::int64_t n) {
    static constexpr double exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (n <= 22)
        return exact[n];
    double r = 1e22;
    for (std::int64_t k = 22; k < n && k < 310; ++k) // inf from 1e309 on: stop there
        r *= 10.0;
    return r;
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
        const auto d = static_cast<std::int64_t>(decimals);
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
