// fusor/plan/segment_cells.hpp: how a tree that holds segmented nodes (lazy roll, pad,
// concatenate, stack: expr/segmented.hpp) is evaluated, decided once as a value that the
// evaluator runs (exec/segmented_eval.hpp) and explain prints. Either the destination is cut
// into cells, boxes inside which every segmented node is one strided view, and the tree runs
// once per cell with no temporary; or, when the tree above a segmented node is not element-wise
// (a view of it, a reshape, a reduction along an axis it cuts), each segmented node is filled
// whole into a temporary first, as NumPy's copy would be.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/traverse.hpp>
#include <fusor/expr/segmented.hpp>

namespace fusor {

/// One cell: a box of the plan's space (`start`, `extents`) inside which each segmented node
/// reads one segment: `segment[i]` is the index, in node i's list, of the segment that fills
/// the cell (nodes numbered depth-first from the left).
struct segment_cell {
    shape_t start;
    shape_t extents;
    std::vector<std::size_t> segment;
};

/// What a segmented node looks like to the planner: its function, element type, shape and the
/// boxes of its segments (start and extents, in its own axes).
struct segment_source {
    const char* what = "";
    const char* dtype = "";
    shape_t shape;
    bool tiles_output = true;
    std::vector<shape_t> starts, extents;
};

/// The decision for one evaluation of a tree holding segmented nodes into a destination.
struct segment_cells {
    /// true: the cells below run the tree once each; false: every segmented node is filled
    /// whole into a temporary first (`why_whole` says why) and the tree is planned once.
    bool by_cells = false;
    /// The tree is one segmented node and the destination is row-major of its shape: one copy
    /// loop per segment straight into the destination, viewed as the list's space (fewer loops
    /// than cells; the only way for roll without an axis, whose space is reshaped).
    bool fills_destination = false;
    std::string why_whole;
    /// The index space the cells tile: the destination's shape, or for a reduction at the root
    /// the shape of the reduction's operand (the cells then cut only axes it keeps).
    shape_t space;
    std::vector<segment_source> sources; ///< the segmented nodes, depth-first
    std::vector<segment_cell> cells;     ///< row-major order of their starts
};

namespace planning {

/// Whether node type `N` holds a segmented node anywhere below it (itself included).
template <class N>
constexpr bool holds_segmented() {
    if constexpr (tag_of<N> == node_tag::segmented)
        return true;
    else
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (false || ...
                    || holds_segmented<
                        std::remove_cvref_t<decltype(child<I>(std::declval<const N&>()))>>());
        }
    (std::make_index_sequence<child_count<N>>{});
}

/// Node types that can be restricted to a cell: element-wise nodes over leaves, scalars and
/// segmented nodes (each of those is a strided view inside a cell).
template <class N>
constexpr bool cell_tree() {
    constexpr node_tag t = tag_of<N>;
    if constexpr (t == node_tag::leaf || t == node_tag::scalar || t == node_tag::segmented)
        return true;
    else if constexpr (t == node_tag::elementwise)
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (
                true && ...
                && cell_tree<std::remove_cvref_t<decltype(child<I>(std::declval<const N&>()))>>());
        }
    (std::make_index_sequence<child_count<N>>{});
    else return false;
}

/// A root that can run by cells: a cell tree, or a reduction of one.
template <class N>
constexpr bool cell_root() {
    if constexpr (tag_of<N> == node_tag::reduction)
        return cell_tree<std::remove_cvref_t<decltype(std::declval<const N&>().child)>>();
    else
        return cell_tree<N>();
}

// Collects the segmented nodes of a tree, depth-first from the left.
struct segment_collector {
    std::vector<segment_source>& out;

    template <class N>
    void on_segmented(const N& n) {
        segment_source s;
        s.what = n.what;
        s.dtype = dtype_name<typename N::value_type>().data();
        s.shape = n.shape();
        s.tiles_output = n.tiles_output();
        for (const auto& seg : n.list->segments) {
            s.starts.push_back(seg.start);
            s.extents.push_back(seg.extents());
        }
        out.push_back(std::move(s));
    }
    template <class N>
    void on_leaf(const N&) {}
    template <class N>
    void on_scalar(const N&) {}
    template <class N>
    void on_elementwise(const N& n) {
        children(n);
    }
    template <class N>
    void on_remap(const N& n) {
        children(n);
    }
    template <class N>
    void on_reshaped(const N& n) {
        children(n);
    }
    template <class N>
    void on_reduction(const N& n) {
        children(n);
    }
    template <class N>
    void children(const N& n) {
        for_each_child(n, [this](const auto& c) FUSOR_FORWARD_LAMBDA { traverse(c, *this); });
    }
};

