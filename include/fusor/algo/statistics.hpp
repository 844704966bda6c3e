// fusor/algo/statistics.hpp: average, ptp, cov and corrcoef, written as the reductions and
// element-wise expressions they are (mean, sum, max - min, a fused sum of products), so their
// sums are fusor's (float32 accumulated in float64, float64 compensated): at least as exact as
// NumPy's pairwise sums, equal to them to rounding.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <fusor/core/axis.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/functions.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/ops/compare.hpp>
#include <fusor/reduce/contraction.hpp> // matmul (cov)
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// Option tag of `average` (numpy's `returned=True`): also return the sum of the weights.
struct returned_t {};
inline constexpr returned_t returned{};

/// What `average(…, returned)` returns: `average` and `sum_of_weights`, both of the average's
/// shape and type (without weights, the number of elements averaged). Structured bindings
/// work: `auto [avg, wsum] = average(x, 0, w, returned);`.
template <class R>
struct average_result {
    tensor<R> average;
    tensor<R> sum_of_weights;
};

namespace detail {
template <class O>
concept average_tag = std::is_same_v<O, keepdims_t> || std::is_same_v<O, returned_t>;
template <class O>
concept average_arg = average_tag<O> || expression<O>;

template <class... O>
struct first_expression {
    using type = void;
};
template <class A, class... O>
struct first_expression<A, O...> {
    using type = std::conditional_t<expression<A>, A, typename first_expression<O...>::type>;
};

// The weights among the arguments (null when there are none).
template <class W, class... O>
const W* find_weights(const O&... o) {
    const W* w = nullptr;
    auto one = [&](const auto& a) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(a)>, W>)
            w = &a;
    };
    (one(o), ...);
    (void)one;
    return w;
}

// numpy.average's result type: with weights, `result_type(a, w)`, and float64 at least when `a`
// holds integers or bools; without, mean's.
template <class A, class W>
struct average_type {
    using type = std::conditional_t<std::is_integral_v<A>, double, promote_t<A, W>>;
};
template <class A>
struct average_type<A, void> {
    using type = typename reducers::mean::template impl<A>::result_type;
};

template <class W>
struct value_or_void {
    using type = value_type_t<W>;
};
template <>
struct value_or_void<void> {
    using type = void;
};

template <class R, class E, class W>
auto average_impl(const E& e, const std::optional<shape_t>& axes, reduce_options opt, const W* w) {
    average_result<R> r;
    if constexpr (std::is_void_v<W>) {
        opt.int_axis = false; // numpy.mean refuses axis 0 of a 0-d operand
        r.average = eval(make_reduction<reducers::mean>(e, axes, opt));
        const index_t n = r.average.size();
        if (n == 0) // NumPy's a.size / avg.size raises ZeroDivisionError
            throw value_error("average: the average is empty, its count a.size / 0 is undefined");
        r.sum_of_weights = tensor<R>(r.average.shape(), uninitialized);
        const R count = static_cast<R>(static_cast<double>(e.size()) / static_cast<double>(n));
        std::fill(r.sum_of_weights.begin(), r.sum_of_weights.end(), count);
    } else {
        const auto zero_sum = [] {
            throw value_error("average: Weights sum to zero, can't be normalized");
        };
        if (w->shape() == e.shape()) {
            tensor<R> scl = eval(make_reduction<reducers::sum>(cast<R>(*w), axes, opt));
            if (fusor::any(scl == R(0)).item())
                zero_sum();
            r.average =
                eval(make_reduction<reducers::sum>(cast<R>(e) * cast<R>(*w), axes, opt) / scl);
            r.sum_of_weights = std::move(scl);
        } else {
            if (!axes)
                throw value_error("average: Axis must be specified when shapes of a and weights "
                                  "differ.");
            if (w->shape().rank() != 1)
                throw value_error("average: 1D weights expected when shapes of a and weights "
                                  "differ.");
            if (axes->size() != 1)
                throw value_error("average: weights of another shape need one integer axis");
            const index_t rank = e.shape().rank();
            const index_t ax = (*axes)[0];
            if (ax < -rank || ax >= rank) // NumPy indexes a.shape with it: IndexError
                throw index_error("average: axis " + std::to_string(ax)
                                  + " is out of range for shape " + to_string(e.shape()));
            const index_t a = ax < 0 ? ax + rank : ax;
            if (w->shape()[0] != e.shape()[static_cast<std::size_t>(a)])
                throw value_error("average: Length of weights not compatible with specified "
                                  "axis.");
            const R scl = fusor::sum(cast<R>(*w)).item();
            if (scl == R(0))
                zero_sum();
            shape_t along(static_cast<std::size_t>(rank), 1);
            along[static_cast<std::size_t>(a)] = w->shape()[0];
            const auto wb = reshape(cast<R>(*w), along);
            r.average = eval(make_reduction<reducers::sum>(cast<R>(e) * wb, axes, opt) / scl);
            r.sum_of_weights = tensor<R>(r.average.shape(), uninitialized);
            std::fill(r.sum_of_weights.begin(), r.sum_of_weights.end(), scl);
        }
    }
    return r;
}

