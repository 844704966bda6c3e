// fusor/expr/operators.hpp: the operators and functions that build element-wise nodes.
// Nothing here computes: each call returns a node whose shape is known (and checked) now.
#pragma once

#include <type_traits>
#include <utility>

#include <fusor/core/expression.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/ops/arithmetic.hpp>
#include <fusor/ops/compare.hpp>
#include <fusor/ops/logical.hpp>

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
decltype(auto) operand_node(A&& a) {
    if constexpr (node<A>)
        return std::forward<A>(a); // moved or copied once, into its parent
    else if constexpr (expression<A>)
        return as_node(std::forward<A>(a));
    else if constexpr (std::is_void_v<Partner>)
        return make_default_scalar(a);
    else
        return make_weak_scalar<Partner>(a);
}

// What make_binary and make_unary hand an element-wise node's constructor for operand `a`: an
// rvalue view itself, whose leaf (with a shape and strides of its own) the node then makes in
// its slot (detail::child_of_operand) instead of moving it there (`x[1:] - x[:-1]` over 64
// elements: 65 -> 49 ns); anything else as its node: a leaf over a tensor is three pointers
// (made in the slot instead, g++ inlined `sum(a * b)` differently, 10 % slower at 4 elements),
// a C++ scalar a weak scalar next to `Partner`'s element type.
template <class Partner, class A>
decltype(auto) operand_source(A&& a) {
    if constexpr (view_like<A> && !std::is_lvalue_reference_v<A>)
        return std::forward<A>(a);
    else
        return operand_node<Partner>(std::forward<A>(a));
}

// Inlined, with the four arithmetic operators, into the expression that builds the node: the
// node is then made in the caller's frame instead of returned through a call per operator
// (`c = a * b + d` over 64 float32: 447 -> 391 instructions per evaluation).
template <class Op, class A, class B>
FUSOR_INLINE auto make_binary(A&& a, B&& b) {
    using PA = typename partner_value<A>::type;
    using PB = typename partner_value<B>::type;
    using NA = std::remove_cvref_t<decltype(operand_node<PB>(std::forward<A>(a)))>;
    using NB = std::remove_cvref_t<decltype(operand_node<PA>(std::forward<B>(b)))>;
    return elementwise<Op, NA, NB>(from_operands,
                                   operand_source<PB>(std::forward<A>(a)),
                                   operand_source<PA>(std::forward<B>(b)));
}

template <class Op, class A>
auto make_unary(A&& a) {
    // The child is made in the node (a leaf) or goes into it in one move (or copy): a local
    // copy of it first moved every shape below it twice (a softmax's reductions, at every
    // unary level).
    using NA = std::remove_cvref_t<decltype(operand_node<void>(std::forward<A>(a)))>;
    return elementwise<Op, NA>(from_operands, operand_source<void>(std::forward<A>(a)));
}

// At least one side is an expression (so `2 + 3` stays plain C++).
template <class A, class B>
concept operand_pair = operand<A> && operand<B> &&(expression<A> || expression<B>);

// One side is a fusor expression, the other something fusor cannot read (a std::vector, a
// pointer, a string): the operators below then fail with one sentence naming the accepted
// operands, instead of g++ listing every operator of the standard library it tried.
template <class A, class B>
concept foreign_operand_pair = (expression<A> && !operand<B>) || (expression<B> && !operand<A>);
template <class...>
inline constexpr bool always_false = false;
} // namespace detail

// `a + std::vector` and friends: a readable compile error (the arithmetic and ordering
// operators; `<<` is left alone, since `std::cout << t` is one of them).
#define FUSOR_REJECT_FOREIGN_OPERAND(OP)                                                           \
    template <class A, class B>                                                                    \
        requires detail::foreign_operand_pair<A, B>                                                \
    void operator OP(A&&, B&&) {                                                                   \
        static_assert(detail::always_false<A, B>,                                                  \
                      "fusor: the operands of " #OP " are fusor tensors, views and expressions "   \
                      "and C++ arithmetic scalars; view a std::vector with fusor::adapt(v), "      \
                      "memory with fusor::adapt(ptr, shape)");                                     \
    }
