// fusor/algo/index_arrays.hpp: integer index arrays, as NumPy's take, take_along_axis, put,
// put_along_axis and choose: gathers that return a new tensor, and scatters that write into a
// tensor or a writable view. Every index is checked before the first element is stored, so a
// throwing scatter leaves its destination untouched (NumPy's put may stop half way); values
// are read into a private buffer first, so they may alias the destination.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/algo/multi_index.hpp>
#include <fusor/algo/searching.hpp>
#include <fusor/config.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/prefetch.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {

/// A destination of put and friends as a writable view: an lvalue tensor or any writable
/// view (a `const` tensor or a `tensor_view<const T>` does not compile).
template <class A>
auto writable_view(A& a) {
    if constexpr (tensor_like<A>) {
        static_assert(!std::is_const_v<A>, "fusor: cannot write into a const tensor");
        return a.view();
    } else {
        static_assert(view_like<A>, "fusor: the destination must be a tensor or a view");
        static_assert(!std::is_const_v<typename A::element_type>,
                      "fusor: cannot write into a read-only view (tensor_view<const T>)");
        check_lifetimes(a);
        return a;
    }
}

/// The offset of row-major position `flat` in view `v` (contiguous views: `flat` itself).
template <class T>
index_t flat_offset(const tensor_view<T>& v, bool row_major, index_t flat) {
    if (row_major)
        return flat;
    index_t off = 0;
    for (std::size_t d = v.shape().size(); d-- > 0;) {
        const index_t n = v.shape()[d];
        off += (flat % n) * v.strides()[d];
        flat /= n;
    }
    return off;
}

/// `index` wrapped into `[0, n)` (negative counts from the end), or `index_error` naming the
/// index, the axis and its size, NumPy's words.
FUSOR_DECL index_t checked_index(std::int64_t index, index_t n, index_t axis);

/// checked_index for loops over many indices: the wrap and the test inline, only the error
/// (checked_index again, which throws) out of line. A call per index was 1.8 ms of the 10.5 that
/// `view(x, idx)` took for 2^20 random indices into 2^24 float32.
FUSOR_LAZY FUSOR_INLINE index_t wrapped_index(std::int64_t index, index_t n, index_t axis) {
    const index_t j = index < 0 ? index + n : index;
    if (j < 0 || j >= n) [[unlikely]]
        return checked_index(index, n, axis); // throws, naming it
    return j;
}

/// The values an operand holds, converted to T, in row-major order (a C++ scalar is one value).
template <class T, class V>
tensor<T> values_as(const V& v) {
    if constexpr (std::is_arithmetic_v<V>) {
        tensor<T> t(shape_t{}, uninitialized);
        t.data()[0] = static_cast<T>(v);
        return t;
    } else {
        return tensor<T>(v);
    }
}

// The shape take_along_axis and put_along_axis index: arr's and indices' extents broadcast
// off `axis` (NumPy's fancy index of aranges and `indices`), indices' extent on it. Throws
// `index_error` when they do not broadcast ("shape mismatch: indexing arrays could not be
// broadcast together").
FUSOR_DECL shape_t along_axis_shape(const shape_t& arr, const shape_t& idx, index_t axis);

// Visits the along-axis index space `shape`: f(arr_offset, idx_offset, k) for the k-th position
// in row-major order, where arr_offset is the row-major offset in arr of the position with its
// `axis` index left at 0 (arr's extent-1 axes broadcast), idx_offset the position in the
// indices (their extent-1 axes broadcast).
template <class F>
void for_each_along(
    const shape_t& shape, const shape_t& arr, const shape_t& idx, index_t axis, F&& f) {
    const strides_t arr_rm = row_major_strides(arr), idx_rm = row_major_strides(idx);
    strides_t as(shape.size(), 0), is(shape.size(), 0);
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (static_cast<index_t>(d) != axis && arr[d] != 1)
            as[d] = arr_rm[d];
        if (idx[d] != 1)
            is[d] = idx_rm[d];
    }
    index_t k = 0;
    for (const shape_t& i : ndindex(shape)) {
        index_t ao = 0, io = 0;
        for (std::size_t d = 0; d < i.size(); ++d) {
            ao += i[d] * as[d];
            io += i[d] * is[d];
        }
        f(ao, io, k++);
    }
}

