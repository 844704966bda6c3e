// fusor/core/affine_map.hpp: every view is an affine map from the view's indices to its
// operand's indices. Views of tensors apply it to strides (zero-copy); views of expressions
// keep it as a node and the planner composes it into every leaf's strides.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>

#include <fusor/config.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/slice.hpp>

namespace fusor {

/// What `explain` prints for a view's map (`transpose(axes=(1, 0))`), kept as a pattern and
/// its numbers and written out only when printed (`str()`): views of tensors, made in inner
/// loops, never print their maps, and formatting the text cost more than the rest of the view.
struct map_label {
    /// Static text; `%t` stands for every number of `numbers` as a tuple (`(1, 0)`), `%a` and
    /// `%b` for their first and second halves as tuples, `%0` ... `%9` for one number.
    const char* pattern = "";
    shape_t numbers;  ///< what the pattern prints
    std::string text; ///< a label made at run time (einsum's subscripts), printed as it is

    map_label() = default;
    map_label(const char* static_pattern, shape_t values = {})
        : pattern(static_pattern), numbers(std::move(values)) {}
    map_label(std::string made) : text(std::move(made)) {}

    /// The text explain prints: `text` when set, else the pattern with its numbers.
    FUSOR_HEADER_INLINE std::string str() const;
};

/// `operand_index = coef * view_index + offset`, with `coef` an
/// (operand rank × view rank) integer matrix. Transpose is a permutation matrix, a slice
/// scales one axis and offsets it, an integer index is a zero row plus an offset, `newaxis`
/// and broadcast axes are zero columns, and a diagonal maps two operand axes to one view axis.
struct affine_map {
    shape_t in_shape;  ///< the operand's shape
    shape_t out_shape; ///< the view's shape
    /// in_rank × out_rank, row-major; up to 4 × 4 inline (a view of a small tensor in an inner
    /// loop allocated it on the heap before).
    boost::container::small_vector<index_t, 16> coef;
    shape_t offset;  ///< in_rank
    map_label label; ///< what `explain` prints, e.g. `transpose(axes=(1, 0))`

    /// `what`: a map_label or what makes one (a pattern, a string), built in place.
    template <class Label>
    affine_map(const shape_t& in, shape_t out, Label&& what)
        : in_shape(in), out_shape(std::move(out)), coef(in_shape.size() * out_shape.size(), 0),
          offset(in_shape.size(), 0), label(std::forward<Label>(what)) {}

    index_t& at(std::size_t in_axis, std::size_t out_axis) {
        return coef[in_axis * out_shape.size() + out_axis];
    }
    index_t at(std::size_t in_axis, std::size_t out_axis) const {
        return coef[in_axis * out_shape.size() + out_axis];
    }