template <class E, class... O>
auto average_call(const E& e, const std::optional<shape_t>& axes, bool int_axis, const O&... o) {
    using W = typename first_expression<O...>::type;
    static_assert((static_cast<int>(expression<O>) + ... + 0) <= 1,
                  "fusor::average: at most one weights expression");
    using R = typename average_type<value_type_t<E>, typename value_or_void<W>::type>::type;
    constexpr bool want_sum = (std::is_same_v<O, returned_t> || ...);
    reduce_options opt;
    opt.keepdims = (std::is_same_v<O, keepdims_t> || ...);
    opt.int_axis = int_axis;
    auto r = average_impl<R>(e, axes, opt, find_weights<W>(o...));
    if constexpr (want_sum)
        return r;
    else
        return std::move(r.average);
}
} // namespace detail

/// `average(e, [axis | {axes}], [w], [returned], [keepdims])` (numpy.average): the mean of `e`
/// over every axis (0-d result), one axis or several, weighted by `w` when given:
/// `sum(e * w, axes) / sum(w, axes)`. `w` has `e`'s shape, or is 1-d along the one integer
/// `axis` (its length that axis's extent). Types: without weights as `mean` (float32 stays,
/// integers and bool give float64); with weights `promote_t(e, w)`, float64 when `e` holds
/// integers or bool. Returns a tensor, or with `returned` an `average_result{average,
/// sum_of_weights}` (the weights' sum, or the element count, broadcast to the average's shape).
/// Throws `value_error`: the weights sum to zero ("Weights sum to zero, can't be normalized";
/// NumPy's ZeroDivisionError), weights of another shape without one integer axis or not 1-d or
/// of the wrong length, an empty average with `returned` and no weights (NumPy divides by its
/// size). `axis_error` for an axis out of range; `index_error` (NumPy's IndexError) for it
/// with 1-d weights. Example: `average(x, 0, w)`.
template <class E, class... O>
    requires(expression<E> && (detail::average_arg<O> && ...))
auto average(const E& e, const O&... o) {
    return detail::average_call(e, std::nullopt, false, o...);
}
template <class E, class I, class... O>
    requires(expression<E>&& std::is_integral_v<I> && (detail::average_arg<O> && ...))
auto average(const E& e, I axis, const O&... o) {
    return detail::average_call(e, shape_t{static_cast<index_t>(axis)}, true, o...);
}
template <class E, class... O>
    requires(expression<E> && (detail::average_arg<O> && ...))
auto average(const E& e, std::initializer_list<index_t> axes, const O&... o) {
    return detail::average_call(e, shape_t(axes), false, o...);
}
template <class E, class... O>
    requires(expression<E> && (detail::average_arg<O> && ...))
auto average(const E& e, const shape_t& axes, const O&... o) {
    return detail::average_call(e, axes, false, o...);
}

