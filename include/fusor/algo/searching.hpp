// fusor/algo/searching.hpp: searchsorted, isin and unique. Each reads its operands once,
// row-major (a tensor's own buffer, anything else evaluated fused into one), then searches or
// sorts with the standard library under NumPy's order: numbers ascending, NaN after every
// number (detail::sorts_before, as numpy.sort).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/algo/sort.hpp>
#include <fusor/config.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {
// True when a view's elements lie in row-major order at unit steps (extent-1 axes may have
// any stride; an empty view qualifies).
FUSOR_DECL bool dense_row_major(const shape_t& shape, const strides_t& strides);

// True when `flat_values` reads `e` where it is (a tensor or a dense view); otherwise it
// evaluates `e` once into a buffer it owns.
template <class E>
bool flat_in_place(const E& e) {
    if constexpr (tensor_like<E>)
        return true;
    else if constexpr (view_like<E>)
        return dense_row_major(e.shape(), e.strides());
    else
        return false;
}

// The elements of `e` in row-major order, read where they are when `e` is a tensor or a dense
// view, otherwise `e` evaluated once (fused) into a buffer this object owns.
template <class E>
class flat_values {
public:
    using value_type = value_type_t<E>;

    explicit flat_values(const E& e) : size_(e.size()) {
        if constexpr (tensor_like<E> || view_like<E>) {
            if (flat_in_place(e)) {
                data_ = e.data();
                return;
            }
        }
        own(e);
    }
    flat_values(const flat_values&) = delete;
    flat_values& operator=(const flat_values&) = delete;

    const value_type* data() const { return data_; }
    index_t size() const { return size_; }
    value_type operator[](index_t i) const { return data_[i]; }

private:
    void own(const E& e) {
        owned_ = std::make_unique<tensor<value_type>>(eval(e));
        data_ = owned_->data();
    }

    const value_type* data_ = nullptr;
    index_t size_;
    std::unique_ptr<tensor<value_type>> owned_;
};

// A 1-d operand's extent; `value_error` (NumPy's "object too deep/of too small depth for
// desired array") for any other rank.
FUSOR_DECL index_t extent_of_1d(const shape_t& s, const char* what);