    /// Strides and base offset of the view of an operand laid out with `strides`:
    /// `view_stride[j] = Σ_k strides[k] * coef[k][j]`, `offset = Σ_k strides[k] * offset[k]`.
    strides_t apply_strides(const strides_t& strides) const {
        strides_t out(out_shape.size(), 0);
        for (std::size_t k = 0; k < in_shape.size(); ++k)
            for (std::size_t j = 0; j < out_shape.size(); ++j)
                out[j] += strides[k] * at(k, j);
        return out;
    }
    index_t apply_offset(const strides_t& strides) const {
        index_t off = 0;
        for (std::size_t k = 0; k < in_shape.size(); ++k)
            off += strides[k] * offset[k];
        return off;
    }
};

/// `transpose(e, axes)`: view axis j is operand axis `axes[j]`; no axes reverses them (as
/// numpy.transpose). Throws `value_error` when `axes` has the wrong length or is not a
/// permutation, `axis_error` for an axis out of range.
FUSOR_DECL affine_map transpose_map(const shape_t& in, const shape_t& axes_in);

namespace detail {
/// transpose's axes over an operand of shape `in`: `axes_in` normalised (none: every axis,
/// reversed). Throws as transpose_map.
FUSOR_DECL shape_t transpose_axes(const shape_t& in, const shape_t& axes_in);
} // namespace detail

/// `swapaxes(e, axis1, axis2)` as numpy.swapaxes: the transpose exchanging two axes.
/// Throws `axis_error` for an axis out of range.
FUSOR_DECL affine_map swapaxes_map(const shape_t& in, index_t axis1, index_t axis2);

/// `moveaxis(e, source, destination)` as numpy.moveaxis: operand axis `source[i]` becomes view
/// axis `destination[i]`; the other axes keep their order. Throws `axis_error` for an axis
/// out of range, `value_error` for a repeated axis or lists of different lengths.
FUSOR_DECL affine_map moveaxis_map(const shape_t& in,
                                   const shape_t& source,
                                   const shape_t& destination);

/// `expand_dims(e, axes)` as numpy.expand_dims: extent-1 axes inserted so that they sit at
/// `axes` of the result (normalised against the result's rank: (2, 3) with -1 → (2, 3, 1)).
/// Throws `axis_error` for an axis out of range, `value_error` for a repeated axis.
FUSOR_DECL affine_map expand_dims_map(const shape_t& in, const shape_t& axes);

/// `squeeze(e)` drops every extent-1 axis, `squeeze(e, axes)` the given ones (as
/// numpy.squeeze): (1, 3, 1) → (3,). Throws `axis_error` for an axis out of range,
/// `value_error` for a repeated axis or one whose extent is not 1.
FUSOR_DECL affine_map squeeze_map(const shape_t& in, const std::optional<shape_t>& axes);

/// `diagonal(e, offset, axis1, axis2)` as numpy.diagonal: both axes are removed and the
/// diagonal is appended as the last axis, of length `max(0, min(n1 - max(0, -offset),
/// n2 - max(0, offset)))`. Throws `value_error` for rank < 2 or equal axes, `axis_error` for
/// an axis out of range.
FUSOR_DECL affine_map diagonal_map(const shape_t& in, index_t offset, index_t axis1, index_t axis2);

/// `flip(e, axes)` as numpy.flip: view index i on a flipped axis of extent n reads operand
/// index n - 1 - i (stride negated, offset n - 1); shape unchanged. No axes: every axis.
/// Throws `axis_error` for an axis out of range, `value_error` for a repeated one.
FUSOR_DECL affine_map flip_map(const shape_t& in, const std::optional<shape_t>& axes_in);

/// `broadcast_to(e, shape)` as numpy.broadcast_to: the operand's axes align on the right of
/// `shape`; an extent-1 axis stretched to n gets stride 0, new leading axes get stride 0.
/// Throws `broadcast_error` naming both shapes when the operand does not broadcast to `shape`
/// (it may not have more axes than `shape`, even of extent 1: NumPy's rule).
FUSOR_DECL affine_map broadcast_map(const shape_t& in, const shape_t& to);

struct all_t; // the `all` object: a whole axis in view(...), the reduction elsewhere

/// One index of `view(...)`: an integer, a slice, `all`, `newaxis` or `ellipsis`.
using view_index = std::variant<index_t, slice, newaxis_t, ellipsis_t>;

/// `view(e, indices...)` as NumPy's basic indexing `e[indices]`: a slice keeps its axis
/// (Python's clamping), an integer drops it (negative counts from the end; outside the axis
/// throws `index_error`), `newaxis` inserts an extent-1 axis, `ellipsis` stands for all the
/// axes not named, trailing axes not named are kept whole. Too many indices or two
/// ellipses throw `value_error`.
FUSOR_DECL affine_map view_map(const shape_t& in, std::span<const view_index> idx);

namespace detail {
/// One axis of NumPy's basic indexing as view_map applies it, in view order: an operand axis
/// read from `start` by `step`, kept as a view axis of `extent` elements (a slice) or dropped
/// (an integer), or a new view axis of extent 1 that reads no operand axis (`newaxis`).
struct view_axis {
    index_t start = 0, step = 0, extent = 1;
    bool reads = true, keeps = true;
};

/// The axis of `e[i]` for an integer `i` on operand axis `axis` of extent `n`: dropped, read at
/// `i` (negative counts from the end). Throws `index_error` for `i` outside the axis.
inline view_axis integer_view_axis(index_t i, index_t n, std::size_t axis) {
    if (i < -n || i >= n)
        throw index_error("index " + std::to_string(i) + " is out of bounds for axis "
                          + std::to_string(axis) + " with size " + std::to_string(n));
    return view_axis{i < 0 ? i + n : i, 0, 1, true, false};
}
/// The axis of `e[s]` for a slice `s` on an operand axis of extent `n` (Python's clamping).
/// Throws `value_error` for a step of 0.
inline view_axis slice_view_axis(const slice& s, index_t n) {
    const auto r = s.resolve(n);
    // An empty slice starts at 0 so that no stored offset points past the operand.
    return view_axis{r.length > 0 ? r.start : 0, r.step, r.length, true, true};
}
/// Throws `value_error` when `consumed` indices name more axes than the operand's `rank`.
inline void check_index_count(std::size_t consumed, std::size_t rank) {
    if (consumed > rank)
        throw value_error("too many indices for tensor: tensor is " + std::to_string(rank)
                          + "-dimensional, but " + std::to_string(consumed) + " were indexed");
}

/// Calls `f(operand_axis, view_axis)` for each axis of `e[idx]` over an operand of shape `in`,
/// in view order (`operand_axis` is the next operand axis; it moves on when the axis reads one),
/// the ellipsis (or the end) standing for the axes not named, as whole slices. Throws as
/// view_map (after the calls for the axes before the bad index: callers build locals).
template <class F>
void for_each_view_axis(const shape_t& in, std::span<const view_index> idx, F&& f) {
    std::size_t consumed = 0, ellipses = 0;
    for (const view_index& v : idx) {
        consumed += std::holds_alternative<index_t>(v) || std::holds_alternative<slice>(v);
        ellipses += std::holds_alternative<ellipsis_t>(v);
    }
    if (ellipses > 1)
        throw value_error("an index can only have a single ellipsis");
    check_index_count(consumed, in.size());
    std::size_t in_axis = 0;
    auto whole_axes = [&](std::size_t count) {
        for (std::size_t k = 0; k < count; ++k, ++in_axis)
            f(in_axis, view_axis{0, 1, in[in_axis], true, true});
    };
    bool expanded = false;
    for (const view_index& v : idx) {
        if (std::holds_alternative<ellipsis_t>(v)) {
            whole_axes(in.size() - consumed);
            expanded = true;
        } else if (const auto* i = std::get_if<index_t>(&v)) {
            f(in_axis, integer_view_axis(*i, in[in_axis], in_axis));
            ++in_axis;
        } else if (const auto* s = std::get_if<slice>(&v)) {
            f(in_axis, slice_view_axis(*s, in[in_axis]));
            ++in_axis;
        } else { // newaxis
            f(in_axis, view_axis{0, 0, 1, false, true});
        }
    }
    if (!expanded)
        whole_axes(in.size() - consumed);
}
} // namespace detail

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/affine_map.ipp>
#endif
