// fusor/algo/calculus.hpp: numerical calculus on sampled data, as NumPy's: gradient (central
// differences inside, one-sided at the ends) and trapz (the trapezoidal rule).
#pragma once

#include <string>
#include <type_traits>

#include <fusor/algo/diff.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/rounding.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/ops/cast.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

namespace detail {
// numpy.gradient's output type: floats keep theirs, integers give float64 (NumPy converts them
// before differencing, so nothing wraps).
template <class T>
using gradient_t = std::conditional_t<std::is_floating_point_v<T>, T, double>;

// A view of `e` (rank r) taking `s` on axis `axis` and everything elsewhere.
template <class E>
auto along(E&& e, index_t rank, index_t axis, slice s) {
    std::vector<view_index> idx(static_cast<std::size_t>(rank), slice(none, none));
    idx[static_cast<std::size_t>(axis)] = s;
    return apply_view(std::forward<E>(e), [&](const shape_t& in) { return view_map(in, idx); });
}
} // namespace detail

/// `gradient(f, dx, axis, edge_order = 1)` as numpy.gradient(f, dx, axis=axis,
/// edge_order=...) with a uniform spacing `dx`: the derivative of the samples `f` along `axis`,
/// `(f[i + 1] - f[i - 1]) / (2 dx)` inside and one-sided differences at the two ends (first
/// order, `(f[1] - f[0]) / dx`; with `edge_order` 2, NumPy's second-order formulas
/// `(-1.5 f[0] + 2 f[1] - 0.5 f[2]) / dx`, each coefficient divided first and each product
/// rounded as NumPy's). Shape of `f`; floats keep their type (the spacing converted to it),
/// integers give float64. Throws `value_error` when `axis` has fewer than `edge_order + 1`
/// samples ("Shape of array too small to calculate a numerical gradient") or `edge_order` is
/// not 1 or 2, `axis_error` for a bad axis. Does not compile for bool (NumPy: boolean subtract).
/// `gradient(f, dx = 1.0)`: a 1-d `f` (NumPy returns one array per axis for more; name the
/// axis here). For a 1-d float32 `f` NumPy 1.24 computes the two end values in float64 (its
/// scalar arithmetic); NumPy 2, as fusor, in float32.
template <class E>
    requires expression<E>
auto gradient(const E& f, double dx, index_t axis, int edge_order = 1) {
    using T = value_type_t<E>;
    static_assert(!std::is_same_v<T, bool>,
                  "fusor::gradient: bool samples (NumPy raises: boolean subtract); cast them");
    using R = detail::gradient_t<T>;
    const shape_t& s = detail::checked_shape_of(f);
    const index_t ax = normalize_axis(axis, s.rank());
    if (edge_order != 1 && edge_order != 2)
        throw value_error("gradient: 'edge_order' greater than 2 not supported (got "
                          + std::to_string(edge_order) + ")");
    const index_t n = s[static_cast<std::size_t>(ax)];
    if (n < edge_order + 1)
        throw value_error("gradient: Shape of array too small to calculate a numerical gradient, "
                          "at least (edge_order + 1) elements are required (axis "
                          + std::to_string(axis) + " of shape " + to_string(s) + ")");
    const tensor<R> x = cast<R>(moveaxis(f, ax, -1)); // each lane contiguous
    tensor<R> out(x.shape(), uninitialized);
    const index_t lanes = n == 0 ? 0 : x.size() / n;
    const R two_dx = static_cast<R>(2.0 * dx), one_dx = static_cast<R>(dx);
    const auto r = [](R v) {
        if constexpr (std::is_same_v<R, float> || std::is_same_v<R, double>)
            return detail::rounded(v);
        else
            return v;
    };
    for (index_t l = 0; l < lanes; ++l) {
        const R* y = x.data() + l * n;
        R* o = out.data() + l * n;
        for (index_t i = 1; i + 1 < n; ++i)
            o[i] = (y[i + 1] - y[i - 1]) / two_dx;
        if (edge_order == 1) {
            o[0] = (y[1] - y[0]) / one_dx;
            o[n - 1] = (y[n - 1] - y[n - 2]) / one_dx;
        } else {
            const R a = static_cast<R>(-1.5 / dx), b = static_cast<R>(2.0 / dx),
                    c = static_cast<R>(-0.5 / dx);
            o[0] = r(r(a * y[0]) + r(b * y[1])) + r(c * y[2]);
            const R a2 = static_cast<R>(0.5 / dx), b2 = static_cast<R>(-2.0 / dx),
                    c2 = static_cast<R>(1.5 / dx);
            o[n - 1] = r(r(a2 * y[n - 3]) + r(b2 * y[n - 2])) + r(c2 * y[n - 1]);
        }
    }
    if (ax == s.rank() - 1)
        return out;
    return tensor<R>(moveaxis(out, -1, ax));
}
/// `gradient(f, dx = 1.0)`: the gradient of a 1-d `f` (see above). Throws `value_error` for
/// another rank (NumPy returns a list of one gradient per axis: call `gradient(f, dx, axis)`).
template <class E>
    requires expression<E>
