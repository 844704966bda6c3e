// fusor/algo/chunked_read.hpp: reading an operand's values once, in row-major order, without
// storing it whole: the read plan (`read_plan`, decided once by `plan_read`) and the reader that
// follows it (`detail::chunk_reader`). Used by histogram and bincount; explain_histogram prints
// the same plan.
#pragma once

#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include <fusor/algo/searching.hpp>
#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/plan/kernel_choice.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

/// How a function that reads its operand once (histogram, bincount) gets at its values.
enum class read_mode {
    in_place, ///< a tensor or a dense row-major view: read where the elements are
    chunks,   ///< an element-wise expression or a strided view: evaluated (fused) one chunk at a
              ///< time into a buffer of one chunk, never stored whole
    whole,    ///< an expression holding a reduction or a reshape copy: evaluated once, whole,
              ///< into a temporary (a view of it per chunk would recompute the reduction)
};

/// The chunks of an operand of shape `shape`, in row-major order: slices of `rows` indices of
/// axis `axis` (the outermost axis whose inner block fits `chunk_elements`) at each index of the
/// axes before it. Each run of `axis` has `extent / rows` full chunks of `chunk_shape` and, when
/// `extent % rows` is not 0, one short chunk of `short_shape`. `axis == -1`: one chunk, the
/// operand itself (it has at most `chunk_elements` elements, or none).
struct chunking {
    index_t axis = -1;
    index_t rows = 0;    ///< indices of `axis` per full chunk
    index_t outer = 1;   ///< runs of `axis`: the product of the extents before it
    index_t full = 0;    ///< full chunks per run
    index_t rest = 0;    ///< indices of `axis` in the run's short chunk (0: none)
    shape_t chunk_shape; ///< a full chunk's shape (the operand's shape when `axis == -1`)
    shape_t short_shape; ///< the short chunk's shape (empty when `rest == 0`)

    /// Chunks in all.
    index_t count() const { return axis < 0 ? 1 : outer * (full + (rest > 0 ? 1 : 0)); }
};

/// A chunk holds about this many elements (128 KiB of float32): it stays in L2 between its
/// evaluation and its use, and is large enough that planning its loop costs little beside it.
inline constexpr index_t read_chunk_elements = 32768;

/// The chunks `read_mode::chunks` reads an operand of shape `s` in (see `chunking`).
FUSOR_DECL chunking chunks_of(const shape_t& s, index_t chunk_elements = read_chunk_elements);

/// How an operand is read: `mode`, and the `chunks` its values are walked in (`chunks_of` its
/// shape, whatever the mode: an operand read in place is binned chunk by chunk too, and two
/// operands of one shape, data and weights, are walked together). Decided once by `plan_read`;
/// the reader follows it and `explain_histogram` prints it.
struct read_plan {
    read_mode mode = read_mode::in_place;
    chunking chunks;
};

namespace detail {
// Element-wise expressions over tensors and scalars can be evaluated a chunk at a time.
template <class E>
constexpr bool chunkable_impl() {
    if constexpr (node<E>)
        return planning::flat_tree<std::remove_cvref_t<E>>;
    else
        return !gathered_like<E>; // an advanced view is gathered whole (advanced_view::eval)
}
} // namespace detail

/// True when an operand of type E is read in place or in chunks, false when it is evaluated
/// whole first (it holds a reduction or a reshape copy, or it is an advanced view).
template <class E>
inline constexpr bool chunkable = detail::chunkable_impl<E>();

/// The plan of reading `e` once in row-major order: in place (a tensor, a dense view or a
/// dense leaf), whole (`!chunkable<E>`), else in chunks; walked in `chunks_of(e.shape())`.
template <class E>
read_plan plan_read(const E& e) {
    read_plan p;
    p.chunks = chunks_of(e.shape());
    if constexpr (tensor_like<E>)
        return p;
    else if constexpr (view_like<E>) {
        if (detail::dense_row_major(e.shape(), e.strides()))
            return p;
    } else if constexpr (!chunkable<E>) {
        p.mode = read_mode::whole;
        return p;
    } else if constexpr (tag_of<E> == node_tag::leaf) {
        if (detail::dense_row_major(e.shape(), e.strides()))
            return p;
    }
    p.mode = read_mode::chunks;
    return p;
}

