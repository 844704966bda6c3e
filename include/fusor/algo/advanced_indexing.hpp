// fusor/algo/advanced_indexing.hpp: NumPy's advanced indexing through `view(...)`: a boolean
// mask (`view(x, mask)`, as `x[mask]`) and integer index arrays mixed with integers, slices,
// `all`, `newaxis` and `ellipsis` (`view(x, idx, all)`, as `x[idx, :]`).
//
// The result is an `advanced_view`: where the selected elements sit in the operand, worked out
// (and every index checked) at the call. Reading it copies them into a new tensor, as NumPy's
// `x[mask]` copies; assigning to it scatters into the operand, as NumPy's `x[mask] = v`. It is
// not an expression node (the planner composes affine index maps, and a gather is not one), but
// it is an operand: an expression built over it owns a copy of its elements (expr/leaf.hpp).
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
#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/convert.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/prefetch.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/core/tail_slack.hpp>
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
    /// zero-filled: the first index array writes them, the others add to them). A tensor's
    /// kind of buffer: from 4 MiB on in huge pages, so 2^20 indices' 8 MiB of offsets take 4
    /// page faults when first written, not 2,048.
    aligned_buffer<index_t> rows;
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
FUSOR_DECL std::optional<index_t> merged_step(const shape_t& shape, const strides_t& strides);

FUSOR_DECL void set_inner(selection& s, shape_t shape, strides_t strides);

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

/// The selected elements of `data` into `out` (the result's size, row-major). `source_size`:
/// the elements `data` is a view of (whether an element-by-element gather prefetches).
template <class T>
void gather(const selection& s, const T* data, std::remove_const_t<T>* out, index_t source_size) {
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
        index_t k = 0;
        // From a source beyond the caches each read's line is asked for ahead, as take does.
        if (static_cast<std::size_t>(source_size) * sizeof(T) >= gather_prefetch_min_bytes)
            for (; k < s.count - gather_prefetch_distance; ++k) {
                prefetch_element(d, rows[k + gather_prefetch_distance]);
                out[k] = d[rows[k]];
            }
        for (; k < s.count; ++k)
            out[k] = d[rows[k]];
        return;
    }
    if (!s.by_mask && s.inner_contiguous && s.outer_shape.empty()
        && static_cast<std::size_t>(source_size) * sizeof(T) >= gather_prefetch_min_bytes) {
        // x[idx, :] from a source beyond the caches: whole rows, each row's first line asked
        // for `ahead` rows before it is copied, as take does.
        const T* d = data + s.offset;
        const index_t* rows = s.rows.get();
        const index_t ahead =
            gather_prefetch_rows(static_cast<std::size_t>(s.inner_size) * sizeof(T));
        index_t k = 0;
        for (; k < s.count - ahead; ++k) {
            prefetch_element(d, rows[k + ahead]);
            out = std::copy(d + rows[k], d + rows[k] + s.inner_size, out);
        }
        for (; k < s.count; ++k)
            out = std::copy(d + rows[k], d + rows[k] + s.inner_size, out);
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
    const std::int64_t* values = nullptr;      ///< an index array's values, row-major, in place
    shape_t shape;                             ///< ... and its shape
    std::optional<tensor<std::int64_t>> owned; ///< the values when they had to be converted
    tensor<bool> mask{shape_t{0}};             ///< a mask (a private copy)

    /// The index array's values: the converted copy's, else the operand's own. Asked for when
    /// read, never stored beside `owned`: a small tensor holds its elements inline, so moving
    /// this entry (into the list of indices) moves them.
    const std::int64_t* array_values() const { return owned ? owned->data() : values; }
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
                a.shape = a.owned->shape();
            }
        }
    }
    return a;
}

/// NumPy's words for a mask whose extent differs from the operand's on `axis`.
FUSOR_DECL void check_mask_extent(const shape_t& operand, const shape_t& mask, std::size_t first);

/// `x[mask]` with a mask of rank >= 1 over `x`'s leading axes (the mask is taken).
FUSOR_DECL selection select_by_mask(const shape_t& shape, const strides_t& strides, tensor<bool> m);

/// The row-major positions of `m`'s true elements as one int64 array per axis (nonzero).
FUSOR_DECL std::vector<tensor<std::int64_t>> true_positions(const tensor<bool>& m);

/// NumPy's advanced indexing `x[items...]` over an operand of `shape` and `strides`: every
/// index checked, the result's shape and the offsets of its elements.
FUSOR_DECL selection select(const shape_t& shape,
                            const strides_t& strides,
                            std::vector<advanced_index>& items);

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
///   reading `x` then (NumPy's `x[mask]` copies too).
/// - **Operand**: any expression or function takes it (`sum(view(x, m))`, `view(x, idx) * 2.0`,
///   `matmul(view(x, idx), w)`, `std::cout << view(x, m)`): building the expression gathers the
///   selected elements into a tensor the expression owns (as an rvalue tensor operand is owned),
///   so the expression keeps the values read then, as `s = np.sum(x[m])` does; explain shows the
///   copy as a tensor operand of `shape()`.
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
        detail::gather(*sel_, base_.data(), out.data(), base_.size());
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

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/advanced_indexing.ipp>
#endif
