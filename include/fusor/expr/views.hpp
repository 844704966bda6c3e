// fusor/expr/views.hpp: transpose, swapaxes, moveaxis, diagonal, view(...), flip, broadcast_to,
// expand_dims, squeeze and reshape: zero-copy on tensors and views, lazy index remapping (a
// `remap` node) on any other expression.
#pragma once

#include <array>
#include <concepts>
#include <initializer_list>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/core/affine_map.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/reshape.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {
/// True for the operands a view reads in place: a view, or a tensor that outlives the
/// expression (an lvalue). A view of one is a tensor_view; of anything else, a remap node.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class E>
inline constexpr bool strided_operand =
    view_like<E> || (tensor_like<E> && std::is_lvalue_reference_v<E>);
// clang-format on

// A view of the strided elements of `e` (an lvalue tensor or a view): `shape` and `strides`
// (moved in) from `offset` elements past its data, keeping alive what `e` keeps alive.
template <class E>
auto strided_view_of(E& e, shape_t&& shape, strides_t&& strides, index_t offset) {
    if constexpr (view_like<E>) {
        using view_type = std::remove_cvref_t<E>;
        return view_type::from_parts(e.data() + offset,
                                     std::move(shape),
                                     std::move(strides),
                                     e.owner(),
                                     e.lifetime(),
                                     e.base());
    } else {
        using view_type = decltype(e.view());
        return view_type::from_parts(e.data() + offset,
                                     std::move(shape),
                                     std::move(strides),
                                     nullptr,
                                     e.lifetime_stamp(false),
                                     e.data());
    }
}

// As strided_view_of, with the view's `rank` extents and strides written in place by
// `fill(shape, strides)`, which returns the offset.
template <class E, class Fill>
auto strided_view_filled(E& e, std::size_t rank, Fill&& fill) {
    if constexpr (view_like<E>) {
        using view_type = std::remove_cvref_t<E>;
        return view_type::from_filled(
            e.data(), rank, e.owner(), e.lifetime(), e.base(), std::forward<Fill>(fill));
    } else {
        using view_type = decltype(e.view());
        return view_type::from_filled(
            e.data(), rank, nullptr, e.lifetime_stamp(false), e.data(), std::forward<Fill>(fill));
    }
}

// The one place that decides what a view of `e` is: a tensor_view for an lvalue tensor or a
// view (writable when they are), otherwise a remap node holding `e`. (view() and transpose()
// make the tensor_view from the indices directly, with the shape, strides and offset the map
// would give.)
template <class E, class MakeMap>
auto apply_view(E&& e, MakeMap&& make_map) {
    using U = std::remove_cvref_t<E>;
    if constexpr (detail::strided_operand<E>) {
        affine_map m = make_map(e.shape());
        strides_t strides = m.apply_strides(e.strides());
        const index_t offset = m.apply_offset(e.strides());
        return strided_view_of(e, std::move(m.out_shape), std::move(strides), offset);
    } else {
        static_assert(expression<U>, "fusor: views take a tensor, a view or an expression");
        auto n = as_node(std::forward<E>(e));
        affine_map m = make_map(n.shape());
        return remap<decltype(n)>{{}, std::move(n), std::move(m)};
    }
}

template <class I>
view_index to_view_index(const I& i) {
    if constexpr (std::is_integral_v<I>)
        return static_cast<index_t>(i);
    else if constexpr (std::is_same_v<I, all_t>)
        return slice(none, none);
    else {
        static_assert(std::is_convertible_v<const I&, view_index>,
                      "fusor: view() takes integers, slice(...), all, newaxis, ellipsis, and index "
                      "arrays or masks as tensors (view(x, tensor<std::int64_t>{0, 2}), a "
                      "std::vector through adapt(v)), not a std::vector or a braced list");
        return i;
    }
}

// An index that names one operand axis in order (an integer, a slice or `all`): a view from
// only these needs no index list (slices of small tensors are taken in inner loops).
template <class I>
inline constexpr bool plain_view_index =
    std::is_integral_v<I> || std::is_same_v<I, slice> || std::is_same_v<I, all_t>;