template <class I>
void require_integer_indices() {
    static_assert(
        std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, std::uint64_t>,
        "fusor: take_along_axis/put_along_axis indices must be an integer array "
        "(NumPy's IndexError \"`indices` must be an integer array\"; uint64 is refused "
        "as NumPy's 'safe' cast to int64 refuses it)");
}

// A take or a put flattened (NumPy's axis=None): the operand's shape as one axis.
FUSOR_DECL shape_t flat_shape(const shape_t& s);

} // namespace detail

/// `take(a, indices, axis)` as numpy.take (mode 'raise'): the elements of `a` at `indices`
/// along `axis`: shape `a.shape[:axis] + indices.shape + a.shape[axis+1:]`, (3, 4) with
/// indices (2,) on axis 1 → (3, 2); `take(a, indices)` indexes the flattened `a` (NumPy's
/// axis=None): shape `indices.shape`. `indices`: an integer or bool tensor, view, expression,
/// or a C++ integer (a 0-d index: the axis is dropped). Negative indices count from the end.
/// Returns a new tensor of `a`'s element type. Throws `axis_error` for an axis out of range,
/// `index_error` for an index outside the axis ("index 7 is out of bounds for axis 0 with size
/// 6"; indices are checked only when the result has outer rows to take them for, as NumPy) or
/// a non-empty take from an axis of extent 0. A 0-d `a` counts as shape (1,), as NumPy's.
template <class E, class I>
    requires(expression<E> && (expression<I> || std::is_integral_v<I>))
tensor<value_type_t<E>> take(const E& a, const I& indices, index_t axis) {
    using T = value_type_t<E>;
    const shape_t s = detail::checked_shape_of(a).rank() == 0 ? shape_t{1} : a.shape();
    const index_t ax = normalize_axis(axis, s.rank());
    // int64 indices in a tensor or dense view are read where they are; others converted once.
    std::optional<tensor<std::int64_t>> converted;
    const std::int64_t* ip = nullptr;
    shape_t ishape;
    if constexpr (tensor_like<I> || view_like<I>) {
        if constexpr (std::is_same_v<value_type_t<I>, std::int64_t>) {
            if (detail::flat_in_place(indices)) {
                ip = indices.data();
                ishape = detail::checked_shape_of(indices);
            }
        }
    }
    if (!ip) {
        converted.emplace(detail::index_tensor(indices));
        ip = converted->data();
        ishape = converted->shape();
    }
    const detail::lane_split lanes(s, ax);
    shape_t out_shape(s.begin(), s.begin() + ax);
    out_shape.insert(out_shape.end(), ishape.begin(), ishape.end());
    out_shape.insert(out_shape.end(), s.begin() + ax + 1, s.end());
    const index_t m = shape_size(ishape);
    if (lanes.n == 0 && shape_size(out_shape) != 0)
        throw index_error("cannot do a non-empty take from an empty axes (axis "
                          + std::to_string(ax) + " of shape " + to_string(s) + ")");
    const detail::flat_values<E> v(a);
    tensor<T> out(out_shape, uninitialized);
    // Each index is checked where it is used (the result is this function's own until it
    // returns, so a throw leaves nothing behind); one element per index is a plain gather.
    T* o = out.data();
    const index_t n = lanes.n;
    // From a source beyond the caches, each element's (or row's first) line is asked for
    // `ahead` indices before it is read (core/prefetch.hpp; wrapped, not yet checked).
    const std::size_t row_bytes = static_cast<std::size_t>(lanes.inner) * sizeof(T);
    const index_t ahead = lanes.inner == 1 ? detail::gather_prefetch_distance
                                           : detail::gather_prefetch_rows(row_bytes);
    const bool prefetch =
        m > ahead && static_cast<std::size_t>(n) * row_bytes >= detail::gather_prefetch_min_bytes;
    for (index_t outer = 0; outer < lanes.outer; ++outer) {
        const T* base = v.data() + lanes.first(outer, 0);
        if (lanes.inner == 1) {
            index_t j = 0;
            if (prefetch)
                for (; j < m - ahead; ++j) {
                    const std::int64_t next = ip[j + ahead];
                    detail::prefetch_element(base, next < 0 ? next + n : next);
                    o[j] = base[detail::wrapped_index(ip[j], n, ax)];
                }
            for (; j < m; ++j)
                o[j] = base[detail::wrapped_index(ip[j], n, ax)];
            o += m;
        } else {
            // Whole rows: each row's first line asked for `ahead` rows before it is copied.
            index_t j = 0;
            if (prefetch)
                for (; j < m - ahead; ++j) {
                    const std::int64_t next = ip[j + ahead];
                    detail::prefetch_element(base, next < 0 ? next + n : next, lanes.inner);
                    const T* from = base + detail::wrapped_index(ip[j], n, ax) * lanes.inner;
                    o = std::copy(from, from + lanes.inner, o);
                }
            for (; j < m; ++j) {
                const T* from = base + detail::wrapped_index(ip[j], n, ax) * lanes.inner;
                o = std::copy(from, from + lanes.inner, o);
            }
        }
    }
    return out;
}
template <class E, class I>
    requires(expression<E> && (expression<I> || std::is_integral_v<I>))
