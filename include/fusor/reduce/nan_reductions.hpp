// fusor/reduce/nan_reductions.hpp: the reductions that ignore NaN, as NumPy's
// numpy/lib/nanfunctions.py: nansum, nanprod, nanmean, nanvar, nanstd, nanmin, nanmax (lazy
// expressions built from sum, count_nonzero, where ...) and nanargmin, nanargmax (eager).
// The scans nancumsum and nancumprod are in algo/nan_scan.hpp.
//
// NumPy defines each one by rewriting its operand and calling the plain reduction:
// `_replace_nan(a, 0)` then `np.sum`, `tot / cnt` for the mean, the two-pass variance over the
// non-NaN elements. The same rewrites here are element-wise nodes under fusor's own reductions,
// so `nansum(a * b, 1)` is one fused loop that never stores `a * b`. Integer and bool operands
// hold no NaN: as NumPy, every function is then the plain one (chosen at compile time).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/functions.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/reduce/moments.hpp>
#include <fusor/reduce/reducers.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

namespace detail {
// NumPy's `_replace_nan(a, Fill)` as one element-wise operation: NaN becomes `Fill`, every
// other value (±inf included) stays. One node, so the operand is computed once per element
// (`where(isnan(e), 0, e)` would compute `e` twice: `a * b` twice in `nansum(a * b, 1)`).
// Only built over floating operands.
template <int Fill>
struct replace_nan_op {
    static_assert(Fill == 0 || Fill == 1, "replace_nan_op: NumPy replaces NaN by 0 or 1 here");
    static constexpr std::string_view name = Fill == 0 ? "nan_to_zero" : "nan_to_one";
    template <class A>
    using result = A;
    template <class A>
    FUSOR_INLINE constexpr A operator()(A a) const {
        return a != a ? A(Fill) : a;
    }
};
template <int Fill, class E>
auto replace_nan(E&& e) {
    return make_unary<replace_nan_op<Fill>>(std::forward<E>(e));
}

// numpy.fmin.reduce / numpy.fmax.reduce, what numpy.nanmin/nanmax run: a NaN never replaces a
// number, a number always replaces NaN, so a slice gives NaN only when every element is NaN.
// The accumulator starts at NaN ("nothing seen"); there is no identity (empty slices throw, as
// NumPy's "zero-size array to reduction operation fmin": check_slices_not_empty). `merge`
// is `step` (associative: the executor's interleaved accumulators and threads may split the
// slice anywhere). Ties between equal numbers keep the earlier one, as NumPy.
template <class T, bool Greater>
struct nan_extreme_impl {
    using acc_type = T;
    using result_type = T;
    static constexpr bool has_identity = false;
    static constexpr bool needs_index = false;
    static constexpr acc_type identity() { return std::numeric_limits<T>::quiet_NaN(); }
    // Keeps the greater (1) or the lesser (-1), NaN-ignoring: the cue for the executor's vector
    // lanes (exec/execute.hpp, lane_reduce). Not `order`, which asks for max's SIMD kernel and
    // its NaN-propagating rule.
    static constexpr int nan_ignoring_order = Greater ? 1 : -1;
    FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
        // The better as its own select (maxss/minss), then "nothing seen yet": one
        // `better | (a != a)` condition compiled to a branch on the comparison (max's step).
        const acc_type kept = (Greater ? (v > a) : (v < a)) ? v : a;
        return a != a ? v : kept;
    }
    static constexpr acc_type merge(acc_type a, acc_type b) { return step(a, b, 0); }
    static constexpr result_type finalize(acc_type a, index_t) { return a; }
};

/// The reducer of `nanmax` (`Greater`) and `nanmin`: fmax/fmin over floats, plain max/min over
/// integers and bool (which hold no NaN; NumPy's fmin.reduce is then np.min).
template <bool Greater>
struct nan_extreme {
    static constexpr std::string_view name = Greater ? "nanmax" : "nanmin";
    static constexpr std::string_view numpy_name = Greater ? "fmax" : "fmin";
    static constexpr bool single_axis = false;
    template <class T>
    using impl = std::conditional_t<
        std::is_floating_point_v<T>,
        nan_extreme_impl<T, Greater>,
        typename std::conditional_t<Greater, reducers::max, reducers::min>::template impl<T>>;
};