// `view(e, idx...)` of an lvalue tensor or a view, every index plain: the axes view_map gives
// (for_each_view_axis's rules, axis by axis), each written at its place in the view's shape.
template <class E, class... I>
auto plain_view(E& e, const I&... idx) {
    const shape_t& in = e.shape();
    const strides_t& from = e.strides();
    check_index_count(sizeof...(I), in.size());
    constexpr std::size_t dropped = (std::size_t{std::is_integral_v<I>} + ... + 0);
    // Every extent and stride is written below, in the view itself.
    return strided_view_filled(e, in.size() - dropped, [&](shape_t& shape, strides_t& strides) {
        index_t offset = 0;
        std::size_t in_axis = 0, out_axis = 0;
        auto keep = [&](index_t extent, index_t stride) {
            shape[out_axis] = extent;
            strides[out_axis] = stride;
            ++out_axis;
        };
        [[maybe_unused]] auto apply = [&]<class J>(const J& i) { // (unused for `view(e)`)
            const index_t n = in[in_axis], stride = from[in_axis];
            if constexpr (std::is_integral_v<J>) {
                offset += integer_view_axis(static_cast<index_t>(i), n, in_axis).start * stride;
            } else if constexpr (std::is_same_v<J, slice>) {
                const view_axis a = slice_view_axis(i, n);
                offset += a.start * stride;
                keep(a.extent, a.step * stride);
            } else {
                keep(n, stride);
            }
            ++in_axis;
        };
        (apply(idx), ...);
        for (; in_axis < in.size(); ++in_axis)
            keep(in[in_axis], from[in_axis]);
        return offset;
    });
}
} // namespace detail

/// `transpose(e)` reverses the axes; `transpose(e, {axes})` puts operand axis `axes[j]` at
/// position j (as numpy.transpose). Shape `(2, 3, 4)` → `(4, 3, 2)`. Zero-copy: on a tensor it
/// is a writable `tensor_view`; on an expression a lazy remap (`transpose(a + b)` never
/// copies). Throws `axis_error` for an axis out of range, `value_error` when `axes` is not a
/// permutation of the axes.
template <class E>
    requires expression<E>
auto transpose(E&& e, const shape_t& axes = {}) {
    if constexpr (detail::strided_operand<E>) {
        // Strided elements: the shape and strides permuted, as transpose_map's map gives them.
        const std::size_t rank = e.shape().size();
        // Each extent and stride is written in the view itself.
        return detail::strided_view_filled(e, rank, [&](shape_t& shape, strides_t& strides) {
            auto take = [&](std::size_t j, std::size_t axis) {
                shape[j] = e.shape()[axis];
                strides[j] = e.strides()[axis];
            };
            if (axes.empty()) { // the axes reversed, as transpose_axes gives them
                for (std::size_t j = 0; j < rank; ++j)
                    take(j, rank - 1 - j);
            } else {
                const shape_t order = detail::transpose_axes(e.shape(), axes);
                for (std::size_t j = 0; j < rank; ++j)
                    take(j, static_cast<std::size_t>(order[j]));
            }
            return index_t{0};
        });
    } else {
        return detail::apply_view(std::forward<E>(e),
                                  [&](const shape_t& s) { return transpose_map(s, axes); });
    }
}

/// `swapaxes(e, axis1, axis2)` as numpy.swapaxes: the two axes exchanged, (2, 3, 4) with 0, 2
/// → (4, 3, 2). Zero-copy as `transpose` (writable on a tensor). Throws `axis_error` for an
/// axis out of range.
template <class E>
    requires expression<E>
auto swapaxes(E&& e, index_t axis1, index_t axis2) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return swapaxes_map(s, axis1, axis2); });
}

/// `moveaxis(e, source, destination)` as numpy.moveaxis: axis `source` moves to position
/// `destination`, the others keep their order: (2, 3, 4) with 0, -1 → (3, 4, 2). With lists,
/// `moveaxis(e, {0, 1}, {-1, -2})` moves several at once. Zero-copy as `transpose`. Throws
/// `axis_error` for an axis out of range, `value_error` for a repeated axis or lists of
/// different lengths.
template <class E>
    requires expression<E>
auto moveaxis(E&& e, index_t source, index_t destination) {
    return detail::apply_view(std::forward<E>(e), [&](const shape_t& s) {
        return moveaxis_map(s, shape_t{source}, shape_t{destination});
    });
}
template <class E>
    requires expression<E>
