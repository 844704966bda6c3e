// fusor/algo/sort.hpp: sort, argsort and topk along an axis. Each lane is gathered, ordered
// with the standard library (stable where NumPy promises it) and scattered into a new tensor.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/algo/along_axis.hpp>
#include <fusor/algo/vector_sort.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/reduce/reducers.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

namespace detail {
// NumPy's sort order: numbers ascending, NaN after every number (numpy.sort's "NaN last").
template <class T>
bool sorts_before(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        return a < b || (b != b && a == a);
    else
        return a < b;
}

// Calls `f(values, order, o, i)` for each lane (o, i) of `x` along `axis` (see lane_split),
// where `values` holds the lane and `order` is 0..n-1 stably sorted by `sorts_before`.
// With Highway, VQSort orders (order key, index) pairs (algo/vector_sort.hpp): the same order,
// argsort of 2^22 float32 in 47-54 ms instead of 800-840.
template <class T, class F>
void sorted_lanes(const tensor<T>& x, const lane_split& lanes, F&& f) {
    // Buffers as a tensor's (no zeroing; huge pages for long lanes: a 2^22-element lane's
    // buffers took 8,000 page faults each, more time than the sort).
    const auto values = allocate_elements<T>(static_cast<std::size_t>(lanes.n));
    const auto order_buffer = allocate_elements<index_t>(static_cast<std::size_t>(lanes.n));
    const std::span<index_t> order(order_buffer.get(), static_cast<std::size_t>(lanes.n));
    const lane_sorter sorter;
    lanes.for_each_lane([&](index_t o, index_t i) {
        const T* lane = x.data() + lanes.first(o, i);
        for (index_t k = 0; k < lanes.n; ++k)
            values[static_cast<std::size_t>(k)] = lane[k * lanes.inner];
        if constexpr (vector_argsort) {
            sorter.argsort(values.get(), lanes.n, order.data());
        } else {
            std::iota(order.begin(), order.end(), index_t{0});
            std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) {
                return sorts_before(values[static_cast<std::size_t>(a)],
                                    values[static_cast<std::size_t>(b)]);
            });
        }
        f(values, order, o, i);
    });
}

// [first, last) in place in the order a stable sort by `sorts_before` gives, bit for bit (-0.0
// and 0.0 keep their order, NaN their payloads and order): the values themselves sorted, not an
// index order read through them (2^22 float32: 800-850 -> 480-520 ms; the index order's reads
// missed the caches). NaN first moved after the numbers, keeping their order, then the numbers
// sorted by `<`; integers sorted unstably (equal ones are indistinguishable). With Highway,
// VQSort sorts the types it can (`sorter`; 2^22 float32 22-35 ms instead of 440-520).
template <class T>
void sort_values(T* first, T* last, const lane_sorter& sorter) {
    if (sorter.sorts<T>()) {
        sorter.sort(first, last - first);
    } else if constexpr (std::is_floating_point_v<T>) {
        T* numbers_end = std::stable_partition(first, last, [](T v) { return v == v; });
        std::stable_sort(first, numbers_end);
    } else {
        std::sort(first, last);
    }
}

} // namespace detail

/// `sort(e, axis = -1)` (numpy.sort): a sorted copy along `axis`; same shape and type. NaN sort
/// after every number. Throws `axis_error` for an axis out of range (so for any 0-d operand,
/// as NumPy).
template <class E>
    requires expression<E> tensor<value_type_t<E>> sort(const E& e, index_t axis = -1) {
        using T = value_type_t<E>;
        const index_t a = normalize_axis(axis, e.shape().rank());
        const tensor<T> x = eval(e);
        tensor<T> out(x.shape(), uninitialized);
        const detail::lane_split lanes(x.shape(), a);
        const detail::lane_sorter sorter;
        // Each lane copied into the result (or, off unit stride, a buffer) and sorted there.
        const auto buffer = std::make_unique_for_overwrite<T[]>(
            lanes.inner == 1 ? 0 : static_cast<std::size_t>(lanes.n)); // not vector<bool>
        lanes.for_each_lane([&](index_t o, index_t i) {
            const T* from = x.data() + lanes.first(o, i);
            T* lane = out.data() + lanes.first(o, i);
            if (lanes.inner == 1) {
                std::copy(from, from + lanes.n, lane);
                detail::sort_values(lane, lane + lanes.n, sorter);
                return;
            }
            for (index_t k = 0; k < lanes.n; ++k)
                buffer[static_cast<std::size_t>(k)] = from[k * lanes.inner];
            detail::sort_values(buffer.get(), buffer.get() + lanes.n, sorter);
            for (index_t k = 0; k < lanes.n; ++k)
                lane[k * lanes.inner] = buffer[static_cast<std::size_t>(k)];
        });
        return out;
    }

