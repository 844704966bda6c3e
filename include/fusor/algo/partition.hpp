// fusor/algo/partition.hpp: partition and argpartition along an axis (numpy.partition,
// numpy.argpartition). Each lane is reordered by selection (a quickselect, detail::select_nth;
// std::nth_element for argpartition's indices), never sorted: O(n) per kth, not O(n log n).
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/algo/along_axis.hpp>
#include <fusor/config.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

namespace detail {

// `kth` (negative from the end of an axis of extent `n`) as sorted positions in [0, n) without
// repeats. NumPy raises ValueError "kth(=k) out of bounds (n)" (k after adding n to a negative
// kth); this is value_error naming both the given and the normalised kth.
FUSOR_DECL std::vector<index_t>
normalize_kth(const std::vector<index_t>& kth, index_t n, const char* fn);

// `a < b` on elements (no NaN): the order select_positions selects values by with select_nth.
struct select_less {
    template <class T>
    bool operator()(T a, T b) const {
        return a < b;
    }
};

template <class T>
T median_of_3(T a, T b, T c) {
    return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

// Moves the elements of [first, last) for which `goes_first(e)` holds to the front (in no
// particular order) and returns the end of them. No branch depends on the data: every element
// is swapped with the boundary and the boundary moves by the test's result (0 or 1), so random
// data costs no mispredicted branch (std::nth_element's partition mispredicts about every
// other element: 220 ms against 35 ms for 4096 lanes of 4096 random floats on this host).
template <class T, class Pred>
T* partition_branchless(T* first, T* last, Pred goes_first) {
    T* m = first;
    for (T* i = first; i != last; ++i) {
        const T e = *i;
        const bool c = goes_first(e);
        *i = *m;
        *m = e;
        m += c;
    }
    return m;
}

// As std::nth_element(first, nth, last) with `<` on a range without NaN: *nth is the element a
// sort would put there, none before it is greater, none after it smaller. A quickselect:
// pivot the median of 3 (of 3 medians of 3 above 128 elements), branchless partition into
// `< pivot` | `>= pivot`, keep the side holding nth. When nothing is below the pivot (it is
// the least), the elements equal to it are moved to the front and either hold nth (done) or
// are dropped, so every round shrinks the range, with many equal elements too. After
// 2 log2(n) + 8 rounds (adversarial data) it hands over to std::nth_element (introselect's
// heap fallback), so the worst case stays O(n log n); ranges of 16 or fewer are insertion
// sorted.
template <class T>
void select_nth(T* first, T* nth, T* last) {
    if (nth == last)
        return;
    int rounds = 8;
    for (index_t n = last - first; n > 1; n /= 2)
        rounds += 2;
    while (last - first > 16) {
        if (rounds-- == 0) {
            std::nth_element(first, nth, last);
            return;
        }
        const index_t n = last - first;
        T pivot;
        if (n > 128) {
            const index_t s = n / 8;
            const T* mid = first + n / 2;
            pivot = median_of_3(median_of_3(first[0], first[s], first[2 * s]),
                                median_of_3(mid[-s], mid[0], mid[s]),
                                median_of_3(last[-1 - 2 * s], last[-1 - s], last[-1]));
        } else
            pivot = median_of_3(first[0], first[n / 2], last[-1]);
        T* m = partition_branchless(first, last, [pivot](T e) { return e < pivot; });
        if (nth < m) {
            last = m;
            continue;
        }
        if (m == first) {
            m = partition_branchless(first, last, [pivot](T e) { return !(pivot < e); });
            if (nth < m)
                return;
        }
        first = m;
    }
    for (T* i = first + 1; i < last; ++i) {
        const T e = *i;
        T* j = i;
        for (; j > first && e < j[-1]; --j)
            *j = j[-1];
        *j = e;
    }
}

// Reorders [first, last) so that each position p in `kth` (ascending, all < last - first)
// holds the element a sort by `less` would put there, nothing after p orders before it and
// nothing before p orders after it. Positions are taken in ascending order, each selection
// working only on what lies after the previous one; a position right after the previous one
// (or the last position) needs one min (max) scan instead of a selection. `less` must be a
// strict weak order on the range (NaN removed beforehand); with `select_less` on a pointer
// range the selection is select_nth, otherwise std::nth_element.
template <class It, class Less>
void select_positions(It first, It last, const std::vector<index_t>& kth, Less less) {
    It lo = first;
    for (index_t k : kth) {
        const It at = first + k;
        if (at == lo)
            std::iter_swap(at, std::min_element(at, last, less));
        else if (at + 1 == last)
            std::iter_swap(at, std::max_element(lo, last, less));
        else if constexpr (std::is_pointer_v<It> && std::is_same_v<Less, select_less>)
            select_nth(lo, at, last);
        else
            std::nth_element(lo, at, last, less);
        lo = at + 1;
    }
}

// select_positions in numpy.sort's order, NaN after every number: the NaN are moved to the end
// first (std::partition), then the numbers before them are selected with `<`. A position among
// the NaN already holds a NaN with only NaN after it.
// With `Values` the range holds the elements themselves (`value` the identity), else int64
// indices into them (`value` reads the element).
template <class V, bool Values, class It, class Value>
void select_nan_last(It first, It last, const std::vector<index_t>& kth, Value value) {
    It numbers_end = last;
    if constexpr (std::is_floating_point_v<V>)
        numbers_end = std::partition(first, last, [&](const auto& e) {
            const V v = value(e);
            return v == v;
        });
    const index_t numbers = static_cast<index_t>(numbers_end - first);
    std::vector<index_t> inside;
    for (index_t k : kth)
        if (k < numbers)
            inside.push_back(k);
    if constexpr (Values)
        select_positions(first, numbers_end, inside, select_less{});
    else
        select_positions(first, numbers_end, inside, [&](const auto& a, const auto& b) {
            return value(a) < value(b);
        });
}

template <class E>
tensor<value_type_t<E>> partition_impl(const E& e, const std::vector<index_t>& kth, index_t axis) {
    using T = value_type_t<E>;
    const index_t a = normalize_axis(axis, e.shape().rank());
    tensor<T> out = eval(e);
    if (out.size() == 0) // NumPy checks no kth when there is no element
        return out;
    const lane_split lanes(out.shape(), a);
    const std::vector<index_t> ks = normalize_kth(kth, lanes.n, "partition");
    const auto n = static_cast<std::size_t>(lanes.n);
    // not std::vector: vector<bool>'s proxy iterators would make nth_element slow
    const auto buffer = std::make_unique_for_overwrite<T[]>(lanes.inner == 1 ? 0 : n);
    auto same = [](T v) {
        return v;
    };
    lanes.for_each_lane([&](index_t o, index_t i) {
        T* lane = out.data() + lanes.first(o, i);
        if (lanes.inner == 1) {
            select_nan_last<T, true>(lane, lane + lanes.n, ks, same);
            return;
        }
        for (std::size_t k = 0; k < n; ++k)
            buffer[k] = lane[static_cast<index_t>(k) * lanes.inner];
        select_nan_last<T, true>(buffer.get(), buffer.get() + lanes.n, ks, same);
        for (std::size_t k = 0; k < n; ++k)
            lane[static_cast<index_t>(k) * lanes.inner] = buffer[k];
    });
    return out;
}

template <class E>
tensor<std::int64_t> argpartition_impl(const E& e, const std::vector<index_t>& kth, index_t axis) {
    using T = value_type_t<E>;
    const index_t rank = e.shape().rank();
    const index_t a = normalize_axis(axis, rank == 0 ? 1 : rank);
    tensor<T> x = eval(e);
    if (rank == 0) // NumPy ravels a 0-d operand here (not in partition), as argsort
        x.reshape(shape_t{1});
    tensor<std::int64_t> out(x.shape(), uninitialized);
    if (x.size() == 0)
        return out;
    const lane_split lanes(x.shape(), a);
    const std::vector<index_t> ks = normalize_kth(kth, lanes.n, "argpartition");
    const auto n = static_cast<std::size_t>(lanes.n);
    const auto values = std::make_unique_for_overwrite<T[]>(n);
    std::vector<std::int64_t> order(n);
    lanes.for_each_lane([&](index_t o, index_t i) {
        const index_t first = lanes.first(o, i);
        for (std::size_t k = 0; k < n; ++k)
            values[k] = x.data()[first + static_cast<index_t>(k) * lanes.inner];
        std::iota(order.begin(), order.end(), std::int64_t{0});
        select_nan_last<T, false>(order.begin(), order.end(), ks, [&](std::int64_t k) {
            return values[static_cast<std::size_t>(k)];
        });
        for (std::size_t k = 0; k < n; ++k)
            out.data()[first + static_cast<index_t>(k) * lanes.inner] = order[k];
    });
    return out;
}

} // namespace detail

/// `partition(e, kth, axis = -1)` (numpy.partition): a copy of `e` in which, along `axis`,
/// the element at position `kth` is the one a sort would put there, no element before it is
/// greater and none after it is smaller (the order within each side is unspecified and may
/// differ from NumPy's). `kth` is an integer or a list (`{1, 5}`, `std::vector<index_t>`: every
/// listed position is placed); negative kth count from the end. NaN sort after every number,
/// as numpy.sort. Shape and element type: `e`'s. Selection (std::nth_element), not a sort.
/// Throws `axis_error` for an axis out of range (so for any 0-d operand, as NumPy), `value_error`
/// for a kth outside `[-n, n)` of an axis of extent n (NumPy's ValueError; no kth is checked
/// when `e` has no element) or an empty kth list (NumPy's TypeError).
/// Example: `partition(tensor<int>{3, 1, 2, 5, 4}, 2)` → `[1, 2, 3, 5, 4]` or `[2, 1, 3, 4, 5]`.
template <class E>
    requires expression<E> tensor<value_type_t<E>>
    partition(const E& e, index_t kth, index_t axis = -1) {
        return detail::partition_impl(e, std::vector<index_t>{kth}, axis);
    }
/// `partition(e, {k0, k1, ...}, axis = -1)`: every listed position placed (see above).
template <class E>
    requires expression<E> tensor<value_type_t<E>>
    partition(const E& e, std::initializer_list<index_t> kth, index_t axis = -1) {
        return detail::partition_impl(e, std::vector<index_t>(kth), axis);
    }
/// `partition(e, std::vector<index_t>{...}, axis = -1)`: every listed position placed.
template <class E>
    requires expression<E> tensor<value_type_t<E>>
    partition(const E& e, const std::vector<index_t>& kth, index_t axis = -1) {
        return detail::partition_impl(e, kth, axis);
    }

/// `argpartition(e, kth, axis = -1)` (numpy.argpartition): int64 indices along `axis` that
/// partition each lane as `partition` does (`take_along_axis(e, argpartition(e, k), axis)` is
/// a partition of `e`); `kth` an integer or a list, negative from the end; NaN last. Shape:
/// `e`'s; a 0-d operand is read as shape (1,) (result `[0]`, as NumPy). Throws `axis_error`
/// and `value_error` as `partition`. Example: `argpartition(tensor<double>{3, 1, 2}, 0)` →
/// `[1, ...]`.
template <class E>
    requires expression<E> tensor<std::int64_t>
    argpartition(const E& e, index_t kth, index_t axis = -1) {
        return detail::argpartition_impl(e, std::vector<index_t>{kth}, axis);
    }
/// `argpartition(e, {k0, k1, ...}, axis = -1)`: every listed position placed.
template <class E>
    requires expression<E> tensor<std::int64_t>
    argpartition(const E& e, std::initializer_list<index_t> kth, index_t axis = -1) {
        return detail::argpartition_impl(e, std::vector<index_t>(kth), axis);
    }
/// `argpartition(e, std::vector<index_t>{...}, axis = -1)`: every listed position placed.
template <class E>
    requires expression<E> tensor<std::int64_t>
    argpartition(const E& e, const std::vector<index_t>& kth, index_t axis = -1) {
        return detail::argpartition_impl(e, kth, axis);
    }

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/partition.ipp>
#endif
