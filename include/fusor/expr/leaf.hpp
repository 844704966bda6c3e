// fusor/expr/leaf.hpp: the leaves of an expression tree: tensors, views and scalars.
//
// Ownership (the classic expression-template trap, decided here once):
//  - an lvalue tensor or a view is held by reference: the leaf stores its data pointer,
//    shape and strides, so the tensor must outlive the expression;
//  - an rvalue tensor (`exp(make_tensor())`) is moved into the leaf and kept alive by a
//    shared pointer, so copies of the expression share it;
//  - child nodes are held by value.
// Hence `auto e = exp(x - max(x, 1, keepdims));` holds a reference to `x`: evaluate `e`
// before `x` goes away or changes shape.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/expr/expression.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

/// A tensor or view read by an expression: data pointer, shape, strides (elements).
template <class T>
struct leaf : expr_node {
    using value_type = T;

    const T* data;
    shape_t shape_;
    strides_t strides;
    std::shared_ptr<const void>
        owner;               ///< set when the leaf owns a moved-in tensor or a reshape copy
    bool is_view;            ///< for explain: "view" or "tensor"
    const T* base = nullptr; ///< the viewed tensor's data (null: `data`), for explain's offsets

    const shape_t& shape() const { return shape_; }
    index_t rank() const { return shape_.rank(); }
    index_t size() const { return shape_size(shape_); }
};

/// A weak C++ scalar, already converted to the type NEP 50 gives it next to its partner.
template <class T>
struct scalar_node : expr_node {
    using value_type = T;
    T value;

    const shape_t& shape() const {
        static const shape_t zero_d{};
        return zero_d;
    }
    index_t rank() const { return 0; }
    index_t size() const { return 1; }
};

namespace detail {
template <class E>
auto make_leaf(E&& e) {
    using U = std::remove_cvref_t<E>;
    using T = typename U::value_type;
    if constexpr (view_like<E>) {
        return leaf<T>{{}, e.data(), e.shape(), e.strides(), e.owner(), true, e.base()};
    } else if constexpr (std::is_lvalue_reference_v<E>) {
        return leaf<T>{{}, e.data(), e.shape(), e.strides(), nullptr, false};
    } else {
        auto owned = std::make_shared<const tensor<T>>(std::move(e));
        return leaf<T>{{}, owned->data(), owned->shape(), owned->strides(), owned, false};
    }
}

// The scalar `s` as the weak operand next to element type `T`. An integer scalar that does not
// fit an integer `T` throws `value_error` (NumPy 2's OverflowError for Python integers).
template <class T, class S>
scalar_node<weak_scalar_t<T, canonical_t<S>>> make_weak_scalar(S s) {
    using R = weak_scalar_t<T, canonical_t<S>>;
    if constexpr (
        std::is_integral_v<
            R> && !std::is_same_v<R, bool> && std::is_integral_v<S> && !std::is_same_v<S, bool>) {
        const bool fits =
            std::is_signed_v<S>
                ? (static_cast<long long>(s)
                       >= static_cast<long long>(std::numeric_limits<R>::min())
                   && (s < 0
                       || static_cast<unsigned long long>(s)
                              <= static_cast<unsigned long long>(std::numeric_limits<R>::max())))
                : static_cast<unsigned long long>(s)
                      <= static_cast<unsigned long long>(std::numeric_limits<R>::max());
        if (!fits)
            throw value_error("scalar " + std::to_string(s) + " is out of bounds for "
                              + std::string(dtype_name<R>()));
    }
    return {{}, static_cast<R>(s)};
}

// A scalar standing alone (no partner operand): the default type of its kind.
template <class S>
auto make_default_scalar(S s) {
    using R =
        std::conditional_t<std::is_same_v<S, bool>,
                           bool,
                           std::conditional_t<std::is_floating_point_v<S>, double, std::int64_t>>;
    return scalar_node<R>{{}, static_cast<R>(s)};
}
} // namespace detail

/// Any operand as a node: tensors and views become leaves, nodes pass through.
template <class E>
    requires expression<E>
auto as_node(E&& e) {
    if constexpr (node<E>)
        return std::remove_cvref_t<E>(std::forward<E>(e));
    else
        return detail::make_leaf(std::forward<E>(e));
}

/// The node type an operand becomes.
template <class E>
using node_t = decltype(as_node(std::declval<E>()));

} // namespace fusor