template <class E>
inline constexpr bool has_nan = std::is_floating_point_v<value_type_t<E>>;

// Each maker turns (operand, axes, options) into the expression NumPy's function computes.
struct nansum_maker {
    static constexpr bool takes_ddof = false;
    // numpy.nansum: np.sum(_replace_nan(a, 0)).
    template <class E>
    static auto make(E&& e, const std::optional<shape_t>& axes, reduce_options opt) {
        if constexpr (has_nan<E>)
            return make_reduction<reducers::sum>(replace_nan<0>(std::forward<E>(e)), axes, opt);
        else
            return make_reduction<reducers::sum>(std::forward<E>(e), axes, opt);
    }
};

struct nanprod_maker {
    static constexpr bool takes_ddof = false;
    // numpy.nanprod: np.prod(_replace_nan(a, 1)).
    template <class E>
    static auto make(E&& e, const std::optional<shape_t>& axes, reduce_options opt) {
        if constexpr (has_nan<E>)
            return make_reduction<reducers::prod>(replace_nan<1>(std::forward<E>(e)), axes, opt);
        else
            return make_reduction<reducers::prod>(std::forward<E>(e), axes, opt);
    }
};

// NumPy refuses a reduction without identity over empty slices even when the result is empty
// too (fmin.reduce of shape (0, 0) along axis 0); the shapes tell at once, so the node is
// refused when it is built.
template <class N>
void check_slices_not_empty(const N& r, const std::string& what) {
    if (r.count() == 0)
        throw value_error(what + " (reducing axes " + to_string(r.axes) + " of shape "
                          + to_string(r.child.shape()) + ")");
}

template <bool Greater>
struct nan_extreme_maker {
    static constexpr bool takes_ddof = false;
    template <class E>
    static auto make(E&& e, const std::optional<shape_t>& axes, reduce_options opt) {
        auto r = make_reduction<nan_extreme<Greater>>(std::forward<E>(e), axes, opt);
        check_slices_not_empty(r,
                               "zero-size array to reduction operation "
                                   + std::string(nan_extreme<Greater>::numpy_name)
                                   + " which has no identity");
        return r;
    }
};

// `q` (a quotient computed in float64) rounded to T, as NumPy's `_divide_by_count` does when it
// divides a T sum by an intp count into a T array (float32 / int64 runs in float64, then the
// `out=` cast). For float64 there is nothing to round.
template <class T, class Q>
auto rounded_to(Q&& q) {
    if constexpr (std::is_same_v<T, value_type_t<Q>>)
        return std::forward<Q>(q);
    else
        return cast<T>(std::forward<Q>(q));
}

// The number of non-NaN elements of each slice: NumPy's `np.sum(~mask, dtype=intp)`.
template <class N>
auto count_numbers(const N& n, const std::optional<shape_t>& axes, reduce_options opt) {
    return make_reduction<reducers::count_nonzero>(logical_not(isnan(n)), axes, opt);
}

struct nanmean_maker {
    static constexpr bool takes_ddof = false;
    // numpy.nanmean: tot = np.sum(_replace_nan(a, 0)), cnt = the non-NaN count, tot / cnt (so
    // a slice of NaN only, or of nothing, is 0 / 0 = NaN). Integers: np.mean.
    template <class E>
    static auto make(E&& e, const std::optional<shape_t>& axes, reduce_options opt) {
        using T = value_type_t<E>;
        if constexpr (has_nan<E>) {
            auto n = as_node(std::forward<E>(e));
            auto cnt = count_numbers(n, axes, opt);
            auto tot = make_reduction<reducers::sum>(replace_nan<0>(std::move(n)), axes, opt);
            return rounded_to<T>(std::move(tot) / std::move(cnt));
        } else {
            return make_reduction<reducers::mean>(std::forward<E>(e), axes, opt);
        }
    }
};

