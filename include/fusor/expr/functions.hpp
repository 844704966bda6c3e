// fusor/expr/functions.hpp: NumPy's element-wise functions (exp, arctan2, clip, cast, ...) as
// lazy nodes. Each returns an expression of the broadcast shape of its operands; nothing is
// computed until the expression is evaluated. Type rules (see core/dtype.hpp):
//  - math functions (sqrt ... tanh): floating types keep theirs, bool and 8/16-bit integers give
//    float32, 32/64-bit integers float64 (NumPy, which would give float16 for 8-bit ones);
//  - two-operand functions promote as numpy.result_type, C++ scalars are weak (NEP 50);
//  - shapes broadcast (NumPy's rule; `broadcast_error` names the shapes).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/ops/cast.hpp>
#include <fusor/ops/math.hpp>

namespace fusor {

/// `abs(e)`: numpy.absolute: keeps the type; `abs(INT_MIN)` wraps to `INT_MIN`, as NumPy; identity
/// on bool and unsigned. Shape unchanged.
template <class A>
    requires expression<A>
auto abs(A&& a) {
    return detail::make_unary<ops::abs>(std::forward<A>(a));
}
/// `square(e)`: numpy.square, `e * e`: keeps the type (bool gives int8); wraps on integers. Shape
/// unchanged.
template <class A>
    requires expression<A>
auto square(A&& a) {
    return detail::make_unary<ops::square>(std::forward<A>(a));
}
/// `sign(e)`: numpy.sign: -1, 0 or 1 in the operand's type, NaN stays NaN; does not compile on
/// bool. Shape unchanged.
template <class A>
    requires expression<A>
auto sign(A&& a) {
    return detail::make_unary<ops::sign>(std::forward<A>(a));
}
/// `sqrt(e)`: numpy.sqrt; negative inputs give NaN. Type: as every math function (float32 for bool
/// and 8/16-bit integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto sqrt(A&& a) {
    return detail::make_unary<ops::sqrt>(std::forward<A>(a));
}
/// `cbrt(e)`: numpy.cbrt, the real cube root (negative for negative inputs). Type: as every math
/// function (float32 for bool and 8/16-bit integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto cbrt(A&& a) {
    return detail::make_unary<ops::cbrt>(std::forward<A>(a));
}
/// `arcsinh(e)`, `arccosh(e)` (NaN below 1), `arctanh(e)` (±inf at ±1, NaN beyond):
/// numpy.arcsinh, numpy.arccosh, numpy.arctanh (the C library's asinh, acosh, atanh). Type: as
/// every math function. Shape unchanged.
template <class A>
    requires expression<A>
auto arcsinh(A&& a) {
    return detail::make_unary<ops::arcsinh>(std::forward<A>(a));
}
template <class A>
    requires expression<A>
auto arccosh(A&& a) {
    return detail::make_unary<ops::arccosh>(std::forward<A>(a));
}
template <class A>
    requires expression<A>
auto arctanh(A&& a) {
    return detail::make_unary<ops::arctanh>(std::forward<A>(a));
}
/// `deg2rad(e)` (also `radians(e)`) and `rad2deg(e)` (also `degrees(e)`): numpy.deg2rad and
/// numpy.rad2deg, `e * (π / 180)` and `e * (180 / π)` with the factor rounded to the result type
/// as NumPy's. Type: as every math function. Shape unchanged.
template <class A>
    requires expression<A>
auto deg2rad(A&& a) {
    return detail::make_unary<ops::deg2rad>(std::forward<A>(a));
}
template <class A>
    requires expression<A>
auto rad2deg(A&& a) {
    return detail::make_unary<ops::rad2deg>(std::forward<A>(a));
}
template <class A>
    requires expression<A>
auto radians(A&& a) {
    return detail::make_unary<ops::deg2rad>(std::forward<A>(a));
}
template <class A>
    requires expression<A>
