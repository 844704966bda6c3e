// fusor/algo/masks.hpp: boolean masks, as NumPy's nonzero, where(cond), argwhere, flatnonzero
// (where a mask is true), compress and extract (selecting by it), putmask and place (writing
// by it). A mask is any expression: an element is true when it is non-zero (NaN is true).
// Results are new int64 or value tensors (NumPy copies too); the writers check every size
// before the first store and read the mask and values into private buffers first (so both
// may alias the destination).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/algo/index_arrays.hpp>
#include <fusor/algo/searching.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {
// The truth of one element: non-zero (so NaN is true, -0.0 false), as NumPy's nonzero.
template <class T>
bool truthy(T v) {
    return v != T(0);
}

// How many of the `size` values at `v` are true (a loop without a branch, vectorised).
template <class T>
index_t count_true(const T* v, index_t size) {
    index_t n = 0;
    for (index_t k = 0; k < size; ++k)
        n += truthy(v[k]) ? 1 : 0;
    return n;
}

// The positions of a mask's true elements, written straight into the results: the coordinate
// on axis d of the n-th true element (row-major) goes to `axes[d][n * step]` (nonzero: one
// tensor per axis, step 1; argwhere: one (count, rank) tensor, step rank). `shape` has rank
// >= 1 and `count` is the mask's number of true elements. Each row's last-axis coordinates
// are stored without a branch (every element's column is stored at the next free place and
// the place moves on when the element is true: a random mask's branch would mispredict every
// other element) in chunks that cannot run past `count`; the other axes' coordinates, constant
// along the row, are filled in afterwards.
template <class T>
void write_true_coordinates(
    const T* v, const shape_t& shape, index_t count, std::int64_t* const* axes, index_t step) {
    constexpr index_t chunk = 1024;
    const std::size_t last_axis = shape.size() - 1;
    const index_t row = shape[last_axis];
    std::int64_t* const last = axes[last_axis];
    shape_t outer(last_axis, 0); // the row's coordinates on the other axes
    index_t n = 0;
    for (const T* x = v; n < count; x += row) {
        const index_t row_start = n;
        for (index_t j0 = 0; j0 < row; j0 += chunk) {
            const index_t j1 = std::min(row, j0 + chunk);
            if (count - n >= j1 - j0) {
                index_t j = j0;
                if constexpr (sizeof(T) == 1) { // bytes: a word of eight false ones skipped
                    for (; j + 8 <= j1; j += 8) {
                        std::uint64_t word;
                        std::memcpy(&word, x + j, 8);
                        if (word == 0)
                            continue;
                        for (index_t b = j; b < j + 8; ++b) {
                            last[n * step] = b;
                            n += truthy(x[b]) ? 1 : 0;
                        }
                    }
                }
                for (; j < j1; ++j) {
                    last[n * step] = j;
                    n += truthy(x[j]) ? 1 : 0;
                }
            } else { // the last true elements: a store past `count` would leave the result
                for (index_t j = j0; j < j1; ++j)
                    if (truthy(x[j]))
                        last[n++ * step] = j;
            }
        }
        for (std::size_t d = 0; d < last_axis; ++d)
            for (index_t k = row_start; k < n; ++k)
                axes[d][k * step] = outer[d];
        for (std::size_t d = last_axis; d-- > 0;) { // the odometer over the other axes
            if (++outer[d] < shape[d])
                break;
            outer[d] = 0;
        }
    }
}

// A mask read once: its values (row-major, where they are when they can be), its shape (a 0-d
// mask counting as shape (1,): NumPy 1.24's deprecated nonzero of a 0-d array works on
// atleast_1d of it) and its number of true elements.
template <class E>
struct mask_values {
    shape_t shape;
    flat_values<E> values;
    index_t count;

    explicit mask_values(const E& e)
        : shape(detail::checked_shape_of(e)), values(e),
          count(count_true(values.data(), values.size())) {
        if (shape.empty())
            shape = shape_t{1};
    }
    // Writes the coordinates of the true elements to `axes` (one pointer per axis of `shape`).
    void write(std::int64_t* const* axes, index_t step) const {
        write_true_coordinates(values.data(), shape, count, axes, step);
    }
};
} // namespace detail

