// fusor/algo/advanced_indexing.hpp: NumPy's advanced indexing through `view(...)`: a boolean
// mask (`view(x, mask)`, as `x[mask]`) and integer index arrays mixed with integers, slices,
// `all`, `newaxis` and `ellipsis` (`view(x, idx, all)`, as `x[idx, :]`).
//
// The result is an `advanced_view`: where the selected elements sit in the operand, worked out
// (and every index checked) at the call. Reading it copies them into a new tensor, as NumPy's
// `x[mask]` copies; assigning to it scatters into the operand, as NumPy's `x[mask] = v`. It is
// not an expression node: the planner composes affine index maps, and a gather is not one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/algo/index_arrays.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/convert.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {

// ---- the selection: where the selected elements are -----------------------------------------

/// Where an advanced view's elements sit, relative to its operand's data pointer. The result
/// (row-major) is `outer × rows × inner`: for every position of the whole axes before the index
/// arrays' broadcast dimensions (`outer`), every row (one per broadcast index position, or per
/// true mask element), the block of whole axes after them (`inner`).
struct selection {
    shape_t shape;      ///< the result's shape
    index_t offset = 0; ///< of the first element the basic indices (slices) leave
    shape_t outer_shape;
    strides_t outer_strides;
    /// Row offsets, `count` of them in row-major order of the broadcast indices (not
    /// zero-filled: the first index array writes them, the others add to them).
    std::unique_ptr<index_t[]> rows;
    bool by_mask = false; ///< the rows are the true elements of `mask` instead of `rows`
    tensor<bool> mask{shape_t{0}};
    strides_t mask_strides; ///< the operand's strides on the axes the mask covers
    index_t mask_step = 0;  ///< those axes as one of this stride (0: they do not merge)
    index_t last_true = -1; ///< row-major position of the mask's last true element
    index_t count = 0;      ///< rows (true elements for a mask)
    shape_t inner_shape;
    strides_t inner_strides;
    index_t inner_size = 1;
    bool inner_contiguous = true; ///< the inner block is one run of stride 1
    /// `x[mask]` with `mask.ndim == x.ndim`: NumPy's boolean assignment takes a 0-d or 1-d
    /// value of size 1 or `count` only.
    bool whole_mask = false;
};

/// Calls `f(offset)` for every position of `shape` in row-major order, `offset` the sum of
/// `index[d] * strides[d]`, kept as a running sum (no division per element). Once for `()`.
template <class F>
void for_each_offset(const shape_t& shape, const strides_t& strides, F&& f) {
    const std::size_t r = shape.size();
    if (r == 0) {
        f(index_t{0});
        return;
    }
    for (const index_t n : shape)
        if (n == 0)
            return;
    const index_t last = shape[r - 1], step = strides[r - 1];
    shape_t pos(r, 0);
    index_t base = 0;
    for (;;) {
        index_t off = base;
        for (index_t i = 0; i < last; ++i, off += step)
            f(off);
        std::size_t d = r - 1;
        for (;;) {
            if (d == 0)
                return;
            --d;
            base += strides[d];
            if (++pos[d] < shape[d])
                break;
            base -= strides[d] * shape[d];
            pos[d] = 0;
        }
    }
}

/// The one stride `shape`/`strides` step by when their axes merge into one run
/// (`strides[d] == strides[d+1] * shape[d+1]`, extent-1 axes ignored), else nullopt.
inline std::optional<index_t> merged_step(const shape_t& shape, const strides_t& strides) {
    std::optional<index_t> step;
    index_t acc = 0;
    for (std::size_t d = shape.size(); d-- > 0;) {
        if (shape[d] == 1)
            continue;
        if (!step) {
            step = strides[d];
            acc = strides[d] * shape[d];
        } else if (strides[d] != acc) {
            return std::nullopt;
        } else {
            acc *= shape[d];
        }
    }
    return step ? step : std::optional<index_t>(1);
}

inline void set_inner(selection& s, shape_t shape, strides_t strides) {
    s.inner_size = shape_size(shape);
    const std::optional<index_t> step = merged_step(shape, strides);
    s.inner_contiguous = step && *step == 1;
    s.inner_shape = std::move(shape);
    s.inner_strides = std::move(strides);
}

