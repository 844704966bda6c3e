// fusor/algo/segments.hpp: NumPy's pad, roll, tile and repeat cut into segments. A segment is
// a box of the output and the read-only strided view of the source that fills it (a slice, a
// flipped slice, a stride-0 broadcast of an edge, or a stride-0 view of one constant), so each
// operation is a short list of copy loops and never an index computation per element. The
// public functions (algo/padding.hpp, algo/shifting.hpp) fill a new tensor from these lists
// today; the lazy node that cuts an expression's output into segments will reuse them.
//
// A list's boxes tile its `space` exactly once, and the space's row-major order is the
// output's: `space == shape` for pad and roll along axes; roll without an axis works in the
// raveled output `(size,)`; tile in `(r0, d0, r1, d1, ...)` (one box: the source broadcast
// along every `r`); repeat with one count in the output with the repeated axis split into
// `(n, count)` (one box). Each operation's checks (NumPy's errors) run here, before anything is
// allocated or written.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/segmented.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

/// NumPy's pad modes fusor has (`numpy.pad(mode=...)`); `reflect` is NumPy's
/// `reflect_type='even'`.
enum class pad_mode { constant, edge, reflect, symmetric, wrap };

/// A `(rank, 2)` argument of `numpy.pad` (`pad_width`, `constant_values`) in any of NumPy's
/// forms: one value for every side (`2`), a list of one value or of `(before, after)` for every
/// axis (`{2}`, `{1, 3}`), or one list per axis (`{{1, 2}, {0, 3}}`; `{{1}, {2}}` pads each axis
/// by its own width on both sides), or any `shape` with row-major `values` (NumPy's array
/// argument). Resolved against a rank as NumPy's `_as_pairs`: sizes 1 and 2 apply to every
/// axis, anything else must broadcast to `(rank, 2)`.
template <class V>
class pad_pairs {
public:
    /// One value for every side of every axis.
    pad_pairs(V v) : shape_{}, values_{v} {}
    /// `(v,)` or `(before, after)` for every axis, or `rank * 2` values that must broadcast.
    pad_pairs(std::initializer_list<V> v)
        : shape_{static_cast<index_t>(v.size())}, values_(v.begin(), v.end()) {}
    /// One list per axis: `{{before, after}, ...}` (or `{{w}, ...}`).
    pad_pairs(std::initializer_list<std::initializer_list<V>> rows) {
        const std::size_t cols = rows.size() == 0 ? 0 : rows.begin()->size();
        for (const auto& r : rows) {
            if (r.size() != cols)
                throw value_error("pad: setting an array element with a sequence: the rows have "
                                  "different lengths (inhomogeneous shape)");
            values_.insert(values_.end(), r.begin(), r.end());
        }
        shape_ = {static_cast<index_t>(rows.size()), static_cast<index_t>(cols)};
    }
    /// NumPy's array argument: `values` in row-major order of `shape` (rank at most 2).
    pad_pairs(shape_t shape, std::vector<V> values)
        : shape_(std::move(shape)), values_(std::move(values)) {
        if (shape_.rank() > 2)
            throw value_error("pad: input operand has more dimensions than allowed by the axis "
                              "remapping (a pad argument of rank "
                              + std::to_string(shape_.rank()) + ")");
        if (shape_size(shape_) != static_cast<index_t>(values_.size()))
            throw value_error("pad: " + std::to_string(values_.size())
                              + " values for an argument of shape " + to_string(shape_));
    }

    const shape_t& shape() const { return shape_; }
    const std::vector<V>& values() const { return values_; }