tensor<value_type_t<E>> take(const E& a, const I& indices) {
    return take(reshape(a, detail::flat_shape(detail::checked_shape_of(a))), indices, 0);
}
/// `take(a, {i0, i1, ...}, axis)` and `take(a, {i0, ...})`: the indices as a braced list of
/// integers (numpy.take(a, [0, 2], axis)), a 1-d int64 index array.
template <class E, class L>
    requires(expression<E>&& std::is_integral_v<L>)
tensor<value_type_t<E>> take(const E& a, std::initializer_list<L> indices, index_t axis) {
    return take(a, detail::list_tensor(indices), axis);
}
template <class E, class L>
    requires(expression<E>&& std::is_integral_v<L>)
tensor<value_type_t<E>> take(const E& a, std::initializer_list<L> indices) {
    return take(a, detail::list_tensor(indices));
}

/// `take_along_axis(arr, indices, axis)` as numpy.take_along_axis: `out[..., j, ...] =
/// arr[..., indices[..., j, ...], ...]` along `axis` (what `argsort` and `argmax(keepdims)`
/// give goes straight in); `indices` has `arr`'s rank, and the other axes broadcast against
/// `arr`'s: shape = the broadcast shape with `indices`' extent on `axis`.
/// `take_along_axis(arr, indices)` (NumPy's axis=None) works on the flattened `arr` with 1-d
/// `indices`. Integer indices only (bool does not compile, as NumPy's IndexError); negative
/// ones count from the end. Throws `axis_error`; `value_error` for ranks that differ ("`indices`
/// and `arr` must have the same number of dimensions"); `index_error` for shapes that do not
/// broadcast ("shape mismatch") or an index outside the axis.
template <class E, class I>
    requires(expression<E>&& expression<I>)
