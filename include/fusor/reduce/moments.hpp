// fusor/reduce/moments.hpp: var and std (alias stddev), written as the two-pass expressions they
// are.
#pragma once

#include <algorithm>

#include <fusor/expr/functions.hpp>
#include <fusor/reduce/reduction.hpp>

namespace fusor {

namespace detail {
// var = sum(square(e - mean(e, axes, keepdims)), axes) / max(n - ddof, 0): the two-pass
// algorithm, exact to rounding where a one-pass sum of squares cancels catastrophically.
// The inner mean is a materialisation boundary (a small temporary, computed once); `e` is
// evaluated twice but never stored.
template <class E>
auto make_var(E&& e, const std::optional<shape_t>& axes, reduce_options opt) {
    auto n = as_node(std::forward<E>(e));
    reduce_options inner = opt;
    inner.keepdims = true;
    auto m = make_reduction<reducers::mean>(n, axes, inner);
    const index_t count = m.count();
    auto ss = make_reduction<reducers::sum>(square(n - std::move(m)), axes, opt);
    return std::move(ss) / static_cast<double>(std::max<index_t>(count - opt.ddof, 0));
}
} // namespace detail

/// The forms of `var`/`std`: those of every reduction, with `ddof{k}` among the options.
template <bool Sqrt>
struct moment_fn {
    template <class E, class... O>
        requires(expression<E> && (detail::reduce_option<O> && ...))
    auto operator()(E&& e, O... opts) const {
        return finish(
            detail::make_var(std::forward<E>(e), std::nullopt, detail::parse_options(opts...)));
    }
    template <class E, class I, class... O>
        requires(expression<E>&& std::is_integral_v<I> && (detail::reduce_option<O> && ...))
    auto operator()(E&& e, I axis, O... opts) const {
        return finish(detail::make_var(std::forward<E>(e),
                                       shape_t{static_cast<index_t>(axis)},
                                       detail::parse_options(opts...)));
    }
    template <class E, class... O>
        requires(expression<E> && (detail::reduce_option<O> && ...))
    auto operator()(E&& e, std::initializer_list<index_t> axes, O... opts) const {
        return finish(
            detail::make_var(std::forward<E>(e), shape_t(axes), detail::parse_options(opts...)));
    }
    template <class E, class... O>
        requires(expression<E> && (detail::reduce_option<O> && ...))
    auto operator()(E&& e, const shape_t& axes, O... opts) const {
        return finish(detail::make_var(std::forward<E>(e), axes, detail::parse_options(opts...)));
    }

private:
    template <class V>
    static auto finish(V&& v) {
        if constexpr (Sqrt)
            return sqrt(std::forward<V>(v));
        else
            return std::forward<V>(v);
    }
};

/// `var(e, axes…, ddof{k})` (numpy.var): mean squared deviation from the mean, divided by
/// `n - ddof`; integers → float64, floats keep their type. Two-pass (see detail::make_var).
inline constexpr moment_fn<false> var{};
/// `std(e, axes…, ddof{k})` (numpy.std): `sqrt(var(...))`, same forms and types as `var`.
/// A variable named `std` does not disturb `std::` anywhere: the name before `::` is looked up
/// among namespaces and types only. Call it qualified, `fusor::std(x)`: after
/// `using namespace fusor`, a bare `std(x)` is ambiguous with namespace std.
inline constexpr moment_fn<true> std{};
/// `stddev`: another name for `fusor::std` (as xtensor's `stddev`), for code that prefers an
/// unambiguous unqualified name.
inline constexpr moment_fn<true> stddev{};

} // namespace fusor
