// fusor/core/reshape.hpp: the shape arithmetic of `reshape`: resolving `-1`, deciding when a
// strided layout can be reshaped without a copy (NumPy's attempt_nocopy rule), and when the
// reshape of an expression is an affine index map (it only splits axes and adds or drops
// extent-1 axes).
#pragma once

#include <optional>
#include <string>

#include <fusor/core/affine_map.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>

namespace fusor {

namespace detail {
// `(4, -1)`: the requested shape as the user wrote it, for messages.
inline std::string requested_text(const shape_t& s) {
    std::string out = "(";
    for (std::size_t k = 0; k < s.size(); ++k)
        out += (k ? ", " : "") + std::to_string(s[k]);
    return out + (s.size() == 1 ? ",)" : ")");
}

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
inline shape_t reshape_target(const shape_t& in, const shape_t& requested) {
    const index_t size = shape_size(in);
    index_t known = 1;
    std::optional<std::size_t> unknown;
    for (std::size_t k = 0; k < requested.size(); ++k) {
        const index_t n = requested[k];
        if (n == -1) {
            if (unknown)
                throw value_error("reshape: can only specify one unknown dimension (-1), got "
                                  + detail::requested_text(requested));
            unknown = k;
        } else if (n < 0) {
            throw value_error("reshape: negative dimensions are not allowed, got "
                              + detail::requested_text(requested));
        } else {
            known *= n;
        }
    }
    shape_t out = requested;
    if (unknown) {
        // NumPy: with a zero among the known extents the unknown one is undetermined.
        if (known == 0 || size % known != 0)
            throw value_error("cannot reshape tensor of size " + std::to_string(size)
                              + " into shape " + detail::requested_text(requested));
        out[*unknown] = size / known;
    } else if (known != size) {
        throw value_error("cannot reshape tensor of size " + std::to_string(size) + " into shape "
                          + detail::requested_text(requested));
    }
    return out;
}

/// The strides that show a strided layout (`shape`, `strides`, in elements) in shape `to`
/// without moving an element, or nothing when that is impossible (NumPy's attempt_nocopy
/// rule): every run of source axes merged into one group must be contiguous with respect to
/// each other. A row-major tensor can always be reshaped; `transpose(a)` into `(-1,)` cannot.
inline std::optional<strides_t>
reshape_strides(const shape_t& shape, const strides_t& strides, const shape_t& to) {
    if (shape_size(shape) == 0)
        return row_major_strides(to);
    strides_t out(to.size(), 0); // unit axes outside every group keep stride 0
    bool ok = true;
    detail::for_each_reshape_group(
        shape, to, [&](std::size_t f0, std::size_t f1, std::size_t t0, std::size_t t1) {
            // The source run must walk memory as one axis: skip its unit axes, then each
            // stride must be the next one times the next extent.
            index_t last = -1;
            for (std::size_t k = f0; k < f1; ++k) {
                if (shape[k] == 1)
                    continue;
                if (last >= 0 && strides[static_cast<std::size_t>(last)] != shape[k] * strides[k])
                    ok = false;
                last = static_cast<index_t>(k);
            }
            index_t s = strides[static_cast<std::size_t>(last)];
            for (std::size_t k = t1; k-- > t0;) {
                out[k] = s;
                s *= to[k];
            }
        });
    if (!ok)
        return std::nullopt;
    return out;
}

/// The reshape of an expression of shape `in` into `to` as an affine index map, when there is
/// one: every source axis is split into a run of target axes (extent-1 axes may appear or
/// vanish anywhere), e.g. (6, 4) → (2, 3, 1, 4). Merging axes is not affine in the indices, so
/// (2, 3) → (6,) gives nothing and the expression must be materialised. An empty expression
/// always gives a map (no element is ever read).
inline std::optional<affine_map> reshape_map(const shape_t& in, const shape_t& to) {
    affine_map m(in, to, "reshape(shape=" + to_string(to) + ")");
    if (shape_size(in) == 0)
        return m;
    bool affine = true;
    detail::for_each_reshape_group(
        in, to, [&](std::size_t f0, std::size_t f1, std::size_t t0, std::size_t t1) {
            std::size_t source = in.size();
            for (std::size_t k = f0; k < f1; ++k)
                if (in[k] != 1) {
                    if (source != in.size())
                        affine = false; // two source axes merge
                    source = k;
                }
            if (!affine)
                return;
            index_t s = 1;
            for (std::size_t k = t1; k-- > t0;) {
                m.at(source, k) = s;
                s *= to[k];
            }
        });
    if (!affine)
        return std::nullopt;
    return m;
}

} // namespace fusor