tensor<value_type_t<E>> take_along_axis(const E& arr, const I& indices, index_t axis) {
    using T = value_type_t<E>;
    detail::require_integer_indices<value_type_t<I>>();
    const shape_t& s = detail::checked_shape_of(arr);
    const index_t ax = normalize_axis(axis, s.rank());
    const tensor<std::int64_t> idx = detail::index_tensor(indices);
    if (idx.rank() != s.rank())
        throw value_error("`indices` and `arr` must have the same number of dimensions: shapes "
                          + to_string(idx.shape()) + " and " + to_string(s));
    const shape_t out_shape = detail::along_axis_shape(s, idx.shape(), ax);
    tensor<T> out(out_shape, uninitialized);
    if (out.size() == 0)
        return out;
    const index_t n = s[static_cast<std::size_t>(ax)];
    std::vector<index_t> at(static_cast<std::size_t>(idx.size()));
    for (index_t j = 0; j < idx.size(); ++j)
        at[static_cast<std::size_t>(j)] = detail::wrapped_index(idx.data()[j], n, ax);
    const detail::flat_values<E> v(arr);
    const index_t step = row_major_strides(s)[static_cast<std::size_t>(ax)];
    T* o = out.data();
    detail::for_each_along(out_shape, s, idx.shape(), ax, [&](index_t ao, index_t io, index_t k) {
        o[k] = v.data()[ao + at[static_cast<std::size_t>(io)] * step];
    });
    return out;
}
template <class E, class I>
    requires(expression<E>&& expression<I>)
tensor<value_type_t<E>> take_along_axis(const E& arr, const I& indices) {
    return take_along_axis(
        reshape(arr, detail::flat_shape(detail::checked_shape_of(arr))), indices, 0);
}

/// `put(a, indices, values)` as numpy.put (mode 'raise'): `a.flat[indices[k]] = values[k %
/// values.size]` for every k, in order (values repeat cyclically; the last write wins for a
/// repeated index), into a tensor or writable view `a` (any layout: `flat` is its row-major
/// order). `indices`: integers or bool as for `take`; `values`: any expression or C++ scalar,
/// converted to `a`'s type (as NumPy's assignment casts). Empty `values` write nothing.
/// Throws `index_error` for an index outside `[-a.size, a.size)`, before anything is written.
template <class A, class I, class V>
    requires((tensor_like<A> || view_like<A>)&&(expression<I> || std::is_integral_v<I>)&&(
        expression<V> || scalar<V>))
void put(A&& a, const I& indices, const V& values) {
    using T = typename std::remove_cvref_t<A>::value_type;
    const auto dest = detail::writable_view(a);
    const tensor<std::int64_t> idx = detail::index_tensor(indices);
    const tensor<T> vals = detail::values_as<T>(values);
    if (vals.size() == 0)
        return;
    const index_t n = dest.size();
    std::vector<index_t> at(static_cast<std::size_t>(idx.size()));
    for (index_t j = 0; j < idx.size(); ++j)
        at[static_cast<std::size_t>(j)] = detail::wrapped_index(idx.data()[j], n, 0);
    const bool rm = is_row_major(dest.shape(), dest.strides());
    for (index_t j = 0; j < idx.size(); ++j)
        dest.data()[detail::flat_offset(dest, rm, at[static_cast<std::size_t>(j)])] =
            vals.data()[j % vals.size()];
}

/// `put(a, {i0, ...}, values)`, `put(a, indices, {v0, ...})`, `put(a, {i0, ...}, {v0, ...})`:
/// indices or values as braced lists (numpy.put(a, [0, 2], [-44, -55])); the values are cast
/// to `a`'s type as above.
template <class A, class L, class V>
    requires(
        (tensor_like<A> || view_like<A>)&&std::is_integral_v<L> && (expression<V> || scalar<V>))
void put(A&& a, std::initializer_list<L> indices, const V& values) {
    put(std::forward<A>(a), detail::list_tensor(indices), values);
}
template <class A, class I, class L>
    requires((tensor_like<A> || view_like<A>)&&(expression<I> || std::is_integral_v<I>)&&scalar<L>)
void put(A&& a, const I& indices, std::initializer_list<L> values) {
    put(std::forward<A>(a), indices, detail::list_tensor(values));
}
template <class A, class L, class M>
    requires((tensor_like<A> || view_like<A>)&&std::is_integral_v<L>&& scalar<M>)
void put(A&& a, std::initializer_list<L> indices, std::initializer_list<M> values) {
    put(std::forward<A>(a), detail::list_tensor(indices), detail::list_tensor(values));
}