namespace detail {
template <class E>
auto ptp_impl(const E& e, const std::optional<shape_t>& axes, bool int_axis, bool keepdims) {
    using T = value_type_t<E>;
    static_assert(!std::is_same_v<T, bool>,
                  "fusor::ptp: bool has no subtraction (numpy.ptp raises TypeError: numpy "
                  "boolean subtract is not supported)");
    // NumPy refuses any reduction over a length-0 axis (max has no identity), even when the
    // result is empty; fusor's max only when the result is not.
    const shape_t& s = e.shape();
    if (s.rank() > 0)
        for (index_t a : resolve_axes(axes, s.rank(), false))
            if (s[static_cast<std::size_t>(a)] == 0)
                throw value_error("ptp: zero-size array to reduction operation maximum which has "
                                  "no identity (shape "
                                  + to_string(s) + ")");
    reduce_options opt;
    opt.keepdims = keepdims;
    opt.int_axis = int_axis;
    return tensor<T>(make_reduction<reducers::max>(e, axes, opt)
                     - make_reduction<reducers::min>(e, axes, opt));
}
} // namespace detail

/// `ptp(e, [axis | {axes}], [keepdims])` (numpy.ptp): `max - min` over the axes (every axis
/// without one), in `e`'s type: integers wrap as NumPy's (int8 `127 - (-128)` is -1), NaN
/// propagates. bool does not compile (NumPy's TypeError). Throws `value_error` when an empty
/// axis is reduced, `axis_error` for an axis out of range.
template <class E>
    requires expression<E>
auto ptp(const E& e) {
    return detail::ptp_impl(e, std::nullopt, false, false);
}
template <class E>
    requires expression<E>
auto ptp(const E& e, keepdims_t) {
    return detail::ptp_impl(e, std::nullopt, false, true);
}
template <class E, class I>
    requires(expression<E>&& std::is_integral_v<I>)
auto ptp(const E& e, I axis) {
    return detail::ptp_impl(e, shape_t{static_cast<index_t>(axis)}, true, false);
}
template <class E, class I>
    requires(expression<E>&& std::is_integral_v<I>)
auto ptp(const E& e, I axis, keepdims_t) {
    return detail::ptp_impl(e, shape_t{static_cast<index_t>(axis)}, true, true);
}
template <class E>
    requires expression<E>
auto ptp(const E& e, const shape_t& axes) {
    return detail::ptp_impl(e, axes, false, false);
}
template <class E>
    requires expression<E>
auto ptp(const E& e, const shape_t& axes, keepdims_t) {
    return detail::ptp_impl(e, axes, false, true);
}

namespace detail {
// numpy.cov's X: `array(m, ndmin=2, dtype=float64)`, transposed when `rowvar` is false and it
// has more than one row (a 1-d operand is one variable either way).
template <class E>
tensor<double> cov_rows(const E& m, bool rowvar, const char* fn, const char* name) {
    const shape_t& s = m.shape();
    if (s.rank() > 2)
        throw value_error(std::string(fn) + ": " + name + " has more than 2 dimensions (shape "
                          + to_string(s) + ")");
    shape_t two = s;
    while (two.rank() < 2)
        two.insert(two.begin(), 1);
    tensor<double> x(two, uninitialized);
    adapt(x.data(), s) = cast<double>(m);
    if (!rowvar && two[0] != 1)
        return tensor<double>(transpose(x));
    return x;
}

// `fn` names the function the user called (cov or corrcoef) in the errors.
template <class M, class Y>
tensor<double> cov_impl(const M& m,
                        const Y* y,
                        bool rowvar,
                        bool bias,
                        std::optional<index_t> ddof_in,
                        const char* fn = "cov") {
    tensor<double> x = cov_rows(m, rowvar, fn, "m");
    if (x.shape()[0] == 0)
        return tensor<double>(shape_t{0, 0});
    if constexpr (!std::is_void_v<Y>) {
        const tensor<double> more = cov_rows(*y, rowvar, fn, "y");
        if (more.shape()[1] != x.shape()[1])
            throw value_error(std::string(fn) + ": m and y have different numbers of observations ("
                              + std::to_string(x.shape()[1]) + " and "
                              + std::to_string(more.shape()[1]) + ")");
        tensor<double> both(shape_t{x.shape()[0] + more.shape()[0], x.shape()[1]}, uninitialized);
        std::copy(x.begin(), x.end(), both.begin());
        std::copy(more.begin(), more.end(), both.begin() + x.size());
        x = std::move(both);
    }
    const index_t ddof = ddof_in ? *ddof_in : (bias ? 0 : 1);
    const index_t n = x.shape()[1];
    const double fact = n - ddof <= 0 ? 0.0 : static_cast<double>(n - ddof);
    // X - mean(X, 1), then the products of every pair of rows summed over the observations as
    // NumPy's dot(X, X.T) (a matrix product: with a BLAS, its dgemm, the transpose a flag;
    // (64, 65536): 115-160 ms as a broadcast product's sum, 16 so), then times 1 / fact as NumPy.
    const tensor<double> xc = x - fusor::mean(x, 1, keepdims);
    tensor<double> c = matmul(xc, transpose(xc)) * (1.0 / fact);
    if (c.shape()[0] == 1)
        c.reshape(shape_t{});
    return c;
}
} // namespace detail