/// Calls `f(row_offset)` for every row of `s`, in order.
template <class F>
void for_each_row(const selection& s, F&& f) {
    if (!s.by_mask) {
        for (index_t k = 0; k < s.count; ++k)
            f(s.rows[static_cast<std::size_t>(k)]);
        return;
    }
    const bool* m = s.mask.data();
    if (s.mask_step != 0) {
        for (index_t k = 0; k <= s.last_true; ++k)
            if (m[k])
                f(k * s.mask_step);
        return;
    }
    index_t k = 0;
    for_each_offset(s.mask.shape(), s.mask_strides, [&](index_t off) {
        if (m[k++])
            f(off);
    });
}

/// Calls `block(offset)` for the first element of every inner block of `s`, in result order.
template <class F>
void for_each_block(const selection& s, F&& block) {
    for_each_offset(s.outer_shape, s.outer_strides, [&](index_t outer) {
        for_each_row(s, [&](index_t row) { block(s.offset + outer + row); });
    });
}

/// The selected elements of `data` into `out` (the result's size, row-major).
template <class T>
void gather(const selection& s, const T* data, std::remove_const_t<T>* out) {
    if (s.by_mask && s.mask_step != 0 && s.inner_size == 1 && s.outer_shape.empty()) {
        // x[mask] element by element: branch-free, every position up to the last true one is
        // stored and the count moves on only past true ones (so `out` never overruns).
        const bool* m = s.mask.data();
        const T* d = data + s.offset;
        const index_t step = s.mask_step;
        index_t n = 0;
        for (index_t k = 0; k <= s.last_true; ++k) {
            out[n] = d[k * step];
            n += m[k];
        }
        return;
    }
    if (!s.by_mask && s.inner_size == 1 && s.outer_shape.empty()) {
        // x[idx] element by element (a take): one gather.
        const T* d = data + s.offset;
        const index_t* rows = s.rows.get();
        for (index_t k = 0; k < s.count; ++k)
            out[k] = d[rows[k]];
        return;
    }
    for_each_block(s, [&](index_t at) {
        const T* from = data + at;
        if (s.inner_size == 1)
            *out++ = *from;
        else if (s.inner_contiguous)
            out = std::copy(from, from + s.inner_size, out);
        else
            for_each_offset(s.inner_shape, s.inner_strides, [&](index_t i) { *out++ = from[i]; });
    });
}

/// Writes the selected elements of `data` from `src`: one value for every element
/// (`constant`: `src[0]` for all), in result order; a repeated position takes the last.
template <class T>
void scatter(const selection& s, T* data, const T* src, bool constant) {
    if (s.by_mask && s.mask_step != 0 && s.inner_size == 1 && s.outer_shape.empty()) {
        const bool* m = s.mask.data();
        T* d = data + s.offset;
        const index_t step = s.mask_step;
        if (constant) {
            const T v = *src;
            for (index_t k = 0; k <= s.last_true; ++k)
                if (m[k])
                    d[k * step] = v;
        } else {
            index_t n = 0;
            for (index_t k = 0; k <= s.last_true; ++k)
                if (m[k])
                    d[k * step] = src[n++];
        }
        return;
    }
    for_each_block(s, [&](index_t at) {
        T* to = data + at;
        if (s.inner_size == 1) {
            *to = *src;
            src += !constant;
        } else if (s.inner_contiguous && !constant) {
            std::copy(src, src + s.inner_size, to);
            src += s.inner_size;
        } else {
            for_each_offset(s.inner_shape, s.inner_strides, [&](index_t i) {
                to[i] = *src;
                src += !constant;
            });
        }
    });
}

// ---- the indices, read at the call ------------------------------------------------------------

/// One index of an advanced `view(...)`, as read at the call.
struct advanced_index {
    enum class kind { integer, range, new_axis, dots, array, mask };
    kind k = kind::range;
    index_t integer = 0;
    std::optional<slice> range;
    const std::int64_t* values = nullptr;      ///< an index array's values, row-major
    shape_t shape;                             ///< ... and its shape
    std::optional<tensor<std::int64_t>> owned; ///< the values when they had to be converted
    tensor<bool> mask{shape_t{0}};             ///< a mask (a private copy)
};