/// `put_along_axis(arr, indices, values, axis)` as numpy.put_along_axis: `arr[..., indices[...,
/// j, ...], ...] = values[..., j, ...]` along `axis`, into a tensor or writable view; indices
/// as `take_along_axis`, and `values` (an expression or C++ scalar, converted to `arr`'s type)
/// must broadcast to the indexed shape. The last write wins for repeated indices.
/// `put_along_axis(arr, indices, values)` (NumPy's axis=None) writes the flattened `arr` as
/// `put` does (values repeat cyclically). Throws as `take_along_axis`, and `value_error` when
/// `values` does not broadcast ("shape mismatch: value array of shape (2,) could not be
/// broadcast to indexing result of shape (2, 1)"); every check before the first store.
template <class A, class I, class V>
    requires((tensor_like<A> || view_like<A>)&&expression<I> && (expression<V> || scalar<V>))
void put_along_axis(A&& arr, const I& indices, const V& values, index_t axis) {
    using T = typename std::remove_cvref_t<A>::value_type;
    detail::require_integer_indices<value_type_t<I>>();
    const auto dest = detail::writable_view(arr);
    const shape_t& s = dest.shape();
    const index_t ax = normalize_axis(axis, s.rank());
    const tensor<std::int64_t> idx = detail::index_tensor(indices);
    if (idx.rank() != s.rank())
        throw value_error("`indices` and `arr` must have the same number of dimensions: shapes "
                          + to_string(idx.shape()) + " and " + to_string(s));
    const shape_t out_shape = detail::along_axis_shape(s, idx.shape(), ax);
    const tensor<T> vals = detail::values_as<T>(values);
    if (!broadcasts_to(vals.shape(), out_shape, true))
        throw value_error("shape mismatch: value array of shape " + to_string(vals.shape())
                          + " could not be broadcast to indexing result of shape "
                          + to_string(out_shape));
    if (shape_size(out_shape) == 0)
        return;
    const index_t n = s[static_cast<std::size_t>(ax)];
    std::vector<index_t> at(static_cast<std::size_t>(idx.size()));
    for (index_t j = 0; j < idx.size(); ++j)
        at[static_cast<std::size_t>(j)] = detail::wrapped_index(idx.data()[j], n, ax);
    // The values as the indexed shape (extra leading extent-1 axes dropped, as assignment).
    const shape_t vs = [&] {
        shape_t v = vals.shape();
        while (v.size() > out_shape.size())
            v.erase(v.begin());
        return v;
    }();
    const tensor_view<const T> vb = broadcast_to(tensor_view<const T>(vals.data(), vs), out_shape);
    const bool rm = is_row_major(s, dest.strides());
    const index_t step = row_major_strides(s)[static_cast<std::size_t>(ax)];
    auto value = vb.begin();
    detail::for_each_along(out_shape, s, idx.shape(), ax, [&](index_t ao, index_t io, index_t) {
        const index_t flat = ao + at[static_cast<std::size_t>(io)] * step;
        dest.data()[detail::flat_offset(dest, rm, flat)] = *value;
        ++value;
    });
}
template <class A, class I, class V>
    requires((tensor_like<A> || view_like<A>)&&expression<I> && (expression<V> || scalar<V>))
void put_along_axis(A&& arr, const I& indices, const V& values) {
    using T = typename std::remove_cvref_t<A>::value_type;
    detail::require_integer_indices<value_type_t<I>>();
    const auto dest = detail::writable_view(arr);
    const tensor<std::int64_t> idx = detail::index_tensor(indices);
    if (idx.rank() != 1)
        throw value_error("`indices` and `arr` must have the same number of dimensions: shapes "
                          + to_string(idx.shape()) + " and "
                          + to_string(detail::flat_shape(dest.shape())) + " (arr flattened)");
    const tensor<T> vals = detail::values_as<T>(values);
    if (vals.size() == 0)
        return;
    const index_t n = dest.size();
    for (index_t j = 0; j < idx.size(); ++j)
        if (idx.data()[j] < -n || idx.data()[j] >= n)
            throw index_error("index " + std::to_string(idx.data()[j])
                              + " is out of bounds for size " + std::to_string(n));
    put(dest, idx, vals);
}

