// fusor/reduce/reduction.hpp: the reduction node and the function objects that build it:
// sum, mean, min, max, argmin, argmax, all, any (and var, stddev in moments.hpp).
#pragma once

#include <initializer_list>
#include <optional>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/reduce/reducers.hpp>

namespace fusor {

/// Option tag: keep every reduced axis as extent 1 (NumPy's `keepdims=True`).
struct keepdims_t {};
inline constexpr keepdims_t keepdims{};

/// Option: delta degrees of freedom of `var`/`stddev` (divide by `n - ddof`), as NumPy.
struct ddof {
    index_t value = 0;
};

/// A reduction: `Reducer` over `axes` of `child`. A terminal node of the loop that computes it
/// (the child's element-wise expression is evaluated inside the reduction's own loop, never
/// stored); when it sits inside a larger expression it is a materialisation boundary: its
/// (small) result is computed once into a temporary that the outer loop reads.
/// Shape: the child's with the reduced axes removed (or kept as 1 with `keepdims`).
template <class Reducer, class C>
struct reduction : value_node<reduction<Reducer, C>> {
    static constexpr node_tag tag = node_tag::reduction;
    using reducer_type = Reducer;
    using impl = typename Reducer::template impl<typename C::value_type>;
    using value_type = typename impl::result_type;

    C child;
    shape_t axes;  ///< reduced axes of the child, sorted
    bool keepdims; ///< reduced axes kept as extent 1
    bool flat;     ///< no axis given: arg-reductions report flat (row-major) indices
    shape_t shape_;

    // Constructors, not aggregate initialisation: g++ 12 cleared a whole node built from a
    // braced list whose child was a constructor call (a 4 x 4 matmul's 624 bytes, one memset
    // call per evaluation) before storing its members.
    /// Every member given (the child moved or copied in).
    template <class Child, class Axes, class Shape>
    reduction(Child&& c, Axes&& reduced_axes, bool keep, bool flat_indices, Shape&& shape)
        : child(std::forward<Child>(c)), axes(std::forward<Axes>(reduced_axes)), keepdims(keep),
          flat(flat_indices), shape_(std::forward<Shape>(shape)) {}
    /// The child is what `make_child()` returns, built where the node holds it; the axes and
    /// the shape empty, for the caller to fill.
    template <class F>
    reduction(std::in_place_t, F&& make_child, bool keep, bool flat_indices)
        : child(make_child()), keepdims(keep), flat(flat_indices) {}