/// `nonzero(m)` as numpy.nonzero: the indices of the non-zero elements of `m`, one
/// `tensor<int64_t>` of shape `(count,)` per axis of `m`, in row-major order of the elements
/// (NaN counts as non-zero). `m`: any tensor, view or expression (evaluated once). A 0-d `m`
/// gives one tensor, as NumPy 1.24's deprecated form (`atleast_1d(m)`).
/// Example: `auto idx = nonzero(x > 0); idx[0]` holds the rows.
template <class E>
    requires expression<E> std::vector<tensor<std::int64_t>> nonzero(const E& m) {
        const detail::mask_values<E> p(m);
        std::vector<tensor<std::int64_t>> out;
        for (std::size_t d = 0; d < p.shape.size(); ++d)
            out.emplace_back(shape_t{p.count}, uninitialized);
        // Pointers taken once `out` is complete: a small tensor holds its elements inline, so
        // moving it (as a growing vector does) moves them.
        std::vector<std::int64_t*> axes;
        for (tensor<std::int64_t>& t : out)
            axes.push_back(t.data());
        p.write(axes.data(), 1);
        return out;
    }

/// `where(m)` with one argument, as numpy.where(condition): the same as `nonzero(m)`.
template <class E>
    requires expression<E> std::vector<tensor<std::int64_t>> where(const E& m) {
        return nonzero(m);
    }

/// `argwhere(m)` as numpy.argwhere: the indices of the non-zero elements as one
/// `tensor<int64_t>` of shape `(count, rank)`, a row per element in row-major order. A 0-d `m`
/// gives shape `(count, 0)` (count 0 or 1), as NumPy.
template <class E>
    requires expression<E> tensor<std::int64_t> argwhere(const E& m) {
        const index_t rank = detail::checked_shape_of(m).rank();
        const detail::mask_values<E> p(m);
        tensor<std::int64_t> out(shape_t{p.count, rank}, uninitialized);
        if (rank > 0) {
            std::vector<std::int64_t*> axes;
            for (index_t d = 0; d < rank; ++d)
                axes.push_back(out.data() + d);
            p.write(axes.data(), rank);
        }
        return out;
    }

/// `flatnonzero(m)` as numpy.flatnonzero: the row-major (flat) positions of the non-zero
/// elements of `m`, a `tensor<int64_t>` of shape `(count,)`; a 0-d `m` counts as (1,).
template <class E>
    requires expression<E> tensor<std::int64_t> flatnonzero(const E& m) {
        detail::check_lifetimes(m);
        const detail::flat_values<E> v(m);
        const index_t count = detail::count_true(v.data(), v.size());
        tensor<std::int64_t> out(shape_t{count}, uninitialized);
        std::int64_t* const axis = out.data();
        detail::write_true_coordinates(v.data(), shape_t{v.size()}, count, &axis, 1);
        return out;
    }

/// `compress(condition, a, axis)` as numpy.compress: the slices of `a` along `axis` where the
/// 1-d `condition` is non-zero, `take(a, flatnonzero(condition), axis)`: (3, 4) with a
/// condition of two true elements on axis 1 → (3, 2). `condition` may be shorter than the axis
/// (the rest counts as false) or longer when the extra elements are false.
/// `compress(condition, a)` works on the flattened `a` (NumPy's axis=None). Throws
/// `value_error` for a `condition` that is not 1-d ("condition must be a 1-d array"),
/// `axis_error`, and `index_error` for a true element past the axis ("index 3 is out of bounds
/// for axis 0 with size 3").
template <class C, class E>
    requires(expression<C>&& expression<E>)
tensor<value_type_t<E>> compress(const C& condition, const E& a, index_t axis) {
    if (detail::checked_shape_of(condition).rank() != 1)
        throw value_error("condition must be a 1-d array, got shape "
                          + to_string(condition.shape()));
    return take(a, flatnonzero(condition), axis);
}
template <class C, class E>
    requires(expression<C>&& expression<E>)