    /// `(before, after)` for each of `rank` axes, as NumPy's `_as_pairs(x, rank, as_index)`:
    /// with `as_index`, a negative value throws `value_error` ("index can't contain negative
    /// values"); a shape that does not broadcast to `(rank, 2)` throws `value_error` ("operands
    /// could not be broadcast together with remapped shapes").
    std::vector<std::pair<V, V>> resolve(index_t rank, bool as_index) const {
        const index_t n = static_cast<index_t>(values_.size());
        auto negative = [&](V v) {
            return as_index && v < V(0);
        };
        auto refuse_negative = [] {
            throw value_error("pad: index can't contain negative values (pad_width)");
        };
        const std::size_t r = static_cast<std::size_t>(rank);
        if (n == 1) {
            if (negative(values_[0]))
                refuse_negative();
            return std::vector<std::pair<V, V>>(r, {values_[0], values_[0]});
        }
        if (n == 2 && !(shape_ == shape_t{2, 1})) {
            if (negative(values_[0]) || negative(values_[1]))
                refuse_negative();
            return std::vector<std::pair<V, V>>(r, {values_[0], values_[1]});
        }
        if (n == 0)
            throw value_error("pad: zero-size array to reduction operation minimum which has no "
                              "identity (an empty pad argument)");
        for (V v : values_)
            if (negative(v))
                refuse_negative();
        // np.broadcast_to(x, (rank, 2)): x's shape right-aligned against (rank, 2).
        const shape_t want{rank, 2};
        const shape_t& s = shape_;
        bool fits = s.rank() <= 2;
        for (std::size_t k = 0; fits && k < s.size(); ++k) {
            const index_t have = s[s.size() - 1 - k], need = want[1 - k];
            fits = have == need || have == 1;
        }
        if (!fits)
            throw value_error("pad: operands could not be broadcast together with remapped "
                              "shapes [original->remapped]: "
                              + compact(s) + "  and requested shape " + compact(want));
        const index_t rows = s.rank() == 2 ? s[0] : 1, cols = s.rank() >= 1 ? s.back() : 1;
        std::vector<std::pair<V, V>> out;
        for (index_t i = 0; i < rank; ++i) {
            const index_t row = rows == 1 ? 0 : i;
            auto at = [&](index_t col) {
                return values_[static_cast<std::size_t>(row * cols + (cols == 1 ? 0 : col))];
            };
            out.emplace_back(at(0), at(1));
        }
        return out;
    }

private:
    // NumPy's compact shape text, (3,2) and (3,).
    static std::string compact(const shape_t& s) {
        std::string out = "(";
        for (std::size_t i = 0; i < s.size(); ++i)
            out += (i ? "," : "") + std::to_string(s[i]);
        return out + (s.size() == 1 ? ",)" : ")");
    }

    shape_t shape_;
    std::vector<V> values_;
};

namespace detail {

/// A run of one axis of the space: positions `[out_start, out_start + length)` read source
/// index `src_start + j * step` along the same axis of the source, `step` in {-1, 0, 1}.
struct axis_run {
    index_t out_start, length, src_start, step;
};

/// The product of one list of runs per axis: one segment per combination, its source `x` read
/// at each run's start with each axis's stride times the run's step (so a flipped run reads
/// backwards and a step-0 run broadcasts).
template <class T>
void product_segments(const tensor_view<const T>& x,
                      const std::vector<std::vector<axis_run>>& runs,
                      std::vector<segment<T>>& out) {
    const std::size_t r = runs.size();
    for (const auto& axis : runs)
        if (axis.empty())
            return; // an empty axis: nothing to cover
    std::vector<std::size_t> pick(r, 0);
    for (;;) {
        shape_t start(r, 0), extents(r, 0);
        strides_t strides(r, 0);
        index_t offset = 0;
        for (std::size_t k = 0; k < r; ++k) {
            const axis_run& run = runs[k][pick[k]];
            start[k] = run.out_start;
            extents[k] = run.length;
            strides[k] = run.step * x.strides()[k];
            offset += run.src_start * x.strides()[k];
        }
        out.push_back({std::move(start),
                       tensor_view<const T>(x.data() + offset,
                                            std::move(extents),
                                            std::move(strides),
                                            x.owner(),
                                            x.lifetime())});
        std::size_t k = r;
        while (k > 0 && ++pick[k - 1] == runs[k - 1].size())
            pick[--k] = 0;
        if (k == 0)
            return;
    }
}

/// The runs of a map `src[p]` (one source index per position of an axis): maximal stretches
/// whose consecutive indices differ by one step in {-1, 0, 1}, also cut at `cuts` (pad cuts at
/// the original area's ends, so the interior is always one run). O(length of the axis).
FUSOR_DECL std::vector<axis_run>
runs_of(const std::vector<index_t>& src, index_t cut0, index_t cut1);

/// The source index of each position of one padded axis, NumPy 1.24's `numpy.pad` run on an
/// index vector instead of the values (so a pad wider than the axis repeats reflections and
/// wraps exactly as NumPy's iterations do, including where they stop being periodic).
/// `n` >= 1 is the axis's extent, `before`/`after` its widths.
FUSOR_DECL std::vector<index_t>
pad_axis_map(pad_mode mode, index_t n, index_t before, index_t after);

// A view of one value of `constants` broadcast to `extents` (every stride 0).
template <class T>
tensor_view<const T>
constant_view(const std::shared_ptr<const T[]>& constants, std::size_t k, const shape_t& extents) {
    return tensor_view<const T>(
        constants.get() + k, extents, strides_t(extents.size(), 0), constants);
}

inline const char* pad_mode_name(pad_mode m) {
    switch (m) {
    case pad_mode::constant:
        return "constant";
    case pad_mode::edge:
        return "edge";
    case pad_mode::reflect:
        return "reflect";
    case pad_mode::symmetric:
        return "symmetric";
    default:
        return "wrap";
    }
}

} // namespace detail

