// fusor/algo/shifting.hpp: roll, tile and repeat, as NumPy's. Each cuts its output into
// segments (algo/segments.hpp): a roll is 2^k slices for k rolled axes (2 ranges of the raveled
// operand without an axis), a tile and a repeat with one count are one broadcast copy in a split
// index space. roll, tile and repeat with one count are lazy segmented nodes (in a larger
// expression each segment that is a box of the output is a loop of the plan). A repeat with
// per-element counts is a direct loop over the elements along the axis into a new tensor (a
// segment per element would cost a loop set-up per element).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/algo/segments.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// `roll(e, shift, axis)` as `numpy.roll`: the elements of `e` moved `shift` places along
/// `axis` (negative moves back), those pushed off one end coming in at the other: shape and
/// element type unchanged. `roll(e, shifts, axes)` rolls several axes (a `shape_t` each: one of
/// the lists may have one element, which applies to every element of the other; shifts on a
/// repeated axis add up; `shape_t{}` axes roll nothing). Lazy: a `segmented` node of 2 slices
/// per rolled axis (2^k for k axes), so `roll(t, 1, 0) - t` is one fused loop per slice with no
/// temporary. Tensors and views are read in place when it is evaluated (they must outlive
/// it); an rvalue tensor is kept and an expression evaluated once, when `roll` is called.
/// Throws `axis_error` for an axis out of range; `value_error` for lists that do not broadcast
/// ("shape mismatch: objects cannot be broadcast to a single shape").
/// Example: `roll(t, 1, 0) - t` (the forward difference, wrapped).
template <class E>
    requires expression<E> segmented<value_type_t<E>>
    roll(E&& e, const shape_t& shifts, const shape_t& axes) {
        return make_segmented(roll_segments(detail::held_view(std::forward<E>(e)), shifts, axes),
                              "roll");
    }
template <class E>
    requires expression<E> segmented<value_type_t<E>> roll(E&& e, index_t shift, index_t axis) {
        return roll(std::forward<E>(e), shape_t{shift}, shape_t{axis});
    }
template <class E>
    requires expression<E> segmented<value_type_t<E>>
    roll(E&& e, index_t shift, const shape_t& axes) {
        return roll(std::forward<E>(e), shape_t{shift}, axes);
    }
template <class E>
    requires expression<E> segmented<value_type_t<E>>
    roll(E&& e, const shape_t& shifts, index_t axis) {
        return roll(std::forward<E>(e), shifts, shape_t{axis});
    }

/// `roll(e, shift)` as `numpy.roll` without `axis`: `e` raveled, rolled, reshaped back (a list
/// of shifts adds up). A `segmented` node of two ranges of the raveled operand; they tile the
/// raveled space, not the output's, so in a larger expression it is filled whole first (one
/// temporary, as NumPy's). Reads `e` in place when it is a tensor or a row-major contiguous
/// view; any other view or expression is copied into a contiguous tensor when `roll` is
/// called (as NumPy's `ravel` copies it). Never throws.
template <class E>
    requires expression<E> segmented<value_type_t<E>> roll(E&& e, index_t shift) {
        return make_segmented(roll_segments(detail::held_view(std::forward<E>(e), true), shift),
                              "roll");
    }
template <class E>
    requires expression<E> segmented<value_type_t<E>> roll(E&& e, const shape_t& shifts) {
        index_t total = 0;
        for (index_t s : shifts)
            total += s;
        return roll(std::forward<E>(e), total);
    }

/// `tile(e, reps)` as `numpy.tile`: `e` repeated `reps[k]` times along axis k. With `d =
/// max(rank, reps.size())` both are padded with leading 1s to length d (NumPy's promotion:
/// `(3,)` tiled by `{2, 2}` → `(2, 6)`, `(2, 3)` by `2` → `(2, 6)`), extents `shape[k] *
/// reps[k]`; `reps = {}` copies `e`. Element type unchanged. Lazy: a `segmented` node. Up to
/// `tile_cells_max` (64) tiles it is one box of the output per tile, so inside an expression
/// each tile is a loop of it; with more, the output viewed as `(reps[0], shape[0], reps[1],
/// shape[1], ...)` is `e` broadcast along the reps axes: one loop when evaluated alone, filled
/// whole first inside an expression. Operands as `roll`.
/// Throws `value_error` for a negative rep ("negative dimensions are not allowed"; for an empty
/// `e`, only when it makes an extent negative, as NumPy's "cannot reshape array of size 0").
template <class E>
    requires expression<E> segmented<value_type_t<E>> tile(E&& e, const shape_t& reps) {
        const auto x = detail::held_view(std::forward<E>(e));
        segment_list<value_type_t<E>> one_box = tile_segments(x, reps);
        index_t tiles = 1;
        for (std::size_t k = 0; k < one_box.space.size(); k += 2)
            tiles *= one_box.space[k];
        if (tiles <= tile_cells_max)
            return make_segmented(tile_boxes(x, reps), "tile");
        return make_segmented(std::move(one_box), "tile");
    }
template <class E>
    requires expression<E> segmented<value_type_t<E>> tile(E&& e, index_t reps) {
        return tile(std::forward<E>(e), shape_t{reps});
    }