auto degrees(A&& a) {
    return detail::make_unary<ops::rad2deg>(std::forward<A>(a));
}
/// `exp(e)`: numpy.exp. Type: as every math function (float32 for bool and 8/16-bit integers,
/// float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto exp(A&& a) {
    return detail::make_unary<ops::exp>(std::forward<A>(a));
}
/// `exp2(e)`: numpy.exp2, 2 to the power e. Type: as every math function (float32 for bool and
/// 8/16-bit integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto exp2(A&& a) {
    return detail::make_unary<ops::exp2>(std::forward<A>(a));
}
/// `expm1(e)`: numpy.expm1, `exp(e) - 1` accurate near 0. Type: as every math function (float32 for
/// bool and 8/16-bit integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto expm1(A&& a) {
    return detail::make_unary<ops::expm1>(std::forward<A>(a));
}
/// `log(e)`: numpy.log, natural logarithm: `log(0)` is -inf, `log(-1)` NaN. Type: as every math
/// function (float32 for bool and 8/16-bit integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto log(A&& a) {
    return detail::make_unary<ops::log>(std::forward<A>(a));
}
/// `log2(e)`: numpy.log2. Type: as every math function (float32 for bool and 8/16-bit integers,
/// float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto log2(A&& a) {
    return detail::make_unary<ops::log2>(std::forward<A>(a));
}
/// `log10(e)`: numpy.log10. Type: as every math function (float32 for bool and 8/16-bit integers,
/// float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto log10(A&& a) {
    return detail::make_unary<ops::log10>(std::forward<A>(a));
}
/// `log1p(e)`: numpy.log1p, `log(1 + e)` accurate near 0. Type: as every math function (float32 for
/// bool and 8/16-bit integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto log1p(A&& a) {
    return detail::make_unary<ops::log1p>(std::forward<A>(a));
}
/// `sin(e)`: numpy.sin (radians). Type: as every math function (float32 for bool and 8/16-bit
/// integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto sin(A&& a) {
    return detail::make_unary<ops::sin>(std::forward<A>(a));
}
/// `cos(e)`: numpy.cos (radians). Type: as every math function (float32 for bool and 8/16-bit
/// integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto cos(A&& a) {
    return detail::make_unary<ops::cos>(std::forward<A>(a));
}
/// `tan(e)`: numpy.tan (radians). Type: as every math function (float32 for bool and 8/16-bit
/// integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto tan(A&& a) {
    return detail::make_unary<ops::tan>(std::forward<A>(a));
}
/// `arcsin(e)`: numpy.arcsin, radians in [-π/2, π/2]; NaN outside [-1, 1]. Type: as every math
/// function (float32 for bool and 8/16-bit integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto arcsin(A&& a) {
    return detail::make_unary<ops::arcsin>(std::forward<A>(a));
}
/// `arccos(e)`: numpy.arccos, radians in [0, π]; NaN outside [-1, 1]. Type: as every math function
/// (float32 for bool and 8/16-bit integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto arccos(A&& a) {
    return detail::make_unary<ops::arccos>(std::forward<A>(a));
}
/// `arctan(e)`: numpy.arctan, radians in (-π/2, π/2). Type: as every math function (float32 for
/// bool and 8/16-bit integers, float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto arctan(A&& a) {
    return detail::make_unary<ops::arctan>(std::forward<A>(a));
}
/// `sinh(e)`: numpy.sinh. Type: as every math function (float32 for bool and 8/16-bit integers,
/// float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto sinh(A&& a) {
    return detail::make_unary<ops::sinh>(std::forward<A>(a));
}
/// `cosh(e)`: numpy.cosh. Type: as every math function (float32 for bool and 8/16-bit integers,
/// float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto cosh(A&& a) {
    return detail::make_unary<ops::cosh>(std::forward<A>(a));
}
/// `tanh(e)`: numpy.tanh. Type: as every math function (float32 for bool and 8/16-bit integers,
/// float64 for wider integers). Shape unchanged.
template <class A>
    requires expression<A>
auto tanh(A&& a) {
    return detail::make_unary<ops::tanh>(std::forward<A>(a));
}
/// `floor(e)`: numpy.floor: the largest integer ≤ e; integers and bools unchanged (type kept).
/// Shape unchanged.
template <class A>
    requires expression<A>
