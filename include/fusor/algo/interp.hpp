// fusor/algo/interp.hpp: interp, NumPy's 1-d piecewise-linear interpolation, computed as
// numpy.interp computes it (compiled_base.c's arr_interp), so results agree bit for bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/ops/cast.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

namespace detail {

// The interval of `x` in `xp` by NumPy's comparisons (arr_interp's binary_search_with_guess):
// n when x > xp[n - 1], -1 when x < xp[0] (in that order), else a scan from xp[1] when n <= 4,
// else the intervals around `guess` (the previous element's answer), then a window of 8 beside
// them, then bisection. For ascending xp that is the last j with xp[j] <= x, whatever the
// search; with a NaN in xp, or xp not ascending (neither is checked, as NumPy), only the same
// comparisons in the same order give NumPy's answers.
FUSOR_DECL index_t interp_interval(double x, const std::vector<double>& xp, index_t guess);

// numpy.mod of floats: the remainder with the divisor's sign (here p > 0), +0.0 for none.
FUSOR_DECL double floored_mod(double a, double p);

// One value, as arr_interp's loop: NaN stays NaN, outside the samples `left`/`right`, on the
// last sample or exactly on a sample that sample's value, else `slope * (x - xp[j]) + fp[j]`
// (retried from the right end when it is NaN, as NumPy does for infinite samples). `guess`:
// the interval the previous value found (0 for the first), updated as NumPy's loop does.
FUSOR_DECL double interp_one(double x,
                             const std::vector<double>& xp,
                             const std::vector<double>& fp,
                             double left,
                             double right,
                             index_t& guess);

/// The sample points `interp` takes as `xp` or `fp`, as float64 (NumPy converts them): an
/// expression of any real type, a braced list (`interp(x, {1, 2, 3}, {3, 2, 0})`, as NumPy's
/// Python lists) or a `std::vector<double>`. An expression that is not 1-d is kept as its shape
/// only, for `interp`'s error.
struct interp_points {
    std::vector<double> values;
    shape_t shape;

    interp_points(std::initializer_list<double> l)
        : values(l), shape{static_cast<index_t>(values.size())} {}
    interp_points(std::vector<double> v)
        : values(std::move(v)), shape{static_cast<index_t>(values.size())} {}
    template <expression E>
    interp_points(const E& e) : shape(checked_shape_of(e)) {
        if (shape.rank() != 1)
            return;
        const tensor<double> t = cast<double>(e);
        values.assign(t.begin(), t.end());
    }

    // The values, or `value_error` naming `what` when the points are not 1-d.
    std::vector<double> take(const char* what) && {
        if (shape.rank() != 1)
            throw value_error(std::string("interp: ") + what + " must be a 1-d sequence, got shape "
                              + to_string(shape));
        return std::move(values);
    }
};

} // namespace detail

/// `interp(x, xp, fp, left, right, period)` as numpy.interp: the piecewise-linear interpolant
/// through the points `(xp[i], fp[i])` at each `x` (`xp` and `fp` each an expression, a braced
/// list or a `std::vector<double>`, read as float64), a `tensor<double>` of `x`'s shape (float64
/// whatever the inputs' types, as NumPy; a C++ number `x` gives a `double`). `xp` must be
/// increasing (not checked, as NumPy; for an `xp` that is not, or holds a NaN, the results are
/// still NumPy's: the same comparisons in the same order, element after element). Below `xp[0]`
/// the result is `left` (default `fp[0]`), above `xp[-1]` it is `right` (default `fp[-1]`); NaN
/// stays NaN. With `period`, `x` and `xp` are taken modulo `|period|`, `xp` sorted (stable) and
/// wrapped one sample each way, and `left`/`right` are ignored. Throws `value_error` for `xp` or
/// `fp` not 1-d ("Data points must be 1-D sequences"), lengths that differ ("fp and xp are not
/// of the same length"), empty `xp` ("array of sample points is empty"), or `period` 0 ("period
/// must be a non-zero value").
template <class X>
    requires expression<X> tensor<double> interp(const X& x,
                                                 detail::interp_points xp,
                                                 detail::interp_points fp,
                                                 std::optional<double> left = std::nullopt,
                                                 std::optional<double> right = std::nullopt,
                                                 std::optional<double> period = std::nullopt) {
        if (period && *period == 0.0)
            throw value_error("interp: period must be a non-zero value");
        std::vector<double> xs = std::move(xp).take("xp (Data points must be 1-D sequences)");
        std::vector<double> fs = std::move(fp).take("fp (Data points must be 1-D sequences)");
        // NumPy's order: without a period the compiled loop checks emptiness first.
        if (!period && xs.empty())
            throw value_error("interp: array of sample points is empty");
        if (xs.size() != fs.size())
            throw value_error("interp: fp and xp are not of the same length ("
                              + std::to_string(fs.size()) + " and " + std::to_string(xs.size())
                              + ")");
        tensor<double> out = cast<double>(x);
        if (period) {
            const double p = std::abs(*period);
            left.reset();
            right.reset();
            for (double& v : out)
                v = detail::floored_mod(v, p);
            for (double& v : xs)
                v = detail::floored_mod(v, p);
            std::vector<std::size_t> order(xs.size());
            std::iota(order.begin(), order.end(), std::size_t{0});
            // NaN last, as NumPy's argsort (a NaN in xp, or an infinite one that the modulo made
            // NaN, then gives NaN results as NumPy's do); `<` alone is no strict weak order there.
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                return xs[a] < xs[b] || (!std::isnan(xs[a]) && std::isnan(xs[b]));
            });
            std::vector<double> sx, sf;
            if (!xs.empty()) {
                sx.push_back(xs[order.back()] - p);
                sf.push_back(fs[order.back()]);
            }
            for (std::size_t i : order) {
                sx.push_back(xs[i]);
                sf.push_back(fs[i]);
            }
            if (!xs.empty()) {
                sx.push_back(xs[order.front()] + p);
                sf.push_back(fs[order.front()]);
            }
            xs = std::move(sx);
            fs = std::move(sf);
        }
        if (xs.empty())
            throw value_error("interp: array of sample points is empty");
        const double lo = left.value_or(fs.front()), hi = right.value_or(fs.back());
        index_t guess = 0; // carried from element to element in order, as NumPy's loop does
        for (double& v : out)
            v = detail::interp_one(v, xs, fs, lo, hi, guess);
        return out;
    }
template <class X>
    requires std::is_arithmetic_v<X>
double interp(X x,
              detail::interp_points xp,
              detail::interp_points fp,
              std::optional<double> left = std::nullopt,
              std::optional<double> right = std::nullopt,
              std::optional<double> period = std::nullopt) {
    tensor<double> one(shape_t{}, uninitialized);
    one.data()[0] = static_cast<double>(x);
    return interp(one, std::move(xp), std::move(fp), left, right, period).item();
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/interp.ipp>
#endif