namespace detail {
// choose over `n` choices of element type T read through `choice(k)` (a tensor_view<const T>).
template <class T, class I, class Choice>
tensor<T> choose_impl(const I& index, std::size_t n, const Choice& choice) {
    const tensor<std::int64_t> idx = index_tensor(index);
    if (n == 0)
        throw value_error("choose: 0-length sequence of choices");
    std::vector<tensor_view<const T>> views;
    std::vector<const shape_t*> shapes{&idx.shape()};
    for (std::size_t k = 0; k < n; ++k) {
        views.push_back(choice(k));
        check_lifetimes(views.back());
    }
    for (const auto& v : views)
        shapes.push_back(&v.shape());
    const shape_t out_shape = broadcast_all(shapes);
    tensor<T> out(out_shape, uninitialized);
    const tensor_view<const std::int64_t> ib = broadcast_to(idx, out_shape);
    for (const std::int64_t i : ib)
        if (i < 0 || i >= static_cast<std::int64_t>(n))
            throw value_error("invalid entry in choice array: " + std::to_string(i) + " for "
                              + std::to_string(n) + " choices");
    std::vector<tensor_view<const T>> stretched;
    for (const auto& v : views)
        stretched.push_back(broadcast_to(v, out_shape));
    // One odometer over the result; each position reads the chosen choice at its offset.
    T* o = out.data();
    index_t k = 0;
    for (const shape_t& pos : ndindex(out_shape)) {
        index_t io = 0;
        for (std::size_t d = 0; d < pos.size(); ++d)
            io += pos[d] * ib.strides()[d];
        const tensor_view<const T>& c = stretched[static_cast<std::size_t>(ib.data()[io])];
        index_t off = 0;
        for (std::size_t d = 0; d < pos.size(); ++d)
            off += pos[d] * c.strides()[d];
        o[k++] = c.data()[off];
    }
    return out;
}

template <class T>
struct choose_overload {
    template <class I>
        requires(expression<I> || std::is_integral_v<I>)
    tensor<T>
    operator()(const I& index, std::initializer_list<tensor_view<const T>> choices) const {
        return choose_impl<T>(
            index, choices.size(), [&](std::size_t k) { return choices.begin()[k]; });
    }
};

template <class... Ts>
struct choose_fn : choose_overload<Ts>... {
    using choose_overload<Ts>::operator()...;

    template <class I, class P>
        requires((expression<I> || std::is_integral_v<I>)&&(tensor_like<P> || view_like<P>))
    auto operator()(const I& index, const std::vector<P>& choices) const {
        using T = typename P::value_type;
        return choose_impl<T>(index, choices.size(), [&](std::size_t k) -> tensor_view<const T> {
            return choices[k];
        });
    }
};
} // namespace detail

/// `choose(index, choices)` as numpy.choose (mode 'raise'): `out[p] = choices[index[p]][p]`,
/// `index` and every choice broadcast together: shape = their broadcast shape.
/// `choices`: a braced list of tensors and views of one element type (`choose(i, {c0, c1})`),
/// or a `std::vector` of them; the result has that type. `index`: an integer or bool tensor,
/// view, expression, or a C++ integer. Throws `value_error` for an entry outside
/// `[0, choices.size())` ("invalid entry in choice array") or no choices;
/// `broadcast_error` for shapes that do not broadcast (NumPy's "shape mismatch: objects cannot
/// be broadcast to a single shape" ValueError), naming every shape.
inline constexpr detail::choose_fn<bool,
                                   std::int8_t,
                                   std::int16_t,
                                   std::int32_t,
                                   std::int64_t,
                                   std::uint8_t,
                                   std::uint16_t,
                                   std::uint32_t,
                                   std::uint64_t,
                                   float,
                                   double>
    choose{};

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/index_arrays.ipp>
#endif
