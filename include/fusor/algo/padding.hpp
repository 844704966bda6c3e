// fusor/algo/padding.hpp: pad, as numpy.pad (modes constant, edge, reflect, symmetric, wrap).
// The padded output is cut into segments (algo/segments.hpp: the interior, slices, flipped
// slices and broadcast edges of the operand, stride-0 constants) and each segment is copied by
// one fused loop; the result is a lazy segmented node (expr/segmented.hpp), so in a larger
// expression each segment is a loop of the plan.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <fusor/algo/segments.hpp>
#include <fusor/config.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// `pad(e, pad_width, mode = pad_mode::constant)` as `numpy.pad`: a lazy expression (a
/// `segmented` node: nothing is copied until it is evaluated, and `pad(x, 1) * 2` is one fused
/// loop per cell of the output) of `e`'s element type with `pad_width[k] = (before, after)`
/// elements added on each side of axis k:
/// `(2, 3)` with `pad_width = 1` → `(4, 5)`, with `{{1, 2}, {0, 3}}` → `(5, 6)`.
/// `pad_width` takes NumPy's forms (`pad_pairs`): one width for every side (`2`), `{before,
/// after}` for every axis, or `{{before, after}, ...}` per axis. Modes: `constant` (zeros,
/// or `constant_values`), `edge` (the edge element repeated), `reflect` (mirrored about the
/// edge, the edge not repeated: `[1, 2, 3]` with 2 → `[3, 2, 1, 2, 3, 2, 1]`), `symmetric`
/// (mirrored with the edge repeated), `wrap` (the other end's values). A pad wider than the
/// axis repeats the reflection or wrap as NumPy 1.24's iterations do, element for element
/// (which is not periodic once one side finished earlier than the other); `reflect` and
/// `symmetric` of an axis of extent 1 repeat its element (NumPy's legacy). A 0-d `e` is
/// returned as is. `e` is any tensor, view or expression: tensors and views are read in place
/// when the pad is evaluated (they must outlive it); an rvalue tensor is kept and an
/// expression evaluated once, when `pad` is called.
/// Throws `value_error` (checked before anything is allocated) for a negative width ("index
/// can't contain negative values"), a `pad_width` that does not broadcast to `(rank, 2)`
/// ("operands could not be broadcast together with remapped shapes"), an axis of extent 0
/// padded by a mode other than `constant` ("can't extend empty axis 0 using modes other than
/// 'constant' or 'empty'"). Example: `pad(image, {{1, 1}, {1, 1}}, pad_mode::reflect)`.
template <class E>
    requires expression<E> segmented<value_type_t<E>>
    pad(E&& e, const pad_pairs<index_t>& pad_width, pad_mode mode = pad_mode::constant) {
        return make_segmented(pad_segments(detail::held_view(std::forward<E>(e)), pad_width, mode),
                              "pad");
    }

/// `pad(e, pad_width, mode, constant_values)` as `numpy.pad(..., constant_values=...)`: the
/// values of `constant` mode in `pad_width`'s forms (one for every side, `{before, after}`,
/// or per axis), of `e`'s element type (NumPy casts them to it). Where the pads of two axes
/// meet, the later axis's value wins, as NumPy's. Throws as `pad`, and `value_error` for
/// constants with another mode ("unsupported keyword arguments for mode 'edge':
/// {'constant_values'}") or of a shape that does not broadcast to `(rank, 2)`.
/// Example: `pad(x, {1, 2}, pad_mode::constant, {-1, 9})` (1-d: `[-1, x..., 9, 9]`).
template <class E>
    requires expression<E> segmented<value_type_t<E>>
    pad(E&& e,
        const pad_pairs<index_t>& pad_width,
        pad_mode mode,
        const pad_pairs<value_type_t<E>>& constant_values) {
        return make_segmented(pad_segments(detail::held_view(std::forward<E>(e)),
                                           pad_width,
                                           mode,
                                           std::optional(constant_values)),
                              "pad");
    }

/// The mode named as NumPy names it: "constant", "edge", "reflect", "symmetric", "wrap".
/// Throws `value_error` for any other name ("mode 'mean' is not supported", saying so also
/// for NumPy's modes fusor does not have: linear_ramp, maximum, mean, median, minimum, empty).
FUSOR_DECL pad_mode pad_mode_from(std::string_view name);

/// `pad(e, pad_width, "reflect")`: `pad` with the mode named as in NumPy (`pad_mode_from`).
template <class E>
    requires expression<E> segmented<value_type_t<E>>
    pad(E&& e, const pad_pairs<index_t>& pad_width, std::string_view mode) {
        return pad(std::forward<E>(e), pad_width, pad_mode_from(mode));
    }

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/padding.ipp>
#endif