template <class I>
advanced_index to_advanced_index(const I& i) {
    using K = advanced_index::kind;
    advanced_index a;
    if constexpr (std::is_same_v<I, bool>) {
        static_assert(!std::is_same_v<I, bool>,
                      "fusor: a C++ bool is not an index of view(...) with index arrays (NumPy's "
                      "x[True] is a 0-d mask: pass a 0-d tensor<bool>)");
    } else if constexpr (std::is_integral_v<I>) {
        a.k = K::integer;
        a.integer = static_cast<index_t>(i);
    } else if constexpr (std::is_same_v<I, slice>) {
        a.range = i;
    } else if constexpr (std::is_same_v<I, all_t>) {
        a.range = slice(none, none);
    } else if constexpr (std::is_same_v<I, newaxis_t>) {
        a.k = K::new_axis;
    } else if constexpr (std::is_same_v<I, ellipsis_t>) {
        a.k = K::dots;
    } else {
        static_assert(expression<I>,
                      "fusor: view(...) takes integers, slice, all, newaxis, ellipsis and "
                      "integer or bool tensors, views or expressions");
        using V = value_type_t<I>;
        static_assert(std::is_integral_v<V>,
                      "fusor: only integers, slices, all, ellipsis, newaxis and integer or "
                      "boolean arrays are valid indices (NumPy's IndexError); cast a float index "
                      "array with cast<std::int64_t>(idx)");
        if constexpr (std::is_same_v<V, bool>) {
            a.k = K::mask;
            a.mask = tensor<bool>(i);
        } else {
            a.k = K::array;
            if constexpr (tensor_like<I> && std::is_same_v<V, std::int64_t>) {
                check_lifetimes(i);
                a.values = i.data(); // read in place: the call is over before `i` can change
                a.shape = i.shape();
            } else {
                // uint64 values cast as NumPy's 'same_kind' cast to intp casts them.
                a.owned.emplace(i);
                a.values = a.owned->data();
                a.shape = a.owned->shape();
            }
        }
    }
    return a;
}

/// NumPy's words for a mask whose extent differs from the operand's on `axis`.
inline void check_mask_extent(const shape_t& operand, const shape_t& mask, std::size_t first) {
    for (std::size_t j = 0; j < mask.size(); ++j)
        if (mask[j] != operand[first + j])
            throw index_error(
                "boolean index did not match indexed array along dimension "
                + std::to_string(first + j) + "; dimension is " + std::to_string(operand[first + j])
                + " but corresponding boolean dimension is " + std::to_string(mask[j]));
}

/// `x[mask]` with a mask of rank >= 1 over `x`'s leading axes (the mask is taken).
inline selection select_by_mask(const shape_t& shape, const strides_t& strides, tensor<bool> m) {
    const std::size_t k = m.shape().size();
    if (k > shape.size())
        throw index_error("too many indices for array: array is " + std::to_string(shape.size())
                          + "-dimensional, but " + std::to_string(k) + " were indexed");
    check_mask_extent(shape, m.shape(), 0);
    selection s;
    s.by_mask = true;
    s.whole_mask = k == shape.size();
    // Branch-free: a random mask would mispredict every other branch.
    const bool* mb = m.data();
    index_t count = 0;
    for (index_t j = 0; j < m.size(); ++j)
        count += mb[j];
    s.count = count;
    for (index_t j = m.size(); j-- > 0 && s.last_true < 0;)
        if (mb[j])
            s.last_true = j;
    s.mask_strides = strides_t(strides.begin(), strides.begin() + static_cast<std::ptrdiff_t>(k));
    const std::optional<index_t> step = merged_step(m.shape(), s.mask_strides);
    s.mask_step = step ? *step : 0;
    s.mask = std::move(m);
    s.shape = shape_t{s.count};
    s.shape.insert(s.shape.end(), shape.begin() + static_cast<std::ptrdiff_t>(k), shape.end());
    set_inner(s,
              shape_t(shape.begin() + static_cast<std::ptrdiff_t>(k), shape.end()),
              strides_t(strides.begin() + static_cast<std::ptrdiff_t>(k), strides.end()));
    return s;
}

