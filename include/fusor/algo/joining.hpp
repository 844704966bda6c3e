// fusor/algo/joining.hpp: concatenate, stack, hstack, vstack, dstack and column_stack, as
// NumPy's. Each checks every part's shape first, when it is called (nothing is allocated or
// written before every check passed).
//
// The run-time-length forms (a braced list or a std::vector of tensors and views of one element
// type) are lazy: a segmented node with one segment per part (expr/segmented.hpp), so in a
// larger expression each part is a loop of the plan. A std::tuple takes expressions of
// different types and is eager: each part evaluated straight into its slab of a new tensor.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/algo/segments.hpp>
#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/leaf.hpp> // list_tensor
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/segmented.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {

/// Which NumPy joining function a plan follows: how each part's shape is adjusted before the
/// parts are concatenated (numpy.stack inserts the new axis, hstack/vstack/dstack apply
/// atleast_1d/2d/3d, column_stack turns 0-d and 1-d parts into columns).
enum class join_kind { concatenate, stack, hstack, vstack, dstack, column_stack };

inline const char* join_name(join_kind k) {
    switch (k) {
    case join_kind::concatenate:
        return "concatenate";
    case join_kind::stack:
        return "stack";
    case join_kind::hstack:
        return "hstack";
    case join_kind::vstack:
        return "vstack";
    case join_kind::dstack:
        return "dstack";
    default:
        return "column_stack";
    }
}

/// The result's shape and where each part goes: part i fills `[offsets[i], offsets[i] +
/// extents[i])` of `axis` (of the flat result when `flat`); `inserted[i]` are the extent-1 axes of
/// its adjusted shape that its own shape lacks (the slab is viewed without them, so the part is
/// written with its own shape). `flat`: numpy.concatenate(axis=None), every part raveled and laid
/// end to end.
struct join_plan {
    shape_t shape;
    index_t axis = 0;
    bool flat = false;
    std::vector<index_t> offsets, extents;
    std::vector<shape_t> inserted;
};

// The adjusted shape of one part and the axes inserted into it.
FUSOR_DECL std::pair<shape_t, shape_t>
adjusted_part(join_kind kind, const shape_t& s, index_t axis);

/// Checks the parts' shapes as NumPy does, in NumPy's order, and plans the join. Throws
/// `value_error` for no parts, a 0-d first part (concatenate), parts of different ranks or
/// extents that differ off the joining axis (naming both shapes and the axis), stack's parts
/// of different shapes; `axis_error` for an axis out of range.
FUSOR_DECL join_plan plan_join(join_kind kind,
                               const std::vector<shape_t>& shapes,
                               std::optional<index_t> axis_in);

/// Where part i goes: a writable view of its slab of `out`, with the part's own shape.
template <class R>
tensor_view<R>
part_destination(const join_plan& p, tensor<R>& out, std::size_t i, const shape_t& part_shape) {
    if (p.flat)
        return tensor_view<R>(out.data() + p.offsets[i], part_shape);
    std::vector<view_index> idx(out.shape().size(), slice(none, none));
    const index_t start = p.offsets[i];
    idx[static_cast<std::size_t>(p.axis)] = slice(start, start + p.extents[i]);
    tensor_view<R> slab = out.view().remap(view_map(out.shape(), idx));
    return slab.remap(squeeze_map(slab.shape(), p.inserted[i]));
}

/// Joins `n` parts of one element type T, read through `part(i)` (a tensor_view<const T>), as a
/// lazy segmented node: one segment per non-empty part, its view with the inserted axes added
/// (a raveled part for `axis=None`; a part that is not row-major is copied first, as NumPy's
/// ravel copies it).
template <class T, class Part>
segmented<T>
join_views(join_kind kind, std::size_t n, const Part& part, std::optional<index_t> axis) {
    std::vector<shape_t> shapes;
    shapes.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        shapes.push_back(checked_shape_of(part(i)));
    const join_plan p = plan_join(kind, shapes, axis);
    segment_list<T> list;
    list.shape = p.shape;
    list.space = p.shape;
    const bool empty = shape_size(p.shape) == 0;
    for (std::size_t i = 0; i < n && !empty; ++i) {
        if (p.extents[i] == 0)
            continue;
        shape_t start(p.shape.size(), 0);
        if (p.flat) {
            const tensor_view<const T> given = part(i);
            const tensor_view<const T> v =
                is_row_major(given.shape(), given.strides()) || given.size() <= 1
                    ? given
                    : held_view(tensor<T>(given));
            start[0] = p.offsets[i];
            list.segments.push_back(
                {std::move(start),
                 tensor_view<const T>(
                     v.data(), shape_t{v.size()}, strides_t{1}, v.owner(), v.lifetime())});
        } else {
            const tensor_view<const T> v = part(i);
            start[static_cast<std::size_t>(p.axis)] = p.offsets[i];
            list.segments.push_back(
                {std::move(start), v.remap(expand_dims_map(v.shape(), p.inserted[i]))});
        }
    }
    return make_segmented(std::move(list), join_name(kind));
}

// A std::tuple of expressions of any types: the result type promotes over all of them.
template <class... Es>
using joined_type_t = typename promote_all<value_type_t<Es>...>::type;

template <class... Es>
auto join_tuple(join_kind kind, const std::tuple<Es...>& parts, std::optional<index_t> axis) {
    static_assert(sizeof...(Es) > 0, "fusor: joining an empty std::tuple (need at least one part)");
    using R = joined_type_t<Es...>;
    std::vector<shape_t> shapes;
    std::apply([&](const auto&... e) { (shapes.push_back(checked_shape_of(e)), ...); }, parts);
    const join_plan p = plan_join(kind, shapes, axis);
    tensor<R> out(p.shape, uninitialized);
    std::size_t i = 0;
    std::apply([&](const auto&... e) { ((part_destination(p, out, i, shapes[i]) = e, ++i), ...); },
               parts);
    return out;
}

template <class P>
concept tensor_or_view = tensor_like<P> || view_like<P>;

/// One element of a braced list of parts (`concatenate({a, b}, 0)`), of element type T, as the
/// lazy result reads it (held_view): an lvalue tensor or a view in place; an rvalue tensor
/// (`sort(x)`) moved into the result, and any other expression of element type T (`x * 2.0`,
/// `view(x, mask)`) evaluated once, when the list is made, into a tensor the result owns. So a
/// result held in an `auto` never refers to a temporary part.
// (Unformatted: clang-format 14 breaks the constructors' requires-clauses apart.)
// clang-format off
template <class T>
class join_part {
public:
    join_part(const tensor<T>& t) : view_(t.view()) {}
    join_part(tensor<T>&& t) : view_(held_view(std::move(t))) {}
    template <class U>
        requires std::is_same_v<std::remove_const_t<U>, T>
    join_part(const tensor_view<U>& v) : view_(held_view(v)) {}
    template <class E>
        requires(node<E> || gathered_like<E>) && std::is_same_v<value_type_t<E>, T>
    join_part(const E& e) : view_(held_view(e)) {}

    const tensor_view<const T>& view() const { return view_; }

private:
    tensor_view<const T> view_;
};
// clang-format on

// The overloads of one element type T: a braced list of parts of T (join_part: tensors and
// views read in place, no part copied before it is written), or a std::initializer_list of
// views of T made beforehand (a template, so that a braced list is not ambiguous between the
// two).
template <join_kind K, class T>
struct join_overload {
    segmented<T> operator()(std::initializer_list<join_part<T>> parts, index_t axis) const
        requires(K == join_kind::concatenate || K == join_kind::stack) {
        return join(parts, axis);
    }
    segmented<T> operator()(std::initializer_list<join_part<T>> parts) const {
        return join(parts, index_t{0});
    }
    segmented<T> operator()(std::initializer_list<join_part<T>> parts, none_t) const
        requires(K == join_kind::concatenate) {
        return join(parts, std::nullopt);
    }
    template <std::same_as<std::initializer_list<tensor_view<const T>>> L>
    segmented<T> operator()(const L& parts, index_t axis) const
        requires(K == join_kind::concatenate || K == join_kind::stack) {
        return join(parts, axis);
    }
    template <std::same_as<std::initializer_list<tensor_view<const T>>> L>
    segmented<T> operator()(const L& parts) const {
        return join(parts, index_t{0});
    }
    template <std::same_as<std::initializer_list<tensor_view<const T>>> L>
    segmented<T> operator()(const L& parts, none_t) const requires(K == join_kind::concatenate) {
        return join(parts, std::nullopt);
    }

private:
    template <class P>
    static segmented<T> join(std::initializer_list<P> parts, std::optional<index_t> axis) {
        return join_views<T>(
            K,
            parts.size(),
            [&](std::size_t i) -> const tensor_view<const T>& {
                if constexpr (std::is_same_v<P, join_part<T>>)
                    return parts.begin()[i].view();
                else
                    return parts.begin()[i];
            },
            axis);
    }
};

/// The function object behind concatenate, stack, hstack, vstack, dstack and column_stack:
/// one braced-list overload per element type, plus std::vector and std::tuple forms.
template <join_kind K, class... Ts>
struct join_fn : join_overload<K, Ts>... {
    using join_overload<K, Ts>::operator()...;

    template <tensor_or_view P>
    auto operator()(const std::vector<P>& parts, index_t axis) const
        requires(K == join_kind::concatenate || K == join_kind::stack) {
        return from_vector(parts, axis);
    }
    template <tensor_or_view P>
    auto operator()(const std::vector<P>& parts) const {
        return from_vector(parts, index_t{0});
    }
    template <tensor_or_view P>
    auto operator()(const std::vector<P>& parts, none_t) const
        requires(K == join_kind::concatenate) {
        return from_vector(parts, std::nullopt);
    }
    template <class... Es>
        requires(expression<Es>&&...)
    auto operator()(const std::tuple<Es...>& parts, index_t axis) const
        requires(K == join_kind::concatenate || K == join_kind::stack) {
        return join_tuple(K, parts, axis);
    }
    template <class... Es>
        requires(expression<Es>&&...)
    auto operator()(const std::tuple<Es...>& parts) const {
        return join_tuple(K, parts, index_t{0});
    }
    template <class... Es>
        requires(expression<Es>&&...)
    auto operator()(const std::tuple<Es...>& parts, none_t) const
        requires(K == join_kind::concatenate) {
        return join_tuple(K, parts, std::nullopt);
    }

private:
    template <class P>
    static auto from_vector(const std::vector<P>& parts, std::optional<index_t> axis) {
        using T = typename P::value_type;
        return join_views<T>(
            K, parts.size(), [&](std::size_t i) -> tensor_view<const T> { return parts[i]; }, axis);
    }
};

template <join_kind K>
using join_fn_all_types = join_fn<K,
                                  bool,
                                  std::int8_t,
                                  std::int16_t,
                                  std::int32_t,
                                  std::int64_t,
                                  std::uint8_t,
                                  std::uint16_t,
                                  std::uint32_t,
                                  std::uint64_t,
                                  float,
                                  double>;

} // namespace detail