auto gradient(const E& f, double dx = 1.0) {
    const shape_t& s = detail::checked_shape_of(f);
    if (s.rank() != 1)
        throw value_error("gradient: f of shape " + to_string(s)
                          + " has several axes; name one (gradient(f, dx, axis))");
    return gradient(f, dx, 0);
}

/// `trapz(y, dx = 1.0, axis = -1)` as numpy.trapz (NumPy 2's `trapezoid`): the integral of the
/// samples `y` along `axis` by the trapezoidal rule, `sum(dx * (y[1:] + y[:-1]) / 2.0, axis)`,
/// shape `y`'s without `axis`. Type: `y`'s for floats (dx a weak scalar, as NumPy's Python
/// float), float64 for integers. Lazy: one fused reduction (its float64 sum is fusor's, so the
/// last bits may differ from NumPy's pairwise sum, towards the exact value). Throws `axis_error`.
template <class E>
    requires expression<E>
auto trapz(const E& y, double dx = 1.0, index_t axis = -1) {
    const shape_t& s = detail::checked_shape_of(y);
    const index_t ax = normalize_axis(axis, s.rank());
    return sum(dx
                   * (detail::along(y, s.rank(), ax, slice(1, none))
                      + detail::along(y, s.rank(), ax, slice(none, -1)))
                   / 2.0,
               ax);
}
/// `trapz(y, x, axis = -1)`: sample points `x` instead of a spacing: a 1-d `x` of `y`'s extent
/// on `axis`, or `x` of `y`'s shape; `diff(x)` takes `dx`'s place (NumPy's steps). Type
/// `promote` of the two with integers as float64. Throws `value_error` when `x` does not fit.
template <class E, class X>
    requires(expression<E>&& expression<X>)
auto trapz(const E& y, const X& x, index_t axis = -1) {
    const shape_t& s = detail::checked_shape_of(y);
    const index_t ax = normalize_axis(axis, s.rank());
    const shape_t& sx = detail::checked_shape_of(x);
    using R = float_result_t<promote_t<value_type_t<E>, value_type_t<X>>>;
    tensor<R> d = cast<R>(diff(x, 1, sx.rank() == 1 ? 0 : ax));
    if (sx.rank() == 1) {
        shape_t along_axis(static_cast<std::size_t>(s.rank()), 1);
        along_axis[static_cast<std::size_t>(ax)] = d.size();
        d.reshape(along_axis);
    }
    if (!broadcasts_to(d.shape(), detail::along(y, s.rank(), ax, slice(1, none)).shape(), false))
        throw value_error("trapz: x of shape " + to_string(sx) + " does not fit y of shape "
                          + to_string(s) + " along axis " + std::to_string(axis));
    return sum(std::move(d)
                   * (detail::along(y, s.rank(), ax, slice(1, none))
                      + detail::along(y, s.rank(), ax, slice(none, -1)))
                   / 2.0,
               ax);
}

} // namespace fusor