auto floor(A&& a) {
    return detail::make_unary<ops::floor>(std::forward<A>(a));
}
/// `ceil(e)`: numpy.ceil: the smallest integer ≥ e; integers and bools unchanged (type kept). Shape
/// unchanged.
template <class A>
    requires expression<A>
auto ceil(A&& a) {
    return detail::make_unary<ops::ceil>(std::forward<A>(a));
}
/// `trunc(e)`: numpy.trunc: rounds toward zero; integers and bools unchanged (type kept). Shape
/// unchanged.
template <class A>
    requires expression<A>
auto trunc(A&& a) {
    return detail::make_unary<ops::trunc>(std::forward<A>(a));
}
/// `round(e)`: numpy.round (numpy.rint): to the nearest integer, halves to even (`round(2.5)` is
/// 2); integers and bools unchanged (type kept). Shape unchanged.
template <class A>
    requires expression<A>
auto round(A&& a) {
    return detail::make_unary<ops::round>(std::forward<A>(a));
}
/// `round(e, decimals)`: numpy.round (numpy.around) with `decimals`: each element rounded to
/// `decimals` digits after the decimal point (before it when negative), halves to even, with
/// NumPy's arithmetic (ops::round_decimals: `nearbyint(x * 10^d) / 10^d` in the element's type,
/// so `round(2.675, 2)` is 2.67, as NumPy gives). Type kept; integers unchanged for `decimals >=
/// 0`. Shape unchanged; lazy (one node, `decimals` an int64 scalar beside `e`). Does not compile
/// on bool (NumPy raises). One difference from NumPy 1.24: where 10^decimals overflows float32
/// (decimals >= 39) NumPy 1.24 computes that float32 product in float64 (value-based casting);
/// fusor keeps float32 (NEP 50, as NumPy 2), giving inf or NaN there. Any int64 `decimals` is
/// accepted: past ±308 the factor 10^|decimals| is inf, so floats give NaN and integers NaN's cast,
/// as NumPy gives for ±309 (NumPy's own `decimals` is a C int and raises OverflowError past it).
template <class A>
    requires expression<A>
auto round(A&& a, std::int64_t decimals) {
    using NA = node_t<A>;
    return elementwise<ops::round_decimals, NA, scalar_node<std::int64_t>>(
        detail::from_operands,
        detail::operand_source<void>(std::forward<A>(a)),
        scalar_node<std::int64_t>{{}, decimals});
}
/// `isnan(e)`: numpy.isnan → bool (always false for integers and bools). Shape unchanged.
template <class A>
    requires expression<A>
auto isnan(A&& a) {
    return detail::make_unary<ops::isnan>(std::forward<A>(a));
}
/// `isinf(e)`: numpy.isinf → bool: true for ±inf. Shape unchanged.
template <class A>
    requires expression<A>
auto isinf(A&& a) {
    return detail::make_unary<ops::isinf>(std::forward<A>(a));
}
/// `signbit(e)`: numpy.signbit → bool: the sign bit, true for -0.0 and for a NaN whose sign bit
/// is set; for integers `e < 0`. Shape unchanged.
template <class A>
    requires expression<A>
auto signbit(A&& a) {
    return detail::make_unary<ops::signbit>(std::forward<A>(a));
}
/// `isfinite(e)`: numpy.isfinite → bool: false for ±inf and NaN. Shape unchanged.
template <class A>
    requires expression<A>
auto isfinite(A&& a) {
    return detail::make_unary<ops::isfinite>(std::forward<A>(a));
}
/// `logical_not(e)`: numpy.logical_not → bool, as `!e`. Shape unchanged.
template <class A>
    requires expression<A>
auto logical_not(A&& a) {
    return detail::make_unary<ops::logical_not>(std::forward<A>(a));
}
/// `invert(e)`: numpy.invert, as `~e`: bitwise not; logical not on bool; does not compile on
/// floating types. Shape unchanged.
template <class A>
    requires expression<A>