// Axis k of a node of rank r, right-aligned in a space of rank R, is axis k + R - r; it is cut
// there only when it is not broadcast (its extent is the space's).
FUSOR_DECL bool
aligned_axis(const shape_t& node, std::size_t k, const shape_t& space, std::size_t& j);

// The index of the segment of `s` that holds position `at` of the space.
FUSOR_DECL std::size_t segment_at(const segment_source& s, const shape_t& space, const shape_t& at);

} // namespace planning

/// Plans the evaluation of `n` (a tree holding segmented nodes) into a destination of shape
/// `dest_shape` (which `n`'s shape broadcasts to; `dest_row_major`: its strides are row-major).
/// A lone segmented node into a row-major destination of its shape fills it directly. Cells are the
/// boxes between consecutive box edges of all segmented nodes along each axis (their product), so
/// inside each cell every segmented node reads one segment. Runs by cells when the tree is a cell
/// tree (or a reduction of one whose destination is its own shape and whose reduced axes no segment
/// cuts) and every segmented node's boxes tile the output itself; otherwise fills whole, saying
/// why.
template <class N>
segment_cells plan_segment_cells(const N& n, const shape_t& dest_shape, bool dest_row_major) {
    segment_cells p;
    planning::segment_collector collect{p.sources};
    traverse(n, collect);
    shape_t reduced;
    if constexpr (tag_of<N> == node_tag::segmented) {
        if (dest_row_major && dest_shape == n.shape()) {
            p.fills_destination = true;
            p.space = n.list->space;
            return p;
        }
    }
    if constexpr (!planning::cell_root<N>()) {
        p.why_whole = "a view, reshape or reduction of it is read";
        return p;
    } else if constexpr (tag_of<N> == node_tag::reduction) {
        if (!(n.shape() == dest_shape)) {
            p.why_whole = "the reduction's result is broadcast into the destination";
            return p;
        }
        p.space = n.child.shape();
        reduced = n.axes;
    } else {
        p.space = dest_shape;
    }
    for (const segment_source& s : p.sources)
        if (!s.tiles_output) {
            p.why_whole = std::string(s.what) + "'s segments tile a reshaped space";
            return p;
        }
    const std::size_t R = p.space.size();
    std::vector<std::vector<index_t>> cuts(R);
    for (std::size_t j = 0; j < R; ++j)
        cuts[j] = {0, p.space[j]};
    for (const segment_source& s : p.sources)
        for (std::size_t i = 0; i < s.starts.size(); ++i)
            for (std::size_t k = 0; k < s.shape.size(); ++k) {
                std::size_t j = 0;
                if (!planning::aligned_axis(s.shape, k, p.space, j))
                    continue;
                cuts[j].push_back(s.starts[i][k]);
                cuts[j].push_back(s.starts[i][k] + s.extents[i][k]);
            }
    for (std::size_t j = 0; j < R; ++j) {
        std::sort(cuts[j].begin(), cuts[j].end());
        cuts[j].erase(std::unique(cuts[j].begin(), cuts[j].end()), cuts[j].end());
        const bool is_reduced =
            std::find(reduced.begin(), reduced.end(), static_cast<index_t>(j)) != reduced.end();
        if (is_reduced && cuts[j].size() > 2) {
            p.why_whole = "a segment edge cuts reduced axis " + std::to_string(j);
            return p;
        }
    }
    p.by_cells = true;
    if (shape_size(p.space) == 0)
        return p; // nothing to write
    // The cells: every combination of consecutive cuts, in row-major order.
    std::vector<std::size_t> pick(R, 0);
    for (;;) {
        segment_cell c;
        for (std::size_t j = 0; j < R; ++j) {
            c.start.push_back(cuts[j][pick[j]]);
            c.extents.push_back(cuts[j][pick[j] + 1] - cuts[j][pick[j]]);
        }
        for (const segment_source& s : p.sources)
            c.segment.push_back(planning::segment_at(s, p.space, c.start));
        p.cells.push_back(std::move(c));
        std::size_t j = R;
        while (j > 0 && ++pick[j - 1] + 1 == cuts[j - 1].size())
            pick[--j] = 0;
        if (j == 0)
            break;
    }
    return p;
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/segment_cells.ipp>
#endif