/// The segments of `numpy.pad(x, pad_width, mode)` (see `pad` in algo/padding.hpp for the
/// forms and errors). Space = the padded shape. `constant`: the interior box reads `x`; for
/// each axis k two boxes (before, after) cover its pad across the full padded extent of the
/// axes before k and the original extent of the axes after it (NumPy's order: where pads meet,
/// the later axis's constant wins), each a stride-0 view of its constant. Other modes: the
/// value at `(i0, i1, ...)` is `x[f0(i0), f1(i1), ...]` with `fk` the axis's map NumPy's
/// iterations build (`pad_axis_map`); the boxes are the products of each axis's runs, so the
/// interior is one box and the pads are slices, flipped slices and broadcast edges of `x`.
/// Throws `value_error` as NumPy for negative widths, arguments that do not broadcast to
/// `(rank, 2)`, constants with a mode other than `constant`, and an empty axis padded by a
/// mode other than `constant`.
template <class T>
segment_list<T> pad_segments(
    const tensor_view<const T>& x,
    const pad_pairs<index_t>& pad_width,
    pad_mode mode,
    const std::type_identity_t<std::optional<pad_pairs<T>>>& constant_values = std::nullopt) {
    const index_t r = x.rank();
    const auto widths = pad_width.resolve(r, true);
    if (constant_values && mode != pad_mode::constant)
        throw value_error(std::string("pad: unsupported keyword arguments for mode '")
                          + detail::pad_mode_name(mode) + "': {'constant_values'}");
    std::vector<std::pair<T, T>> values;
    if (mode == pad_mode::constant)
        values = constant_values
                     ? constant_values->resolve(r, false)
                     : std::vector<std::pair<T, T>>(static_cast<std::size_t>(r), {T(0), T(0)});
    const shape_t& s = x.shape();
    if (mode != pad_mode::constant && x.size() == 0)
        for (std::size_t k = 0; k < s.size(); ++k)
            if (s[k] == 0 && (widths[k].first != 0 || widths[k].second != 0))
                throw value_error("pad: can't extend empty axis " + std::to_string(k)
                                  + " using modes other than 'constant' or 'empty' (shape "
                                  + to_string(s) + ", mode '" + detail::pad_mode_name(mode) + "')");
    segment_list<T> list;
    for (std::size_t k = 0; k < s.size(); ++k)
        list.shape.push_back(widths[k].first + s[k] + widths[k].second);
    list.space = list.shape;
    if (shape_size(list.shape) == 0)
        return list;
    const auto rk = static_cast<std::size_t>(r);
    if (mode == pad_mode::constant) {
        std::shared_ptr<T[]> c(new T[2 * rk + 1]);
        for (std::size_t k = 0; k < rk; ++k) {
            c[2 * k] = values[k].first;
            c[2 * k + 1] = values[k].second;
        }
        list.constants = c;
        // Boxes in row-major order of their starts is not needed for correctness; they are
        // emitted axis by axis: before-pads, the interior, after-pads.
        auto box = [&](std::size_t axis, bool after) {
            shape_t start(rk, 0), ext(rk, 0);
            for (std::size_t j = 0; j < rk; ++j) {
                if (j < axis) {
                    ext[j] = list.shape[j];
                } else if (j > axis) {
                    start[j] = widths[j].first;
                    ext[j] = s[j];
                } else {
                    start[j] = after ? widths[j].first + s[j] : 0;
                    ext[j] = after ? widths[j].second : widths[j].first;
                }
            }
            if (shape_size(ext) != 0)
                list.segments.push_back(
                    {std::move(start),
                     detail::constant_view(list.constants, 2 * axis + after, ext)});
        };
        for (std::size_t k = 0; k < rk; ++k)
            box(k, false);
        if (x.size() != 0) {
            shape_t start(rk, 0);
            for (std::size_t j = 0; j < rk; ++j)
                start[j] = widths[j].first;
            list.segments.push_back({std::move(start), x});
        }
        for (std::size_t k = rk; k-- > 0;)
            box(k, true);
        return list;
    }
    if (x.size() == 0)
        return list; // NumPy: nothing to fill (and the output is empty: some axis stayed 0)
    std::vector<std::vector<detail::axis_run>> runs;
    for (std::size_t k = 0; k < rk; ++k) {
        const index_t b = widths[k].first, a = widths[k].second;
        runs.push_back(detail::runs_of(detail::pad_axis_map(mode, s[k], b, a), b, b + s[k]));
    }
    detail::product_segments(x, runs, list.segments);
    return list;
}

