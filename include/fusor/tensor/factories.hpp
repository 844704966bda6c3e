// fusor/tensor/factories.hpp: zeros, ones, empty, full, arange, linspace, eye.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <fusor/core/error.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// A tensor of `shape` filled with 0 (as numpy.zeros). Example: `zeros<float>({3, 4})`.
template <class T = double>
tensor<T> zeros(const shape_t& shape) {
    return tensor<T>(shape);
}

/// A tensor of `shape` filled with 1 (as numpy.ones).
template <class T = double>
tensor<T> ones(const shape_t& shape) {
    tensor<T> t(shape, uninitialized);
    std::fill(t.begin(), t.end(), T(1));
    return t;
}

/// A tensor of `shape` whose elements are not initialised (as numpy.empty).
template <class T = double>
tensor<T> empty(const shape_t& shape) {
    return tensor<T>(shape, uninitialized);
}

namespace detail {
/// "No type given": the element type comes from the arguments.
struct deduced {};
// The element type of a factory's result: `T` when given; otherwise the arguments' type, a
// plain `int` standing for NumPy's default integer, int64 (`arange(10)`, `full(s, 7)`), since
// an integer literal is how a NumPy user writes a Python int.
template <class T, class Arg>
using factory_type_t =
    std::conditional_t<std::is_same_v<T, deduced>,
                       std::conditional_t<std::is_same_v<Arg, int>, std::int64_t, Arg>,
                       T>;
} // namespace detail

/// A tensor of `shape` filled with `value`, as numpy.full. Element type: `T` when given
/// (`full<float>({2}, 1)`), else `value`'s type, with a plain `int` read as NumPy's default
/// integer: `full({2, 2}, 7)` is int64, `full({2}, 0.5f)` float32. `full({}, 5.0)` is 0-d.
template <class T = detail::deduced, class V>
    requires std::is_arithmetic_v<V> tensor<detail::factory_type_t<T, V>> full(const shape_t& shape,
                                                                               V value) {
        using R = detail::factory_type_t<T, V>;
        tensor<R> t(shape, uninitialized);
        std::fill(t.begin(), t.end(), static_cast<R>(value));
        return t;
    }

/// `[start, start + step, ...)` up to but excluding `stop`, as numpy.arange: the length is
/// `ceil((stop - start) / step)` (0 when negative). Shape `(n,)`. A `step` of 0 throws
/// `value_error`. Element type: `T` when given (`arange<float>(4)`), else the common type of
/// the arguments, a plain `int` read as NumPy's default integer: `arange(12)` is int64 as
/// `numpy.arange(12)`, `arange(0.0, 1.0, 0.25)` float64.
template <class T = detail::deduced, class A, class B, class C = A>
    requires(std::is_arithmetic_v<A>&& std::is_arithmetic_v<B>&& std::is_arithmetic_v<C>)
tensor<detail::factory_type_t<T, std::common_type_t<A, B, C>>>
arange(A start, B stop, C step = C(1)) {
    using R = detail::factory_type_t<T, std::common_type_t<A, B, C>>;
    if (step == C(0))
        throw value_error("arange: step cannot be zero");
    const double len_f = std::ceil((static_cast<double>(stop) - static_cast<double>(start))
                                   / static_cast<double>(step));
    const index_t n = len_f > 0 ? static_cast<index_t>(len_f) : 0;
    tensor<R> t(shape_t{n}, uninitialized);
    const R first = static_cast<R>(start), delta = static_cast<R>(step);
    for (index_t i = 0; i < n; ++i)
        t(i) = static_cast<R>(first + static_cast<R>(i) * delta);
    return t;
}
/// `arange(stop)`: `[0, 1, ..., stop)`, as above.
template <class T = detail::deduced, class A>
    requires std::is_arithmetic_v<A> tensor<detail::factory_type_t<T, A>> arange(A stop) {
        return arange<T>(A(0), stop, A(1));
    }

/// `n` evenly spaced values from `start` to `stop` inclusive, as numpy.linspace
/// (`start + i * step`, the last element exactly `stop`). Shape `(n,)`; `n < 0` throws
/// `value_error`.
template <class T = double>
tensor<T> linspace(double start, double stop, index_t n) {
    if (n < 0)
        throw value_error("linspace: number of samples must be non-negative, got "
                          + std::to_string(n));
    tensor<T> t(shape_t{n}, uninitialized);
    const double step = n > 1 ? (stop - start) / static_cast<double>(n - 1) : 0.0;
    for (index_t i = 0; i < n; ++i)
        t(i) = static_cast<T>(start + static_cast<double>(i) * step);
    if (n > 1)
        t(n - 1) = static_cast<T>(stop);
    return t;
}

/// The `(n, n)` identity matrix (as numpy.eye).
template <class T = double>
tensor<T> eye(index_t n) {
    tensor<T> t(shape_t{n, n});
    for (index_t i = 0; i < n; ++i)
        t(i, i) = T(1);
    return t;
}

/// A tensor of `e`'s shape filled with 0, as numpy.zeros_like; `e` is a tensor, view or
/// expression (not evaluated: only its shape is read). Element type: `e`'s, or `U` when given
/// (`zeros_like<float>(x)`, NumPy's `dtype=`). The result is always contiguous (NumPy keeps a
/// Fortran layout; fusor has only row-major tensors).
template <class U = void, class E>
    requires expression<E>
auto zeros_like(const E& e) {
    using R = std::conditional_t<std::is_void_v<U>, value_type_t<E>, U>;
    return tensor<R>(detail::checked_shape_of(e));
}
/// A tensor of `e`'s shape filled with 1, as numpy.ones_like (types as `zeros_like`).
template <class U = void, class E>
    requires expression<E>
auto ones_like(const E& e) {
    using R = std::conditional_t<std::is_void_v<U>, value_type_t<E>, U>;
    tensor<R> t(detail::checked_shape_of(e), uninitialized);
    std::fill(t.begin(), t.end(), R(1));
    return t;
}
/// An uninitialised tensor of `e`'s shape, as numpy.empty_like (types as `zeros_like`).
template <class U = void, class E>
    requires expression<E>
auto empty_like(const E& e) {
    using R = std::conditional_t<std::is_void_v<U>, value_type_t<E>, U>;
    return tensor<R>(detail::checked_shape_of(e), uninitialized);
}
/// A tensor of `e`'s shape filled with `value` converted to `e`'s element type (or `U`), as
/// numpy.full_like: `full_like(int_tensor, 2.7)` holds 2, as NumPy's unsafe cast gives.
template <class U = void, class E, class V>
    requires(expression<E>&& std::is_arithmetic_v<V>)
auto full_like(const E& e, V value) {
    using R = std::conditional_t<std::is_void_v<U>, value_type_t<E>, U>;
    tensor<R> t(detail::checked_shape_of(e), uninitialized);
    std::fill(t.begin(), t.end(), static_cast<R>(value));
    return t;
}

} // namespace fusor