/// The row-major positions of `m`'s true elements as one int64 array per axis (nonzero).
inline std::vector<tensor<std::int64_t>> true_positions(const tensor<bool>& m) {
    const std::size_t k = m.shape().size();
    index_t count = 0;
    for (index_t j = 0; j < m.size(); ++j)
        count += m.data()[j];
    std::vector<tensor<std::int64_t>> out;
    for (std::size_t d = 0; d < k; ++d)
        out.emplace_back(shape_t{count}, uninitialized);
    shape_t pos(k, 0);
    index_t n = 0;
    for (index_t j = 0; j < m.size(); ++j) {
        if (m.data()[j]) {
            for (std::size_t d = 0; d < k; ++d)
                out[d].data()[n] = pos[d];
            ++n;
        }
        for (std::size_t d = k; d-- > 0;) {
            if (++pos[d] < m.shape()[d])
                break;
            pos[d] = 0;
        }
    }
    return out;
}

/// NumPy's advanced indexing `x[items...]` over an operand of `shape` and `strides`: every
/// index checked, the result's shape and the offsets of its elements.
inline selection
select(const shape_t& shape, const strides_t& strides, std::vector<advanced_index>& items) {
    using K = advanced_index::kind;
    if (items.size() == 1 && items[0].k == K::mask && items[0].mask.rank() > 0)
        return select_by_mask(shape, strides, std::move(items[0].mask));

    std::size_t consumed = 0, dots = 0;
    for (const advanced_index& a : items) {
        if (a.k == K::integer || a.k == K::range || a.k == K::array)
            ++consumed;
        else if (a.k == K::mask)
            consumed += a.mask.shape().size();
        dots += a.k == K::dots;
    }
    if (dots > 1)
        throw index_error("an index can only have a single ellipsis ('...')");
    if (consumed > shape.size())
        throw index_error("too many indices for array: array is " + std::to_string(shape.size())
                          + "-dimensional, but " + std::to_string(consumed) + " were indexed");

    // One entry per axis of the basic view: its basic index, and for an index array (integers
    // and masks become index arrays here) the values and the operand axis they index.
    struct entry {
        view_index basic;
        bool is_array = false;
        const std::int64_t* values = nullptr;
        shape_t shape;
        index_t axis = 0; // for the out-of-bounds message
    };
    std::vector<entry> entries;
    const auto add_basic = [&](view_index v) {
        entry e;
        e.basic = std::move(v);
        entries.push_back(std::move(e));
    };
    std::vector<tensor<std::int64_t>> store; // masks' positions, 0-d masks' and integers' values
    store.reserve(items.size() + shape.size());
    const auto hold = [&](tensor<std::int64_t> t) -> const tensor<std::int64_t>& {
        store.push_back(std::move(t));
        return store.back();
    };
    std::size_t axis = 0;
    const auto whole = [&](std::size_t n) {
        for (std::size_t j = 0; j < n; ++j, ++axis)
            add_basic(slice(none, none));
    };
    for (advanced_index& a : items) {
        switch (a.k) {
        case K::integer: {
            const index_t n = shape[axis];
            const index_t j = checked_index(a.integer, n, static_cast<index_t>(axis));
            tensor<std::int64_t> v(shape_t{}, uninitialized);
            v.data()[0] = j;
            entries.push_back({slice(none, none),
                               true,
                               hold(std::move(v)).data(),
                               shape_t{},
                               static_cast<index_t>(axis)});
            ++axis;
            break;
        }
        case K::range:
            add_basic(*a.range);
            ++axis;
            break;
        case K::new_axis:
            add_basic(newaxis);
            break;
        case K::dots:
            whole(shape.size() - consumed);
            break;
        case K::array:
            entries.push_back(
                {slice(none, none), true, a.values, a.shape, static_cast<index_t>(axis)});
            ++axis;
            break;
        case K::mask:
            if (a.mask.rank() == 0) {
                // NumPy: a 0-d mask is a new axis of extent 1 indexed by [0] (true) or [] (false).
                tensor<std::int64_t> v(shape_t{a.mask.data()[0] ? 1 : 0});
                const std::int64_t* p = hold(std::move(v)).data();
                entries.push_back(
                    {newaxis, true, p, shape_t{a.mask.data()[0] ? 1 : 0}, index_t{0}});
            } else {
                check_mask_extent(shape, a.mask.shape(), axis);
                for (tensor<std::int64_t>& t : true_positions(a.mask)) {
                    const tensor<std::int64_t>& h = hold(std::move(t));
                    entries.push_back(
                        {slice(none, none), true, h.data(), h.shape(), static_cast<index_t>(axis)});
                    ++axis;
                }
            }
            break;
        }
    }
    if (dots == 0)
        whole(shape.size() - consumed);

    std::vector<view_index> basic;
    for (const entry& e : entries)
        basic.push_back(e.basic);
    const affine_map map = view_map(shape, basic);
    const shape_t& vshape = map.out_shape;
    const strides_t vstrides = map.apply_strides(strides);

    selection s;
    s.offset = map.apply_offset(strides);
    std::vector<std::size_t> arrays; // the view axes the index arrays index
    for (std::size_t p = 0; p < entries.size(); ++p)
        if (entries[p].is_array)
            arrays.push_back(p);
    shape_t b;
    try {
        for (const std::size_t p : arrays)
            b = broadcast_shapes(b, entries[p].shape);
    } catch (const broadcast_error&) {
        std::string msg = "shape mismatch: indexing arrays could not be broadcast together with "
                          "shapes";
        for (const std::size_t p : arrays)
            msg += " " + to_compact_string(entries[p].shape);
        throw index_error(msg);
    }
    // NumPy's placement: index arrays next to each other put the broadcast dimensions where
    // they stand; arrays separated by a slice or newaxis put them first.
    const bool adjacent = arrays.back() - arrays.front() + 1 == arrays.size();
    const std::size_t first = adjacent ? arrays.front() : 0;
    shape_t inner_shape;
    strides_t inner_strides;
    for (std::size_t p = 0; p < entries.size(); ++p) {
        if (entries[p].is_array)
            continue;
        if (adjacent && p < first) {
            s.outer_shape.push_back(vshape[p]);
            s.outer_strides.push_back(vstrides[p]);
        } else {
            inner_shape.push_back(vshape[p]);
            inner_strides.push_back(vstrides[p]);
        }
    }
    s.shape = s.outer_shape;
    s.shape.insert(s.shape.end(), b.begin(), b.end());
    s.shape.insert(s.shape.end(), inner_shape.begin(), inner_shape.end());
    set_inner(s, std::move(inner_shape), std::move(inner_strides));
    s.whole_mask = items.size() == 1 && items[0].k == K::mask && shape.empty();
    // NumPy 1.24 checks index arrays only when the result has elements (a DeprecationWarning
    // otherwise); integers were checked above whatever the result.
    if (shape_size(s.shape) == 0)
        return s;
    const index_t rows = shape_size(b);
    s.count = rows;
    s.rows = std::make_unique_for_overwrite<index_t[]>(static_cast<std::size_t>(rows));
    for (const std::size_t p : arrays) {
        const entry& e = entries[p];
        const index_t n = vshape[p], stride = vstrides[p];
        const index_t size = shape_size(e.shape);
        const bool first = p == arrays.front();
        if (e.shape == b) { // no broadcasting: one pass, in the array's own order
            for (index_t j = 0; j < size; ++j) {
                index_t& r = s.rows[static_cast<std::size_t>(j)];
                r = (first ? 0 : r) + checked_index(e.values[j], n, e.axis) * stride;
            }
            continue;
        }
        std::vector<index_t> at(static_cast<std::size_t>(size));
        for (index_t j = 0; j < size; ++j)
            at[static_cast<std::size_t>(j)] = checked_index(e.values[j], n, e.axis);
        // The array's row-major strides on the broadcast shape (0 where it is stretched).
        const strides_t own = row_major_strides(e.shape);
        strides_t bs(b.size(), 0);
        const std::size_t lead = b.size() - e.shape.size();
        for (std::size_t d = 0; d < e.shape.size(); ++d)
            if (e.shape[d] != 1)
                bs[lead + d] = own[d];
        index_t k = 0;
        for_each_offset(b, bs, [&](index_t off) {
            index_t& r = s.rows[static_cast<std::size_t>(k++)];
            r = (first ? 0 : r) + at[static_cast<std::size_t>(off)] * stride;
        });
    }
    return s;
}

