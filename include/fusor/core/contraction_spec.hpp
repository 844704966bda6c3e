// fusor/core/contraction_spec.hpp: what a contraction (einsum, matmul, dot, tensordot ...) reads:
// one iteration space of labelled axes (the result's axes first, then the summed ones) and, per
// operand, the affine map from that space to the operand's indices. Plain run-time values: the
// subscripts are parsed here, the nodes are built in reduce/contraction.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <boost/container/small_vector.hpp>

#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>

namespace fusor {

/// The index space of a contraction: `space` is the iteration space; its axes not in `summed`
/// are the result's, in order; `maps[k]` maps it to operand k's indices (a label that operand k
/// does not have is a zero column, so the operand is read with stride 0 there; a label it has
/// twice is the diagonal, both of its axes stepping together).
struct contraction_spec {
    shape_t space;
    shape_t summed; ///< the summed axes of `space`, ascending
    boost::container::small_vector<affine_map, 4> maps;
    std::string label; ///< what explain prints, e.g. `einsum("ij,jk->ik")`

    /// The summed axes of `space` (what the reduction collapses).
    const shape_t& summed_axes() const { return summed; }
};

namespace detail {

// Inline storage for the usual handful of operands and axes: building a contraction of small
// tensors is paid on every call, and a heap allocation costs more than the arithmetic.
using label_list = boost::container::small_vector<int, 8>;
using label_lists = boost::container::small_vector<label_list, 4>;
using shape_list = boost::container::small_vector<shape_t, 4>;

// Labels are small integers: einsum's letters are their character codes; the ellipsis' axes
// and the labels matmul, dot and tensordot make up are numbered from here on.
inline constexpr int first_made_label = 1000;

FUSOR_DECL std::string label_text(int label);

// Builds the spec from each operand's axis labels and the result's labels. Extents of one label
// must agree across operands up to broadcasting (an extent 1 stretches); within one operand a
// repeated label is a diagonal and its extents must be equal. Throws value_error naming the
// label, both extents and the operands (as numpy.einsum).
FUSOR_DECL contraction_spec make_contraction_spec(const shape_list& shapes,
                                                  const label_lists& labels,
                                                  const label_list& out_labels,
                                                  std::string label);

// numpy.einsum's subscripts, checked and split: the labels of each operand's axes (the
// ellipsis' axes numbered from first_made_label, right-aligned across operands as broadcasting
// aligns them) and of the result (explicit after `->`, or implicit: the ellipsis' axes, then
// every letter that appears once, in the order of the character codes, as NumPy).
struct einsum_labels {
    label_lists in;   ///< per operand, per axis
    label_list out;   ///< the result's axes
    std::string text; ///< the subscripts with the output made explicit
};
FUSOR_DECL einsum_labels parse_einsum_labels(std::string_view subscripts, const shape_list& shapes);

FUSOR_DECL contraction_spec parse_einsum(std::string_view subscripts, const shape_list& shapes);

// The extent of each label of `l` (after broadcasting), for the contraction order below.
FUSOR_DECL index_t label_extent(const einsum_labels& l, const shape_list& shapes, int label);

// One pairwise step of a contraction order: the labels the intermediate keeps.
struct contraction_step {
    std::size_t operand; ///< the operand contracted into the intermediate at this step
    label_list keeps;    ///< the intermediate's labels after it (the result's at the end)
};

// A left-deep contraction order for three or more operands, greedy by intermediate size (as
// numpy.einsum's `optimize="greedy"` minimises what it stores): first the pair whose result is
// smallest (ties: fewer multiply-adds, then the earlier pair), then, step by step, the operand
// whose contraction into the intermediate leaves the smallest one. An intermediate keeps the
// labels still needed by a later operand or by the result. `first` receives the first pair's
// first operand; the steps list the operand added at each step (the first step's is the pair's
// second), with what it keeps.
FUSOR_DECL std::vector<contraction_step>
greedy_order(const einsum_labels& l, const shape_list& shapes, std::size_t& first);

} // namespace detail
} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/contraction_spec.ipp>
#endif