/// `repeat(e, repeats, axis)` as `numpy.repeat`: each element repeated `repeats` times along
/// `axis` (`(2, 3)` by 2 on axis 1 → `(2, 6)`: `[a, a, b, b, c, c]` rows); `repeat(e, repeats)`
/// repeats the elements of the raveled `e` (1-d result). A 0-d `e` counts as `(1,)`. Element
/// type unchanged. Lazy: a `segmented` node of one box (the output with the axis split into
/// `(n, repeats)` is `e` broadcast along the new axis): one loop when evaluated alone, filled
/// whole first inside an expression. Operands as `roll`. Throws `axis_error`; `value_error` for
/// a negative count ("negative dimensions are not allowed"; not for an empty axis, as NumPy).
template <class E>
    requires expression<E> segmented<value_type_t<E>> repeat(E&& e, index_t repeats, index_t axis) {
        return make_segmented(repeat_segments(detail::held_view(std::forward<E>(e)), repeats, axis),
                              "repeat");
    }
template <class E>
    requires expression<E> segmented<value_type_t<E>> repeat(E&& e, index_t repeats) {
        return make_segmented(
            repeat_segments(detail::held_view(std::forward<E>(e)), repeats, std::nullopt),
            "repeat");
    }

namespace detail {

// repeat with one count per element along `axis` (none: of the raveled operand), by a direct
// loop: each slice along the axis copied counts[i] times (std::copy of a contiguous run of
// `inner` elements per copy; no index computation per element).
template <class E>
tensor<value_type_t<E>>
repeat_counts(const E& e, const std::vector<index_t>& counts, std::optional<index_t> axis) {
    using T = value_type_t<E>;
    if (counts.size() == 1) // one count for every element
        return axis ? repeat(e, counts[0], *axis) : repeat(e, counts[0]);
    const source_view<E> src(e, true);
    const tensor_view<const T>& x = src.view();
    const shape_t s = axis && x.rank() > 0 ? x.shape() : shape_t{x.size()};
    const index_t ax = check_repeat_counts(s, counts, axis ? axis : std::optional<index_t>(0));
    shape_t shape = s;
    index_t total = 0;
    for (index_t c : counts)
        total += c;
    shape[static_cast<std::size_t>(ax)] = total;
    tensor<T> out(axis ? shape : shape_t{shape_size(shape)}, uninitialized);
    if (out.size() == 0)
        return out;
    index_t outer = 1, inner = 1;
    for (index_t k = 0; k < ax; ++k)
        outer *= s[static_cast<std::size_t>(k)];
    for (index_t k = ax + 1; k < s.rank(); ++k)
        inner *= s[static_cast<std::size_t>(k)];
    const index_t n = s[static_cast<std::size_t>(ax)];
    const T* from = x.data();
    T* to = out.data();
    for (index_t o = 0; o < outer; ++o)
        for (index_t i = 0; i < n; ++i, from += inner)
            for (index_t c = 0; c < counts[static_cast<std::size_t>(i)]; ++c)
                to = std::copy(from, from + inner, to);
    return out;
}

template <class I>
std::vector<index_t> counts_of(const I& counts) {
    static_assert(std::is_integral_v<value_type_t<I>> && !std::is_same_v<value_type_t<I>, bool>,
                  "fusor::repeat: the counts must be integers");
    const tensor<std::int64_t> c(counts);
    if (c.rank() > 1)
        throw value_error("repeat: object too deep for desired array (counts of shape "
                          + to_string(c.shape()) + ")");
    return std::vector<index_t>(c.data(), c.data() + c.size());
}

} // namespace detail

/// `repeat(e, counts, axis)` as `numpy.repeat` with one count per element: element i along
/// `axis` repeated `counts[i]` times (`(3,)` by `{1, 0, 2}` → `[a, c, c]`); `repeat(e, counts)`
/// per element of the raveled `e`. `counts` is a `std::vector<index_t>` (or braced list) or a
/// 1-d (or 0-d) integer tensor, view or expression; a single count applies to every element.
/// A direct loop (each slice along the axis copied `counts[i]` times), reading `e` in place
/// when it is a tensor or a contiguous view. Throws `axis_error`; `value_error` for a negative
/// count ("repeats may not contain negative values"), a count list whose length is neither 1
/// nor the axis's extent ("operands could not be broadcast together with shape (3,) (2,)") or
/// counts of rank > 1 ("object too deep for desired array").
template <class E>
    requires expression<E> tensor<value_type_t<E>>
    repeat(const E& e, const std::vector<index_t>& counts, index_t axis) {
        return detail::repeat_counts(e, counts, axis);
    }
template <class E>
    requires expression<E> tensor<value_type_t<E>> repeat(const E& e,
                                                          const std::vector<index_t>& counts) {
        return detail::repeat_counts(e, counts, std::nullopt);
    }
template <class E, class I>
    requires(expression<E>&& expression<I>)
tensor<value_type_t<E>> repeat(const E& e, const I& counts, index_t axis) {
    return detail::repeat_counts(e, detail::counts_of(counts), axis);
}
template <class E, class I>
    requires(expression<E>&& expression<I>)
tensor<value_type_t<E>> repeat(const E& e, const I& counts) {
    return detail::repeat_counts(e, detail::counts_of(counts), std::nullopt);
}

} // namespace fusor
