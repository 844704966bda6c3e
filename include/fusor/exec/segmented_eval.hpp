// fusor/exec/segmented_eval.hpp: evaluating a tree that holds segmented nodes (lazy roll, pad,
// concatenate, stack) by the plan plan/segment_cells.hpp makes: per cell, the tree restricted
// to the cell (each leaf and each segmented node becomes the strided view it reads there: a
// `leaf<T, true>`) is evaluated by the ordinary path into that box of the destination; or, when
// the plan says so, every segmented node filled whole into a temporary first. One lowered tree
// type per expression type, whatever the cells.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/traverse.hpp>
#include <fusor/exec/rebuild.hpp>
#include <fusor/exec/temporary_pool.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/expr/segmented.hpp>
#include <fusor/plan/segment_cells.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor::detail {

// Defined in exec/assign.hpp (which includes this header first: the defaults are given here).
template <bool DestIsExpressionShape = false, class D, class N>
void evaluate_into(
    D* data, const shape_t& shape, const strides_t& strides, const N& n, bool fresh = false);

// One copy loop per segment of `list` into the row-major destination at `data`, viewed as the
// list's space (`fresh`: allocated for this evaluation, as evaluate_into's).
template <class D, class T>
void fill_segments_into(const segment_list<T>& list, D* data, bool fresh) {
    const strides_t space = row_major_strides(list.space);
    for (const segment<T>& seg : list.segments) {
        index_t offset = 0;
        for (std::size_t k = 0; k < seg.start.size(); ++k)
            offset += seg.start[k] * space[k];
        evaluate_into(data + offset, seg.extents(), space, make_leaf(seg.source), fresh);
    }
}

// A strided view (data, shape, strides) whose origin sits at `origin` of the space (one index
// per axis of the view), restricted to `cell`: axes that are broadcast in the space keep
// extent 1.
template <class T>
leaf<T, true> cell_leaf(const T* data,
                        const shape_t& shape,
                        const strides_t& strides,
                        const shape_t& broadcast_shape,
                        const shape_t* origin,
                        const shape_t& space,
                        const segment_cell& cell,
                        std::shared_ptr<const void> owner,
                        const T* base) {
    shape_t ext = shape;
    index_t offset = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        std::size_t j = 0;
        if (!planning::aligned_axis(broadcast_shape, k, space, j))
            continue;
        const index_t from = origin ? (*origin)[k] : 0;
        offset += (cell.start[j] - from) * strides[k];
        ext[k] = cell.extents[j];
    }
    return leaf<T, true>{{}, data + offset, std::move(ext), strides, std::move(owner), true, base};
}

// The tree restricted to one cell: leaves and segmented nodes become leaf<T, true>, scalars stay,
// element-wise nodes are rebuilt over their restricted children.
struct cell_lowering {
    const segment_cells& plan;
    const segment_cell& cell;
    std::size_t next = 0; // the next segmented node, depth-first

    template <class N>
    auto on_leaf(const N& n) {
        using T = typename N::value_type;
        return cell_leaf<T>(n.data,
                            n.shape(),
                            n.strides(),
                            n.shape(),
                            nullptr,
                            plan.space,
                            cell,
                            n.owner,
                            n.base ? n.base : n.data);
    }
    template <class N>
    N on_scalar(const N& n) {
        return n;
    }
    template <class N>
    auto on_segmented(const N& n) {
        using T = typename N::value_type;
        const auto& seg = n.list->segments[cell.segment[next++]];
        const tensor_view<const T>& s = seg.source;
        return cell_leaf<T>(s.data(),
                            s.shape(),
                            s.strides(),
                            n.shape(),
                            &seg.start,
                            plan.space,
                            cell,
                            s.owner(),
                            s.base());
    }
    template <class N>
    auto on_elementwise(const N& n) {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            // Children left to right: a braced list fixes the order the segments are counted in.
            return elementwise<typename N::op_type, decltype(traverse(child<I>(n), *this))...>{
                traverse(child<I>(n), *this)...};
        }
        (std::make_index_sequence<child_count<N>>{});
    }
};

// Where a cell of the reduction's operand lands in its result, as (start, extents).
template <class N>
shape_t reduced_cell_shape(const N& n, const segment_cell& c, shape_t* start = nullptr) {
    shape_t ext, at;
    for (std::size_t j = 0; j < c.extents.size(); ++j) {
        const bool is_reduced =
            std::find(n.axes.begin(), n.axes.end(), static_cast<index_t>(j)) != n.axes.end();
        if (is_reduced && !n.keepdims)
            continue;
        ext.push_back(is_reduced ? 1 : c.extents[j]);
        at.push_back(is_reduced ? 0 : c.start[j]);
    }
    if (start)
        *start = at;
    return ext;
}

// The reduction at the root restricted to a cell of its operand: its shape is the cell's
// extents on the kept axes (1 on reduced axes with keepdims).
template <class N>
auto lower_to_cell(const N& n, const segment_cells& p, const segment_cell& c) {
    cell_lowering low{p, c};
    if constexpr (tag_of<N> == node_tag::reduction) {
        auto child = traverse(n.child, low);
        return reduction<typename N::reducer_type, decltype(child)>(
            std::move(child), n.axes, n.keepdims, n.flat, reduced_cell_shape(n, c));
    } else {
        return traverse(n, low);
    }
}

