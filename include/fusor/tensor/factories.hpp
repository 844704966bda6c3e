// fusor/tensor/factories.hpp: zeros, ones, empty, full, arange, linspace, eye.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include <fusor/core/error.hpp>
#include <fusor/core/rounding.hpp>
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

namespace detail {
// A value NumPy stores into an element of type R (arange's first two elements, linspace's
// floored values): integers modulo the type's range, a float truncated toward zero into an
// integer type (as Python's int()), a negative one wrapping into an unsigned type.
template <class R, class V>
R numpy_store(V v) {
    if constexpr (std::is_floating_point_v<R> || std::is_same_v<R, bool>)
        return static_cast<R>(v);
    else if constexpr (std::is_floating_point_v<V>)
        return static_cast<R>(v < 0 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(v))
                                    : static_cast<std::uint64_t>(v));
    else
        return static_cast<R>(static_cast<std::uint64_t>(v));
}
// NumPy's fill of an arange (its dtype's `fill`): from the first two elements, each next one
// `first + i * delta` with `delta = second - first` in the result type. Integers wrap as
// NumPy's C arithmetic does (here in uint64, reduced to the type on the store); floats round
// the product before the add (NumPy's loop has no fused multiply-add).
template <class R>
void arange_fill(R* o, index_t n) {
    if constexpr (std::is_floating_point_v<R>) {
        const R first = o[0], delta = o[1] - o[0];
        for (index_t i = 2; i < n; ++i)
            o[i] = first + rounding::opaque(static_cast<R>(i) * delta);
    } else {
        const std::uint64_t first = static_cast<std::uint64_t>(o[0]);
        const std::uint64_t delta = static_cast<std::uint64_t>(static_cast<R>(o[1] - o[0]));
        for (index_t i = 2; i < n; ++i)
            o[i] = static_cast<R>(first + static_cast<std::uint64_t>(i) * delta);
    }
}
} // namespace detail

/// `[start, start + step, ...)` up to but excluding `stop`, as numpy.arange. Shape `(n,)`, `n =
/// ceil((stop - start) / step)` (0 when negative). The values are NumPy's: the first is `start`
/// and the second `start + step` (exact for integer arguments, in double otherwise), both
/// converted to the element type (a float truncated toward zero into an integer type); then
/// `first + i * (second - first)` computed in the element type (integers wrap). So
/// `arange<std::int32_t>(0.5, 3.0, 0.5)` is `[0, 1, 2, 3, 4]`, and a float step may give
/// values a few ulp from `start + i * step`, as NumPy's do. Element type: `T` when given
/// (`arange<float>(4)`), else the common type of the arguments, a plain `int` read as NumPy's
/// default integer: `arange(12)` is int64 as `numpy.arange(12)`, `arange(0.0, 1.0, 0.25)`
/// float64. A quotient `(stop - start) / step` that underflows to +0 (a step of +inf) gives one
/// element, to -0 none, as NumPy. Throws `value_error` for a `step` of 0, a length that is NaN
/// ("arange: cannot compute length") or beyond int64 ("Maximum allowed size exceeded"), and for
/// a bool result of more than 2 elements (NumPy has no bool fill).
template <class T = detail::deduced, class A, class B, class C = A>
    requires(std::is_arithmetic_v<A>&& std::is_arithmetic_v<B>&& std::is_arithmetic_v<C>)
tensor<detail::factory_type_t<T, std::common_type_t<A, B, C>>>
arange(A start, B stop, C step = C(1)) {
    using R = detail::factory_type_t<T, std::common_type_t<A, B, C>>;
    if (step == C(0))
        throw value_error("arange: step cannot be zero");
    const double delta = static_cast<double>(stop) - static_cast<double>(start);
    const double quotient = delta / static_cast<double>(step);
    // A quotient that underflowed to zero (or a step of +-inf) is one element when its sign is
    // positive, none when negative (NumPy's underflow and divide-by-inf check).
    const double len_f = quotient == 0.0 && delta != 0.0 ? (std::signbit(quotient) ? 0.0 : 1.0)
                                                         : std::ceil(quotient);
    if (std::isnan(len_f))
        throw value_error("arange: cannot compute length");
    if (len_f >= 9.2e18) // past int64 (an infinite range included)
        throw value_error("arange: Maximum allowed size exceeded");
    const index_t n = len_f > 0 ? static_cast<index_t>(len_f) : 0;
    if constexpr (std::is_same_v<R, bool>)
        if (n > 2)
            throw value_error("arange: a bool result has at most 2 elements (as NumPy), not "
                              + std::to_string(n));
    tensor<R> t(shape_t{n}, uninitialized);
    R* o = t.data();
    if (n == 0)
        return t;
    o[0] = detail::numpy_store<R>(start);
    if (n == 1)
        return t;
    if constexpr (std::is_integral_v<A> && std::is_integral_v<C>) {
        // Python's exact sum, in 64 bits (wrapping, as NumPy's store into the dtype would).
        const std::uint64_t next =
            static_cast<std::uint64_t>(start) + static_cast<std::uint64_t>(step);
        constexpr bool unsigned64 =
            (std::is_unsigned_v<A> && sizeof(A) == 8) || (std::is_unsigned_v<C> && sizeof(C) == 8);
        if constexpr (unsigned64)
            o[1] = detail::numpy_store<R>(next);
        else
            o[1] = detail::numpy_store<R>(static_cast<std::int64_t>(next));
    } else
        o[1] = detail::numpy_store<R>(static_cast<double>(start) + static_cast<double>(step));
    if constexpr (!std::is_same_v<R, bool>)
        detail::arange_fill(o, n);
    return t;
}
/// `arange(stop)`: `[0, 1, ..., stop)`, as above.
template <class T = detail::deduced, class A>
    requires std::is_arithmetic_v<A> tensor<detail::factory_type_t<T, A>> arange(A stop) {
        return arange<T>(A(0), stop, A(1));
    }

