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

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/lifetime.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/fwd.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {
// What a leaf over an lvalue tensor knows without storing it (leaf's `Borrowed`): no owner,
// not a view, no base apart from its data. Empty types that read as the stored members do
// (`n.owner ? ...`, `!n.is_view`, `n.base ? n.base : n.data`), so no reader tells them apart.
struct no_owner {
    explicit operator bool() const { return false; }
    operator std::shared_ptr<const void>() const { return {}; }
};
struct not_a_view {
    constexpr operator bool() const { return false; }
};
template <class T>
struct no_base {
    constexpr operator const T*() const { return nullptr; }
};
// A leaf's shape and strides as `rank` zeros each, made in the leaf (leaf's constructor).
struct zero_extents {
    std::size_t rank;
};
} // namespace detail

/// A tensor or view read by an expression: data pointer, shape, strides (elements).
///
/// An lvalue tensor or view is read through pointers to its own shape and strides
/// (`OwnsShape = false`: building and copying the leaf copies no shape; in an inner loop over
/// small tensors those copies cost more than the arithmetic). An rvalue view (`transpose(b)`
/// in `a + transpose(b)`) has nowhere else to live, so its shape and strides are moved into
/// the leaf (`OwnsShape = true`). An rvalue tensor is moved to the heap and kept alive by
/// `owner`. A leaf over an lvalue tensor (`Borrowed = true`, the usual `a * b + c`) is those
/// three pointers alone: its `owner`, `is_view` and `base` are empty constants (null, false,
/// null), so each copy of it as the tree is built moves 24 bytes and no shared pointer.
template <class T, bool OwnsShape, bool Borrowed>
struct leaf : expr_node {
    using value_type = T;
    static constexpr node_tag tag = node_tag::leaf;

    using owner_type = std::conditional_t<Borrowed, detail::no_owner, std::shared_ptr<const void>>;

    const T* data;
    std::conditional_t<OwnsShape, shape_t, const shape_t*> shape_store;
    std::conditional_t<OwnsShape, strides_t, const strides_t*> strides_store;
    /// Set when the leaf owns a moved-in tensor or a reshape copy.
    [[no_unique_address]] owner_type owner;
    /// For explain: "view" or "tensor".
    [[no_unique_address]] std::conditional_t<Borrowed, detail::not_a_view, bool> is_view;
    /// The viewed tensor's data (null: `data`), for explain's offsets.
    [[no_unique_address]] std::conditional_t<Borrowed, detail::no_base<T>, const T*> base = {};
    /// Checked mode: what the operand's storage was when the leaf was made (core/lifetime.hpp).
    [[no_unique_address]] detail::lifetime_stamp stamp{};

    /// The members in declaration order (`{{}, data, shape, strides, owner, is_view, base,
    /// stamp}`, the last four optional). A constructor, not aggregate initialisation: g++ 12
    /// cleared a whole aggregate that holds a shape_t before building its members (`rep stosq`
    /// of 184 bytes without AVX-512), which cost `d = x[1:] - x[:-1]` over 64 floats
    /// about 40 % of its time (61-66 -> 37-43 ns, -march=x86-64; with AVX-512 the clearing is a
    /// few vector stores).
    template <class Shape, class Strides>
        requires(!std::is_same_v<std::remove_cvref_t<Shape>, detail::zero_extents>)
    leaf(expr_node,
         const T* d,
         Shape&& sh,
         Strides&& st,
         owner_type o = {},
         decltype(is_view) v = {},
         decltype(base) b = {},
         detail::lifetime_stamp s = {})
        : data(d), shape_store(std::forward<Shape>(sh)), strides_store(std::forward<Strides>(st)),
          owner(std::move(o)), is_view(v), base(b), stamp(std::move(s)) {}
    /// A shape and strides of `z.rank` zeros, made in place (a matrix product's factors fill
    /// them: reduce/contraction.hpp); the other members as above. For OwnsShape leaves only.
    leaf(expr_node,
         const T* d,
         detail::zero_extents z,
         owner_type o = {},
         decltype(is_view) v = {},
         decltype(base) b = {},
         detail::lifetime_stamp s = {})
        : data(d), shape_store(z.rank), strides_store(z.rank), owner(std::move(o)), is_view(v),
          base(b), stamp(std::move(s)) {}

    const shape_t& shape() const {
        if constexpr (OwnsShape)
            return shape_store;
        else
            return *shape_store;
    }
    const strides_t& strides() const {
        if constexpr (OwnsShape)
            return strides_store;
        else
            return *strides_store;
    }
    index_t rank() const { return shape().rank(); }
    index_t size() const { return shape_size(shape()); }
};

/// A weak C++ scalar, already converted to the type NEP 50 gives it next to its partner.
template <class T>
struct scalar_node : expr_node {
    using value_type = T;
    static constexpr node_tag tag = node_tag::scalar;
    T value;

    /// The shape `()`, one static object for every scalar.
    static inline const shape_t zero_d{};
    static constexpr const shape_t* shape_ref = &zero_d;