// The destination box of a cell: (start, extents) in the destination's axes.
template <class N>
std::pair<shape_t, shape_t> cell_box(const N& n, const segment_cell& c) {
    if constexpr (tag_of<N> == node_tag::reduction) {
        shape_t start;
        shape_t ext = reduced_cell_shape(n, c, &start);
        return {std::move(start), std::move(ext)};
    } else {
        return {c.start, c.extents};
    }
}

// The tree with every segmented node filled whole into a tensor (or, for explain, a leaf of
// the same type and shape over no memory: planning reads no element).
struct segment_filler : child_rebuilder<segment_filler> {
    bool for_explain = false;

    template <class C>
    auto child_of(const C& c) const {
        return traverse(c, *this);
    }
    template <class N>
    auto on_segmented(const N& n) const {
        using T = typename N::value_type;
        if (for_explain)
            return leaf<T, true>{
                {}, nullptr, n.shape(), row_major_strides(n.shape()), nullptr, false, nullptr};
        // Small ones from this thread's pool (the evaluation before's, at the same address:
        // its plan is then found in the plan cache too); filled whole.
        auto t = exec::pooled_temporary<T>(n.shape());
        fill_segments_into(*n.list, t->data(), true);
        const T* data = t->data();
        return leaf<T, true>{{}, data, t->shape(), t->strides(), std::move(t), false, nullptr};
    }
};

// The byte range a strided view touches, [lo, hi).
struct byte_range {
    std::uintptr_t lo = 0, hi = 0;
};
FUSOR_DECL byte_range range_of(const void* data,
                               const shape_t& shape,
                               const strides_t& strides,
                               std::size_t itemsize);

// Whether anything the tree reads (its leaves, its segments' sources) overlaps `dest`.
struct overlap_finder {
    byte_range dest;
    bool found = false;

    void test(byte_range r) { found = found || (r.lo < dest.hi && dest.lo < r.hi); }
    template <class N>
    void on_leaf(const N& n) {
        test(range_of(n.data, n.shape(), n.strides(), sizeof(typename N::value_type)));
    }
    template <class N>
    void on_scalar(const N&) {}
    template <class N>
    void on_segmented(const N& n) {
        for (const auto& seg : n.list->segments)
            test(range_of(seg.source.data(),
                          seg.source.shape(),
                          seg.source.strides(),
                          sizeof(typename N::value_type)));
    }
    template <class N>
    void on_elementwise(const N& n) {
        for_each_child(n, [this](const auto& c) FUSOR_FORWARD_LAMBDA { traverse(c, *this); });
    }
    template <class N>
    void on_reduction(const N& n) {
        traverse(n.child, *this);
    }
};

// Runs the cells of plan `p` into the destination.
template <class D, class N>
void run_cells(D* data, const strides_t& strides, const N& n, const segment_cells& p, bool fresh) {
    for (const segment_cell& c : p.cells) {
        const auto [start, extents] = cell_box(n, c);
        index_t offset = 0;
        for (std::size_t k = 0; k < start.size(); ++k)
            offset += start[k] * strides[k];
        const auto lowered = lower_to_cell(n, p, c);
        evaluate_into(data + offset, extents, strides, lowered, fresh);
    }
}

/// Evaluates `n` (a tree holding segmented nodes, shapes already checked) into the destination,
/// as `plan_segment_cells` decides. When the destination overlaps what the tree reads, the cells
/// run into a temporary that is then copied (a cell must not overwrite what a later one reads).
/// `fresh`: the destination was allocated for this evaluation (destination_layout::fresh).
template <class D, class N>
void evaluate_segmented(
    D* data, const shape_t& shape, const strides_t& strides, const N& n, bool fresh) {
    using V = std::remove_const_t<D>;
    const segment_cells p = plan_segment_cells(n, shape, is_row_major(shape, strides));
    if constexpr (tag_of<N> == node_tag::segmented) {
        if (p.fills_destination) {
            overlap_finder f{range_of(data, shape, strides, sizeof(V))};
            traverse(n, f);
            if (!f.found) {
                fill_segments_into(*n.list, data, fresh);
                return;
            }
            tensor<V> tmp(shape, uninitialized);
            fill_segments_into(*n.list, tmp.data(), true);
            evaluate_into(data, shape, strides, make_leaf(std::as_const(tmp)), fresh);
            return;
        }
    }
    if constexpr (planning::cell_root<N>()) {
        if (p.by_cells) {
            overlap_finder f{range_of(data, shape, strides, sizeof(V))};
            traverse(n, f);
            if (!f.found) {
                run_cells(data, strides, n, p, fresh);
                return;
            }
            tensor<V> tmp(shape, uninitialized);
            run_cells(tmp.data(), tmp.strides(), n, p, true);
            evaluate_into(data, shape, strides, make_leaf(std::as_const(tmp)), fresh);
            return;
        }
    }
    evaluate_into(data, shape, strides, traverse(n, segment_filler{}), fresh);
}

} // namespace fusor::detail

namespace fusor {

/// Fills `out` (a tensor of `segments.shape`) from the list: the output viewed as the space
/// (a row-major reshape), then one fused copy loop per segment, `box = segment.source`
/// (fusor's assignment: vectorised where the strides allow).
template <class T>
void fill_segments(const segment_list<T>& segments, tensor<T>& out) {
    detail::fill_segments_into(segments, out.data(), false);
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/exec/segmented_eval.ipp>
#endif
