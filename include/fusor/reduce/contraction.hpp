// fusor/reduce/contraction.hpp: einsum, matmul, dot, vdot, inner, outer, tensordot and trace.
// A contraction is a reduction over a broadcast product: every operand is viewed in one
// iteration space of labelled axes (core/contraction_spec.hpp), the views are multiplied
// element-wise, and the labels missing from the result are summed (reducers::contract keeps
// the product's type, as NumPy does). So a contraction is lazy, reads element-wise operands
// without temporaries, fuses into the expression around it like any reduction, and the planner
// chooses how to loop over it (a GEMM-shaped float product calls a BLAS: plan/gemm.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/contraction_spec.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/ops/cast.hpp>
#include <fusor/reduce/reducers.hpp>
#include <fusor/reduce/reduction.hpp>

namespace fusor {

namespace detail {

template <class A>
auto product_of(A&& a) {
    return std::forward<A>(a);
}
template <class A, class B, class... R>
auto product_of(A&& a, B&& b, R&&... rest) {
    return product_of(make_binary<ops::multiply>(std::forward<A>(a), std::forward<B>(b)),
                      std::forward<R>(rest)...);
}

// An operand of a product of three or more as the type R of the whole list: NumPy's einsum
// casts every operand to the list's result type before it multiplies, so `int8 * int8 * int64`
// does not wrap in int8 first, and `float32 * float32 * float64` is one float64 product.
template <class R, class E>
auto in_product_type(E&& e) {
    if constexpr (std::is_same_v<value_type_t<E>, R>)
        return std::forward<E>(e);
    else
        return make_unary<ops::cast<R>>(std::forward<E>(e));
}

// Views every operand through its map of `s` and sums the product over the summed axes. (Each
// map is moved into its view: building a small product is a cost users pay on every call.) Two
// operands multiply in their promoted type already; more are cast to the list's first.
template <std::size_t... I, class... E>
auto make_contraction(contraction_spec& s, std::index_sequence<I...>, E&&... operands) {
    using R = typename promote_all<value_type_t<E>...>::type;
    if constexpr (sizeof...(E) > 2)
        return make_reduction<reducers::contract>(
            product_of(in_product_type<R>(
                apply_view(std::forward<E>(operands),
                           [&s](const shape_t&) { return std::move(s.maps[I]); }))...),
            std::optional<shape_t>(s.summed_axes()),
            reduce_options{});
    else
        return make_reduction<reducers::contract>(
            product_of(apply_view(std::forward<E>(operands),
                                  [&s](const shape_t&) { return std::move(s.maps[I]); })...),
            std::optional<shape_t>(s.summed_axes()),
            reduce_options{});
}
template <class... E>
auto make_contraction(contraction_spec s, E&&... operands) {
    return make_contraction(s, std::index_sequence_for<E...>{}, std::forward<E>(operands)...);
}

// Labels made up for matmul, dot, inner and tensordot (einsum's letters are below 128).
inline constexpr int label_k = first_made_label;            // the summed axis
inline constexpr int label_a = first_made_label + 100;      // + axis: the first operand's own axes
inline constexpr int label_b = first_made_label + 1000;     // + axis: the second operand's own axes
inline constexpr int label_batch = first_made_label + 2000; // + axis: matmul's batch axes

FUSOR_DECL label_list own_labels(index_t rank, int base);

// Both operands' axes kept, nothing summed: dot and inner with a 0-d operand (a product).
FUSOR_DECL contraction_spec outer_spec(const shape_t& a, const shape_t& b, std::string label);

FUSOR_DECL contraction_spec matmul_spec(const shape_t& a, const shape_t& b);

// The node matmul_spec and make_contraction build for a product of two strided operands (tensors
// or views) of rank 1 or 2, written directly: the same views (shapes, strides, data, owners)
// over the same iteration space and summed axis, without the labels, maps and strings of the
// general construction, which cost ~0.5 us per call, 100 times a 4 x 4 product's arithmetic.
// The space is make_contraction_spec's order: (n, k, m) for two matrices (the summed axis before
// the last result axis, the i-k-j loop), (k, m) for a row times a matrix, (n, k) for a matrix
// times a column, (k) for two vectors. Only for operands whose core extents agree (else the
// general path, which throws NumPy's error).
// (clang-format 14 reads `&&` between template arguments as an rvalue reference.)
// clang-format off
template <class A, class B>
inline constexpr bool strided_pair = strided_operand<A> && strided_operand<B>;
// clang-format on

// The leaf apply_view and make_leaf make of operand `e` viewed over an iteration space of rank
// `rank`: its shape and strides are zeros of that rank, made in the leaf, for the caller to
// fill there (each shape moved costs about what filling one does).
template <class E>
auto product_leaf(E&& e, std::size_t rank) {
    using T = typename std::remove_cvref_t<E>::value_type;
    if constexpr (view_like<E>)
        return leaf<T, true>{
            {}, e.data(), zero_extents{rank}, e.owner(), true, e.base(), e.lifetime()};
    else
        return leaf<T, true>{
            {}, e.data(), zero_extents{rank}, nullptr, true, e.data(), e.lifetime_stamp(false)};
}

FUSOR_DECL bool direct_product_applies(const shape_t& a, const shape_t& b);

// Built in place: each leaf made in the product node's slot by its maker (leaf_in_place),
// which fills its shape (the iteration space) and strides there, the product made as the
// reduction's child: no shape is moved (building a 4 x 4 matmul moved 15 shapes, then 4).
template <class A, class B>
auto direct_product(A&& a, B&& b) {
    const bool rows = a.shape().rank() == 2, cols = b.shape().rank() == 2;
    const auto r = static_cast<std::size_t>(rows + 1 + cols), k = static_cast<std::size_t>(rows);
    const shape_t &sa = a.shape(), &sb = b.shape();
    auto fill_space = [&](shape_t& space) {
        if (rows)
            space[0] = sa[0];
        space[k] = sb[0];
        if (cols)
            space[k + 1] = sb[1];
    };
    using LA = decltype(product_leaf(a, r));
    using LB = decltype(product_leaf(b, r));
    // Each factor's strides are 0 (product_leaf's zeros) on the axes it does not move along.
    auto make_a = [&] {
        LA la = product_leaf(a, r);
        fill_space(la.shape_store);
        const strides_t& ta = a.strides();
        if (rows)
            la.strides_store[0] = ta[0];
        la.strides_store[k] = ta[k];
        return la;
    };
    auto make_b = [&] {
        LB lb = product_leaf(b, r);
        fill_space(lb.shape_store);
        const strides_t& tb = b.strides();
        lb.strides_store[k] = tb[0];
        if (cols)
            lb.strides_store[k + 1] = tb[1];
        return lb;
    };
    return make_reduction_in_place<reducers::contract>(
        [&] {
            return elementwise<ops::multiply, LA, LB>(
                from_operands, leaf_in_place{make_a}, leaf_in_place{make_b});
        },
        static_cast<index_t>(k), // the summed axis
        reduce_options{});
}

FUSOR_DECL std::string not_aligned(const shape_t& a, const shape_t& b, index_t da, index_t db);

// Sums axis `da` of a against axis `db` of b; the result has a's other axes, then b's.
FUSOR_DECL contraction_spec
pair_spec(const shape_t& a, const shape_t& b, index_t da, index_t db, std::string label);

FUSOR_DECL contraction_spec dot_spec(const shape_t& a, const shape_t& b);

FUSOR_DECL contraction_spec inner_spec(const shape_t& a, const shape_t& b);

FUSOR_DECL contraction_spec tensordot_spec(const shape_t& a,
                                           const shape_t& b,
                                           shape_t axes_a,
                                           shape_t axes_b);

// Three or more operands that are all tensors or views of one element type contract pairwise
// (greedy_order): every operand is then a `tensor_view<const T>`, so the left-deep chain's type
// depends only on how many there are, whatever order the run-time sizes choose.
template <class T, class... U>
inline constexpr bool all_same_value_type = (std::is_same_v<T, U> && ...);
template <class E>
inline constexpr bool
    chain_operand = (tensor_like<E> && std::is_lvalue_reference_v<E>) || view_like<E>;
template <class... E>
inline constexpr bool chainable = sizeof...(E) >= 3 && (chain_operand<E> && ...)
                                  && all_same_value_type<std::remove_cv_t<value_type_t<E>>...>;

template <class T, class E>
tensor_view<const T> as_const_view(const E& e) {
    if constexpr (tensor_like<E>)
        return e.view();
    else
        return tensor_view<const T>(e);
}

// Contracts `acc` (the intermediate, labelled `held`) with the operands of steps `Step`, ...
template <std::size_t Step, std::size_t N, class Node, class T>
auto contract_chain(Node&& acc,
                    const label_list& held,
                    const std::array<tensor_view<const T>, N>& ops,
                    const einsum_labels& l,
                    const std::vector<contraction_step>& steps,
                    const std::string& order) {
    if constexpr (Step == N - 1) {
        return std::forward<Node>(acc);
    } else {
        const contraction_step& st = steps[Step];
        const tensor_view<const T>& next = ops[st.operand];
        contraction_spec s =
            make_contraction_spec({acc.shape(), next.shape()},
                                  {held, l.in[st.operand]},
                                  st.keeps,
                                  "einsum(\"" + l.text + "\") step " + std::to_string(Step + 1)
                                      + " of " + std::to_string(N - 1) + ", order " + order);
        return contract_chain<Step + 1, N>(
            make_contraction(std::move(s), std::forward<Node>(acc), next),
            st.keeps,
            ops,
            l,
            steps,
            order);
    }
}

template <class T, std::size_t N>
auto einsum_chain(std::string_view subscripts, const std::array<tensor_view<const T>, N>& ops) {
    shape_list shapes;
    for (const auto& o : ops)
        shapes.push_back(o.shape());
    const einsum_labels l = parse_einsum_labels(subscripts, shapes);
    make_contraction_spec(shapes, l.in, l.out, ""); // every extent checked against every other
    std::size_t first = 0;
    const std::vector<contraction_step> steps = greedy_order(l, shapes, first);
    std::string order = "(" + std::to_string(first);
    for (std::size_t i = 0; i < steps.size(); ++i)
        order =
            (i == 0 ? order + ", " : "(" + order + ", ") + std::to_string(steps[i].operand) + ")";
    contraction_spec s = make_contraction_spec({shapes[first], shapes[steps[0].operand]},
                                               {l.in[first], l.in[steps[0].operand]},
                                               steps[0].keeps,
                                               "einsum(\"" + l.text + "\") step 1 of "
                                                   + std::to_string(N - 1) + ", order " + order);
    return contract_chain<1, N>(make_contraction(std::move(s), ops[first], ops[steps[0].operand]),
                                steps[0].keeps,
                                ops,
                                l,
                                steps,
                                order);
}

} // namespace detail

/// `einsum(subscripts, operands...)` as numpy.einsum: each operand's axes are named by letters
/// (`"ij,jk->ik"`); a letter missing from the result is summed over; a letter repeated within
/// one operand takes its diagonal (`"ii->i"`; `"ii"` is the trace); `...` stands for axes that
/// broadcast across operands; without `->` the result is the ellipsis' axes then every letter
/// used once, in alphabetical (character-code) order. Extents of one letter must agree, an
/// extent 1 broadcasts. Any number of operands; spaces are ignored.
/// Shapes: `"ij,jk->ik"`: (n, k), (k, m) → (n, m); `"bij,bjk->bik"`: batched; `"i,j->ij"`:
/// outer; `"ij->ji"`: transpose. Type: the operands' promoted type (`numpy.result_type`);
/// integer sums wrap in it, `bool` is or-of-and (as NumPy). Lazy: a reduction over the
/// broadcast product of the operands' views (nothing is stored for the product). Three or more
/// operands that are all tensors or views of one element type contract pairwise, in a
/// left-deep order chosen greedily by intermediate size (as `numpy.einsum(optimize="greedy")`):
/// each intermediate is a contraction node the next one reads (a temporary when evaluated;
/// explain prints the order, e.g. `order ((0, 1), 2)`); other operand lists run as one loop
/// over every index (NumPy's `optimize=False`), three or more operands of mixed types cast to
/// the list's result type before they multiply (as NumPy's). Throws `value_error`
/// naming the position for a bad subscripts string, naming the letter, both extents and
/// operands for extents that disagree.
template <class... E>
    requires(sizeof...(E) > 0 && (expression<E> && ...))
auto einsum(std::string_view subscripts, E&&... operands) {
    if constexpr (detail::chainable<E...>) {
        using T = std::remove_cv_t<
            value_type_t<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<E...>>>>>;
        return detail::einsum_chain<T, sizeof...(E)>(subscripts,
                                                     {detail::as_const_view<T>(operands)...});
    } else {
        contraction_spec s = detail::parse_einsum(subscripts, {shape_t(operands.shape())...});
        return detail::make_contraction(std::move(s), std::forward<E>(operands)...);
    }
}

/// `matmul(a, b)` as numpy.matmul (`a @ b`): (..., n, k) × (..., k, m) → (..., n, m); a 1-D
/// `a` is a row (its axis removed from the result), a 1-D `b` a column; the batch axes (all but
/// the last two) broadcast. Type: the promoted type (integer sums wrap, `bool` is or-of-and).
/// Lazy; a float32/float64 product of GEMM layout calls the BLAS when fusor is built with one.
/// Throws `value_error` for a 0-d operand or core dimensions that differ (naming both sizes
/// and shapes, as NumPy's gufunc message), `broadcast_error` for batch axes that do not
/// broadcast.
template <class A, class B>
    requires(expression<A>&& expression<B>)
auto matmul(A&& a, B&& b) {
    if constexpr (detail::strided_pair<A, B>)
        if (detail::direct_product_applies(a.shape(), b.shape()))
            return detail::direct_product(std::forward<A>(a), std::forward<B>(b));
    contraction_spec s = detail::matmul_spec(a.shape(), b.shape());
    return detail::make_contraction(std::move(s), std::forward<A>(a), std::forward<B>(b));
}

/// `dot(a, b)` as numpy.dot: 1-D · 1-D is the inner product (0-d), 2-D · 2-D the matrix
/// product, N-D · 1-D sums a's last axis with b's only one, N-D · M-D (M ≥ 2) sums a's last axis
/// with b's second-to-last: (a[:-1]..., b[:-2]..., b[-1]); a 0-d operand multiplies. Type as
/// `matmul`. Throws `value_error` ("shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)")
/// when the summed extents differ.
template <class A, class B>
    requires(expression<A>&& expression<B>)
auto dot(A&& a, B&& b) {
    if constexpr (detail::strided_pair<A, B>)
        if (detail::direct_product_applies(a.shape(), b.shape()))
            return detail::direct_product(std::forward<A>(a), std::forward<B>(b));
    contraction_spec s = detail::dot_spec(a.shape(), b.shape());
    return detail::make_contraction(std::move(s), std::forward<A>(a), std::forward<B>(b));
}

/// `inner(a, b)` as numpy.inner: sums the last axes of both: (a[:-1]..., b[:-1]...); a 0-d
/// operand multiplies. Type as `matmul`. Throws `value_error` when the last extents differ.
template <class A, class B>
    requires(expression<A>&& expression<B>)
auto inner(A&& a, B&& b) {
    contraction_spec s = detail::inner_spec(a.shape(), b.shape());
    return detail::make_contraction(std::move(s), std::forward<A>(a), std::forward<B>(b));
}

/// `outer(a, b)` as numpy.outer: both flattened (row-major), `r[i, j] = a[i] * b[j]`:
/// (a.size, b.size). Type as `matmul`. A flattened operand that is not contiguous is
/// materialised first (as `reshape`).
template <class A, class B>
    requires(expression<A>&& expression<B>)
auto outer(A&& a, B&& b) {
    auto fa = reshape(std::forward<A>(a), shape_t{-1});
    auto fb = reshape(std::forward<B>(b), shape_t{-1});
    contraction_spec s = detail::outer_spec(fa.shape(), fb.shape(), "outer");
    return detail::make_contraction(std::move(s), std::move(fa), std::move(fb));
}

/// `vdot(a, b)` as numpy.vdot (real types: no conjugation): both flattened (row-major) and
/// their inner product taken → 0-d. Type as `matmul`. Throws `value_error` when the sizes
/// differ.
template <class A, class B>
    requires(expression<A>&& expression<B>)
auto vdot(A&& a, B&& b) {
    if (a.size() != b.size())
        throw value_error("vdot: cannot reshape array of size " + std::to_string(b.size())
                          + " into shape (" + std::to_string(a.size()) + ",)");
    auto fa = reshape(std::forward<A>(a), shape_t{-1});
    auto fb = reshape(std::forward<B>(b), shape_t{-1});
    contraction_spec s = detail::pair_spec(fa.shape(), fb.shape(), 0, 0, "vdot");
    return detail::make_contraction(std::move(s), std::move(fa), std::move(fb));
}

/// Which axes `tensordot` sums: `axes_a[i]` of the first operand against `axes_b[i]` of the
/// second, `tensordot(a, b, {{1, 0}, {0, 1}})`.
struct tensordot_axes {
    shape_t a;
    shape_t b;
};

/// `tensordot(a, b, n)` as numpy.tensordot: sums a's last `n` axes against b's first `n`
/// (default 2; 0 is the outer product); the result has a's other axes, then b's. Type as
/// `matmul`. Throws `value_error` when the summed extents differ or `n` exceeds a rank.
template <class A, class B>
    requires(expression<A>&& expression<B>)
auto tensordot(A&& a, B&& b, index_t n = 2) {
    if (n < 0 || n > a.rank() || n > b.rank())
        throw value_error("tensordot: cannot sum " + std::to_string(n) + " axes of shapes "
                          + to_compact_string(a.shape()) + " and " + to_compact_string(b.shape()));
    shape_t axes_a, axes_b;
    for (index_t i = 0; i < n; ++i) {
        axes_a.push_back(a.rank() - n + i);
        axes_b.push_back(i);
    }
    contraction_spec s = detail::tensordot_spec(a.shape(), b.shape(), axes_a, axes_b);
    return detail::make_contraction(std::move(s), std::forward<A>(a), std::forward<B>(b));
}

/// `tensordot(a, b, {axes_a, axes_b})`: sums `axes_a[i]` of a against `axes_b[i]` of b
/// (negative axes count from the end). Throws `value_error` when the lists differ in length,
/// an axis repeats or the extents differ, `axis_error` for an axis out of range.
template <class A, class B>
    requires(expression<A>&& expression<B>)
auto tensordot(A&& a, B&& b, const tensordot_axes& axes) {
    contraction_spec s = detail::tensordot_spec(a.shape(), b.shape(), axes.a, axes.b);
    return detail::make_contraction(std::move(s), std::forward<A>(a), std::forward<B>(b));
}

/// `dot`, `inner`, `vdot`, `outer` and `tensordot` with a C++ scalar for either operand: the
/// scalar is a 0-d operand (numpy.dot(a, 2.0) converts the Python scalar to a 0-d array), weak
/// as everywhere in fusor (its type is the other operand's unless its kind is higher:
/// `dot(float32 a, 2.0)` is float32 where NumPy 1.24 gives float64). So `dot(a, s)`,
/// `inner(a, s)` and `tensordot(a, s, 0)` are `a * s` in a's shape; `outer(a, s)` is
/// (a.size, 1), `outer(s, b)` (1, b.size); `vdot(a, s)` needs a of size 1 (else `value_error`,
/// as NumPy); `tensordot(a, s, n)` with n > 0 throws `value_error`. `matmul` takes no scalar
/// (NumPy raises ValueError for one; use `*`).
template <class A, class S>
    requires(expression<A>&& scalar<S>)
auto dot(A&& a, S s) {
    return dot(std::forward<A>(a), detail::weak_scalar_tensor<value_type_t<A>>(s));
}
/// `dot(s, b)`: see `dot(a, s)`.
template <class S, class B>
    requires(scalar<S>&& expression<B>)
auto dot(S s, B&& b) {
    return dot(detail::weak_scalar_tensor<value_type_t<B>>(s), std::forward<B>(b));
}
/// `inner(a, s)`: see `dot(a, s)`.
template <class A, class S>
    requires(expression<A>&& scalar<S>)
auto inner(A&& a, S s) {
    return inner(std::forward<A>(a), detail::weak_scalar_tensor<value_type_t<A>>(s));
}
/// `inner(s, b)`: see `dot(a, s)`.
template <class S, class B>
    requires(scalar<S>&& expression<B>)
auto inner(S s, B&& b) {
    return inner(detail::weak_scalar_tensor<value_type_t<B>>(s), std::forward<B>(b));
}
/// `vdot(a, s)`: see `dot(a, s)`.
template <class A, class S>
    requires(expression<A>&& scalar<S>)
auto vdot(A&& a, S s) {
    return vdot(std::forward<A>(a), detail::weak_scalar_tensor<value_type_t<A>>(s));
}
/// `vdot(s, b)`: see `dot(a, s)`.
template <class S, class B>
    requires(scalar<S>&& expression<B>)
auto vdot(S s, B&& b) {
    return vdot(detail::weak_scalar_tensor<value_type_t<B>>(s), std::forward<B>(b));
}
/// `outer(a, s)`: see `dot(a, s)`.
template <class A, class S>
    requires(expression<A>&& scalar<S>)
auto outer(A&& a, S s) {
    return outer(std::forward<A>(a), detail::weak_scalar_tensor<value_type_t<A>>(s));
}
/// `outer(s, b)`: see `dot(a, s)`.
template <class S, class B>
    requires(scalar<S>&& expression<B>)
auto outer(S s, B&& b) {
    return outer(detail::weak_scalar_tensor<value_type_t<B>>(s), std::forward<B>(b));
}
/// `tensordot(a, s, n)`: see `dot(a, s)`.
template <class A, class S>
    requires(expression<A>&& scalar<S>)
auto tensordot(A&& a, S s, index_t n = 2) {
    return tensordot(std::forward<A>(a), detail::weak_scalar_tensor<value_type_t<A>>(s), n);
}
/// `tensordot(s, b, n)`: see `dot(a, s)`.
template <class S, class B>
    requires(scalar<S>&& expression<B>)
auto tensordot(S s, B&& b, index_t n = 2) {
    return tensordot(detail::weak_scalar_tensor<value_type_t<B>>(s), std::forward<B>(b), n);
}

/// `trace(a, offset, axis1, axis2)` as numpy.trace: the sum of the diagonal of the 2-D slices
/// over `axis1` and `axis2` (offset above the main diagonal when positive): a's shape without
/// those two axes. Type as `sum` (numpy.trace sums: bool and signed integers → int64,
/// unsigned → uint64). Throws as `diagonal`.
template <class E>
    requires expression<E>
auto trace(E&& a, index_t offset = 0, index_t axis1 = 0, index_t axis2 = 1) {
    return sum(diagonal(std::forward<E>(a), offset, axis1, axis2), -1);
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/reduce/contraction.ipp>
#endif