template <class... I>
concept advanced_indices = (expression<I> || ...);

} // namespace detail

/// What `view(x, mask)` and `view(x, index_array, ...)` return: NumPy's advanced indexing,
/// `x[mask]` and `x[idx, ...]`. It records where the selected elements of `x` sit (every
/// index checked at the call; the mask and index arrays are read then) and refers to `x`
/// as a view does. `T` is `x`'s element type, `const` when `x` is read-only.
///
/// - **Read**: `eval(v)`, `v.eval()` or a conversion to `tensor<T>` (`tensor<float> s =
///   view(x, x > 0);`) copy the selected elements into a new contiguous tensor of `shape()`,
///   reading `x` then (NumPy's `x[mask]` copies too). It is not an expression: write
///   `sum(eval(view(x, m)))`, not `sum(view(x, m))`.
/// - **Write** (`x` a non-const tensor or writable view): `v = e` stores `e` (a C++ scalar or
///   any expression or tensor, cast to `T` as assignment casts) into the selected elements;
///   `e` broadcasts to `shape()` (extra leading extent-1 axes allowed), except for NumPy's
///   whole-mask assignment `x[mask] = e` with `mask.ndim == x.ndim`, where `e` must be 0-d or
///   1-d of size 1 or `count`. Repeated indices: the last write wins, as NumPy. `e` is
///   evaluated into a private buffer first, so it may read `x`. `v += e` (and `-= *= /= %= &=
///   |= ^= <<= >>=`) is `v = eval(v) + e` as NumPy's `x[idx] += e`: a repeated index adds once.
///   Every check happens before the first store: a throwing assignment leaves `x` untouched.
/// - Throws (at the call) `index_error` as NumPy: "boolean index did not match indexed array
///   along dimension 0; dimension is 3 but corresponding boolean dimension is 2", "index 7 is
///   out of bounds for axis 0 with size 6", "shape mismatch: indexing arrays could not be
///   broadcast together with shapes (2,) (3,)", "too many indices for array"; (at an
///   assignment) `value_error` for a value that does not fit ("shape mismatch: value array of
///   shape (2,) could not be broadcast to indexing result of shape (3,)", "NumPy boolean array
///   indexing assignment cannot assign 2 input values to the 3 output values where the mask is
///   true"); in checked mode `lifetime_error` when `x` was freed or reallocated since.
template <class T>
class advanced_view {
public:
    using value_type = std::remove_const_t<T>;
    using element_type = T;