    const shape_t& shape() const { return shape_; }
    index_t rank() const { return shape_.rank(); }
    index_t size() const { return shape_size(shape_); }
    /// Number of child elements reduced into each result element.
    index_t count() const {
        index_t n = 1;
        for (index_t a : axes)
            n *= child.shape()[static_cast<std::size_t>(a)];
        return n;
    }
};

namespace detail {
template <class O>
concept reduce_option = std::is_same_v<O, keepdims_t> || std::is_same_v<O, ddof>;

struct reduce_options {
    bool keepdims = false;
    index_t ddof = 0;
    bool int_axis = false; // the axis was one integer, not a list (matters on 0-d operands)
};
template <class... O>
reduce_options parse_options(O... o) {
    reduce_options r;
    auto one = [&](auto opt) {
        if constexpr (std::is_same_v<decltype(opt), keepdims_t>)
            r.keepdims = true;
        else
            r.ddof = opt.value;
    };
    (one(o), ...);
    (void)one; // unused when there are no options
    return r;
}

// `axes` empty optional = every axis. On a 0-d operand NumPy's ufunc reductions (sum, max,
// argmax, ...) accept one integer axis 0 or -1 and reduce nothing, so that form is normalised
// against rank 1 there when `lenient`; a list naming any axis throws `axis_error`, as do
// numpy.mean/var/std (not lenient) even for one integer.
FUSOR_DECL shape_t resolve_axes(const std::optional<shape_t>& axes, index_t rank, bool lenient);

// r.shape_ (empty) from r.child's shape and r.axes (sorted, no repeats): the kept extents, and
// 1 for each reduced axis with keepdims. The rank is known first, so the shape is sized once
// (a push_back per kept axis was about 50 instructions of building a 4 x 4 matmul). Always
// inlined: out of line, g++ kept a shape copy in the caller that the inlined loop had removed.
template <class R>
FUSOR_INLINE void set_reduced_shape(R& r) {
    const shape_t& in = r.child.shape();
    const std::size_t rank = in.size(), reduced = r.axes.size();
    if (const std::size_t n = r.keepdims ? rank : rank - reduced; n != 0)
        r.shape_.resize(n, boost::container::default_init);
    std::size_t next = 0, out = 0;
    for (std::size_t k = 0; k < rank; ++k) {
        if (next < reduced && r.axes[next] == static_cast<index_t>(k)) {
            ++next;
            if (r.keepdims)
                r.shape_[out++] = 1;
        } else {
            r.shape_[out++] = in[k];
        }
    }
}

template <class Reducer, class E>
auto make_reduction(E&& e, const std::optional<shape_t>& axes_in, reduce_options opt) {
    using N = node_t<E>;
    // Built in place (the node is returned by copy elision): no shape is moved.
    reduction<Reducer, N> r(
        std::in_place, [&e] { return as_node(std::forward<E>(e)); }, opt.keepdims, !axes_in);
    const shape_t& in = r.child.shape();
    // Every axis, or one axis of a tensor of rank >= 1, written in place: `sum(a * b)` moves
    // no shape.
    if (!axes_in) {
        // Every axis: the result is 0-d, or all 1s with keepdims, written without
        // set_reduced_shape's walk over the axes.
        for (index_t i = 0; i < in.rank(); ++i)
            r.axes.push_back(i);
        if (opt.keepdims)
            r.shape_ = shape_t(in.size(), 1);
    } else {
        if (axes_in->size() == 1 && in.rank() > 0)
            r.axes.push_back(normalize_axis((*axes_in)[0], in.rank()));
        else
            r.axes = resolve_axes(
                axes_in, in.rank(), opt.int_axis && !std::is_same_v<Reducer, reducers::mean>);
        set_reduced_shape(r);
    }
    return r;
}

// One integer axis (`sum(a, 1)`, a matrix product's summed axis): no list of axes is made. On
// a 0-d operand, the list form's rules (an integer axis 0 or -1 reduces nothing, for the ufunc
// reductions). One return statement, of the named node: g++ then builds it in place. The child
// is what `make_child()` returns, built where the node holds it (a matrix product's node,
// detail::direct_product, made in its place moves no shape; moved in, it moved five).
template <class Reducer, class F>
auto make_reduction_in_place(F&& make_child, index_t axis, reduce_options opt) {
    using N = decltype(make_child());
    reduction<Reducer, N> r(std::in_place, std::forward<F>(make_child), opt.keepdims, false);
    const index_t rank = r.child.shape().rank();
    if (rank > 0) [[likely]]
        r.axes.push_back(normalize_axis(axis, rank));
    else
        r.axes = resolve_axes(std::optional<shape_t>(shape_t{axis}),
                              0,
                              opt.int_axis && !std::is_same_v<Reducer, reducers::mean>);
    set_reduced_shape(r);
    return r;
}
template <class Reducer, class E>
auto make_reduction(E&& e, index_t axis, reduce_options opt) {
    return make_reduction_in_place<Reducer>(
        [&e] { return as_node(std::forward<E>(e)); }, axis, opt);
}
} // namespace detail

/// The call forms every reduction shares (as NumPy's `axis=` and `keepdims=`):
///  - `f(e)`, `f(e, keepdims)`: over every axis → 0-d (all-1 shape with keepdims);
///  - `f(e, axis)`: one axis, negative from the end;
///  - `f(e, {0, 2})`, `f(e, shape_t{...})`: several axes (not for argmin/argmax); `{}`
///    reduces nothing.
/// Options follow the axes in any order: `keepdims`, `ddof{1}`. A bad axis throws
/// `axis_error`, a repeated one `value_error`.
namespace detail {
// The argument lists a reduction accepts, as a concept so that any other list meets one
// readable static_assert: (e, options...), (e, axis, options...), (e, shape_t, options...).
// (A braced list `{0, 1}` never reaches here: it only binds to the initializer_list form.)
template <class... R>
inline constexpr bool reduce_tail = (reduce_option<std::remove_cvref_t<R>> && ...);
template <class First, class... R>
inline constexpr bool reduce_tail<First, R...> =
    ((std::is_integral_v<std::remove_cvref_t<First>> || std::is_same_v<std::remove_cvref_t<First>, shape_t>)&&(
        reduce_option<std::remove_cvref_t<R>> && ...))
    || (reduce_option<
            std::remove_cvref_t<First>> && (reduce_option<std::remove_cvref_t<R>> && ...));
template <class... A>
inline constexpr bool reduce_call = false;
template <class E, class... R>
inline constexpr bool reduce_call<E, R...> = expression<E>&& reduce_tail<R...>;
template <class...>
inline constexpr bool reduce_always_false = false;
} // namespace detail

template <class Reducer>
struct reduction_fn {
    /// Any other argument list: one error naming the accepted forms.
    template <class... A>
        requires(!detail::reduce_call<A...>)
    void operator()(A&&...) const {
        static_assert(detail::reduce_always_false<A...>,
                      "fusor: a reduction is called as f(e), f(e, axis) or f(e, {axis, ...}), "
                      "then options (fusor::keepdims, fusor::ddof{n}); e is a tensor, view or "
                      "expression. Several axes go in braces: sum(a, {0, 1}), not sum(a, 0, 1)");
    }