/// `concatenate(parts, axis = 0)` as numpy.concatenate: the parts joined along an existing
/// axis; every other extent must match: (2, 3) and (4, 3) on axis 0 → (6, 3). `parts` is a
/// braced list of expressions of one element type (the result has that type; lvalue tensors
/// and views are read in place, an rvalue tensor such as `sort(x)` is moved into the result and
/// any other expression, `x * 2.0`, evaluated into a tensor the result owns, when the list is
/// made: detail::join_part), a `std::vector` of tensors or views of one element type (read in
/// place), or a `std::tuple` of any expressions (the result type promotes as
/// numpy.result_type: `concatenate(std::tuple{a + 1, b}, 0)`). `concatenate(parts, none)`
/// joins the raveled parts (NumPy's `axis=None`), any shapes, 0-d included.
/// The list and vector forms return a lazy `segmented` node (one segment per part, read in
/// place when it is evaluated: the tensors and views given must outlive it), so
/// `sum(concatenate({a, b}, 0), 1)` reads `a` and `b` where they are; evaluated alone it is one
/// fused copy loop per part. The tuple form returns a new `tensor`, each part evaluated into its
/// slab by one fused loop. Throws `value_error` for no parts ("need at least one array to
/// concatenate"), a 0-d part ("zero-dimensional arrays cannot be concatenated"), parts of
/// different ranks, or an extent that differs off the axis (the message names both shapes, the
/// axis and the dimension); `axis_error` for an axis out of range.
inline constexpr detail::join_fn_all_types<detail::join_kind::concatenate> concatenate{};

