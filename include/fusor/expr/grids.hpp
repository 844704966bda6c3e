// fusor/expr/grids.hpp: meshgrid (broadcast views of 1-d coordinate vectors, as NumPy's
// meshgrid with copy=False) and indices (numpy.indices, a new int64 tensor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// meshgrid's `indexing`: `xy` (Cartesian, NumPy's default: the first two output axes are
/// swapped, so `meshgrid(x, y)` has shape `(y.size, x.size)`) or `ij` (matrix: the output axes
/// follow the inputs).
enum class indexing { xy, ij };

namespace detail {
template <class... A>
constexpr bool ends_with_indexing() {
    if constexpr (sizeof...(A) == 0)
        return false;
    else
        return std::is_same_v<
            std::remove_cvref_t<std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>>,
            indexing>;
}

template <class... E>
auto meshgrid_impl(indexing ix, E&&... xs) {
    constexpr std::size_t n = sizeof...(E);
    if constexpr (n == 0) {
        return std::tuple<>{};
    } else {
        const shape_t sizes{shape_size(checked_shape_of(xs))...};
        // Output axis of input k: k, except that xy swaps the first two (for two inputs or more).
        const auto axis_of = [&](std::size_t k) {
            if (ix == indexing::xy && n >= 2 && k < 2)
                return 1 - k;
            return k;
        };
        shape_t out(n, 1);
        for (std::size_t k = 0; k < n; ++k)
            out[axis_of(k)] = sizes[k];
        std::size_t k = 0;
        const auto one = [&](auto&& x) {
            shape_t s(n, 1);
            s[axis_of(k++)] = -1;
            return broadcast_to(reshape(std::forward<decltype(x)>(x), s), out);
        };
        // Braced initialisation evaluates left to right, so input k meets k.
        return std::tuple<decltype(one(std::forward<E>(xs)))...>{one(std::forward<E>(xs))...};
    }
}

template <class Tuple, std::size_t... I>
auto meshgrid_split(indexing ix, Tuple&& args, std::index_sequence<I...>) {
    return meshgrid_impl(ix, std::get<I>(std::forward<Tuple>(args))...);
}
} // namespace detail

/// `meshgrid(xs...)` / `meshgrid(xs..., indexing::ij)` as numpy.meshgrid(copy=False): one
/// coordinate grid per input, all of one shape `(n0, n1, ...)` (`ij`) or with the first two
/// extents swapped (`xy`, the default): `auto [gx, gy] = meshgrid(x, y)` with x (3,) and y (2,)
/// gives two (2, 3) grids, `gx[i, j] = x[j]`, `gy[i, j] = y[i]`. Each input is raveled (any
/// shape; 0-d counts as (1,)). Returns a `std::tuple` of broadcast views: read-only
/// `tensor_view<const T>`s of tensor inputs (zero-copy: NumPy's default copy=True would copy),
/// lazy remaps of expressions. No inputs give an empty tuple.
template <class... A>
    requires((expression<A> || std::is_same_v<std::remove_cvref_t<A>, indexing>)&&...)
auto meshgrid(A&&... args) {
    if constexpr (detail::ends_with_indexing<A...>()) {
        auto all = std::forward_as_tuple(std::forward<A>(args)...);
        const indexing ix = std::get<sizeof...(A) - 1>(all);
        return detail::meshgrid_split(
            ix, std::move(all), std::make_index_sequence<sizeof...(A) - 1>{});
    } else {
        return detail::meshgrid_impl(indexing::xy, std::forward<A>(args)...);
    }
}

/// `indices(shape)` as numpy.indices: a `tensor<T>` (T = `int64_t` unless given, NumPy's
/// `dtype=`) of shape `(rank, *shape)` whose slice k holds every position's index along axis
/// k: `indices({2, 3})[0]` is `[[0, 0, 0], [1, 1, 1]]`. `indices({})` has shape (0,). A new
/// tensor (a factory, as `arange`). Throws `value_error` for a negative extent.
template <class T = std::int64_t>
tensor<T> indices(const shape_t& shape) {
    for (index_t n : shape)
        if (n < 0)
            throw value_error("indices: negative dimensions are not allowed: shape "
                              + to_string(shape));
    shape_t out_shape{shape.rank()};
    out_shape.insert(out_shape.end(), shape.begin(), shape.end());
    tensor<T> out(out_shape, uninitialized);
    const index_t size = shape_size(shape);
    const strides_t st = row_major_strides(shape);
    T* o = out.data();
    for (std::size_t k = 0; k < shape.size(); ++k) {
        // Slice k: index i along axis k repeats for st[k] elements, the run repeats.
        for (index_t flat = 0; flat < size;)
            for (index_t i = 0; i < shape[k]; ++i)
                for (index_t r = 0; r < st[k]; ++r, ++flat)
                    *o++ = static_cast<T>(i);
    }
    return out;
}

} // namespace fusor
