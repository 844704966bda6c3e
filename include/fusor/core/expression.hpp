// fusor/core/expression.hpp: what counts as an expression, and the forward declarations the
// tensor types need to accept expressions on the right of `=`.
#pragma once

#include <concepts>
#include <type_traits>

#include <fusor/core/shape.hpp>

namespace fusor {

template <class T>
class tensor;
template <class T>
class tensor_view;
template <class T>
class advanced_view;

/// Base of every lazy expression node (`a + b`, `exp(a)`, `sum(a, 1)`, lazy views ...).
/// Nodes say *what* to compute: their children and parameters, their `value_type` and
/// their `shape()`, all known without evaluating anything.
struct expr_node {};

namespace detail {
// Defined in exec/assign.hpp: the one element of a size-1 expression, evaluated.
template <class E>
auto item_of(const E& e);
// Defined in expr/lifetime_check.hpp: `e.shape()`, after checked mode made sure every operand
// of `e` is still as it was (reading the shape of a freed operand is itself the bug).
template <class E>
const shape_t& checked_shape_of(const E& e);
} // namespace detail

/// Base of the expression nodes a user holds (`a + b`, `sum(a)`, `transpose(a + b)`, ...): what
/// makes a one-element expression usable as a value, as NumPy's 0-d results are.
template <class Derived>
struct value_node : expr_node {
    /// Evaluates the expression and returns its one element (as `numpy.ndarray.item()`):
    /// `double s = sum(a * b).item();`. Throws `value_error` unless the expression has exactly
    /// one element (any shape of size 1: `()`, `(1,)`, `(1, 1)` ...), and in checked mode
    /// `lifetime_error` when an operand changed since the expression was built.
    auto item() const { return detail::item_of(static_cast<const Derived&>(*this)); }
    /// `static_cast<double>(sum(a))`, `if (all(a > 0))`: `item()` converted to `U` (any
    /// arithmetic type). Throws as `item()`; like NumPy, the truth value of a larger expression
    /// is an error rather than a guess, with NumPy's words (detail::check_truth_value: use `any`
    /// or `all`).
    template <class U>
        requires std::is_arithmetic_v<U>
    explicit operator U() const {
        if constexpr (std::is_same_v<U, bool>)
            detail::check_truth_value(detail::checked_shape_of(static_cast<const Derived&>(*this)));
        return static_cast<U>(item());
    }
};

/// What a node is, as one tag per node type (`N::tag`): every tree walk (planning, evaluator
/// building, eager evaluation, explain) switches on it with `if constexpr`, never on the names
/// of a node's members.
enum class node_tag {
    leaf,        ///< a tensor or view read by the expression (expr/leaf.hpp)
    scalar,      ///< a weak C++ scalar (expr/leaf.hpp)
    elementwise, ///< an operation over broadcast children (expr/elementwise.hpp)
    remap,       ///< a view of an expression: an index remap (expr/remap.hpp)
    reshaped,    ///< a reshape of an expression: a remap or a copy (expr/reshaped.hpp)
    reduction,   ///< a reduction over some axes (reduce/reduction.hpp)
    segmented,   ///< an output cut into boxes read from strided views (expr/segmented.hpp)
    materialised ///< the whole right side of an aliased assignment, copied first (exec/)
};

/// The tag of node type `N` (a `const`/reference-qualified node type is fine).
template <class N>
inline constexpr node_tag tag_of = std::remove_cvref_t<N>::tag;

namespace detail {
template <class T>
struct is_tensor : std::false_type {};
template <class T>
struct is_tensor<tensor<T>> : std::true_type {};
template <class T>
struct is_tensor_view : std::false_type {};
template <class T>
struct is_tensor_view<tensor_view<T>> : std::true_type {};
template <class T>
struct is_advanced_view : std::false_type {};
template <class T>
struct is_advanced_view<advanced_view<T>> : std::true_type {};
} // namespace detail

/// A lazy expression node (not a tensor).
template <class E>
concept node = std::derived_from<std::remove_cvref_t<E>, expr_node>;

/// An owning tensor `tensor<T>`.
template <class E>
concept tensor_like = detail::is_tensor<std::remove_cvref_t<E>>::value;

/// A strided view `tensor_view<T>`.
template <class E>
concept view_like = detail::is_tensor_view<std::remove_cvref_t<E>>::value;

/// The selection `view(x, mask)` or `view(x, index_array, ...)` (algo/advanced_indexing.hpp).
/// As an operand it is its elements copied when the expression is built (`advanced_view::eval`),
/// as NumPy's `x[mask]` copies: the expression owns the copy, as it owns an rvalue tensor.
template <class E>
concept gathered_like = detail::is_advanced_view<std::remove_cvref_t<E>>::value;

/// Anything that can stand as an operand: a tensor, a view, a node, or an advanced view (read as
/// the copy of its elements).
template <class E>
concept expression = node<E> || tensor_like<E> || view_like<E> || gathered_like<E>;

/// An operand that may also be a C++ arithmetic scalar (weak, as a Python scalar in NumPy 2).
template <class E>
concept scalar = std::is_arithmetic_v<std::remove_cvref_t<E>>;

/// The element type an expression produces.
template <expression E>
using value_type_t = typename std::remove_cvref_t<E>::value_type;

namespace detail {
// Defined in exec/assign.hpp: the one place where `=`, `+=`, ... on tensors and views happen.
// `fresh`: `dest` was just allocated for this evaluation (a tensor made from an expression).
template <class T, class E>
void assign_to_tensor(tensor<T>& dest, const E& e, bool fresh = false);
template <class T, class E>
void assign_to_view(const tensor_view<T>& dest, const E& e, bool allow_leading_ones);
template <class Op, class T, class E>
void compound_assign(const tensor_view<T>& dest, const E& e);
template <class Op, class T, class E>
void compound_assign(tensor<T>& dest, const E& e);
} // namespace detail

} // namespace fusor