// Binary search of `x` in the ascending `n` values `at(0) ... at(n - 1)` under NumPy's order
// (NaN last): the first position whose value is not before `x` (left) or is after `x` (right).
template <class P, class At>
index_t bound(index_t n, P x, bool right, const At& at) {
    index_t lo = 0, hi = n;
    while (lo < hi) {
        const index_t mid = lo + (hi - lo) / 2;
        const P m = at(mid);
        const bool go_right = right ? !sorts_before(x, m) : sorts_before(m, x);
        if (go_right)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// Exact comparisons of two element types for isin: integers against integers compare as
// mathematical integers (NumPy's table method), anything with a float compares in
// `promote_t` (NumPy's sort method). bool counts as the integer 0 or 1.
template <class T>
using int_view_t = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;
template <class A, class B>
constexpr bool exact_integers = std::is_integral_v<A>&& std::is_integral_v<B>;
template <class A, class B>
bool value_less(A a, B b) {
    if constexpr (exact_integers<A, B>)
        return std::cmp_less(static_cast<int_view_t<A>>(a), static_cast<int_view_t<B>>(b));
    else
        return static_cast<promote_t<A, B>>(a) < static_cast<promote_t<A, B>>(b);
}
template <class A, class B>
bool value_equal(A a, B b) {
    if constexpr (exact_integers<A, B>)
        return std::cmp_equal(static_cast<int_view_t<A>>(a), static_cast<int_view_t<B>>(b));
    else
        return static_cast<promote_t<A, B>>(a) == static_cast<promote_t<A, B>>(b);
}

// isin of integers by a table, as NumPy's `kind='table'` (numpy.in1d): one flag per value from
// the smallest test element to the largest, so each element costs one look-up instead of a
// binary search. Taken, as NumPy's default, when the range is at most 6 x (elements + tests);
// returns false (nothing written) otherwise. `tests` is not empty.
template <class A, class B>
bool isin_by_table(const flat_values<A>& ev, const flat_values<B>& tv, bool invert, bool* out) {
    using a_type = int_view_t<value_type_t<A>>;
    using b_type = int_view_t<value_type_t<B>>;
    using wide = std::uint64_t; // differences of in-range values are exact modulo 2^64
    b_type lo = static_cast<b_type>(tv[0]), hi = lo;
    for (index_t i = 1; i < tv.size(); ++i) {
        const auto t = static_cast<b_type>(tv[i]);
        lo = std::min(lo, t);
        hi = std::max(hi, t);
    }
    const wide range = static_cast<wide>(hi) - static_cast<wide>(lo);
    if (range / 6 > static_cast<wide>(ev.size()) + static_cast<wide>(tv.size()))
        return false;
    const auto table = std::make_unique<bool[]>(static_cast<std::size_t>(range) + 1); // zeros
    for (index_t i = 0; i < tv.size(); ++i)
        table[static_cast<wide>(static_cast<b_type>(tv[i])) - static_cast<wide>(lo)] = true;
    for (index_t k = 0; k < ev.size(); ++k) {
        const auto x = static_cast<a_type>(ev[k]);
        const bool inside = !std::cmp_less(x, lo) && !std::cmp_greater(x, hi);
        const wide at = inside ? static_cast<wide>(x) - static_cast<wide>(lo) : 0;
        out[k] = (table[at] & inside) != invert; // no branch: `at` is 0 outside
    }
    return true;
}

template <class T>
bool is_nan_value(T v) {
    if constexpr (std::is_floating_point_v<T>)
        return v != v;
    else
        return false;
}
} // namespace detail

/// Which end of a run of equal values `searchsorted` returns (numpy.searchsorted's `side`):
/// `left` the first position, `right` the one past the last.
enum class side { left, right };

/// `searchsorted(a, v, side = side::left)` (numpy.searchsorted): for each element of `v`, the
/// index where inserting it into the 1-d ascending `a` keeps `a` sorted: with `side::left` the
/// first such index (`a[i-1] < v <= a[i]`), with `side::right` the last (`a[i-1] <= v < a[i]`).
/// Shapes: `a` (n,), `v` any shape → int64 of `v`'s shape (0-d `v` gives 0-d). Values compare
/// in `promote_t` of the two element types (as NumPy's common dtype), NaN after every number.
/// `sorter` (any integer type, shape (n,)) gives `a`'s ascending order as indices
/// (`argsort(a)`). An `a` that is not sorted gives unspecified positions, as NumPy.
/// Throws `value_error` when `a` or `sorter` is not 1-d, `sorter`'s length is not `a`'s or an
/// entry of `sorter` is outside `[0, n)`.
/// Example: `searchsorted(tensor<double>{1, 2, 3}, tensor<double>{2.5, 0}) → [2, 0]`.
template <class A, class V>
    requires(expression<A>&& expression<V>)
tensor<std::int64_t> searchsorted(const A& a, const V& v, side s = side::left) {
    using P = promote_t<value_type_t<A>, value_type_t<V>>;
    const index_t n = detail::extent_of_1d(a.shape(), "searchsorted: a");
    const detail::flat_values<A> av(a);
    const detail::flat_values<V> vv(v);
    tensor<std::int64_t> out(v.shape(), uninitialized);
    const auto at = [&](index_t i) {
        return static_cast<P>(av[i]);
    };
    for (index_t k = 0; k < vv.size(); ++k)
        out.data()[k] = detail::bound<P>(n, static_cast<P>(vv[k]), s == side::right, at);
    return out;
}
template <class A, class V, class S>
    requires(expression<A>&& expression<V>&& expression<S>)
tensor<std::int64_t> searchsorted(const A& a, const V& v, side s, const S& sorter) {
    static_assert(std::is_integral_v<value_type_t<S>> && !std::is_same_v<value_type_t<S>, bool>,
                  "fusor::searchsorted: sorter holds integer indices (numpy.searchsorted "
                  "refuses other types)");
    using P = promote_t<value_type_t<A>, value_type_t<V>>;
    const index_t n = detail::extent_of_1d(a.shape(), "searchsorted: a");
    if (detail::extent_of_1d(sorter.shape(), "searchsorted: sorter") != n)
        throw value_error("searchsorted: sorter.size must equal a.size (" + to_string(a.shape())
                          + " and " + to_string(sorter.shape()) + ")");
    const detail::flat_values<A> av(a);
    const detail::flat_values<S> order(sorter);
    std::vector<index_t> idx(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) {
        const auto k = order[i];
        if (!std::cmp_greater_equal(k, 0) || !std::cmp_less(k, n))
            throw value_error("searchsorted: Sorter index out of range.");
        idx[static_cast<std::size_t>(i)] = static_cast<index_t>(k);
    }
    const detail::flat_values<V> vv(v);
    tensor<std::int64_t> out(v.shape(), uninitialized);
    const auto at = [&](index_t i) {
        return static_cast<P>(av[idx[static_cast<std::size_t>(i)]]);
    };
    for (index_t k = 0; k < vv.size(); ++k)
        out.data()[k] = detail::bound<P>(n, static_cast<P>(vv[k]), s == side::right, at);
    return out;
}

/// `searchsorted(a, v, side)` with a C++ scalar `v` (weak next to a's type, as everywhere in
/// fusor): its insertion index as a 0-d int64 tensor, as numpy.searchsorted of a Python scalar
/// (which returns an int64 scalar).
template <class A, class S>
    requires(expression<A>&& scalar<S>)
tensor<std::int64_t> searchsorted(const A& a, S v, side s = side::left) {
    return searchsorted(a, detail::weak_scalar_tensor<value_type_t<A>>(v), s);
}
/// `searchsorted(a, v, side, sorter)` with a C++ scalar `v`: see above.
template <class A, class S, class O>
    requires(expression<A>&& scalar<S>&& expression<O>)
tensor<std::int64_t> searchsorted(const A& a, S v, side s, const O& sorter) {
    return searchsorted(a, detail::weak_scalar_tensor<value_type_t<A>>(v), s, sorter);
}

/// `searchsorted(a, {v0, v1, ...}, side)` with a braced list `v` (numpy.searchsorted of a
/// list): the list becomes a 1-d tensor as NumPy's array of it (`detail::list_dtype_t`: C++
/// integers int64, floats and bools their own type), so `{0.1}` against a float32 `a` compares
/// in float64, as NumPy does. int64 of shape (len(v),).
template <class A, class L>
    requires(expression<A>&& scalar<L>)
tensor<std::int64_t> searchsorted(const A& a, std::initializer_list<L> v, side s = side::left) {
    return searchsorted(a, detail::list_tensor(v), s);
}
/// `searchsorted(a, {v0, ...}, side, sorter)`: see above.
template <class A, class L, class O>
    requires(expression<A>&& scalar<L>&& expression<O>)
tensor<std::int64_t> searchsorted(const A& a, std::initializer_list<L> v, side s, const O& sorter) {
    return searchsorted(a, detail::list_tensor(v), s, sorter);
}

/// `isin(element, test_elements, invert = false)` (numpy.isin): bool of `element`'s shape,
/// true where the element equals some element of `test_elements` (any shape, flattened); with
/// `invert`, the opposite. Integers (and bools, as 0/1) compare exactly as integers, whatever
/// their widths and signs (NumPy's table method); a float on either side compares in
/// `promote_t` of the two types. NaN is never in anything (NaN != NaN); -0.0 equals 0.0.
/// Example: `isin(tensor<int>{1, 2, 3}, tensor<int>{2, 5}) → [false, true, false]`.
template <class E, class T>
    requires(expression<E>&& expression<T>)
tensor<bool> isin(const E& element, const T& test_elements, bool invert = false) {
    using A = value_type_t<E>;
    using B = value_type_t<T>;
    const detail::flat_values<T> tv(test_elements);
    const detail::flat_values<E> ev(element);
    tensor<bool> out(element.shape(), uninitialized);
    if constexpr (detail::exact_integers<A, B>) {
        if (tv.size() > 0 && detail::isin_by_table(ev, tv, invert, out.data()))
            return out;
    }
    std::vector<B> tests;
    tests.reserve(static_cast<std::size_t>(tv.size()));
    for (index_t i = 0; i < tv.size(); ++i)
        if (!detail::is_nan_value(tv[i]))
            tests.push_back(tv[i]);
    std::sort(tests.begin(), tests.end(), [](B x, B y) { return detail::value_less(x, y); });
    for (index_t k = 0; k < ev.size(); ++k) {
        const A x = ev[k];
        const auto it = std::lower_bound(
            tests.begin(), tests.end(), x, [](B t, A v) { return detail::value_less(t, v); });
        const bool found = it != tests.end() && detail::value_equal(*it, x);
        out.data()[k] = found != invert;
    }
    return out;
}

/// `isin(element, test_elements, invert)` with a C++ scalar on either side (weak next to the
/// other's type): a scalar element gives a 0-d bool tensor (numpy.isin gives a 0-d array), a
/// scalar test set is one value.
template <class S, class T>
    requires(scalar<S>&& expression<T>)
tensor<bool> isin(S element, const T& test_elements, bool invert = false) {
    return isin(detail::weak_scalar_tensor<value_type_t<T>>(element), test_elements, invert);
}
/// `isin(element, s, invert)`: see above.
template <class E, class S>
    requires(expression<E>&& scalar<S>)
tensor<bool> isin(const E& element, S test_element, bool invert = false) {
    return isin(element, detail::weak_scalar_tensor<value_type_t<E>>(test_element), invert);
}

/// `isin(element, {t0, t1, ...}, invert)` with a braced list of test values (numpy.isin of a
/// list): the list is a 1-d tensor as NumPy's array of it (C++ integers int64, floats and bools
/// their own type). Example: `isin(x, {2, 5})`.
template <class E, class L>
    requires(expression<E>&& scalar<L>)
tensor<bool> isin(const E& element, std::initializer_list<L> test_elements, bool invert = false) {
    return isin(element, detail::list_tensor(test_elements), invert);
}

/// Option tags of `unique`, as numpy.unique's flags: also return the index of each unique
/// value's first occurrence (`return_index`), the index of each element's unique value
/// (`return_inverse`), how often each unique value occurs (`return_counts`).
struct return_index_t {};
struct return_inverse_t {};
struct return_counts_t {};
inline constexpr return_index_t return_index{};
inline constexpr return_inverse_t return_inverse{};
inline constexpr return_counts_t return_counts{};

namespace detail {
template <class O>
concept unique_option = std::is_same_v<O, return_index_t> || std::
    is_same_v<O, return_inverse_t> || std::is_same_v<O, return_counts_t>;
template <class O, class... Os>
inline constexpr bool has_option = (std::is_same_v<O, Os> || ...);

template <int>
struct unique_absent {};
struct unique_indices_part {
    tensor<std::int64_t> indices; ///< int64 (k,): the first occurrence of each unique value
};
struct unique_inverse_part {
    tensor<std::int64_t> inverse; ///< int64 (n,): each element's position in `values`
};
struct unique_counts_part {
    tensor<std::int64_t> counts; ///< int64 (k,): the occurrences of each unique value
};
} // namespace detail

/// What `unique(x, return_…)` returns: `values` and, in this order, the parts asked for:
/// `indices`, `inverse`, `counts` (int64). Only those parts are members, and structured
/// bindings bind exactly them: `auto [values, counts] = unique(x, return_counts);`,
/// `auto [v, first, inv] = unique(x, return_inverse, return_index);` (the tags may come in any
/// order; the parts always come in NumPy's).
template <class T, bool Indices, bool Inverse, bool Counts>
struct unique_result
    : std::conditional_t<Indices, detail::unique_indices_part, detail::unique_absent<0>>,
      std::conditional_t<Inverse, detail::unique_inverse_part, detail::unique_absent<1>>,
      std::conditional_t<Counts, detail::unique_counts_part, detail::unique_absent<2>> {
    tensor<T> values; ///< the sorted unique values (or sub-arrays, with an axis)

    static constexpr std::size_t parts = 1 + Indices + Inverse + Counts;

    /// The `N`th part (tuple protocol, for structured bindings).
    template <std::size_t N>
    auto& get() & {
        return pick<N>(*this);
    }
    template <std::size_t N>
    const auto& get() const& {
        return pick<N>(*this);
    }
    template <std::size_t N>
    auto&& get() && {
        return std::move(pick<N>(*this));
    }

private:
    template <std::size_t N, class Self>
    static auto& pick(Self& s) {
        static_assert(N < parts, "fusor::unique_result: no such part");
        constexpr std::size_t inverse_at = 1 + Indices;
        constexpr std::size_t counts_at = 1 + Indices + Inverse;
        if constexpr (N == 0)
            return s.values;
        else if constexpr (Indices && N == 1)
            return s.indices;
        else if constexpr (Inverse && N == inverse_at)
            return s.inverse;
        else {
            static_assert(Counts && N == counts_at);
            return s.counts;
        }
    }
};

namespace detail {
// The unique rows of the `n` rows of `width` elements at `data` (row-major), in lexicographic
// NumPy order (a NaN field after every number). Rows are grouped when equal: field by field
// with `==`, except that with `nan_equal` (numpy.unique's equal_nan, used without an axis) NaN
// equals NaN. The sort is stable, so each group's first row is its first occurrence.
template <class T, bool Indices, bool Inverse, bool Counts>
unique_result<T, Indices, Inverse, Counts>
unique_rows(const T* data, index_t n, index_t width, bool nan_equal, shape_t row_shape) {
    const auto row = [&](index_t r) {
        return data + r * width;
    };
    std::vector<index_t> perm(static_cast<std::size_t>(n));
    if (width == 1 && vector_argsort) {
        // Single values (unique(x) with parts): argsort's order, the same stable one, through
        // VQSort (algo/vector_sort.hpp).
        lane_sorter{}.argsort(data, n, perm.data());
    } else {
        std::iota(perm.begin(), perm.end(), index_t{0});
        std::stable_sort(perm.begin(), perm.end(), [&](index_t a, index_t b) {
            const T* x = row(a);
            const T* y = row(b);
            for (index_t k = 0; k < width; ++k) {
                if (sorts_before(x[k], y[k]))
                    return true;
                if (sorts_before(y[k], x[k]))
                    return false;
            }
            return false;
        });
    }
    const auto same = [&](index_t a, index_t b) {
        const T* x = row(a);
        const T* y = row(b);
        for (index_t k = 0; k < width; ++k)
            if (!(x[k] == y[k] || (nan_equal && is_nan_value(x[k]) && is_nan_value(y[k]))))
                return false;
        return true;
    };
    std::vector<index_t> starts; // positions in perm where a group begins
    for (index_t k = 0; k < n; ++k)
        if (k == 0
            || !same(perm[static_cast<std::size_t>(k - 1)], perm[static_cast<std::size_t>(k)]))
            starts.push_back(k);
    const auto groups = static_cast<index_t>(starts.size());

    unique_result<T, Indices, Inverse, Counts> r;
    row_shape.insert(row_shape.begin(), groups);
    r.values = tensor<T>(row_shape, uninitialized);
    for (index_t g = 0; g < groups; ++g)
        std::copy(row(perm[static_cast<std::size_t>(starts[static_cast<std::size_t>(g)])]),
                  row(perm[static_cast<std::size_t>(starts[static_cast<std::size_t>(g)])]) + width,
                  r.values.data() + g * width);
    if constexpr (Indices) {
        r.indices = tensor<std::int64_t>(shape_t{groups}, uninitialized);
        for (index_t g = 0; g < groups; ++g)
            r.indices.data()[g] =
                perm[static_cast<std::size_t>(starts[static_cast<std::size_t>(g)])];
    }
    if constexpr (Inverse) {
        r.inverse = tensor<std::int64_t>(shape_t{n}, uninitialized);
        index_t g = -1;
        for (index_t k = 0; k < n; ++k) {
            if (g + 1 < groups && starts[static_cast<std::size_t>(g + 1)] == k)
                ++g;
            r.inverse.data()[perm[static_cast<std::size_t>(k)]] = g;
        }
    }
    if constexpr (Counts) {
        r.counts = tensor<std::int64_t>(shape_t{groups}, uninitialized);
        for (index_t g = 0; g < groups; ++g) {
            const index_t end = g + 1 < groups ? starts[static_cast<std::size_t>(g + 1)] : n;
            r.counts.data()[g] = end - starts[static_cast<std::size_t>(g)];
        }
    }
    return r;
}

template <class E, class... O>
auto unique_flat(const E& e) {
    using T = value_type_t<E>;
    const flat_values<E> v(e);
    return unique_rows<T,
                       has_option<return_index_t, O...>,
                       has_option<return_inverse_t, O...>,
                       has_option<return_counts_t, O...>>(v.data(), v.size(), 1, true, {});
}

template <class E, class... O>
auto unique_axis(const E& e, index_t axis_in) {
    using T = value_type_t<E>;
    const index_t axis = normalize_axis(axis_in, e.shape().rank());
    // The sub-arrays along `axis` as rows of a row-major copy (numpy.unique moves the axis to
    // the front and compares the rest of each sub-array as one record).
    const tensor<T> moved = eval(moveaxis(e, axis, 0));
    shape_t row_shape(moved.shape().begin() + 1, moved.shape().end());
    const index_t n = moved.shape()[0];
    auto r = unique_rows<T,
                         has_option<return_index_t, O...>,
                         has_option<return_inverse_t, O...>,
                         has_option<return_counts_t, O...>>(
        moved.data(), n, shape_size(row_shape), false, row_shape);
    r.values = eval(moveaxis(r.values, 0, axis));
    return r;
}
} // namespace detail

/// `unique(x)` (numpy.unique): the sorted unique elements of the flattened operand, shape (k,),
/// `x`'s type. NaNs count as one value, placed last (NumPy 1.24's `equal_nan=True`); -0.0 and
/// 0.0 are one value, shown as whichever occurs first.
///
/// `unique(x, return_index, return_inverse, return_counts)` (any non-empty subset, any order)
/// returns a `unique_result` with `values` and the parts asked for: `indices` (int64 (k,),
/// first occurrence of each value in the flattened operand), `inverse` (int64 (size,), with
/// `values[inverse] == x.flatten()`), `counts` (int64 (k,)). Example:
/// `auto [values, counts] = unique(x, return_counts);`.
///
/// `unique(x, axis, …)`: the unique sub-arrays along `axis` (each sub-array compared as one
/// record, field by field in row-major order, numbers ascending with NaN last), shape `x`'s
/// with `axis` cut to the number of unique sub-arrays; the parts count sub-arrays. Sub-arrays
/// holding NaN are never equal to each other (as NumPy 1.24). Throws `axis_error` for an axis
/// out of range (any axis of a 0-d operand).
template <class E>
    requires expression<E> tensor<value_type_t<E>> unique(const E& e) {
        // The values alone: sorted themselves (stably, so each group's first element is its
        // first occurrence, as unique_rows's index order gives it), then one per group.
        // 2^22 int64 in [0, 1000): 740 ms through unique_rows's index order, 175-180 so.
        using T = value_type_t<E>;
        const detail::flat_values<E> v(e);
        const auto sorted = std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(v.size()));
        T* const first = sorted.get();
        std::copy(v.data(), v.data() + v.size(), first);
        detail::sort_values(first, first + v.size(), detail::lane_sorter{});
        T* const end = std::unique(first, first + v.size(), [](T a, T b) {
            return a == b || (detail::is_nan_value(a) && detail::is_nan_value(b));
        });
        tensor<T> out(shape_t{static_cast<index_t>(end - first)}, uninitialized);
        std::copy(first, end, out.data());
        return out;
    }