/// `argsort(e, axis = -1)` (numpy.argsort with kind='stable'): int64 indices along `axis` that
/// sort each lane, equal elements in their original order, NaN last; same shape as `e` (a 0-d
/// operand gives `[0]` of shape (1,), as NumPy). Throws `axis_error` for an axis out of range.
template <class E>
    requires expression<E> tensor<std::int64_t> argsort(const E& e, index_t axis = -1) {
        const index_t rank = e.shape().rank();
        const index_t a = normalize_axis(axis, rank == 0 ? 1 : rank);
        if (rank == 0) // NumPy ravels a 0-d operand here (but not in sort)
            return tensor<std::int64_t>(shape_t{1});
        const tensor<value_type_t<E>> x = eval(e);
        tensor<std::int64_t> out(x.shape(), uninitialized);
        const detail::lane_split lanes(x.shape(), a);
        detail::sorted_lanes(x, lanes, [&](const auto&, const auto& order, index_t o, index_t i) {
            std::int64_t* lane = out.data() + lanes.first(o, i);
            for (std::size_t k = 0; k < order.size(); ++k)
                lane[static_cast<index_t>(k) * lanes.inner] = order[k];
        });
        return out;
    }

/// `sort(e, none)` (numpy.sort(a, axis=None)): every element, raveled in row-major order, then
/// sorted: shape `(size,)` (a 0-d operand gives `(1,)`), `e`'s type. Throws nothing of its own.
template <class E>
    requires expression<E> tensor<value_type_t<E>> sort(const E& e, none_t) {
        return sort(reshape(e, -1), 0);
    }

/// `argsort(e, none)` (numpy.argsort(a, axis=None, kind='stable')): the int64 positions in the
/// raveled `e` (row-major) that sort it: shape `(size,)`.
template <class E>
    requires expression<E> tensor<std::int64_t> argsort(const E& e, none_t) {
        return argsort(reshape(e, -1), 0);
    }

/// The result of `topk`: `values` (the operand's type) and `indices` (int64), both of the
/// operand's shape with `axis` cut to `k`. Structured bindings work: `auto [v, i] = topk(x, 3)`.
template <class T>
struct topk_result {
    tensor<T> values;
    tensor<std::int64_t> indices;
};

/// `topk(e, k, axis = -1)`: the `k` largest elements along `axis`, largest first, ties to the
/// lower index, NaN above every number (the reverse of numpy.sort's order, as
/// torch.topk(sorted=True) but stable). Shape: `e`'s with `axis` cut to `k`. Throws
/// `axis_error` for an axis out of range (any 0-d operand), `value_error` when `k` is outside
/// `[0, extent of axis]`.
template <class E>
    requires expression<E> topk_result<value_type_t<E>>
    topk(const E& e, index_t k, index_t axis = -1) {
        using T = value_type_t<E>;
        const index_t a = normalize_axis(axis, e.shape().rank());
        const index_t n = e.shape()[static_cast<std::size_t>(a)];
        if (k < 0 || k > n)
            throw value_error("topk: k = " + std::to_string(k) + " is outside [0, "
                              + std::to_string(n) + "] for axis " + std::to_string(a) + " of shape "
                              + to_string(e.shape()));
        const tensor<T> x = eval(e);
        shape_t out_shape = x.shape();
        out_shape[static_cast<std::size_t>(a)] = k;
        topk_result<T> r{tensor<T>(out_shape, uninitialized),
                         tensor<std::int64_t>(out_shape, uninitialized)};
        const detail::lane_split lanes(x.shape(), a), out_lanes(out_shape, a);
        // Largest first, ties to the lower index: a strict total order (value, then index), so
        // selecting the first k and sorting only them gives what a stable descending sort of
        // the lane would (2^22 float32, k = 10: 620-650 -> 42-44 ms).
        std::vector<T> values(static_cast<std::size_t>(n));
        std::vector<index_t> order(static_cast<std::size_t>(n));
        const auto first = [&](index_t p, index_t q) {
            const T vp = values[static_cast<std::size_t>(p)],
                    vq = values[static_cast<std::size_t>(q)];
            if (detail::sorts_before(vq, vp))
                return true;
            return !detail::sorts_before(vp, vq) && p < q;
        };
        lanes.for_each_lane([&](index_t o, index_t i) {
            const T* lane = x.data() + lanes.first(o, i);
            for (index_t j = 0; j < n; ++j)
                values[static_cast<std::size_t>(j)] = lane[j * lanes.inner];
            std::iota(order.begin(), order.end(), index_t{0});
            const auto kth = order.begin() + k;
            if (k < n)
                std::nth_element(order.begin(), kth, order.end(), first);
            std::sort(order.begin(), kth, first);
            const index_t at = out_lanes.first(o, i);
            for (index_t j = 0; j < k; ++j) {
                const index_t src = order[static_cast<std::size_t>(j)];
                r.values.data()[at + j * lanes.inner] = values[static_cast<std::size_t>(src)];
                r.indices.data()[at + j * lanes.inner] = src;
            }
        });
        return r;
    }

} // namespace fusor