tensor<value_type_t<E>> compress(const C& condition, const E& a) {
    if (detail::checked_shape_of(condition).rank() != 1)
        throw value_error("condition must be a 1-d array, got shape "
                          + to_string(condition.shape()));
    return take(a, flatnonzero(condition));
}

/// `extract(condition, a)` as numpy.extract: the elements of the flattened `a` where the
/// flattened `condition` is non-zero, a 1-d tensor (`a[condition]` for a mask of `a`'s shape).
/// The condition may have another shape; it is read flat. Throws `index_error` for a true
/// element past `a`'s size.
template <class C, class E>
    requires(expression<C>&& expression<E>)
tensor<value_type_t<E>> extract(const C& condition, const E& a) {
    return take(a, flatnonzero(condition));
}

namespace detail {
// The mask of putmask and place as bools in row-major order, checked to have `a`'s size.
template <class M>
tensor<bool> mask_of_size(const M& mask, index_t size, const char* what) {
    tensor<bool> m(mask); // a private copy: the mask may alias the destination
    if (m.size() != size)
        throw value_error(std::string(what)
                          + ": mask and data must be the same size (mask of shape "
                          + to_string(m.shape()) + ", " + std::to_string(size) + " elements)");
    return m;
}
} // namespace detail

/// `putmask(a, mask, values)` as numpy.putmask: `a.flat[i] = values.flat[i % values.size]`
/// wherever `mask.flat[i]` is non-zero, into a tensor or writable view `a` (values indexed by
/// the position in `a`, and repeated cyclically). `mask` must have `a`'s size (its shape may
/// differ); `values` is any expression or C++ scalar, converted to `a`'s type (NumPy 1.24
/// raises TypeError unless the cast is 'safe'); empty `values` write nothing. Throws
/// `value_error` for a size mismatch ("putmask: mask and data must be the same size"), before
/// anything is written.
template <class A, class M, class V>
    requires((tensor_like<A> || view_like<A>)&&expression<M> && (expression<V> || scalar<V>))
void putmask(A&& a, const M& mask, const V& values) {
    using T = typename std::remove_cvref_t<A>::value_type;
    const auto dest = detail::writable_view(a);
    const tensor<bool> m = detail::mask_of_size(mask, dest.size(), "putmask");
    const tensor<T> vals = detail::values_as<T>(values);
    if (vals.size() == 0)
        return;
    index_t i = 0;
    for (T& x : dest) {
        if (m.data()[i])
            x = vals.data()[i % vals.size()];
        ++i;
    }
}

/// `place(a, mask, values)` as numpy.place: the k-th element of `a` (row-major) where `mask`
/// is non-zero gets `values.flat[k % values.size]` (values consumed in order, repeated
/// cyclically), into a tensor or writable view `a`. `mask` must have `a`'s size; `values` is
/// any expression or C++ scalar converted to `a`'s type. Throws `value_error` for a size
/// mismatch ("place: mask and data must be the same size") or empty `values` with a true
/// element ("Cannot insert from an empty array!"), before anything is written.
template <class A, class M, class V>
    requires((tensor_like<A> || view_like<A>)&&expression<M> && (expression<V> || scalar<V>))
void place(A&& a, const M& mask, const V& values) {
    using T = typename std::remove_cvref_t<A>::value_type;
    const auto dest = detail::writable_view(a);
    const tensor<bool> m = detail::mask_of_size(mask, dest.size(), "place");
    const tensor<T> vals = detail::values_as<T>(values);
    bool any = false;
    for (const bool b : m)
        any = any || b;
    if (!any)
        return;
    if (vals.size() == 0)
        throw value_error("place: Cannot insert from an empty array!");
    index_t i = 0, k = 0;
    for (T& x : dest) {
        if (m.data()[i++])
            x = vals.data()[k++ % vals.size()];
    }
}

} // namespace fusor