template <class E, class... O>
    requires(expression<E> && sizeof...(O) > 0 && (detail::unique_option<O> && ...))
auto unique(const E& e, O...) {
    return detail::unique_flat<E, O...>(e);
}
template <class E, class I>
    requires(expression<E>&& std::is_integral_v<I>)
tensor<value_type_t<E>> unique(const E& e, I axis) {
    return detail::unique_axis<E>(e, static_cast<index_t>(axis)).values;
}
template <class E, class I, class... O>
    requires(expression<E>&& std::is_integral_v<I> && sizeof...(O) > 0
             && (detail::unique_option<O> && ...))
auto unique(const E& e, I axis, O...) {
    return detail::unique_axis<E, O...>(e, static_cast<index_t>(axis));
}

} // namespace fusor

/// Tuple protocol of `fusor::unique_result` (structured bindings bind the parts asked for).
template <class T, bool I, bool V, bool C>
struct std::tuple_size<fusor::unique_result<T, I, V, C>>
    : std::integral_constant<std::size_t, 1 + I + V + C> {};
template <std::size_t N, class T, bool I, bool V, bool C>
struct std::tuple_element<N, fusor::unique_result<T, I, V, C>> {
    using type = std::conditional_t<N == 0, fusor::tensor<T>, fusor::tensor<std::int64_t>>;
};

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/searching.ipp>
#endif