template <bool Sqrt>
struct nanvar_maker {
    static constexpr bool takes_ddof = true;
    // numpy.nanvar, NumPy's two passes over the non-NaN elements:
    //   avg = np.sum(_replace_nan(a, 0), keepdims) / cnt            (rounded to T)
    //   dev = a - avg, then 0 where a is NaN                      (T; inf - inf stays NaN)
    //   var = np.sum(dev * dev) / (cnt - ddof)                     (rounded to T)
    //   NaN where cnt - ddof <= 0.
    // Integers: np.var (where n - ddof <= 0 gives inf or NaN, as fusor's var). nanstd is the
    // square root, in T.
    template <class E>
    static auto make(E&& e, const std::optional<shape_t>& axes, reduce_options opt) {
        using T = value_type_t<E>;
        if constexpr (has_nan<E>) {
            auto n = as_node(std::forward<E>(e));
            reduce_options kept = opt;
            kept.keepdims = true;
            auto avg = rounded_to<T>(make_reduction<reducers::sum>(replace_nan<0>(n), axes, kept)
                                     / count_numbers(n, axes, kept));
            auto dev = where(isnan(n), T(0), n - std::move(avg));
            auto ss = make_reduction<reducers::sum>(square(std::move(dev)), axes, opt);
            auto dof = count_numbers(n, axes, opt) - opt.ddof;
            auto v = where(
                dof <= 0, std::numeric_limits<T>::quiet_NaN(), rounded_to<T>(std::move(ss) / dof));
            if constexpr (Sqrt)
                return sqrt(std::move(v));
            else
                return v;
        } else if constexpr (Sqrt) {
            return sqrt(make_var(std::forward<E>(e), axes, opt));
        } else {
            return make_var(std::forward<E>(e), axes, opt);
        }
    }
};

template <class... O>
inline constexpr bool has_ddof = (std::is_same_v<O, ddof> || ...);

/// The call forms of every NaN-ignoring reduction, those of `sum` (see reduction_fn):
/// `f(e)`, `f(e, axis)`, `f(e, {axes})`, `f(e, shape_t)`, then `keepdims` (and `ddof{k}` for
/// nanvar/nanstd only). `Make::make` builds the expression.
template <class Make>
struct nan_reduction_fn {
    template <class... A>
        requires(!reduce_call<A...>)
    void operator()(A&&...) const {
        static_assert(reduce_always_false<A...>,
                      "fusor: a nan-reduction is called as f(e), f(e, axis) or f(e, {axis, ...}), "
                      "then options (fusor::keepdims; fusor::ddof{n} for nanvar/nanstd); e is a "
                      "tensor, view or expression");
    }
    template <class E, class... O>
        requires(expression<E> && (reduce_option<O> && ...))
    auto operator()(E&& e, O... opts) const {
        return Make::make(std::forward<E>(e), std::nullopt, options(opts...));
    }
    template <class E, class I, class... O>
        requires(expression<E>&& std::is_integral_v<I> && (reduce_option<O> && ...))
    auto operator()(E&& e, I axis, O... opts) const {
        reduce_options opt = options(opts...);
        opt.int_axis = true; // NumPy's sums accept axis 0 / -1 on a 0-d operand
        return Make::make(std::forward<E>(e), shape_t{static_cast<index_t>(axis)}, opt);
    }
    template <class E, class... O>
        requires(expression<E> && (reduce_option<O> && ...))
    auto operator()(E&& e, std::initializer_list<index_t> axes, O... opts) const {
        return Make::make(std::forward<E>(e), shape_t(axes), options(opts...));
    }
    template <class E, class... O>
        requires(expression<E> && (reduce_option<O> && ...))
    auto operator()(E&& e, const shape_t& axes, O... opts) const {
        return Make::make(std::forward<E>(e), axes, options(opts...));
    }

private:
    template <class... O>
    static reduce_options options(O... opts) {
        static_assert(Make::takes_ddof || !has_ddof<O...>,
                      "fusor: ddof{n} is an option of nanvar and nanstd only");
        return parse_options(opts...);
    }
};