auto invert(A&& a) {
    return detail::make_unary<ops::invert>(std::forward<A>(a));
}
/// `mod(a, b)`: numpy.mod (numpy.remainder), as `a % b`: the remainder with the sign of the
/// divisor; integer `x % 0` is 0 (no trap). Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto mod(A&& a, B&& b) {
    return detail::make_binary<ops::mod>(std::forward<A>(a), std::forward<B>(b));
}
/// `floor_divide(a, b)`: numpy.floor_divide (Python's `//`): the quotient rounded toward -inf, in
/// `promote(a, b)` (int8 for two bools); integer `x // 0` is 0 and `INT_MIN // -1` wraps to
/// `INT_MIN`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto floor_divide(A&& a, B&& b) {
    return detail::make_binary<ops::floor_divide>(std::forward<A>(a), std::forward<B>(b));
}
/// `arctan2(a, b)`: numpy.arctan2(a, b): the angle of the point (b, a) in radians, in [-π, π]; type
/// `float_result_t<promote(a, b)>`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto arctan2(A&& a, B&& b) {
    return detail::make_binary<ops::arctan2>(std::forward<A>(a), std::forward<B>(b));
}
/// `hypot(a, b)`: numpy.hypot: `sqrt(a² + b²)` without intermediate overflow; type as `arctan2`.
/// Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto hypot(A&& a, B&& b) {
    return detail::make_binary<ops::hypot>(std::forward<A>(a), std::forward<B>(b));
}
/// `fmin(a, b)`: numpy.fmin: the smaller value, ignoring NaN (NaN only where both are NaN); type
/// `promote(a, b)`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto fmin(A&& a, B&& b) {
    return detail::make_binary<ops::fmin>(std::forward<A>(a), std::forward<B>(b));
}
/// `fmax(a, b)`: numpy.fmax: the larger value, ignoring NaN (NaN only where both are NaN); type
/// `promote(a, b)`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto fmax(A&& a, B&& b) {
    return detail::make_binary<ops::fmax>(std::forward<A>(a), std::forward<B>(b));
}
/// `logical_and(a, b)`: numpy.logical_and → bool, as `a && b`. Shapes broadcast; scalars accepted
/// (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto logical_and(A&& a, B&& b) {
    return detail::make_binary<ops::logical_and>(std::forward<A>(a), std::forward<B>(b));
}
/// `logical_or(a, b)`: numpy.logical_or → bool, as `a || b`. Shapes broadcast; scalars accepted
/// (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto logical_or(A&& a, B&& b) {
    return detail::make_binary<ops::logical_or>(std::forward<A>(a), std::forward<B>(b));
}
/// `logical_xor(a, b)`: numpy.logical_xor → bool: true where exactly one operand is non-zero.
/// Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto logical_xor(A&& a, B&& b) {
    return detail::make_binary<ops::logical_xor>(std::forward<A>(a), std::forward<B>(b));
}
/// `bitwise_and(a, b)`: numpy.bitwise_and, as `a & b`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto bitwise_and(A&& a, B&& b) {
    return detail::make_binary<ops::bitwise_and>(std::forward<A>(a), std::forward<B>(b));
}
/// `bitwise_or(a, b)`: numpy.bitwise_or, as `a | b`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto bitwise_or(A&& a, B&& b) {
    return detail::make_binary<ops::bitwise_or>(std::forward<A>(a), std::forward<B>(b));
}
/// `bitwise_xor(a, b)`: numpy.bitwise_xor, as `a ^ b`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto bitwise_xor(A&& a, B&& b) {
    return detail::make_binary<ops::bitwise_xor>(std::forward<A>(a), std::forward<B>(b));
}
/// `left_shift(a, b)`: numpy.left_shift, as `a << b`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto left_shift(A&& a, B&& b) {
    return detail::make_binary<ops::left_shift>(std::forward<A>(a), std::forward<B>(b));
}
/// `right_shift(a, b)`: numpy.right_shift, as `a >> b`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto right_shift(A&& a, B&& b) {
    return detail::make_binary<ops::right_shift>(std::forward<A>(a), std::forward<B>(b));
}
/// `power(a, b)` (numpy.power), also spelled `pow`: element-wise `a ** b` in `promote(a, b)`
/// (int8 for two bools); integers exactly, wrapping on overflow. An integer raised to a
/// negative integer power throws `value_error`: at once for a negative C++ scalar exponent,
/// otherwise when the element is met during evaluation (as NumPy; elements before it may have
/// been written).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto power(A&& a, B&& b) {
    using R = typename decltype(detail::make_binary<ops::power>(a, b))::value_type;
    if constexpr (scalar<B> && std::is_integral_v<R> && std::is_signed_v<std::remove_cvref_t<B>>)
        if (b < 0)
            throw value_error("Integers to negative integer powers are not allowed.");
    return detail::make_binary<ops::power>(std::forward<A>(a), std::forward<B>(b));
}
/// `pow(a, b)`: the same as `power(a, b)`.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto pow(A&& a, B&& b) {
    return power(std::forward<A>(a), std::forward<B>(b));
}

