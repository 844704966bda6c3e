// fusor/expr/operators.hpp: the operators and functions that build element-wise nodes.
// Nothing here computes: each call returns a node whose shape is known (and checked) now.
#pragma once

#include <type_traits>
#include <utility>

#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/expression.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/ops/arithmetic.hpp>
#include <fusor/ops/compare.hpp>
#include <fusor/ops/math.hpp>

namespace fusor {

namespace detail {
template <class E>
concept operand = expression<E> || scalar<E>;

// The element type a weak scalar resolves against: the partner expression's, or none.
template <class E>
struct partner_value {
    using type = void;
};
template <expression E>
struct partner_value<E> {
    using type = value_type_t<E>;
};

template <class Partner, class A>
auto operand_node(A&& a) {
    if constexpr (expression<A>)
        return as_node(std::forward<A>(a));
    else if constexpr (std::is_void_v<Partner>)
        return make_default_scalar(a);
    else
        return make_weak_scalar<Partner>(a);
}

template <class Op, class A, class B>
auto make_binary(A&& a, B&& b) {
    auto na = operand_node<typename partner_value<B>::type>(std::forward<A>(a));
    auto nb = operand_node<typename partner_value<A>::type>(std::forward<B>(b));
    return elementwise<Op, decltype(na), decltype(nb)>(std::move(na), std::move(nb));
}

template <class Op, class A>
auto make_unary(A&& a) {
    auto na = as_node(std::forward<A>(a));
    return elementwise<Op, decltype(na)>(std::move(na));
}

// At least one side is an expression (so `2 + 3` stays plain C++).
template <class A, class B>
concept operand_pair = operand<A> && operand<B> &&(expression<A> || expression<B>);
} // namespace detail

// Arithmetic: shapes broadcast (NumPy's rule; `broadcast_error` names both shapes), types
// promote as numpy.result_type, C++ scalars are weak (NEP 50): `float_tensor * 2.0` stays
// float32, `int32_tensor * 0.5` is float64, `uint8_tensor + 300` throws `value_error`.

/// `a + b` (numpy.add); logical or on bool. Example: `auto e = a * b + 2.0;`
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator+(A&& a, B&& b) {
    return detail::make_binary<ops::add>(std::forward<A>(a), std::forward<B>(b));
}
/// `a - b` (numpy.subtract); does not compile for two bool operands.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator-(A&& a, B&& b) {
    return detail::make_binary<ops::subtract>(std::forward<A>(a), std::forward<B>(b));
}
/// `a * b` (numpy.multiply); logical and on bool.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator*(A&& a, B&& b) {
    return detail::make_binary<ops::multiply>(std::forward<A>(a), std::forward<B>(b));
}
/// `a / b`, true division (numpy.true_divide): integer operands give float64.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator/(A&& a, B&& b) {
    return detail::make_binary<ops::divide>(std::forward<A>(a), std::forward<B>(b));
}
/// `-a` (numpy.negative); does not compile on bool.
template <class A>
    requires expression<A>
auto operator-(A&& a) {
    return detail::make_unary<ops::negate>(std::forward<A>(a));
}

// Comparisons give bool expressions of the broadcast shape (compare in the promoted type).
/// `a == b` element-wise (numpy.equal) → bool; use `array_equal` for one bool.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator==(A&& a, B&& b) {
    return detail::make_binary<ops::equal>(std::forward<A>(a), std::forward<B>(b));
}
/// `a != b` element-wise (numpy.not_equal) → bool.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator!=(A&& a, B&& b) {
    return detail::make_binary<ops::not_equal>(std::forward<A>(a), std::forward<B>(b));
}
/// `a < b` element-wise (numpy.less) → bool.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator<(A&& a, B&& b) {
    return detail::make_binary<ops::less>(std::forward<A>(a), std::forward<B>(b));
}
/// `a <= b` element-wise (numpy.less_equal) → bool.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator<=(A&& a, B&& b) {
    return detail::make_binary<ops::less_equal>(std::forward<A>(a), std::forward<B>(b));
}
/// `a > b` element-wise (numpy.greater) → bool.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator>(A&& a, B&& b) {
    return detail::make_binary<ops::greater>(std::forward<A>(a), std::forward<B>(b));
}
/// `a >= b` element-wise (numpy.greater_equal) → bool.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator>=(A&& a, B&& b) {
    return detail::make_binary<ops::greater_equal>(std::forward<A>(a), std::forward<B>(b));
}

/// `exp(e)` (numpy.exp): shape unchanged; float types keep theirs, bool and 8/16-bit integers
/// give float32, wider integers float64.
template <class A>
    requires expression<A>
auto exp(A&& a) {
    return detail::make_unary<ops::exp>(std::forward<A>(a));
}
/// `log(e)` (numpy.log), natural logarithm; types as `exp`; `log(0)` is `-inf`, `log(-1)` NaN.
template <class A>
    requires expression<A>
auto log(A&& a) {
    return detail::make_unary<ops::log>(std::forward<A>(a));
}
/// `sqrt(e)` (numpy.sqrt); types as `exp`; negative inputs give NaN.
template <class A>
    requires expression<A>
auto sqrt(A&& a) {
    return detail::make_unary<ops::sqrt>(std::forward<A>(a));
}
/// `abs(e)` (numpy.absolute): keeps the type; `abs(INT_MIN)` wraps to `INT_MIN` as NumPy.
template <class A>
    requires expression<A>
auto abs(A&& a) {
    return detail::make_unary<ops::abs>(std::forward<A>(a));
}
/// `square(e)` (numpy.square): `e * e`, keeps the type.
template <class A>
    requires expression<A>
auto square(A&& a) {
    return detail::make_unary<ops::square>(std::forward<A>(a));
}
/// `minimum(a, b)` (numpy.minimum): element-wise smaller, NaN propagates; scalars accepted.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto minimum(A&& a, B&& b) {
    return detail::make_binary<ops::minimum>(std::forward<A>(a), std::forward<B>(b));
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
    auto nc = detail::operand_node<bool>(std::forward<C>(cond));
    auto nx = detail::operand_node<typename detail::partner_value<Y>::type>(std::forward<X>(x));
    auto ny = detail::operand_node<typename detail::partner_value<X>::type>(std::forward<Y>(y));
    return elementwise<ops::where, decltype(nc), decltype(nx), decltype(ny)>(
        std::move(nc), std::move(nx), std::move(ny));
}

} // namespace fusor