// numpy.nanargmin / nanargmax: the all-NaN check over the same axis first (so a bad axis
// throws axis_error before anything else, then an all-NaN slice value_error), then
// np.argmin(_replace_nan(a, +inf)) / np.argmax(_replace_nan(a, -inf)): a NaN counts as +inf
// (-inf), so a slice of NaN and +inf (-inf) only reports its first element, NaN or not, as
// NumPy does. Integers and bool: np.argmin / np.argmax.
template <bool Greater, class E>
tensor<std::int64_t> nan_arg(const E& e, const std::optional<shape_t>& axis, reduce_options opt) {
    using T = value_type_t<E>;
    using R = std::conditional_t<Greater, reducers::argmax, reducers::argmin>;
    // np.argmin raises on empty slices even when the result is empty too.
    const auto searched = [](auto r) {
        check_slices_not_empty(r,
                               "attempt to get " + std::string(R::name) + " of an empty sequence");
        return eval(r);
    };
    if constexpr (!has_nan<E>) {
        return searched(make_reduction<R>(e, axis, opt));
    } else if constexpr (node<E>) {
        if (axis) // a bad axis throws before anything is computed
            resolve_axes(axis, e.shape().rank(), opt.int_axis);
        const tensor<T> x = eval(e); // computed once, read by the check and by the search
        return nan_arg<Greater>(x, axis, opt);
    } else {
        reduce_options check = opt;
        check.keepdims = false;
        if (static_cast<bool>(any(make_reduction<reducers::all>(isnan(e), axis, check))))
            throw value_error("All-NaN slice encountered");
        constexpr T fill =
            Greater ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
        return searched(make_reduction<R>(where(isnan(e), fill, e), axis, opt));
    }
}

template <class... O>
inline constexpr bool only_keepdims = (std::is_same_v<std::remove_cvref_t<O>, keepdims_t> && ...);

// The argument lists nanargmin/nanargmax accept: (e, keepdims...), (e, axis, keepdims...).
template <class... A>
inline constexpr bool nan_arg_call = false;
template <class E, class... R>
inline constexpr bool nan_arg_call<E, R...> = expression<E>&& only_keepdims<R...>;
template <class E, class I, class... R>
inline constexpr bool nan_arg_call<E, I, R...> =
    expression<
        E> && (std::is_integral_v<std::remove_cvref_t<I>> || only_keepdims<I>)&&only_keepdims<R...>;

/// The call forms of nanargmin / nanargmax: `f(e)`, `f(e, axis)`, each optionally followed by
/// `keepdims` (numpy.nanargmin's `keepdims=True`).
template <bool Greater>
struct nan_arg_fn {
    /// Any other argument list: one error naming the accepted forms.
    template <class... A>
        requires(!nan_arg_call<A...>)
    void operator()(A&&...) const {
        static_assert(reduce_always_false<A...>,
                      "fusor: nanargmin/nanargmax are called as f(e) or f(e, axis), optionally "
                      "then fusor::keepdims; e is a tensor, view or expression");
    }
    template <class E, class... O>
        requires(expression<E>&& only_keepdims<O...>)
    tensor<std::int64_t>
    operator()(const E& e, O... opts) const {
        return nan_arg<Greater>(e, std::nullopt, parse_options(opts...));
    }
    template <class E, class I, class... O>
        requires(expression<E>&& std::is_integral_v<I>&& only_keepdims<O...>)
    tensor<std::int64_t>
    operator()(const E& e, I axis, O... opts) const {
        reduce_options opt = parse_options(opts...);
        opt.int_axis = true; // np.argmin accepts axis 0 / -1 on a 0-d operand
        return nan_arg<Greater>(e, shape_t{static_cast<index_t>(axis)}, opt);
    }
    template <class E, class... O>
        requires expression<E>
    void operator()(const E&, std::initializer_list<index_t>, O...) const {
        static_assert(reduce_always_false<E>,
                      "fusor: nanargmin/nanargmax take one axis or none, not a list of axes");
    }
};
} // namespace detail