namespace detail {

// The runs of one axis of extent n rolled by `shift` (Python's modulo; an empty axis: none).
FUSOR_DECL std::vector<axis_run> roll_runs(index_t n, index_t shift);

} // namespace detail

/// The segments of `numpy.roll(x, shifts, axes)`: the shifts and axes broadcast against each
/// other (one of them may have one element; NumPy's `np.broadcast(shift, axis)`), shifts on a
/// repeated axis add up. Space = `x`'s shape; each rolled axis cuts into two runs, so at most
/// `2^k` boxes for k rolled axes. Throws `axis_error` for an axis out of range, `value_error`
/// when the lists do not broadcast ("shape mismatch: objects cannot be broadcast to a single
/// shape").
template <class T>
segment_list<T>
roll_segments(const tensor_view<const T>& x, const shape_t& shifts, const shape_t& axes) {
    const index_t r = x.rank();
    shape_t normal;
    for (index_t a : axes)
        normal.push_back(normalize_axis(a, r));
    if (shifts.size() != normal.size() && shifts.size() != 1 && normal.size() != 1)
        throw value_error("roll: shape mismatch: objects cannot be broadcast to a single shape.  "
                          "Mismatch is between arg 0 with shape ("
                          + std::to_string(shifts.size()) + ",) and arg 1 with shape ("
                          + std::to_string(normal.size()) + ",).");
    const std::size_t m = std::max(shifts.size(), normal.size());
    std::vector<index_t> total(static_cast<std::size_t>(r), 0);
    if (!shifts.empty() && !normal.empty())
        for (std::size_t i = 0; i < m; ++i)
            total[static_cast<std::size_t>(normal[normal.size() == 1 ? 0 : i])] +=
                shifts[shifts.size() == 1 ? 0 : i];
    segment_list<T> list;
    list.shape = list.space = x.shape();
    std::vector<std::vector<detail::axis_run>> runs;
    for (std::size_t k = 0; k < x.shape().size(); ++k)
        runs.push_back(detail::roll_runs(x.shape()[k], total[k]));
    detail::product_segments(x, runs, list.segments);
    return list;
}

/// The segments of `numpy.roll(x, shift)` without an axis: the raveled `x` rolled by `shift`,
/// reshaped back. Space = `(size,)`: two boxes of the raveled output, read from two ranges of
/// the raveled source, so `x` must be row-major contiguous (throws `value_error` otherwise; a
/// flat range of another layout is not one strided view: `roll` evaluates such an operand
/// into a contiguous tensor first, as NumPy's `ravel` copies it).
template <class T>
segment_list<T> roll_segments(const tensor_view<const T>& x, index_t shift) {
    if (!is_row_major(x.shape(), x.strides()) && x.size() > 1)
        throw value_error("roll_segments: a roll without an axis needs a row-major contiguous "
                          "source (shape "
                          + to_string(x.shape()) + ", strides " + to_string(x.strides()) + ")");
    segment_list<T> list;
    list.shape = x.shape();
    list.space = shape_t{x.size()};
    const tensor_view<const T> flat(x.data(), list.space, strides_t{1}, x.owner(), x.lifetime());
    detail::product_segments(flat, {detail::roll_runs(x.size(), shift)}, list.segments);
    return list;
}