/// `stack(parts, axis = 0)` as numpy.stack: the parts, which must all have one shape, joined
/// along a new axis at position `axis` of the result (in `[-(r + 1), r]`): two (2, 3) → (2, 2, 3)
/// on axis 0, (2, 3, 2) on axis -1; 0-d parts give a 1-d result. Parts as `concatenate`.
/// Throws `value_error` for no parts or different shapes ("all input arrays must have the same
/// shape", naming both), `axis_error` for an axis out of range.
inline constexpr detail::join_fn_all_types<detail::join_kind::stack> stack{};

/// `hstack(parts)` as numpy.hstack: each part through `atleast_1d`, then concatenated on
/// axis 0 when the first is 1-d, else on axis 1: (2,) and (3,) → (5,); (2, 1) and (2, 3) →
/// (2, 4). Parts and errors as `concatenate`.
inline constexpr detail::join_fn_all_types<detail::join_kind::hstack> hstack{};

/// `vstack(parts)` as numpy.vstack: each part through `atleast_2d`, then concatenated on
/// axis 0: (3,) and (3,) → (2, 3); (2, 3) and (3,) → (3, 3). Parts and errors as `concatenate`.
inline constexpr detail::join_fn_all_types<detail::join_kind::vstack> vstack{};

/// `dstack(parts)` as numpy.dstack: each part through `atleast_3d`, then concatenated on
/// axis 2: (2, 3) and (2, 3) → (2, 3, 2); (3,) and (3,) → (1, 3, 2). Parts and errors as
/// `concatenate`.
inline constexpr detail::join_fn_all_types<detail::join_kind::dstack> dstack{};