/// `nansum(e, axes…)` (numpy.nansum): the sum with NaN counted as 0, lazy and fused as
/// `sum(nan_to_zero(e), axes…)`. Shapes, call forms and types as `sum` (floats keep their type,
/// bool and signed integers give int64, unsigned uint64); a slice of NaN only, or of nothing,
/// sums to 0. Integers and bool: exactly `sum`. Throws `axis_error` / `value_error` for bad
/// axes, as `sum`. Example: `auto s = nansum(a * b, 1);` (one loop, `a * b` never stored).
inline constexpr detail::nan_reduction_fn<detail::nansum_maker> nansum{};

/// `nanprod(e, axes…)` (numpy.nanprod): the product with NaN counted as 1; shapes and types as
/// `prod`; a slice of NaN only, or of nothing, gives 1. Lazy and fused. Integers: `prod`.
inline constexpr detail::nan_reduction_fn<detail::nanprod_maker> nanprod{};

/// `nanmean(e, axes…)` (numpy.nanmean): the sum of the non-NaN elements divided by their
/// number, `nansum / count`, the quotient computed in float64 and rounded to the operand's type
/// (as NumPy). Floats keep their type; a slice of NaN only, or of nothing, gives NaN (NumPy
/// also warns; fusor does not). Integers and bool: `mean` (float64; a 0-d operand with an axis
/// throws `axis_error`, as numpy.mean). Lazy: two reductions (sum and count) read `e`.
inline constexpr detail::nan_reduction_fn<detail::nanmean_maker> nanmean{};

/// `nanvar(e, axes…, ddof{k})` (numpy.nanvar): the variance of the non-NaN elements, NumPy's two
/// passes (`avg = nansum / count`, then `sum((e - avg)²)` over the non-NaN elements, divided by
/// `count - ddof`). Floats keep their type; NaN where `count - ddof <= 0` (a slice of NaN only
/// among them; NumPy also warns). Integers and bool: `var` (float64, where `n - ddof <= 0`
/// gives inf or NaN, as numpy.var). Lazy: the reductions are boundaries, `e` is never stored.
inline constexpr detail::nan_reduction_fn<detail::nanvar_maker<false>> nanvar{};

/// `nanstd(e, axes…, ddof{k})` (numpy.nanstd): `sqrt(nanvar(e, axes…, ddof{k}))`, same forms,
/// types and NaN rules. Integers and bool: `fusor::std`.
inline constexpr detail::nan_reduction_fn<detail::nanvar_maker<true>> nanstd{};

/// `nanmin(e, axes…)` (numpy.nanmin, which is numpy.fmin.reduce): the least non-NaN element,
/// type kept; a slice of NaN only gives NaN (no warning: NumPy warns "All-NaN slice
/// encountered", fusor cannot). Throws `value_error` when built over empty slices (a
/// length-0 reduced axis), even into an empty result, as NumPy (fmin has no identity); throws
/// `axis_error` / `value_error` for bad axes. Lazy and fused, one pass. Integers: `min`.
inline constexpr detail::nan_reduction_fn<detail::nan_extreme_maker<false>> nanmin{};

/// `nanmax(e, axes…)` (numpy.nanmax): as `nanmin`, the greatest non-NaN element.
inline constexpr detail::nan_reduction_fn<detail::nan_extreme_maker<true>> nanmax{};

/// `nanargmin(e)`, `nanargmin(e, axis)`, optionally then `keepdims` (numpy.nanargmin): the
/// int64 index of the least non-NaN element (flat row-major index without an axis), shapes as
/// `argmin`. NaN counts as +inf, as NumPy's rewrite does (a slice of NaN and +inf only gives its
/// first index). Eager: evaluates `e` once and returns a `tensor<std::int64_t>`. Throws
/// `axis_error` for a bad axis, then `value_error("All-NaN slice encountered")` when any slice
/// is all NaN, before computing anything else; `value_error` on empty slices, even into an
/// empty result (as NumPy: "attempt to get argmin of an empty sequence"). Integers and bool:
/// `argmin`, with the same empty-slice rule.
inline constexpr detail::nan_arg_fn<false> nanargmin{};

/// `nanargmax(e)`, `nanargmax(e, axis)` (numpy.nanargmax): as `nanargmin`, the index of the
/// greatest non-NaN element; NaN counts as -inf.
inline constexpr detail::nan_arg_fn<true> nanargmax{};

} // namespace fusor