    const shape_t& shape() const { return zero_d; }
    index_t rank() const { return 0; }
    index_t size() const { return 1; }
};

namespace detail {
// The leaf of an rvalue view (`view(x, slice(1, none))` in `view(...) - view(...)`): the view is
// a temporary that the leaf replaces, so its shape, strides and owner are moved in, not copied
// (`d = x[1:] - x[:-1]` over 4 elements: 740 -> 714 instructions per evaluation).
struct view_parts {
    template <class T>
    static leaf<std::remove_const_t<T>, true> take(tensor_view<T>&& v) {
        return {{},
                v.data_,
                std::move(v.shape_),
                std::move(v.strides_),
                std::move(v.owner_),
                true,
                v.base(),
                v.stamp_};
    }
};

template <class E>
auto make_leaf(E&& e) {
    using U = std::remove_cvref_t<E>;
    using T = typename U::value_type;
    if constexpr (gathered_like<E>) {
        // `view(x, mask)` as an operand: its elements gathered now, owned as an rvalue tensor is.
        return make_leaf(e.eval());
    } else if constexpr (view_like<E> && !std::is_lvalue_reference_v<E>) {
        if constexpr (std::is_const_v<std::remove_reference_t<E>>)
            return leaf<T, true>{
                {}, e.data(), e.shape(), e.strides(), e.owner(), true, e.base(), e.lifetime()};
        else
            return view_parts::take(std::move(e));
    } else if constexpr (view_like<E>) {
        return leaf<T>{
            {}, e.data(), &e.shape(), &e.strides(), e.owner(), true, e.base(), e.lifetime()};
    } else if constexpr (std::is_lvalue_reference_v<E>) {
        return leaf<T, false, true>{
            {}, e.data(), &e.shape(), &e.strides(), {}, {}, {}, e.lifetime_stamp(true)};
    } else {
        auto owned = std::make_shared<const tensor<T>>(std::move(e));
        return leaf<T>{{}, owned->data(), &owned->shape(), &owned->strides(), owned, false};
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
// The scalar `s` as a 0-d tensor of the weak type next to element type `T` (make_weak_scalar's
// type and range check): where a function reads whole operands (contractions, searchsorted,
// isin, digitize), a scalar stands for a 0-d array, as NumPy converts it.
template <class T, class S>
tensor<weak_scalar_t<T, canonical_t<S>>> weak_scalar_tensor(S s) {
    using R = weak_scalar_t<T, canonical_t<S>>;
    tensor<R> t(shape_t{}, uninitialized);
    t.data()[0] = make_weak_scalar<T>(s).value;
    return t;
}
// The element type NumPy gives a list of values of C++ type `L` (numpy.asarray of a list):
// integers are int64 (Python ints), floats and bools keep their type (a list of Python floats
// is float64; a C++ `float` list stands for np.float32 scalars).
template <class L>
using list_dtype_t = std::
    conditional_t<std::is_integral_v<L> && !std::is_same_v<L, bool>, std::int64_t, canonical_t<L>>;
// A braced list as a 1-d tensor of `list_dtype_t` (NumPy converts a list argument to an array
// before searching, binning or comparing with it): `searchsorted(a, {0.5, 1.5})`.
template <class L>
tensor<list_dtype_t<L>> list_tensor(std::initializer_list<L> l) {
    tensor<list_dtype_t<L>> t(shape_t{static_cast<index_t>(l.size())}, uninitialized);
    std::copy(l.begin(), l.end(), t.data());
    return t;
}
// What the evaluation reads for the right side `e`: an expression node is read where it is
// (never copied: a copy of the tree copies every leaf), a tensor or view becomes a leaf over
// it, a scalar a weak scalar of the destination's type. Bind the result to `const auto&`.
template <class D, class E>
decltype(auto) operand_for(const E& e) {
    if constexpr (scalar<E>)
        return make_weak_scalar<D>(e);
    else if constexpr (node<E>)
        return static_cast<const E&>(e);
    else
        return make_leaf(e);
}
// An operand that is the leaf `make()` returns, made where the node holds it: a leaf whose
// shape and strides its maker fills (a matrix product's, reduce/contraction.hpp) is then built
// in its slot, not filled on the stack and moved there.
template <class F>
struct leaf_in_place {
    F make;
};
template <class F>
leaf_in_place(F) -> leaf_in_place<F>;
template <class A>
inline constexpr bool is_leaf_in_place = false;
template <class F>
inline constexpr bool is_leaf_in_place<leaf_in_place<F>> = true;

// What an element-wise node holds for operand `a` (its constructor from operands): a node
// itself, forwarded (moved or copied into its slot), a tensor or view a leaf over it, returned
// as a prvalue so that it is made in the slot (as is a leaf_in_place's).
template <class A>
decltype(auto) child_of_operand(A&& a) {
    if constexpr (node<A>)
        return std::forward<A>(a);
    else if constexpr (is_leaf_in_place<std::remove_cvref_t<A>>)
        return a.make();
    else
        return make_leaf(std::forward<A>(a));
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