/// `column_stack(parts)` as numpy.column_stack: 0-d parts become (1, 1) and 1-d parts (n,)
/// columns (n, 1), then all are concatenated on axis 1: (3,) and (3, 2) → (3, 3). Parts and
/// errors as `concatenate`.
inline constexpr detail::join_fn_all_types<detail::join_kind::column_stack> column_stack{};

/// `append(a, values)` as numpy.append without an axis: `a` and `values` raveled and joined,
/// shape (a.size + values.size,); `append(a, values, axis)`: `concatenate` of the two along
/// `axis` (same rank, every other extent equal). The result is a new tensor (NumPy's append
/// copies) of `promote_t` of the two types (numpy.result_type). `values` is an expression, a
/// C++ number (without an axis: one more element) or a braced list; those two are arrays as
/// NumPy makes them of Python values (`detail::list_dtype_t`: C++ integers int64, floats their
/// own type), so `append(tensor<int>{1, 2}, 3)` is int64 and `append(float32_x, 0.5)` float64,
/// as NumPy's. Throws as `concatenate`: `value_error` for different ranks with an axis ("all
/// the input arrays must have same number of dimensions") or extents that differ off the
/// axis; `axis_error`.
template <class A, class V>
    requires(expression<A>&& expression<V>)
auto append(const A& a, const V& values) {
    return detail::join_tuple(
        detail::join_kind::concatenate, std::tuple<const A&, const V&>(a, values), std::nullopt);
}
template <class A, class V>
    requires(expression<A>&& expression<V>)
auto append(const A& a, const V& values, index_t axis) {
    return detail::join_tuple(
        detail::join_kind::concatenate, std::tuple<const A&, const V&>(a, values), axis);
}
/// `append(a, s)`: one value more (numpy.append(a, 5)).
template <class A, class S>
    requires(expression<A>&& scalar<S>)
auto append(const A& a, S s) {
    return append(a, detail::list_tensor({s}));
}
/// `append(a, {v0, v1, ...})` and `append(a, {v0, ...}, axis)`: values as a braced list.
template <class A, class L>
    requires(expression<A>&& scalar<L>)
auto append(const A& a, std::initializer_list<L> values) {
    return append(a, detail::list_tensor(values));
}
template <class A, class L>
    requires(expression<A>&& scalar<L>)
auto append(const A& a, std::initializer_list<L> values, index_t axis) {
    return append(a, detail::list_tensor(values), axis);
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/joining.ipp>
#endif