auto moveaxis(E&& e,
              std::initializer_list<index_t> source,
              std::initializer_list<index_t> destination) {
    return detail::apply_view(std::forward<E>(e), [&](const shape_t& s) {
        return moveaxis_map(s, shape_t(source), shape_t(destination));
    });
}

/// `diagonal(e, offset, axis1, axis2)` as numpy.diagonal: removes `axis1` and `axis2` and
/// appends the diagonal as the last axis: (2, 3, 4) with axes 1, 2 → (2, 3). `offset > 0` is
/// above the main diagonal. On a tensor it is a writable view (unlike NumPy's read-only one):
/// `diagonal(d) = inf` writes d's diagonal. Throws `value_error` for rank < 2 or equal axes,
/// `axis_error` for an axis out of range.
template <class E>
    requires expression<E>
auto diagonal(E&& e, index_t offset = 0, index_t axis1 = 0, index_t axis2 = 1) {
    return detail::apply_view(std::forward<E>(e), [&](const shape_t& s) {
        return diagonal_map(s, offset, axis1, axis2);
    });
}

/// `view(e, i...)`: NumPy's basic indexing `e[i...]` with `slice(start, stop, step)`, integers
/// (drop the axis; negative from the end), `all` (a whole axis), `newaxis` and `ellipsis`.
/// Example: `view(z, all, newaxis, all)` turns (150, 4) into (150, 1, 4). Zero-copy as
/// `transpose`. Throws `index_error` for an integer outside its axis, `value_error` for too
/// many indices, two ellipses or a slice step of 0.
template <class E, class... I>
    requires expression<E>
auto view(E&& e, const I&... idx) {
    if constexpr (detail::strided_operand<E> && (detail::plain_view_index<I> && ...)) {
        return detail::plain_view(e, idx...);
    } else {
        const std::array<view_index, sizeof...(I)> list{detail::to_view_index(idx)...};
        if constexpr (detail::strided_operand<E>) {
            // Strided elements: the view's shape, strides and offset straight from the indices,
            // the ones view_map's map gives (apply_view's route), without building the map.
            shape_t shape;
            strides_t strides;
            index_t offset = 0;
            const strides_t& from = e.strides();
            detail::for_each_view_axis(
                e.shape(), list, [&](std::size_t axis, const detail::view_axis& a) {
                    const index_t stride = a.reads ? from[axis] : 0;
                    offset += a.start * stride;
                    if (a.keeps) {
                        shape.push_back(a.extent);
                        strides.push_back(a.step * stride);
                    }
                });
            return detail::strided_view_of(e, std::move(shape), std::move(strides), offset);
        } else {
            return detail::apply_view(std::forward<E>(e),
                                      [&](const shape_t& s) { return view_map(s, list); });
        }
    }
}

/// `flip(e)` reverses every axis, `flip(e, axis)` one axis, `flip(e, {axes})` several (as
/// numpy.flip). Shape unchanged; zero-copy (negative strides), writable on a tensor. Throws
/// `axis_error` for an axis out of range, `value_error` for a repeated axis.
template <class E>
    requires expression<E>
auto flip(E&& e) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return flip_map(s, std::nullopt); });
}
template <class E>
    requires expression<E>
auto flip(E&& e, index_t axis) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return flip_map(s, shape_t{axis}); });
}
template <class E>
    requires expression<E>
auto flip(E&& e, std::initializer_list<index_t> axes) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return flip_map(s, shape_t(axes)); });
}

/// `broadcast_to(e, shape)` (numpy.broadcast_to): `e` stretched to `shape` with stride 0 on
/// every broadcast axis: (3,) → (2, 3), (3, 1) → (3, 4). Zero-copy and read-only (a
/// `tensor_view<const T>` on a tensor: many view elements share one stored element).
/// Throws `broadcast_error` when `e`'s shape does not broadcast to `shape`.
template <class E>
    requires expression<E>
auto broadcast_to(E&& e, const shape_t& shape) {
    auto v = detail::apply_view(std::forward<E>(e),
                                [&](const shape_t& s) { return broadcast_map(s, shape); });
    if constexpr (view_like<decltype(v)>)
        return tensor_view<const typename decltype(v)::value_type>(v);
    else
        return v;
}