/// The segments of `numpy.tile(x, reps)`: with `d = max(x.rank(), reps.size())`, `x`'s shape
/// and `reps` are padded with leading 1s to length d (NumPy's rank promotion) and the output
/// has extents `shape[k] * reps[k]`. Space = `(reps[0], shape[0], reps[1], shape[1], ...)`:
/// one box, `x` broadcast (stride 0) along every `reps` axis. Throws `value_error` for a
/// negative rep, in NumPy's order: "negative dimensions are not allowed" when the tiles of the
/// axes before it are not empty, else "cannot reshape array of size 0" when it makes an
/// extent negative (an empty tile with a negative rep on an axis of extent 0 is no error).
template <class T>
segment_list<T> tile_segments(const tensor_view<const T>& x, const shape_t& reps_in) {
    const std::size_t d = std::max(x.shape().size(), reps_in.size());
    shape_t s(d - x.shape().size(), 1), reps(d - reps_in.size(), 1);
    strides_t st(d - x.shape().size(), 0);
    s.insert(s.end(), x.shape().begin(), x.shape().end());
    st.insert(st.end(), x.strides().begin(), x.strides().end());
    reps.insert(reps.end(), reps_in.begin(), reps_in.end());
    // numpy.tile's order: along the axes in turn, a negative rep while the partial result is
    // not empty is repeat's error; a negative extent left over is the final reshape's.
    index_t partial = x.size();
    for (std::size_t k = 0; k < d && partial > 0; ++k) {
        if (reps[k] < 0)
            throw value_error("tile: negative dimensions are not allowed (reps "
                              + to_string(reps_in) + " for shape " + to_string(x.shape()) + ")");
        partial *= reps[k];
    }
    segment_list<T> list;
    for (std::size_t k = 0; k < d; ++k)
        list.shape.push_back(s[k] * reps[k]);
    for (std::size_t k = 0; k < d; ++k)
        if (list.shape[k] < 0)
            throw value_error("tile: cannot reshape array of size 0 into shape "
                              + to_string(list.shape) + " (negative reps " + to_string(reps_in)
                              + " for shape " + to_string(x.shape()) + ")");
    shape_t extents;
    strides_t strides;
    for (std::size_t k = 0; k < d; ++k) {
        list.space.push_back(reps[k]);
        list.space.push_back(s[k]);
        extents.push_back(reps[k]);
        extents.push_back(s[k]);
        strides.push_back(0);
        strides.push_back(st[k]);
    }
    if (shape_size(list.shape) != 0)
        list.segments.push_back(
            {shape_t(2 * d, 0),
             tensor_view<const T>(
                 x.data(), std::move(extents), std::move(strides), x.owner(), x.lifetime())});
    return list;
}

/// The segments of `numpy.tile(x, reps)` as boxes of the output itself (space = shape): one per
/// tile, each the whole of `x` (with leading extent-1 axes when `reps` is longer than its
/// rank), in row-major order of the tiles. What lets a lazy tile with few tiles run by cells
/// inside an expression (`tile_segments` is one box of a reshaped space, which can only be
/// filled whole there). Same checks and errors as `tile_segments`.
template <class T>
segment_list<T> tile_boxes(const tensor_view<const T>& x, const shape_t& reps_in) {
    segment_list<T> list = tile_segments(x, reps_in); // the checks, the shape
    const std::size_t d = list.shape.size();
    shape_t reps, s;
    for (std::size_t k = 0; k < d; ++k) {
        reps.push_back(list.space[2 * k]);
        s.push_back(list.space[2 * k + 1]);
    }
    list.space = list.shape;
    if (list.segments.empty())
        return list;
    const tensor_view<const T> whole = list.segments.front().source;
    strides_t st;
    for (std::size_t k = 0; k < d; ++k)
        st.push_back(whole.strides()[2 * k + 1]);
    const tensor_view<const T> one(whole.data(), s, st, whole.owner(), whole.lifetime());
    list.segments.clear();
    shape_t r(d, 0);
    for (;;) {
        shape_t start(d, 0);
        for (std::size_t k = 0; k < d; ++k)
            start[k] = r[k] * s[k];
        list.segments.push_back({std::move(start), one});
        std::size_t k = d;
        while (k > 0 && ++r[k - 1] == reps[k - 1])
            r[--k] = 0;
        if (k == 0)
            break;
    }
    return list;
}

