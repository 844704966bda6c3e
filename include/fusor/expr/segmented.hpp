// fusor/expr/segmented.hpp: an output cut into boxes, each filled from its own strided view of
// an operand: the node behind the lazy roll, pad, concatenate and stack. A `segment_list` is the
// list of boxes (algo/segments.hpp makes them for each operation); `segmented<T>` is the
// expression node that holds one, so `roll(x, 1, 0) - x` is a tree whose evaluation cuts the
// output into cells and runs one fused loop per cell (exec/segmented_eval.hpp), never copying
// the rolled operand.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

/// One box of a segment list's space and what fills it: the box begins at `start` and has
/// `source.shape()` as its extents; `source` is a read-only strided view of the operand (or of
/// a constant the list keeps alive) of exactly that shape. Strides may be negative (a flipped
/// slice: pad's `reflect` and `symmetric`) or 0 (a broadcast edge row, a repeated element, a
/// constant).
template <class T>
struct segment {
    shape_t start;               ///< where the box begins, one index per axis of the space
    tensor_view<const T> source; ///< what fills the box; its shape is the box's extents

    const shape_t& extents() const { return source.shape(); }

    segment(shape_t at, tensor_view<const T> from)
        : start(std::move(at)), source(std::move(from)) {}
    segment(const segment&) = default;
    segment(segment&&) = default;
    /// Assignment rebinds the source (a `tensor_view`'s own assignment would copy elements
    /// into it), so segments can live in containers that assign (`std::vector::operator=`).
    segment& operator=(const segment& o) {
        if (this != &o) {
            start = o.start;
            std::destroy_at(&source);
            std::construct_at(&source, o.source);
        }
        return *this;
    }
    segment& operator=(segment&& o) { return *this = static_cast<const segment&>(o); }
    ~segment() = default;
};

/// The segments of one operation: boxes of `space` that cover every position exactly once,
/// in row-major order of their starts. `shape` is the output's shape; the output, read in
/// row-major order, is the space read in row-major order (so a contiguous output is the space
/// by a reshape: `fill_segments` does that). The sources point into the operand (the list does
/// not keep it alive, as views do not) or into `constants`, which the list owns (pad's
/// `constant` mode).
template <class T>
struct segment_list {
    shape_t shape;                        ///< the output's shape
    shape_t space;                        ///< the shape the boxes tile (row-major order = output's)
    std::vector<segment<T>> segments;     ///< the boxes, none of them empty
    std::shared_ptr<const T[]> constants; ///< pad's constant values (2 per axis), or null
};

/// A lazy expression node whose elements come from a `segment_list` (as numpy.roll, numpy.pad,
/// numpy.concatenate or numpy.stack would compute them, without copying anything): shape =
/// the list's `shape`, element type `T`. Built by `roll`, `pad`, `concatenate`, `stack`,
/// `hstack`, `vstack`, `dstack` and `column_stack`; a user does not build one. Evaluating a
/// tree that holds one cuts the destination into cells where any of its lists has a box edge
/// and runs the tree once per cell, each segmented node read as the one strided view that
/// fills that cell (`explain` shows the cells). The list is shared: copying the node copies a
/// pointer. The sources read the operands in place, so (as for every expression) a tensor
/// operand must outlive the node; an operand that was an expression, or an rvalue tensor, is
/// owned by the sources.
template <class T>
struct segmented : value_node<segmented<T>> {
    using value_type = T;
    static constexpr node_tag tag = node_tag::segmented;

    std::shared_ptr<const segment_list<T>> list; ///< the boxes and their sources
    const char* what = "";                       ///< the NumPy function: "roll", "pad", ...

    const shape_t& shape() const { return list->shape; }
    index_t rank() const { return list->shape.rank(); }
    index_t size() const { return shape_size(list->shape); }
    /// Whether the boxes tile the output's own index space (pad, roll along axes, the joins
    /// along an axis), so that a cell of the destination is a box of every source. Roll
    /// without an axis, tile and repeat tile a reshaped space and are filled whole first.
    bool tiles_output() const { return list->space == list->shape; }
};

/// Wraps a segment list as a node (`what` names the NumPy function, for `explain`).
template <class T>
segmented<T> make_segmented(segment_list<T> list, const char* what) {
    segmented<T> n;
    n.list = std::make_shared<const segment_list<T>>(std::move(list));
    n.what = what;
    return n;
}

} // namespace fusor
