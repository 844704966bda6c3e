// fusor/algo/diff.hpp: diff, numpy.diff: `view(x, 1:) - view(x, :-1)` along an axis, applied n
// times (`!=` for bool, as NumPy). Lazy over a tensor or a view for n = 1; n is a run-time
// value, so the result has one type for every n: two views (leaves) of one base, where the base
// is the operand itself (n ≤ 1, tensors and views) or a temporary the result owns (the first
// n - 1 differences, or an expression operand, evaluated at the call).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/algo/joining.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {
// numpy.diff's operation: subtract, or not_equal for bool (NumPy: `op = not_equal if
// a.dtype == bool_ else subtract`).
template <class T>
using diff_op_t = std::conditional_t<std::is_same_v<T, bool>, ops::not_equal, ops::subtract>;

// The two views of one difference of `v` along `axis`: `[1:]` and `[:-1]` (an axis of extent
// 0 gives two empty views).
template <class T>
auto diff_once(const tensor_view<const T>& v, index_t axis) {
    boost::container::small_vector<view_index, 6> hi(v.shape().size(), slice(none, none)), lo = hi;
    hi[static_cast<std::size_t>(axis)] = slice(1, none);
    lo[static_cast<std::size_t>(axis)] = slice(none, -1);
    using indices = std::span<const view_index>; // (clang: a small_vector is no std range)
    return make_binary<diff_op_t<T>>(v.remap(view_map(v.shape(), indices(hi.data(), hi.size()))),
                                     v.remap(view_map(v.shape(), indices(lo.data(), lo.size()))));
}

// A read-only view that owns `t` (kept alive by the views and leaves made from it).
template <class T>
tensor_view<const T> owning_view(tensor<T>&& t) {
    auto owned = std::make_shared<tensor<T>>(std::move(t));
    return tensor_view<const T>(owned->data(), owned->shape(), owned->strides(), owned);
}

template <class E>
auto diff_base(E&& x) {
    using T = value_type_t<E>;
    if constexpr (view_like<E>)
        return tensor_view<const T>(x);
    else if constexpr (tensor_like<E> && std::is_lvalue_reference_v<E>)
        return tensor_view<const T>(x.view());
    else
        return owning_view(tensor<T>(std::forward<E>(x)));
}
} // namespace detail

/// `diff(x, n = 1, axis = -1)` as numpy.diff: the n-th discrete difference along `axis`,
/// `x[1:] - x[:-1]` applied n times (`!=` for bool): the axis shrinks by n (to 0 when n
/// exceeds it), (5, 3) with axis 0 → (4, 3); n = 0 gives `x`'s values (any rank, the axis
/// unchecked, as NumPy's `return a`). The type is `x`'s
/// (integers wrap, unsigned too, as NumPy). Lazy: for n = 1 over a tensor or view, the
/// expression reads `x` when evaluated (two views of it, nothing allocated); the first n - 1
/// differences of a larger n, and an expression `x`, are evaluated at the call into one
/// temporary the result owns. Throws `value_error` for a 0-d `x` ("diff requires input that is
/// at least one dimensional") or n < 0 ("order must be non-negative"), `axis_error` for an axis
/// out of range.
template <class E>
    requires expression<E>
auto diff(E&& x, index_t n = 1, index_t axis = -1) {
    using T = value_type_t<E>;
    const shape_t& s = detail::checked_shape_of(x);
    if (n < 0)
        throw value_error("diff: order must be non-negative but got " + std::to_string(n));
    // n = 0 is x itself before any other check, as NumPy (`if n == 0: return a`).
    if (n != 0 && s.rank() == 0)
        throw value_error("diff requires input that is at least one dimensional");
    const index_t ax = n == 0 ? 0 : normalize_axis(axis, s.rank());
    tensor_view<const T> base = detail::diff_base(std::forward<E>(x));
    if (n == 0) {
        // x op 0 (x - 0 or x != false): x's values, in the same type as every other n.
        auto zero = std::make_shared<tensor<T>>(shape_t{});
        tensor_view<const T> zeros(
            zero->data(), base.shape(), strides_t(base.shape().size(), 0), zero);
        return detail::make_binary<detail::diff_op_t<T>>(std::move(base), std::move(zeros));
    }
    // The first n - 1 differences, evaluated (views cannot be rebound: each step is a new
    // owning view). Once the axis is empty every further difference is empty too.
    std::shared_ptr<tensor<T>> step;
    const auto current = [&] {
        return step ? tensor_view<const T>(step->data(), step->shape(), step->strides(), step)
                    : base;
    };
    for (index_t k = 1; k < n && current().shape()[static_cast<std::size_t>(ax)] > 0; ++k)
        step = std::make_shared<tensor<T>>(detail::diff_once(current(), ax));
    return detail::diff_once(current(), ax);
}