/// Above this many tiles a lazy tile keeps `tile_segments`' one box (filled whole inside an
/// expression) rather than one cell per tile.
inline constexpr index_t tile_cells_max = 64;

/// The segments of `numpy.repeat(x, repeats, axis)` with one count for every element: each
/// element repeated `repeats` times along `axis` (`none`: of the raveled `x`, a 1-d result).
/// Space = the output's shape with the axis split into `(n, repeats)` (for `none`: `x`'s shape
/// followed by `repeats`): one box, `x` broadcast along the new axis. A 0-d `x` counts as
/// `(1,)`. Throws `axis_error`, `value_error` for a negative count ("negative dimensions are
/// not allowed"; none for an empty axis, as NumPy, which broadcasts the count over it).
template <class T>
segment_list<T>
repeat_segments(const tensor_view<const T>& x, index_t repeats, std::optional<index_t> axis) {
    shape_t s = x.shape();
    strides_t st = x.strides();
    if (s.empty() && axis) {
        s = shape_t{1};
        st = strides_t{0};
    }
    const index_t ax = axis ? normalize_axis(*axis, s.rank()) : s.rank();
    const index_t n = axis ? s[static_cast<std::size_t>(ax)] : x.size();
    if (repeats < 0 && n != 0) // NumPy broadcasts the count over the axis: none when it is empty
        throw value_error("repeat: negative dimensions are not allowed (repeats "
                          + std::to_string(repeats) + ")");
    if (n == 0)
        repeats = 0;
    segment_list<T> list;
    if (axis) {
        list.shape = s;
        list.shape[static_cast<std::size_t>(ax)] *= repeats;
    } else {
        list.shape = shape_t{x.size() * repeats};
    }
    list.space = s;
    list.space.insert(list.space.begin() + (axis ? ax + 1 : ax), repeats);
    st.insert(st.begin() + (axis ? ax + 1 : ax), 0);
    if (shape_size(list.shape) != 0)
        list.segments.push_back(
            {shape_t(list.space.size(), 0),
             tensor_view<const T>(x.data(), list.space, std::move(st), x.owner(), x.lifetime())});
    return list;
}

namespace detail {

/// numpy.repeat's checks of per-element counts against `s` (the operand's shape, or `(size,)`
/// for no axis; a 0-d operand as `(1,)`), in NumPy's order; returns the normalised axis.
FUSOR_DECL index_t check_repeat_counts(const shape_t& s,
                                       const std::vector<index_t>& counts,
                                       std::optional<index_t> axis);

} // namespace detail

