// fusor/algo/sort.hpp: sort, argsort and topk along an axis. Each lane is gathered, ordered
// with the standard library (stable where NumPy promises it) and scattered into a new tensor.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <fusor/algo/along_axis.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/exec/assign.hpp>
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
// where `values` holds the lane and `order` is 0..n-1 stably sorted by `sorts_before`
// (ascending) or, with `Descending`, by the reverse order with ties kept in index order.
template <bool Descending, class T, class F>
void sorted_lanes(const tensor<T>& x, const lane_split& lanes, F&& f) {
    std::vector<T> values(static_cast<std::size_t>(lanes.n));
    std::vector<index_t> order(static_cast<std::size_t>(lanes.n));
    lanes.for_each_lane([&](index_t o, index_t i) {
        const T* lane = x.data() + lanes.first(o, i);
        for (index_t k = 0; k < lanes.n; ++k)
            values[static_cast<std::size_t>(k)] = lane[k * lanes.inner];
        std::iota(order.begin(), order.end(), index_t{0});
        auto value = [&](index_t k) {
            return values[static_cast<std::size_t>(k)];
        };
        if constexpr (Descending)
            std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) {
                return sorts_before(value(b), value(a));
            });
        else
            std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) {
                return sorts_before(value(a), value(b));
            });
        f(values, order, o, i);
    });
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
        detail::sorted_lanes<false>(
            x, lanes, [&](const auto& values, const auto& order, index_t o, index_t i) {
                T* lane = out.data() + lanes.first(o, i);
                for (std::size_t k = 0; k < order.size(); ++k)
                    lane[static_cast<index_t>(k) * lanes.inner] =
                        values[static_cast<std::size_t>(order[k])];
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
        detail::sorted_lanes<false>(
            x, lanes, [&](const auto&, const auto& order, index_t o, index_t i) {
                std::int64_t* lane = out.data() + lanes.first(o, i);
                for (std::size_t k = 0; k < order.size(); ++k)
                    lane[static_cast<index_t>(k) * lanes.inner] = order[k];
            });
        return out;
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
        detail::sorted_lanes<true>(
            x, lanes, [&](const auto& values, const auto& order, index_t o, index_t i) {
                const index_t first = out_lanes.first(o, i);
                for (index_t j = 0; j < k; ++j) {
                    const index_t src = order[static_cast<std::size_t>(j)];
                    r.values.data()[first + j * lanes.inner] =
                        values[static_cast<std::size_t>(src)];
                    r.indices.data()[first + j * lanes.inner] = src;
                }
            });
        return r;
    }

} // namespace fusor
