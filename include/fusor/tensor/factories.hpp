// fusor/tensor/factories.hpp: zeros, ones, empty, full, arange, linspace, eye.
#pragma once

#include <algorithm>
#include <cmath>

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

/// A tensor of `shape` filled with `value`; `T` is `value`'s type (as numpy.full).
/// `full({}, 5.0)` is a 0-d tensor.
template <class T>
tensor<T> full(const shape_t& shape, T value) {
    tensor<T> t(shape, uninitialized);
    std::fill(t.begin(), t.end(), value);
    return t;
}

/// `[start, start + step, ...)` up to but excluding `stop`, as numpy.arange: the length is
/// `ceil((stop - start) / step)` (0 when negative). Shape `(n,)`. A `step` of 0 throws
/// `value_error`. Example: `arange<int>(12)`, `arange(0.0, 1.0, 0.25)`.
template <class T>
tensor<T> arange(T start, T stop, T step = T(1)) {
    if (step == T(0))
        throw value_error("arange: step cannot be zero");
    const double len_f = std::ceil((static_cast<double>(stop) - static_cast<double>(start))
                                   / static_cast<double>(step));
    const index_t n = len_f > 0 ? static_cast<index_t>(len_f) : 0;
    tensor<T> t(shape_t{n}, uninitialized);
    for (index_t i = 0; i < n; ++i)
        t(i) = static_cast<T>(start + static_cast<T>(i) * step);
    return t;
}
template <class T>
tensor<T> arange(T stop) {
    return arange<T>(T(0), stop, T(1));
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

} // namespace fusor