    template <class E, class... O>
        requires(expression<E> && (detail::reduce_option<O> && ...))
    auto operator()(E&& e, O... opts) const {
        return detail::make_reduction<Reducer>(
            std::forward<E>(e), std::nullopt, detail::parse_options(opts...));
    }
    template <class E, class I, class... O>
        requires(expression<E>&& std::is_integral_v<I> && (detail::reduce_option<O> && ...))
    auto operator()(E&& e, I axis, O... opts) const {
        detail::reduce_options opt = detail::parse_options(opts...);
        opt.int_axis = true;
        return detail::make_reduction<Reducer>(std::forward<E>(e), static_cast<index_t>(axis), opt);
    }
    template <class E, class... O>
        requires(expression<E> && (detail::reduce_option<O> && ...))
    auto operator()(E&& e, std::initializer_list<index_t> axes, O... opts) const {
        static_assert(!Reducer::single_axis,
                      "fusor: argmin/argmax take one axis or none, not a list of axes");
        return detail::make_reduction<Reducer>(
            std::forward<E>(e), shape_t(axes), detail::parse_options(opts...));
    }
    template <class E, class... O>
        requires(expression<E> && (detail::reduce_option<O> && ...))
    auto operator()(E&& e, const shape_t& axes, O... opts) const {
        static_assert(!Reducer::single_axis,
                      "fusor: argmin/argmax take one axis or none, not a list of axes");
        return detail::make_reduction<Reducer>(
            std::forward<E>(e), axes, detail::parse_options(opts...));
    }
};

/// `sum(e, axes…)` (numpy.sum): bool and signed integers → int64, unsigned → uint64, floats
/// keep their type (accumulated in double). Empty axes sum to 0. `sum(a * b, 1)` never stores
/// `a * b`.
inline constexpr reduction_fn<reducers::sum> sum{};
/// `mean(e, axes…)` (numpy.mean): integers → float64, floats keep their type; of nothing: NaN.
inline constexpr reduction_fn<reducers::mean> mean{};
/// `max(e, axes…)` (numpy.max): keeps the type, NaN propagates; throws `value_error` when a
/// non-empty result would reduce a length-0 axis.
inline constexpr reduction_fn<reducers::max> max{};
/// `min(e, axes…)` (numpy.min): as `max`.
inline constexpr reduction_fn<reducers::min> min{};
/// `argmax(e)`, `argmax(e, axis)` (numpy.argmax): int64 index of the first maximum (first NaN
/// wins); flat row-major index without an axis. Throws `value_error` on an empty axis.
inline constexpr reduction_fn<reducers::argmax> argmax{};
/// `argmin(e)`, `argmin(e, axis)` (numpy.argmin): as `argmax`.
inline constexpr reduction_fn<reducers::argmin> argmin{};
/// `prod(e, axes…)` (numpy.prod): types as `sum`; of nothing: 1.
inline constexpr reduction_fn<reducers::prod> prod{};
/// `count_nonzero(e, axes…)` (numpy.count_nonzero) → int64.
inline constexpr reduction_fn<reducers::count_nonzero> count_nonzero{};
/// `norm(e, axes…)` (numpy.linalg.norm, Frobenius/2-norm): `sqrt(sum(|x|^2))`; integers →
/// float64, floats keep their type.
inline constexpr reduction_fn<reducers::norm> norm{};
/// `logsumexp(e, axes…)` (scipy.special.logsumexp): `log(sum(exp(e)))` computed in one stable
/// pass (online max rescaling); integers → float64, floats keep their type.
inline constexpr reduction_fn<reducers::logsumexp> logsumexp{};
/// `any(e, axes…)` (numpy.any) → bool; of nothing: false.
inline constexpr reduction_fn<reducers::any> any{};

/// `all(e, axes…)` (numpy.all) → bool; of nothing: true. The same object, passed as an index
/// to `view(...)`, selects a whole axis (Python's `:`).
struct all_t : reduction_fn<reducers::all> {};
inline constexpr all_t all{};

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/reduce/reduction.ipp>
#endif
