// fusor/algo/padding.hpp: pad, as numpy.pad (modes constant, edge, reflect, symmetric, wrap).
// The padded output is cut into segments (algo/segments.hpp: the interior, slices, flipped
// slices and broadcast edges of the operand, stride-0 constants) and each segment is copied by
// one fused loop. A new tensor today; the lazy segmented form is the next step.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <fusor/algo/segments.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// `pad(e, pad_width, mode = pad_mode::constant)` as `numpy.pad`: a new tensor of `e`'s
/// element type with `pad_width[k] = (before, after)` elements added on each side of axis k:
/// `(2, 3)` with `pad_width = 1` → `(4, 5)`, with `{{1, 2}, {0, 3}}` → `(5, 6)`.
/// `pad_width` takes NumPy's forms (`pad_pairs`): one width for every side (`2`), `{before,
/// after}` for every axis, or `{{before, after}, ...}` per axis. Modes: `constant` (zeros,
/// or `constant_values`), `edge` (the edge element repeated), `reflect` (mirrored about the
/// edge, the edge not repeated: `[1, 2, 3]` with 2 → `[3, 2, 1, 2, 3, 2, 1]`), `symmetric`
/// (mirrored with the edge repeated), `wrap` (the other end's values). A pad wider than the
/// axis repeats the reflection or wrap as NumPy 1.24's iterations do, element for element
/// (which is not periodic once one side finished earlier than the other); `reflect` and
/// `symmetric` of an axis of extent 1 repeat its element (NumPy's legacy). A 0-d `e` is
/// returned as a copy. `e` is any tensor, view or expression (an expression is evaluated once
/// first; tensors and views are read in place).
/// Throws `value_error` (checked before anything is allocated) for a negative width ("index
/// can't contain negative values"), a `pad_width` that does not broadcast to `(rank, 2)`
/// ("operands could not be broadcast together with remapped shapes"), an axis of extent 0
/// padded by a mode other than `constant` ("can't extend empty axis 0 using modes other than
/// 'constant' or 'empty'"). Example: `pad(image, {{1, 1}, {1, 1}}, pad_mode::reflect)`.
template <class E>
    requires expression<E> tensor<value_type_t<E>>
    pad(const E& e, const pad_pairs<index_t>& pad_width, pad_mode mode = pad_mode::constant) {
        const detail::source_view<E> x(e);
        const segment_list<value_type_t<E>> segments = pad_segments(x.view(), pad_width, mode);
        tensor<value_type_t<E>> out(segments.shape, uninitialized);
        fill_segments(segments, out);
        return out;
    }

/// `pad(e, pad_width, mode, constant_values)` as `numpy.pad(..., constant_values=...)`: the
/// values of `constant` mode in `pad_width`'s forms (one for every side, `{before, after}`,
/// or per axis), of `e`'s element type (NumPy casts them to it). Where the pads of two axes
/// meet, the later axis's value wins, as NumPy's. Throws as `pad`, and `value_error` for
/// constants with another mode ("unsupported keyword arguments for mode 'edge':
/// {'constant_values'}") or of a shape that does not broadcast to `(rank, 2)`.
/// Example: `pad(x, {1, 2}, pad_mode::constant, {-1, 9})` (1-d: `[-1, x..., 9, 9]`).
template <class E>
    requires expression<E> tensor<value_type_t<E>>
    pad(const E& e,
        const pad_pairs<index_t>& pad_width,
        pad_mode mode,
        const pad_pairs<value_type_t<E>>& constant_values) {
        const detail::source_view<E> x(e);
        const segment_list<value_type_t<E>> segments =
            pad_segments(x.view(), pad_width, mode, std::optional(constant_values));
        tensor<value_type_t<E>> out(segments.shape, uninitialized);
        fill_segments(segments, out);
        return out;
    }

/// The mode named as NumPy names it: "constant", "edge", "reflect", "symmetric", "wrap".
/// Throws `value_error` for any other name ("mode 'mean' is not supported", saying so also
/// for NumPy's modes fusor does not have: linear_ramp, maximum, mean, median, minimum, empty).
inline pad_mode pad_mode_from(std::string_view name) {
    for (pad_mode m : {pad_mode::constant,
                       pad_mode::edge,
                       pad_mode::reflect,
                       pad_mode::symmetric,
                       pad_mode::wrap})
        if (name == detail::pad_mode_name(m))
            return m;
    const bool numpy_has = name == "linear_ramp" || name == "maximum" || name == "mean"
                           || name == "median" || name == "minimum" || name == "empty";
    throw value_error(
        "pad: mode '" + std::string(name) + "' is not supported"
        + (numpy_has ? " by fusor (it has constant, edge, reflect, symmetric, wrap)" : ""));
}

/// `pad(e, pad_width, "reflect")`: `pad` with the mode named as in NumPy (`pad_mode_from`).
template <class E>
    requires expression<E> tensor<value_type_t<E>>
    pad(const E& e, const pad_pairs<index_t>& pad_width, std::string_view mode) {
        return pad(e, pad_width, pad_mode_from(mode));
    }

} // namespace fusor