namespace detail {
// numpy.linspace's float64 value `i` of `div` intervals from `start` (`delta = stop - start`,
// `step = delta / div`): `i * step + start`, the product rounded before the add (NumPy's two
// array passes; opaque keeps g++ from fusing them into one fma); `(i / div) * delta + start`
// when the step underflowed to 0; `i * delta + start` without intervals (one sample). The last
// value of a linspace is `stop` itself, which the callers store.
inline double linspace_value(index_t i, index_t div, double start, double delta, double step) {
    const double x = static_cast<double>(i);
    const double y = div <= 0      ? x * delta
                     : step == 0.0 ? rounding::opaque(x / static_cast<double>(div)) * delta
                                   : x * step;
    return rounding::opaque(y) + start;
}
} // namespace detail

/// `n` evenly spaced values from `start` to `stop` inclusive, as numpy.linspace: computed in
/// double as `i * step + start` with `step = (stop - start) / (n - 1)` (the product rounded
/// before the add, as NumPy's two passes; `(i / (n - 1)) * (stop - start) + start` when the
/// step underflows to 0), the last element exactly `stop`, then converted to `T`; an integer
/// `T` takes the floor first (numpy.linspace's `dtype=int`: `linspace<int>(-5, 5, 4)` is
/// `[-5, -2, 1, 5]`). One sample is `0 * (stop - start) + start` (NaN for an infinite range,
/// as NumPy). With `endpoint` false (numpy.linspace's `endpoint=False`) the `n` values divide
/// `[start, stop)` into `n` intervals (`step = (stop - start) / n`) and `stop` is not among
/// them. Shape `(n,)`; `n < 0` throws `value_error`.
template <class T = double>
tensor<T> linspace(double start, double stop, index_t n, bool endpoint = true) {
    if (n < 0)
        throw value_error("linspace: number of samples must be non-negative, got "
                          + std::to_string(n));
    tensor<T> t(shape_t{n}, uninitialized);
    const double delta = stop - start;
    const index_t div = endpoint ? n - 1 : n;
    const double step = div > 0 ? delta / static_cast<double>(div) : 0.0;
    const auto store = [&t](index_t i, double y) {
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
            t(i) = detail::numpy_store<T>(std::floor(y)); // a negative value wraps, as in NumPy
        else
            t(i) = static_cast<T>(y);
    };
    for (index_t i = 0; i < n; ++i)
        store(i, detail::linspace_value(i, div, start, delta, step));
    if (endpoint && n > 1)
        store(n - 1, stop);
    return t;
}

/// `logspace<T>(start, stop, n = 50, endpoint = true, base = 10.0)` as numpy.logspace:
/// `base ** linspace(start, stop, n, endpoint)`, each power computed in float64 by `std::pow`
/// (NumPy's `power` of its linspace; on an AVX-512 host NumPy's vectorised power may differ in
/// the last bit), then converted to `T` (NumPy's `dtype=`). Shape `(n,)`; `n < 0` throws
/// `value_error`.
template <class T = double>
tensor<T>
logspace(double start, double stop, index_t n = 50, bool endpoint = true, double base = 10.0) {
    const tensor<double> y = linspace<double>(start, stop, n, endpoint);
    tensor<T> t(shape_t{n}, uninitialized);
    for (index_t i = 0; i < n; ++i)
        t.data()[i] = static_cast<T>(std::pow(base, y.data()[i]));
    return t;
}

/// `geomspace<T>(start, stop, n = 50, endpoint = true)` as numpy.geomspace: `n` values in
/// geometric progression from `start` to `stop`: `logspace(log10(|start|), log10(|stop|), n,
/// endpoint)` with the first value `start` itself and the last `stop` (with `endpoint`), the
/// sign restored when both are negative (NumPy's steps; opposite signs give NaN between the
/// ends, where NumPy warns). Shape `(n,)`. Throws `value_error` for a zero end ("Geometric
/// sequence cannot include zero") and `n < 0`.
template <class T = double>
tensor<T> geomspace(double start, double stop, index_t n = 50, bool endpoint = true) {
    if (start == 0.0 || stop == 0.0)
        throw value_error("geomspace: Geometric sequence cannot include zero");
    const bool negative = start < 0.0 && stop < 0.0;
    const double s0 = negative ? -start : start, s1 = negative ? -stop : stop;
    tensor<double> y = logspace<double>(std::log10(s0), std::log10(s1), n, endpoint, 10.0);
    if (n > 0) {
        y.data()[0] = s0;
        if (n > 1 && endpoint)
            y.data()[n - 1] = s1;
    }
    tensor<T> t(shape_t{n}, uninitialized);
    for (index_t i = 0; i < n; ++i)
        t.data()[i] = static_cast<T>(negative ? -y.data()[i] : y.data()[i]);
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
/// `eye<T>(n, m, k = 0)` as numpy.eye(N, M, k): an (n, m) tensor of zeros with ones on the k-th
/// diagonal (`j - i == k`: above the main one for k > 0, below for k < 0). Negative `n` or `m`
/// throw `value_error`.
template <class T = double>
tensor<T> eye(index_t n, index_t m, index_t k = 0) {
    tensor<T> t(shape_t{n, m});
    for (index_t i = 0; i < n; ++i)
        if (i + k >= 0 && i + k < m)
            t(i, i + k) = T(1);
    return t;
}
/// `identity<T>(n)` as numpy.identity: `eye<T>(n)`.
template <class T = double>
tensor<T> identity(index_t n) {
    return eye<T>(n);
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