/// `cov(m, rowvar = true, bias = false, ddof = nullopt)` and `cov(m, y, rowvar, bias, ddof)`
/// (numpy.cov): the float64 covariance matrix of the variables in the rows of the 0-, 1- or
/// 2-d `m` (columns with `rowvar = false`; a 1-d `m` is one variable), with `y`'s variables
/// appended. Normalised by `n - ddof`, `ddof` defaulting to 1 (0 with `bias`); `n - ddof <= 0`
/// gives inf/NaN as NumPy (which warns). Shape (k, k) for k variables; one variable gives a 0-d
/// result, no variable (0, 0). Any element type (float32 too) is computed in float64. Throws
/// `value_error`: `m` or `y` of rank > 2, `y` with another number of observations.
template <class M>
    requires expression<M> tensor<double> cov(const M& m,
                                              bool rowvar = true,
                                              bool bias = false,
                                              std::optional<index_t> ddof = std::nullopt) {
        return detail::cov_impl<M, void>(m, nullptr, rowvar, bias, ddof);
    }
template <class M, class Y>
    requires(expression<M>&& expression<Y>)
tensor<double> cov(const M& m,
                   const Y& y,
                   bool rowvar = true,
                   bool bias = false,
                   std::optional<index_t> ddof = std::nullopt) {
    return detail::cov_impl<M, Y>(m, &y, rowvar, bias, ddof);
}

namespace detail {
// A template so that a translation unit that never calls corrcoef does not instantiate (and
// compile) the evaluation of these expressions.
template <class T>
tensor<T> correlation(tensor<T> c) {
    if (c.rank() == 0) // one variable: 1, or NaN for a zero, infinite or NaN variance
        return tensor<T>(c / c);
    const tensor<T> s = sqrt(diagonal(c));
    return tensor<T>(clip(c / view(s, all, newaxis) / view(s, newaxis, all), T(-1), T(1)));
}
} // namespace detail

/// `corrcoef(x, rowvar = true)`, `corrcoef(x, y, rowvar = true)` (numpy.corrcoef): Pearson's
/// correlation coefficients, `cov(x, y, rowvar)` divided by the standard deviations of both
/// variables, clipped to [-1, 1] (NaN stays NaN). float64; shapes and errors as `cov` (one
/// variable: 0-d, 1 or NaN).
template <class X>
    requires expression<X> tensor<double> corrcoef(const X& x, bool rowvar = true) {
        return detail::correlation(
            detail::cov_impl<X, void>(x, nullptr, rowvar, false, std::nullopt, "corrcoef"));
    }
template <class X, class Y>
    requires(expression<X>&& expression<Y>)
tensor<double> corrcoef(const X& x, const Y& y, bool rowvar = true) {
    return detail::correlation(
        detail::cov_impl<X, Y>(x, &y, rowvar, false, std::nullopt, "corrcoef"));
}

} // namespace fusor
