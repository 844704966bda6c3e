// fusor/core/reshape.hpp: the shape arithmetic of `reshape`: resolving `-1`, deciding when a
// strided layout can be reshaped without a copy (NumPy's attempt_nocopy rule), and when the
// reshape of an expression is an affine index map (it only splits axes and adds or drops
// extent-1 axes).
#pragma once

#include <optional>
#include <string>

#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>

namespace fusor {

namespace detail {
// `(4, -1)`: the requested shape as the user wrote it, for messages.
FUSOR_DECL std::string requested_text(const shape_t& s);

// Groups the non-unit axes of `from` and `to` into runs with equal products, left to right:
// calls `group(f0, f1, t0, t1)` for from-axes [f0, f1) and to-axes [t0, t1) (unit axes
// included in the to-run that absorbs them). Both shapes have the same, non-zero size.
template <class Group>
void for_each_reshape_group(const shape_t& from, const shape_t& to, Group&& group) {
    std::size_t f = 0, t = 0;
    auto skip_units = [&](std::size_t& k, const shape_t& s) {
        while (k < s.size() && s[k] == 1)
            ++k;
    };
    skip_units(f, from);
    while (f < from.size()) {
        const std::size_t f0 = f, t0 = t;
        index_t pf = from[f++], pt = to[t++];
        while (pf != pt) {
            if (pf < pt)
                pf *= from[f++];
            else
                pt *= to[t++];
        }
        skip_units(f, from);
        group(f0, f, t0, t);
    }
}
} // namespace detail

/// The shape `reshape(e, requested)` gives an operand of shape `in`: one `-1` is inferred from
/// the size (as numpy.reshape). Throws `value_error` for two `-1`, another negative extent, or
/// a size that does not match: `cannot reshape tensor of size 6 into shape (4, -1)`.
FUSOR_DECL shape_t reshape_target(const shape_t& in, const shape_t& requested);

/// The strides that show a strided layout (`shape`, `strides`, in elements) in shape `to`
/// without moving an element, or nothing when that is impossible (NumPy's attempt_nocopy
/// rule): every run of source axes merged into one group must be contiguous with respect to
/// each other. A row-major tensor can always be reshaped; `transpose(a)` into `(-1,)` cannot.
FUSOR_DECL std::optional<strides_t>
reshape_strides(const shape_t& shape, const strides_t& strides, const shape_t& to);

/// The reshape of an expression of shape `in` into `to` as an affine index map, when there is
/// one: every source axis is split into a run of target axes (extent-1 axes may appear or
/// vanish anywhere), e.g. (6, 4) → (2, 3, 1, 4). Merging axes is not affine in the indices, so
/// (2, 3) → (6,) gives nothing and the expression must be materialised. An empty expression
/// always gives a map (no element is ever read).
FUSOR_DECL std::optional<affine_map> reshape_map(const shape_t& in, const shape_t& to);

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/reshape.ipp>
#endif