FUSOR_REJECT_FOREIGN_OPERAND(+)
FUSOR_REJECT_FOREIGN_OPERAND(-)
FUSOR_REJECT_FOREIGN_OPERAND(*)
FUSOR_REJECT_FOREIGN_OPERAND(/)
FUSOR_REJECT_FOREIGN_OPERAND(%)
FUSOR_REJECT_FOREIGN_OPERAND(<)
FUSOR_REJECT_FOREIGN_OPERAND(<=)
FUSOR_REJECT_FOREIGN_OPERAND(>)
FUSOR_REJECT_FOREIGN_OPERAND(>=)
#undef FUSOR_REJECT_FOREIGN_OPERAND

// Arithmetic: shapes broadcast (NumPy's rule; `broadcast_error` names both shapes), types
// promote as numpy.result_type, C++ scalars are weak (NEP 50): `float_tensor * 2.0` stays
// float32, `int32_tensor * 0.5` is float64, `uint8_tensor + 300` throws `value_error`.

/// `a + b` (numpy.add); logical or on bool. Example: `auto e = a * b + 2.0;`
template <class A, class B>
requires detail::operand_pair<A, B> FUSOR_INLINE auto operator+(A&& a, B&& b) {
    return detail::make_binary<ops::add>(std::forward<A>(a), std::forward<B>(b));
}
/// `a - b` (numpy.subtract); does not compile for two bool operands.
template <class A, class B>
requires detail::operand_pair<A, B> FUSOR_INLINE auto operator-(A&& a, B&& b) {
    return detail::make_binary<ops::subtract>(std::forward<A>(a), std::forward<B>(b));
}
/// `a * b` (numpy.multiply); logical and on bool.
template <class A, class B>
requires detail::operand_pair<A, B> FUSOR_INLINE auto operator*(A&& a, B&& b) {
    return detail::make_binary<ops::multiply>(std::forward<A>(a), std::forward<B>(b));
}
/// `a / b`, true division (numpy.true_divide): integer operands give float64.
template <class A, class B>
requires detail::operand_pair<A, B> FUSOR_INLINE auto operator/(A&& a, B&& b) {
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

// Remainder, logical and bitwise operators. Bitwise operators and shifts do not compile on
// floating types (NumPy raises TypeError); `&&` and `||` evaluate both sides element-wise.

/// `a % b` (numpy.remainder): sign of the divisor; integer `x % 0` is 0. Same as `mod(a, b)`.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator%(A&& a, B&& b) {
    return detail::make_binary<ops::mod>(std::forward<A>(a), std::forward<B>(b));
}
/// `a && b` (numpy.logical_and) → bool; non-zero is true.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator&&(A&& a, B&& b) {
    return detail::make_binary<ops::logical_and>(std::forward<A>(a), std::forward<B>(b));
}
/// `a || b` (numpy.logical_or) → bool; non-zero is true.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator||(A&& a, B&& b) {
    return detail::make_binary<ops::logical_or>(std::forward<A>(a), std::forward<B>(b));
}
/// `!a` (numpy.logical_not) → bool: true where `a` is zero.
template <class A>
    requires expression<A>
auto operator!(A&& a) {
    return detail::make_unary<ops::logical_not>(std::forward<A>(a));
}
/// `a & b` (numpy.bitwise_and) in `promote(a, b)`; logical and on bools.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator&(A&& a, B&& b) {
    return detail::make_binary<ops::bitwise_and>(std::forward<A>(a), std::forward<B>(b));
}
/// `a | b` (numpy.bitwise_or) in `promote(a, b)`; logical or on bools.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator|(A&& a, B&& b) {
    return detail::make_binary<ops::bitwise_or>(std::forward<A>(a), std::forward<B>(b));
}
/// `a ^ b` (numpy.bitwise_xor) in `promote(a, b)`; logical xor on bools.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator^(A&& a, B&& b) {
    return detail::make_binary<ops::bitwise_xor>(std::forward<A>(a), std::forward<B>(b));
}
/// `~a` (numpy.invert): bitwise not; logical not on bools.
template <class A>
    requires expression<A>
auto operator~(A&& a) {
    return detail::make_unary<ops::invert>(std::forward<A>(a));
}
/// `a << b` (numpy.left_shift): shifts of at least the width (or negative) give 0.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator<<(A&& a, B&& b) {
    return detail::make_binary<ops::left_shift>(std::forward<A>(a), std::forward<B>(b));
}
/// `a >> b` (numpy.right_shift): arithmetic on signed types; shifts of at least the width (or
/// negative) give 0, or -1 for negative `a`.
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator>>(A&& a, B&& b) {
    return detail::make_binary<ops::right_shift>(std::forward<A>(a), std::forward<B>(b));
}

} // namespace fusor