namespace detail {

// One chunk: `[first, first + count)` of the operand's elements in row-major order, the view
// `e[index...]` of shape `shape` (unless `whole`: the operand itself).
struct value_chunk {
    const std::vector<view_index>* index;
    const shape_t* shape;
    index_t first, count;
    bool whole;
};

// Calls `f(chunk)` for the chunks of `c` over an operand of shape `s`, in row-major order.
template <class F>
void for_each_value_chunk(const chunking& c, const shape_t& s, F&& f) {
    const index_t total = shape_size(s);
    if (total == 0)
        return;
    if (c.axis < 0) {
        f(value_chunk{nullptr, &s, 0, total, true});
        return;
    }
    const index_t k = c.axis;
    const index_t extent = s[static_cast<std::size_t>(k)];
    const index_t inner = shape_size(c.chunk_shape) / c.rows;
    std::vector<view_index> index(static_cast<std::size_t>(k + 1), index_t{0});
    shape_t outer(static_cast<std::size_t>(k), 0);
    shape_t shape = c.chunk_shape;
    index_t first = 0;
    for (;;) {
        for (index_t a = 0; a < k; ++a)
            index[static_cast<std::size_t>(a)] = outer[static_cast<std::size_t>(a)];
        for (index_t j = 0; j < extent; j += c.rows) {
            const index_t m = std::min(c.rows, extent - j);
            index[static_cast<std::size_t>(k)] = slice(j, j + m);
            shape[0] = m;
            f(value_chunk{&index, &shape, first, m * inner, false});
            first += m * inner;
        }
        index_t a = k - 1;
        while (a >= 0 && ++outer[static_cast<std::size_t>(a)] == s[static_cast<std::size_t>(a)]) {
            outer[static_cast<std::size_t>(a)] = 0;
            --a;
        }
        if (a < 0)
            return;
    }
}

// The expression a chunk evaluates: the view `e[index...]` (the first run's chunk when
// `index` has the leading axes at 0). explain_histogram plans the same expression.
template <class E>
auto chunk_of(const E& e, const std::vector<view_index>& index) {
    return apply_view(e, [&](const shape_t& s) { return view_map(s, index); });
}

// The first full (or, with `short_chunk`, short) chunk's indices under `c`.
FUSOR_DECL std::vector<view_index> first_chunk_index(const chunking& c, bool short_chunk);

// Reads `e`'s values chunk by chunk as `plan` says (`read(chunk)` points at `chunk.count`
// values): in place; or each chunk evaluated (fused) into a buffer of one chunk; or (whole)
// evaluated once into a temporary at construction.
template <class E>
class chunk_reader {
public:
    using value_type = value_type_t<E>;

    chunk_reader(const E& e, const read_plan& plan) : e_(e) {
        if (plan.mode == read_mode::in_place) {
            if constexpr (tensor_like<E> || view_like<E>)
                direct_ = e.data();
            else if constexpr (node<E>) {
                if constexpr (tag_of<E> == node_tag::leaf) // (an advanced view: never in place)
                    direct_ = e.data;
            }
        } else if (plan.mode == read_mode::whole) {
            owned_ = std::make_unique<tensor<value_type>>(eval(e));
            direct_ = owned_->data();
        } else {
            buffer_ = std::make_unique_for_overwrite<value_type[]>(
                static_cast<std::size_t>(shape_size(plan.chunks.chunk_shape)));
        }
    }

    const value_type* read(const value_chunk& c) {
        if (direct_)
            return direct_ + c.first;
        if constexpr (chunkable<E>) {
            const tensor_view<value_type> into(buffer_.get(), *c.shape);
            if (c.whole)
                into = e_;
            else
                into = chunk_of(e_, *c.index);
        }
        return buffer_.get();
    }

private:
    const E& e_;
    const value_type* direct_ = nullptr;
    std::unique_ptr<tensor<value_type>> owned_;
    std::unique_ptr<value_type[]> buffer_;
};

} // namespace detail
} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/chunked_read.ipp>
#endif