    /// (Internal) the view of `base`'s elements that `sel` selects; `view(...)` makes them.
    advanced_view(tensor_view<T> base, std::shared_ptr<const detail::selection> sel)
        : base_(std::move(base)), sel_(std::move(sel)) {}
    advanced_view(const advanced_view&) = default;

    /// The result's shape: `(count,) + x.shape[k:]` for a mask of rank k; for index arrays,
    /// their broadcast shape where NumPy puts it among the other axes.
    const shape_t& shape() const { return sel_->shape; }
    index_t rank() const { return sel_->shape.rank(); }
    index_t size() const { return shape_size(sel_->shape); }

    /// The selected elements, copied now into a new row-major tensor of `shape()`.
    tensor<value_type> eval() const {
        detail::check_lifetimes(base_);
        tensor<value_type> out(sel_->shape, uninitialized);
        detail::gather(*sel_, base_.data(), out.data());
        return out;
    }
    /// `tensor<T> s = view(x, mask);`: the same as `eval()`.
    operator tensor<value_type>() const { return eval(); }
    /// The one selected element; `value_error` unless there is exactly one.
    value_type item() const { return eval().item(); }

    /// Element-wise: `other`'s selected values stored into this view's (not a rebinding).
    const advanced_view& operator=(const advanced_view& other) const {
        return *this = other.eval();
    }
    template <class U>
    const advanced_view& operator=(const advanced_view<U>& other) const {
        return *this = other.eval();
    }
    /// `view(x, mask) = e`: see the class comment for `e`'s shape rules.
    template <class E>
        requires(expression<E> || scalar<E>)
    const advanced_view& operator=(const E& e) const {
        static_assert(!std::is_const_v<T>,
                      "fusor: cannot assign through view(...) of a read-only operand (a const "
                      "tensor, a tensor_view<const T> or an expression)");
        if constexpr (scalar<E>) {
            detail::check_lifetimes(base_);
            const value_type v = convert<value_type>(e);
            detail::scatter(*sel_, base_.data(), &v, true);
        } else {
            store(tensor<value_type>(e));
        }
        return *this;
    }