/// The segments of `numpy.repeat(x, counts, axis)` with one count per element along `axis`
/// (`none`: per element of the raveled `x`, which must then be row-major contiguous, or have
/// at most one element): element i fills `counts[i]` consecutive positions, one box per
/// element with a non-zero count (its slice broadcast along the axis). Space = the output's
/// shape. A one-element `counts` is one count for every element. Throws `axis_error`;
/// `value_error` for a negative count ("repeats may not contain negative values") or a
/// length that is neither 1 nor the axis's extent ("operands could not be broadcast together
/// with shape (3,) (2,)").
template <class T>
segment_list<T> repeat_segments(const tensor_view<const T>& x,
                                const std::vector<index_t>& counts,
                                std::optional<index_t> axis) {
    if (!axis && !is_row_major(x.shape(), x.strides()) && x.size() > 1)
        throw value_error("repeat_segments: repeat without an axis needs a row-major contiguous "
                          "source (shape "
                          + to_string(x.shape()) + ")");
    shape_t s = axis ? x.shape() : shape_t{x.size()};
    strides_t st = axis ? x.strides() : strides_t{1};
    if (s.empty()) {
        s = shape_t{1};
        st = strides_t{0};
    }
    const index_t ax = detail::check_repeat_counts(s, counts, axis);
    const auto a = static_cast<std::size_t>(ax);
    const index_t n = s[a];
    if (counts.size() == 1) {
        const tensor_view<const T> v(x.data(), s, st, x.owner(), x.lifetime());
        return repeat_segments(v, counts[0], axis ? std::optional<index_t>(ax) : 0);
    }
    segment_list<T> list;
    list.shape = s;
    index_t total = 0;
    for (index_t c : counts)
        total += c;
    list.shape[a] = total;
    list.space = list.shape;
    if (!axis)
        list.shape = shape_t{total};
    if (shape_size(list.space) == 0)
        return list;
    index_t at = 0;
    for (index_t i = 0; i < n; ++i) {
        const index_t c = counts[static_cast<std::size_t>(i)];
        if (c == 0)
            continue;
        shape_t start(s.size(), 0), ext = s;
        strides_t bst = st;
        start[a] = at;
        ext[a] = c;
        bst[a] = 0;
        list.segments.push_back(
            {std::move(start),
             tensor_view<const T>(
                 x.data() + i * st[a], std::move(ext), std::move(bst), x.owner(), x.lifetime())});
        at += c;
    }
    return list;
}

namespace detail {

/// An operand as a `tensor_view<const T>` that a lazy segmented node can keep: an lvalue tensor
/// or a view is read in place (as any expression reads its operands); an rvalue tensor is moved
/// to the heap and any other expression evaluated once into a tensor there, either kept alive
/// by the view's owner. With `row_major`, a view that is not row-major contiguous is copied
/// too (a flat range of it is then one strided view, as NumPy's `ravel` copies).
template <class E>
tensor_view<const value_type_t<E>> held_view(E&& e, bool row_major = false) {
    using T = value_type_t<E>;
    auto owned = [](tensor<T> t) {
        auto p = std::make_shared<const tensor<T>>(std::move(t));
        return tensor_view<const T>(p->data(), p->shape(), p->strides(), p);
    };
    using U = std::remove_cvref_t<E>;
    if constexpr (tensor_like<U> && !std::is_lvalue_reference_v<E>) {
        return owned(std::move(e));
    } else if constexpr (tensor_like<U>) {
        return std::as_const(e).view();
    } else if constexpr (view_like<U>) {
        check_lifetimes(e);
        if (row_major && !is_row_major(e.shape(), e.strides()) && e.size() > 1)
            return owned(tensor<T>(e));
        return tensor_view<const T>(e);
    } else {
        return owned(eval(e)); // eval: an advanced view is gathered once, not gathered and copied
    }
}

/// An operand read as a `tensor_view<const T>`: a tensor or a view where it is, any other
/// expression evaluated once (one fused loop) into a tensor this object owns. With
/// `row_major`, a view that is not row-major contiguous is copied too (a flat range of it is
/// then one strided view, as NumPy's `ravel` copies).
template <class E>
class source_view {
public:
    using T = value_type_t<E>;

    explicit source_view(const E& e, bool row_major = false) {
        if constexpr (tensor_like<E>) {
            view_.emplace(e.view());
        } else if constexpr (view_like<E>) {
            check_lifetimes(e);
            view_.emplace(tensor_view<const T>(e));
            if (row_major && !is_row_major(e.shape(), e.strides()) && e.size() > 1)
                own(tensor<T>(e));
        } else {
            own(eval(e)); // (eval: see held_view)
        }
    }
    source_view(const source_view&) = delete;
    source_view& operator=(const source_view&) = delete;

    const tensor_view<const T>& view() const { return *view_; }

private:
    void own(tensor<T> t) {
        owned_ = std::make_unique<tensor<T>>(std::move(t));
        view_.emplace(std::as_const(*owned_).view());
    }

    std::unique_ptr<tensor<T>> owned_;
    std::optional<tensor_view<const T>> view_;
};

} // namespace detail

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/segments.ipp>
#endif
