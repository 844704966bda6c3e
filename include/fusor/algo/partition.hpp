// fusor/algo/partition.hpp: partition and argpartition along an axis (numpy.partition,
// numpy.argpartition). Each lane is reordered by selection (std::nth_element, an introselect),
// never sorted: O(n) per kth instead of O(n log n).
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
inline std::vector<index_t>
normalize_kth(const std::vector<index_t>& kth, index_t n, const char* fn) {
    if (kth.empty())
        throw value_error(std::string(fn) + ": kth is an empty list (NumPy: TypeError)");
    std::vector<index_t> out;
    out.reserve(kth.size());
    for (index_t k : kth) {
        const index_t p = k < 0 ? k + n : k;
        if (p < 0 || p >= n)
            throw value_error(std::string(fn) + ": kth = " + std::to_string(k)
                              + " (kth(=" + std::to_string(p)
                              + ")) out of bounds for an axis of size " + std::to_string(n));
        out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// Reorders [first, last) so that each position p in `kth` (ascending, all < last - first)
// holds the element a sort by `less` would put there, nothing after p orders before it and
// nothing before p orders after it. Positions are taken in ascending order, each selection
// working only on what lies after the previous one; a position right after the previous one
// (or the last position) needs one min (max) scan instead of an nth_element. `less` must be a
// strict weak order on the range (NaN removed beforehand).
template <class It, class Less>
void select_positions(It first, It last, const std::vector<index_t>& kth, Less less) {
    It lo = first;
    for (index_t k : kth) {
        const It at = first + k;
        if (at == lo)
            std::iter_swap(at, std::min_element(at, last, less));
        else if (at + 1 == last)
            std::iter_swap(at, std::max_element(lo, last, less));
        else
            std::nth_element(lo, at, last, less);
        lo = at + 1;
    }
}

// select_positions in numpy.sort's order, NaN after every number: the NaN are moved to the end
// first (std::partition), then the numbers before them are selected with `<`. A position among
// the NaN already holds a NaN with only NaN after it.
template <class V, class It, class Value>
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
            select_nan_last<T>(lane, lane + lanes.n, ks, same);
            return;
        }
        for (std::size_t k = 0; k < n; ++k)
            buffer[k] = lane[static_cast<index_t>(k) * lanes.inner];
        select_nan_last<T>(buffer.get(), buffer.get() + lanes.n, ks, same);
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
        select_nan_last<T>(order.begin(), order.end(), ks, [&](std::int64_t k) {
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