/// `expand_dims(e, axis)` as numpy.expand_dims: an extent-1 axis inserted at position `axis` of
/// the result (negative counts from the result's end): (2, 3) with 0 → (1, 2, 3), with -1 →
/// (2, 3, 1); `expand_dims(e, {0, 2})` inserts several. Zero-copy, writable on a tensor.
/// Throws `axis_error` for an axis out of range of the result, `value_error` for a repeat.
template <class E>
    requires expression<E>
auto expand_dims(E&& e, index_t axis) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return expand_dims_map(s, shape_t{axis}); });
}
template <class E>
    requires expression<E>
auto expand_dims(E&& e, std::initializer_list<index_t> axes) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return expand_dims_map(s, shape_t(axes)); });
}

/// `squeeze(e)` as numpy.squeeze: every extent-1 axis removed, (1, 3, 1) → (3,);
/// `squeeze(e, axis)` / `squeeze(e, {axes})` only those, which must have extent 1. Zero-copy,
/// writable on a tensor. Throws `axis_error` for an axis out of range, `value_error` for an
/// axis whose extent is not 1 or a repeated axis.
template <class E>
    requires expression<E>
auto squeeze(E&& e) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return squeeze_map(s, std::nullopt); });
}
template <class E>
    requires expression<E>
auto squeeze(E&& e, index_t axis) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return squeeze_map(s, shape_t{axis}); });
}
template <class E>
    requires expression<E>
auto squeeze(E&& e, std::initializer_list<index_t> axes) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return squeeze_map(s, shape_t(axes)); });
}

/// `reshape(e, shape)` as numpy.reshape (row-major order; one extent may be `-1`, inferred):
/// (2, 3) → (3, 2), (6,) → (2, -1) = (2, 3). What it returns depends on the operand:
///  - an lvalue tensor or a view: a `tensor_view` of the same elements with new strides,
///    writable when the operand is, whenever the layout allows it (always for a tensor;
///    for a view when each run of merged axes is contiguous, NumPy's rule). Otherwise (e.g.
///    `reshape(transpose(a), {-1})`) a view that owns a row-major copy of the elements, made
///    at this call, as NumPy returns a copy: writes to it do not reach the operand.
///  - an rvalue tensor: the same tensor with the new shape, no copy (`reshape(arange(6), {2, 3})`).
///  - any other expression: a lazy `reshaped` node. A reshape that only splits axes and adds or
///    drops extent-1 axes is an index remap like `transpose(a + b)`; one that merges axes makes
///    the expression a materialisation boundary, evaluated into a temporary first (explain
///    shows it as a `reshape copy`).
/// Throws `value_error` when the size does not match (`cannot reshape tensor of size 6 into
/// shape (4,)`), for two `-1` or another negative extent.
template <class E>
    requires expression<E>
auto reshape(E&& e, const shape_t& shape) {
    using U = std::remove_cvref_t<E>;
    if constexpr (view_like<E> || (tensor_like<E> && std::is_lvalue_reference_v<E>)) {
        const auto v = [&] {
            if constexpr (view_like<E>)
                return e;
            else
                return e.view();
        }();
        using T = typename decltype(v)::element_type;
        shape_t to = reshape_target(v.shape(), shape);
        if (auto st = reshape_strides(v.shape(), v.strides(), to))
            return v.restrided(std::move(to), std::move(*st));
        auto copy = std::make_shared<tensor<typename U::value_type>>(v);
        T* data = copy->data();
        strides_t st = row_major_strides(to);
        return tensor_view<T>(data, std::move(to), std::move(st), std::move(copy));
    } else if constexpr (tensor_like<E>) {
        U t = std::move(e);
        t.reshape(shape);
        return t;
    } else {
        auto n = as_node(std::forward<E>(e));
        shape_t to = reshape_target(n.shape(), shape);
        auto split = reshape_map(n.shape(), to);
        return reshaped<decltype(n)>{{}, std::move(n), std::move(to), std::move(split)};
    }
}

/// `reshape(e, n)`: `reshape(e, {n})`, as numpy.reshape(a, 6) takes an integer for a 1-d shape
/// (`-1`: every element in one axis).
template <class E, std::integral I>
    requires expression<E>
auto reshape(E&& e, I n) {
    return reshape(std::forward<E>(e), shape_t{static_cast<index_t>(n)});
}

} // namespace fusor