/// `clip(e, lo, hi)` (numpy.clip): `minimum(maximum(e, lo), hi)`, type `promote(e, lo, hi)`
/// with scalar bounds weak against `e`; NaN anywhere propagates; shapes broadcast.
/// Example: `clip(x, 0.0, 1.0)` keeps float32 for a float32 `x`.
template <class X, class L, class H>
    requires(expression<X>&& detail::operand<L>&& detail::operand<H>)
auto clip(X&& x, L&& lo, H&& hi) {
    using T = value_type_t<X>;
    using NL = std::remove_cvref_t<decltype(detail::operand_node<T>(std::forward<L>(lo)))>;
    using NH = std::remove_cvref_t<decltype(detail::operand_node<T>(std::forward<H>(hi)))>;
    return elementwise<ops::clip, node_t<X>, NL, NH>(
        detail::from_operands,
        detail::operand_source<T>(std::forward<X>(x)),
        detail::operand_source<T>(std::forward<L>(lo)),
        detail::operand_source<T>(std::forward<H>(hi)));
}

/// `isclose(a, b, rtol = 1e-5, atol = 1e-8)` (numpy.isclose, equal_nan = false) → bool of the
/// broadcast shape: `|a - b| <= atol + rtol * |b|` (not symmetric, as NumPy), `a == b` where
/// either is infinite, false at NaN. Computed in `promote(a, b)` with integer `b` as float64.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto isclose(A&& a, B&& b, double rtol = 1e-5, double atol = 1e-8) {
    using PA = typename detail::partner_value<A>::type;
    using PB = typename detail::partner_value<B>::type;
    using NA = std::remove_cvref_t<decltype(detail::operand_node<PB>(std::forward<A>(a)))>;
    using NB = std::remove_cvref_t<decltype(detail::operand_node<PA>(std::forward<B>(b)))>;
    using NR = decltype(detail::make_default_scalar(rtol));
    return elementwise<ops::isclose, NA, NB, NR, NR>(detail::from_operands,
                                                     detail::operand_source<PB>(std::forward<A>(a)),
                                                     detail::operand_source<PA>(std::forward<B>(b)),
                                                     detail::make_default_scalar(rtol),
                                                     detail::make_default_scalar(atol));
}

/// `cast<U>(e)` (numpy's `e.astype(U)`): `e`'s values converted to element type `U`, shape
/// unchanged: modular between integers, truncation toward zero from floating to integer,
/// `!= 0` to bool. A float that `U` cannot hold (or NaN) gives a defined but unspecified value
/// (NumPy warns and gives a platform-specific one); never undefined behaviour (see `convert`).
template <class U, class A>
    requires expression<A>
auto cast(A&& a) {
    static_assert(element_type<U>,
                  "fusor: cast<U> needs an element type: bool, int8_t..int64_t, "
                  "uint8_t..uint64_t, float or double");
    return detail::make_unary<ops::cast<U>>(std::forward<A>(a));
}