    template <class E>
    const advanced_view& operator+=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g += v; });
    }
    template <class E>
    const advanced_view& operator-=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g -= v; });
    }
    template <class E>
    const advanced_view& operator*=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g *= v; });
    }
    template <class E>
    const advanced_view& operator/=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g /= v; });
    }
    template <class E>
    const advanced_view& operator%=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g %= v; });
    }
    template <class E>
    const advanced_view& operator&=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g &= v; });
    }
    template <class E>
    const advanced_view& operator|=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g |= v; });
    }
    template <class E>
    const advanced_view& operator^=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g ^= v; });
    }
    template <class E>
    const advanced_view& operator<<=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g <<= v; });
    }
    template <class E>
    const advanced_view& operator>>=(const E& e) const {
        return update(e, [](tensor<value_type>& g, const auto& v) { g >>= v; });
    }

private:
    // Checks `vals` against the selection (NumPy's rules), then scatters it.
    void store(const tensor<value_type>& vals) const {
        const detail::selection& s = *sel_;
        detail::check_lifetimes(base_);
        if (s.whole_mask) {
            if (vals.rank() > 1)
                throw value_error("NumPy boolean array indexing assignment requires a 0 or "
                                  "1-dimensional input, input has "
                                  + std::to_string(vals.rank()) + " dimensions");
            if (vals.size() != 1 && vals.size() != s.count)
                throw value_error("NumPy boolean array indexing assignment cannot assign "
                                  + std::to_string(vals.size()) + " input values to the "
                                  + std::to_string(s.count)
                                  + " output values where the mask is true");
            detail::scatter(s, base_.data(), vals.data(), vals.size() == 1 && s.count != 1);
            return;
        }
        if (!broadcasts_to(vals.shape(), s.shape, true))
            throw value_error("shape mismatch: value array of shape "
                              + to_compact_string(vals.shape())
                              + " could not be broadcast to indexing result of shape "
                              + to_compact_string(s.shape));
        if (shape_size(s.shape) == 0)
            return;
        if (vals.size() == 1) {
            detail::scatter(s, base_.data(), vals.data(), true);
        } else if (vals.shape() == s.shape) {
            detail::scatter(s, base_.data(), vals.data(), false);
        } else {
            shape_t vs = vals.shape(); // the values as the result's rank (leading 1s dropped)
            while (vs.size() > s.shape.size())
                vs.erase(vs.begin());
            const tensor<value_type> full =
                broadcast_to(tensor_view<const value_type>(vals.data(), vs), s.shape);
            detail::scatter(s, base_.data(), full.data(), false);
        }
    }

    // `x[idx] op= e` as NumPy: the selected values, updated in a private copy, stored back.
    template <class E, class F>
    const advanced_view& update(const E& e, F&& f) const {
        static_assert(!std::is_const_v<T>,
                      "fusor: cannot assign through view(...) of a read-only operand");
        tensor<value_type> g = eval();
        if constexpr (expression<E>) {
            // A 0-d selection is a NumPy scalar, which `+=` replaces rather than updates: a
            // one-element `e` of any rank fits it (NumPy's setitem drops the leading 1s).
            if (g.rank() == 0 && detail::checked_shape_of(e).rank() > 0
                && shape_size(e.shape()) == 1) {
                tensor<value_type_t<E>> one = e;
                one.reshape(shape_t{});
                f(g, one);
                detail::scatter(*sel_, base_.data(), g.data(), false);
                return *this;
            }
        }
        f(g, e);
        detail::scatter(*sel_, base_.data(), g.data(), false);
        return *this;
    }

    tensor_view<T> base_;
    std::shared_ptr<const detail::selection> sel_;
};

