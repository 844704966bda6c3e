// fusor/algo/convolve.hpp: convolve and correlate of 1-d sequences, as numpy.convolve and
// numpy.correlate (modes full, same, valid).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/ops/cast.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// The part of the full discrete convolution or correlation `convolve` and `correlate` return
/// (numpy's `mode`): `full`, every point where the sequences overlap (n + m - 1 values); `same`,
/// the middle max(n, m) values; `valid`, only the points where one lies wholly inside the
/// other (max(n, m) - min(n, m) + 1 values).
enum class convolve_mode { full, same, valid };

namespace detail {
// The sum type of a correlation in R: float32 and float64 add in float64 (NumPy's dot adds in
// R, so float32 results may differ from NumPy's in the last bits, towards the exact value);
// integers in 64 bits (the low bits wrap as NumPy's); bool is or of ands.
template <class R>
using correlation_sum_t = std::conditional_t<
    std::is_floating_point_v<R>,
    double,
    std::conditional_t<std::is_same_v<R, bool>,
                       bool,
                       std::conditional_t<std::is_signed_v<R>, std::int64_t, std::uint64_t>>>;

// numpy's _pyarray_correlate: `z[k] = sum_j a[k + j] * v[j]` over the overlap, for the first
// `len(a) >= len(v)` (else the arguments are swapped and the result reversed), for k from
// -n_left, `length` values. Throws `value_error` for an empty or not 1-d sequence.
template <class R, class A, class V>
tensor<R>
correlate_1d(const A& a_in, const V& v_in, convolve_mode mode, bool reverse_v, const char* what) {
    const shape_t& sa = checked_shape_of(a_in);
    const shape_t& sv = checked_shape_of(v_in);
    if (sa.rank() != 1 || sv.rank() != 1)
        throw value_error(std::string(what)
                          + ": object too deep for desired array (1-d "
                            "sequences only; shapes "
                          + to_string(sa) + " and " + to_string(sv) + ")");
    const tensor<R> a = cast<R>(a_in);
    const tensor<R> v = cast<R>(v_in);
    if (a.size() == 0)
        throw value_error(std::string(what) + ": a cannot be empty");
    if (v.size() == 0)
        throw value_error(std::string(what) + ": v cannot be empty");
    const bool swapped = a.size() < v.size();
    const R* x = (swapped ? v : a).data();
    const R* y = (swapped ? a : v).data();
    const index_t n = swapped ? v.size() : a.size(), m = swapped ? a.size() : v.size();
    // convolve reads v reversed (numpy.convolve is correlate(a, v[::-1])); after a swap the
    // shorter sequence is `a`.
    const auto y_at = [&](index_t j) {
        return reverse_v ? y[m - 1 - j] : y[j];
    };
    index_t n_left = 0, length = n;
    if (mode == convolve_mode::valid) {
        length = n - m + 1;
    } else if (mode == convolve_mode::same) {
        n_left = m / 2;
    } else {
        n_left = m - 1;
        length = n + m - 1;
    }
    using S = correlation_sum_t<R>;
    tensor<R> out(shape_t{length}, uninitialized);
    for (index_t o = 0; o < length; ++o) {
        const index_t k = o - n_left;
        const index_t j0 = k < 0 ? -k : 0, j1 = k + m > n ? n - k : m;
        S s{};
        for (index_t j = j0; j < j1; ++j) {
            if constexpr (std::is_same_v<R, bool>)
                s = s || (x[k + j] && y_at(j));
            else
                s = static_cast<S>(s + static_cast<S>(x[k + j]) * static_cast<S>(y_at(j)));
        }
        out.data()[o] = static_cast<R>(s);
    }
    // numpy.correlate of a shorter first sequence swaps and reverses (its `inverted` flag);
    // numpy.convolve swaps before it reverses v, which comes to the same values unreversed.
    if (swapped && !reverse_v)
        for (index_t i = 0, j = length - 1; i < j; ++i, --j)
            std::swap(out.data()[i], out.data()[j]);
    return out;
}
} // namespace detail

/// `convolve(a, v, mode = convolve_mode::full)` as numpy.convolve: the discrete linear
/// convolution of the 1-d sequences `a` (n,) and `v` (m,), `(a * v)[k] = sum_j a[j] v[k - j]`;
/// shape (n + m - 1,) for `full`, (max(n, m),) for `same`, (max(n, m) - min(n, m) + 1,) for
/// `valid`. Type `promote(a, v)`; integers wrap as NumPy's, bool is or of ands; float sums are
/// added in float64 (NumPy's dot adds float32 in float32: the last bits may differ, towards the
/// exact value). Each operand is evaluated once. Throws `value_error` for an empty sequence ("a
/// cannot be empty", "v cannot be empty") or one that is not 1-d. Example: a moving average
/// `convolve(x, full({3}, 1.0 / 3), convolve_mode::valid)`.
template <class A, class V>
    requires(expression<A>&& expression<V>)
auto convolve(const A& a, const V& v, convolve_mode mode = convolve_mode::full) {
    using R = promote_t<value_type_t<A>, value_type_t<V>>;
    return detail::correlate_1d<R>(a, v, mode, true, "convolve");
}

/// `correlate(a, v, mode = convolve_mode::valid)` as numpy.correlate (real types): the
/// cross-correlation `c[k] = sum_n a[n + k] v[n]` of the 1-d sequences, NumPy's default mode
/// `valid`; shapes, types and errors as `convolve` (for a shorter `a` the result is NumPy's,
/// computed with the sequences swapped and reversed).
template <class A, class V>
    requires(expression<A>&& expression<V>)
auto correlate(const A& a, const V& v, convolve_mode mode = convolve_mode::valid) {
    using R = promote_t<value_type_t<A>, value_type_t<V>>;
    return detail::correlate_1d<R>(a, v, mode, false, "correlate");
}

} // namespace fusor