/// `minimum(a, b)` (numpy.minimum): element-wise smaller, NaN propagates; scalars accepted.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto minimum(A&& a, B&& b) {
    return detail::make_binary<ops::minimum>(std::forward<A>(a), std::forward<B>(b));
}
/// `logaddexp(a, b)`: numpy.logaddexp, `log(exp(a) + exp(b))` without overflow (NumPy's
/// npy_logaddexp: equal operands give `a + ln 2`, else the larger plus `log1p(exp(-|a - b|))`);
/// type as `arctan2`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto logaddexp(A&& a, B&& b) {
    return detail::make_binary<ops::logaddexp>(std::forward<A>(a), std::forward<B>(b));
}
/// `copysign(a, b)`: numpy.copysign, `|a|` with the sign of `b` (-0.0 and NaN signs count);
/// type as `arctan2`. Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto copysign(A&& a, B&& b) {
    return detail::make_binary<ops::copysign>(std::forward<A>(a), std::forward<B>(b));
}
/// `fmod(a, b)`: numpy.fmod, the C remainder with the sign of the dividend (`fmod(-7, 3)` is -1
/// where `mod` gives 2); integers: `x fmod 0` is 0 (NumPy warns); floats: `fmod(x, 0.0)` is NaN.
/// Type `promote(a, b)` (two bools: int8). Shapes broadcast; scalars accepted (weak).
template <class A, class B>
    requires detail::operand_pair<A, B>
auto fmod(A&& a, B&& b) {
    return detail::make_binary<ops::fmod>(std::forward<A>(a), std::forward<B>(b));
}
/// `maximum(a, b)` (numpy.maximum): element-wise larger, NaN propagates; `maximum(x, 0)` is ReLU.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto maximum(A&& a, B&& b) {
    return detail::make_binary<ops::maximum>(std::forward<A>(a), std::forward<B>(b));
}
/// `where(cond, x, y)` (numpy.where): `x` where `cond` is non-zero, else `y`; the three shapes
/// broadcast; type `promote(x, y)` (scalars weak against the other value). Example:
/// `where(x > 0, x, 0.0)`.
template <class C, class X, class Y>
    requires(detail::operand<C>&& detail::operand<X>&&
                 detail::operand<Y> && (expression<C> || expression<X> || expression<Y>))
auto where(C&& cond, X&& x, Y&& y) {
    using PX = typename detail::partner_value<X>::type;
    using PY = typename detail::partner_value<Y>::type;
    using NC = std::remove_cvref_t<decltype(detail::operand_node<bool>(std::forward<C>(cond)))>;
    using NX = std::remove_cvref_t<decltype(detail::operand_node<PY>(std::forward<X>(x)))>;
    using NY = std::remove_cvref_t<decltype(detail::operand_node<PX>(std::forward<Y>(y)))>;
    return elementwise<ops::where, NC, NX, NY>(detail::from_operands,
                                               detail::operand_source<bool>(std::forward<C>(cond)),
                                               detail::operand_source<PY>(std::forward<X>(x)),
                                               detail::operand_source<PX>(std::forward<Y>(y)));
}

/// `nan_to_num(e, nan = 0.0, posinf = largest, neginf = lowest)` (numpy.nan_to_num): `e` with NaN
/// replaced by `nan`, +inf by `posinf` and -inf by `neginf`, each converted to `e`'s type (the
/// defaults: that type's largest and lowest finite values); integers and bools unchanged. Type
/// and shape of `e`. Lazy: `where(isnan(e), nan, where(e == inf, posinf, where(e == -inf,
/// neginf, e)))`, which explain shows (`e` is read three times per element).
template <class A>
    requires expression<A>
auto nan_to_num(A&& a,
                double nan = 0.0,
                std::optional<double> posinf = std::nullopt,
                std::optional<double> neginf = std::nullopt) {
    auto n = as_node(std::forward<A>(a));
    using T = value_type_t<decltype(n)>;
    if constexpr (std::is_floating_point_v<T>) {
        constexpr double inf = std::numeric_limits<double>::infinity();
        const double hi = posinf.value_or(static_cast<double>(std::numeric_limits<T>::max()));
        const double lo = neginf.value_or(static_cast<double>(std::numeric_limits<T>::lowest()));
        return where(isnan(n), nan, where(n == inf, hi, where(n == -inf, lo, n)));
    } else {
        (void)nan;
        return n;
    }
}

} // namespace fusor