/// `eval(view(x, mask))`: the selected elements as a new tensor (`advanced_view::eval`).
template <class T>
tensor<std::remove_const_t<T>> eval(const advanced_view<T>& v) {
    return v.eval();
}

namespace detail {
template <class E>
auto make_advanced_view(E&& e, std::vector<advanced_index>& items) {
    using U = std::remove_cvref_t<E>;
    const auto make = [&](auto base) {
        using T = typename decltype(base)::element_type;
        check_lifetimes(base);
        auto sel = std::make_shared<const selection>(select(base.shape(), base.strides(), items));
        return advanced_view<T>(std::move(base), std::move(sel));
    };
    if constexpr (view_like<E>) {
        return make(e);
    } else if constexpr (tensor_like<E> && std::is_lvalue_reference_v<E>) {
        return make(e.view());
    } else {
        // An rvalue tensor is kept (moved), any other expression evaluated once, now: the
        // view owns the values it selects from and is read-only.
        using V = typename U::value_type;
        auto owned = std::make_shared<const tensor<V>>(std::forward<E>(e));
        return make(tensor_view<const V>(owned->data(), owned->shape(), owned->strides(), owned));
    }
}
} // namespace detail

/// `view(x, i...)` with at least one index that is a bool or integer tensor, view or
/// expression: NumPy's advanced indexing `x[i...]`, an `advanced_view` (a copy on read, a
/// scatter on write). The other indices are as basic `view`'s: integers (negative from the
/// end), `slice`, `all`, `newaxis`, one `ellipsis`.
///  - A bool `mask` of rank k selects along k axes: `view(x, mask)` with `mask` of shape
///    `x.shape[:k]` gives `(count,) + x.shape[k:]` (`(3, 4)` with a `(3, 4)` mask of 5 true
///    elements → `(5,)`, with a `(3,)` mask of 2 → `(2, 4)`), row-major order, as `x[mask]`.
///    With other indices a mask counts as its `nonzero()` index arrays; a 0-d mask adds an axis
///    of extent 1 (true) or 0 (false), as NumPy's `x[True]`.
///  - Integer index arrays (any integer dtype; uint64 as NumPy casts it) and, among them,
///    integers broadcast together to shape B: adjacent ones put B where they stand
///    (`(5, 6, 7)` with `view(x, all, i, j)`, i and j of shape (2, 3) → `(5, 2, 3)`), ones
///    separated by a slice, `all` or `newaxis` put B first (`view(x, i, all, j)` → `(2, 3, 6)`).
/// The result's dtype is `x`'s. Over a non-const tensor or writable view it is writable;
/// over a const tensor, a `tensor_view<const T>`, an rvalue tensor or an expression (evaluated
/// once, at the call) it is read-only. Throws `index_error` as NumPy (see `advanced_view`), and
/// `value_error` for a slice step of 0. A C++ `bool` index does not compile here (NumPy's
/// `x[True]`: pass a 0-d `tensor<bool>`); float index arrays do not compile (NumPy's IndexError).
/// Example: `view(x, x < 0) = 0.0;`, `tensor<float> rows = view(x, tensor<int>{0, 2}, all);`.
template <class E, class... I>
    requires(expression<E>&& detail::advanced_indices<I...>)
auto view(E&& e, const I&... idx) {
    std::vector<detail::advanced_index> items;
    items.reserve(sizeof...(I));
    (items.push_back(detail::to_advanced_index(idx)), ...);
    return detail::make_advanced_view(std::forward<E>(e), items);
}

} // namespace fusor