namespace detail {
// A prepend/append operand of diff: nothing (`none`), a C++ scalar (an array of its own
// type, a plain int as int64, as NumPy makes one of a Python number), or an expression.
template <class P, class = void>
struct diff_edge {
    using type = void; // none
};
template <class P>
    requires std::is_arithmetic_v<P>
struct diff_edge<P> {
    using type = std::conditional_t<std::is_same_v<P, int>, std::int64_t, canonical_t<P>>;
};
template <class P>
    requires expression<P>
struct diff_edge<P> {
    using type = value_type_t<P>;
};

// The edge as a tensor of `x`'s shape with extent 1 on `axis` (a scalar or 0-d operand is
// broadcast, as numpy.diff does), or as it is.
template <class R, class P>
tensor<R> diff_edge_tensor(const P& p, const shape_t& s, index_t axis) {
    shape_t edge = s;
    edge[static_cast<std::size_t>(axis)] = 1;
    if constexpr (std::is_arithmetic_v<P>) {
        tensor<R> t(edge, uninitialized);
        for (R& v : t)
            v = static_cast<R>(p);
        return t;
    } else {
        if (detail::checked_shape_of(p).rank() == 0)
            return tensor<R>(broadcast_to(p, edge));
        return tensor<R>(p);
    }
}

template <class A, class B>
struct promote_or {
    using type = promote_t<A, B>;
};
template <class A>
struct promote_or<A, void> {
    using type = A;
};
} // namespace detail

/// `diff(x, n, axis, prepend, append)` as numpy.diff with `prepend`/`append`: the values are
/// joined to `x` along `axis` before differencing (`concatenate`), so the axis grows by one
/// per scalar or by the operand's extent. Each is `none` (nothing), a C++ scalar (broadcast to
/// `x`'s shape with extent 1 on `axis`; a plain `int` counts as int64, as NumPy's Python int),
/// or an expression (0-d: broadcast likewise; else it must match `x` off the axis). Eager: a
/// new tensor whose type promotes over `x` and the operands (numpy.result_type); n = 0 gives
/// `x`'s values converted to that type (NumPy returns `x` itself, of its own type). Throws as
/// `diff`, and as `concatenate` for an operand whose shape does not fit.
template <class E, class P, class A>
    requires(
        expression<
            E> && (std::is_same_v<P, none_t> || scalar<P> || expression<P>)&&(std::is_same_v<A, none_t> || scalar<A> || expression<A>))
auto diff(const E& x, index_t n, index_t axis, const P& prepend, const A& append) {
    using T = value_type_t<E>;
    using R = typename detail::promote_or<
        typename detail::promote_or<T, typename detail::diff_edge<P>::type>::type,
        typename detail::diff_edge<A>::type>::type;
    const shape_t& s = detail::checked_shape_of(x);
    if (n == 0) // NumPy returns x itself (not joined); here x's values in the result type
        return tensor<R>(x);
    if (n < 0)
        throw value_error("diff: order must be non-negative but got " + std::to_string(n));
    if (s.rank() == 0)
        throw value_error("diff requires input that is at least one dimensional");
    const index_t ax = normalize_axis(axis, s.rank());
    std::vector<tensor<R>> parts;
    if constexpr (!std::is_same_v<P, none_t>)
        parts.push_back(detail::diff_edge_tensor<R>(prepend, s, ax));
    parts.push_back(tensor<R>(x));
    if constexpr (!std::is_same_v<A, none_t>)
        parts.push_back(detail::diff_edge_tensor<R>(append, s, ax));
    tensor<R> joined = concatenate(parts, ax);
    return tensor<R>(diff(std::move(joined), n, ax));
}

} // namespace fusor
