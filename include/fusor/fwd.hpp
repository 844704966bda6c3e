// fusor/fwd.hpp: the table of contents. Every public type and node kind, one line each, in
// data-flow order (build → plan → execute → show). Definitions live in the headers named.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fusor {

// core/ ---------------------------------------------------------------------------------
using index_t = std::ptrdiff_t; // core/shape.hpp: extents, strides (elements), indices
class shape_t;                  // core/shape.hpp: small vector of index_t; prints as (3, 4)
struct error;                   // core/error.hpp: mixin base of every fusor exception
struct broadcast_error;         // core/error.hpp: shapes that do not broadcast
struct value_error;             // core/error.hpp: a bad argument value
struct axis_error;              // core/error.hpp: an axis out of range
struct index_error;             // core/error.hpp: an index outside its axis
struct io_error;                // core/error.hpp: a file that cannot be read or written
class slice;                    // core/slice.hpp: Python's start:stop:step
struct none_t;                  // core/slice.hpp: `none`, an omitted slice bound
struct newaxis_t;               // core/slice.hpp: `newaxis`, insert an extent-1 axis
struct ellipsis_t;              // core/slice.hpp: `ellipsis`, the axes not named
struct affine_map;              // core/affine_map.hpp: a view as an index map
enum class kind;                // core/dtype.hpp: NumPy's kinds b < u < i < f
template <class T>
struct canonical; // core/dtype.hpp: the fixed-width type of any arithmetic type

// tensor/ -------------------------------------------------------------------------------
template <class T>
class tensor; // tensor/tensor.hpp: owning, contiguous, row-major n-d array
template <class T>
class tensor_view;      // tensor/tensor_view.hpp: non-owning strided view (writable unless const T)
struct uninitialized_t; // tensor/tensor.hpp: tag `uninitialized`, a tensor without a fill

// expr/ (BUILD): expression nodes, all lazy, all with value_type and shape() -------------
struct expr_node;    // core/expression.hpp: base of every node
enum class node_tag; // core/expression.hpp: what a node is (leaf, elementwise, ...)
template <class T, bool OwnsShape = false, bool Borrowed = false>
struct leaf; // expr/leaf.hpp: a tensor or view read by an expression
template <class T>
struct scalar_node; // expr/leaf.hpp: a weak C++ scalar
template <class Op, class... Cs>
struct elementwise; // expr/elementwise.hpp: Op over broadcast children
template <class C>
struct remap; // expr/remap.hpp: a view of an expression (lazy index remapping)
template <class C>
struct reshaped; // expr/reshaped.hpp: reshape of an expression (index remap or materialised)
template <class T>
struct segmented; // expr/segmented.hpp: boxes of the output read from strided views (roll, pad ...)
enum class indexing; // expr/grids.hpp: meshgrid's indexing::xy (default) or indexing::ij
// Shape helpers built from the nodes above (views or lazy nodes, no node kinds of their own):
// flipud, fliplr, rot90, ravel, atleast_1d/2d/3d, flatten (expr/shaping.hpp); diff
// (algo/diff.hpp); tril, triu (expr/triangular.hpp); meshgrid, indices (expr/grids.hpp);
// split, array_split, hsplit, vsplit, dsplit (expr/splitting.hpp); diag (algo/diag.hpp), cross
// (algo/cross.hpp), convolve and correlate (algo/convolve.hpp), gradient (algo/calculus.hpp)
// return tensors; trapz (algo/calculus.hpp) is a reduction node.

// reduce/ -------------------------------------------------------------------------------
template <class Reducer, class C>
struct reduction;  // reduce/reduction.hpp: a reduction over some axes (terminal node)
struct keepdims_t; // reduce/reduction.hpp: option tag `keepdims`
struct ddof;       // reduce/reduction.hpp: option `ddof{k}` of var/std
struct all_t;      // reduce/reduction.hpp: `all`, the reduction and the whole-axis index
template <class T>
struct topk_result; // algo/sort.hpp: `values` and int64 `indices` of topk
template <class Reducer>
struct reduction_fn; // reduce/reduction.hpp: the function object behind sum, max, ...
template <bool Sqrt>
struct moment_fn;        // reduce/moments.hpp: the function object behind var and std
struct contraction_spec; // core/contraction_spec.hpp: a contraction's labelled iteration space
struct tensordot_axes;   // reduce/contraction.hpp: the axis lists `tensordot` sums
// Contractions (reduce/contraction.hpp) are reduction nodes over a broadcast product: einsum,
// matmul, dot, vdot, inner, outer, tensordot; trace is a sum over a diagonal.
// Functions that materialise (not nodes): cumsum, cumprod (algo/scan.hpp); sort, argsort,
// topk (algo/sort.hpp); nancumsum, nancumprod (algo/nan_scan.hpp); partition, argpartition
// (algo/partition.hpp); median, quantile, percentile and their nan- forms (algo/quantile.hpp);
// histogram, bincount, digitize (algo/histogram.hpp); searchsorted, isin, unique
// (algo/searching.hpp); average, ptp, cov, corrcoef (algo/statistics.hpp).
enum class quantile_method; // algo/quantile.hpp: NumPy's 13 quantile methods (linear ...)
template <class H, class B>
struct histogram_result;    // algo/histogram.hpp: `hist` and `edges` of histogram
struct histogram_plan;      // algo/histogram.hpp: the decisions one histogram call runs by
enum class histogram_range; // algo/histogram.hpp: where uniform bins take their range from
struct chunking;            // algo/chunked_read.hpp: the chunks an operand is read in
struct read_plan;     // algo/chunked_read.hpp: how an operand is read (in place, chunks, whole)
enum class read_mode; // algo/chunked_read.hpp
enum class side;      // algo/searching.hpp: searchsorted's side::left / side::right
template <class R>
struct average_result; // algo/statistics.hpp: `average` and `sum_of_weights` (returned)
// Joining (algo/joining.hpp: concatenate, stack, hstack, vstack, dstack, column_stack,
// function objects), masks (algo/masks.hpp: nonzero, where(m), argwhere, flatnonzero, compress,
// extract, putmask, place), index arrays (algo/index_arrays.hpp: take, take_along_axis, put,
// put_along_axis, choose), unravel_index, ravel_multi_index (algo/multi_index.hpp) and interp
// (algo/interp.hpp) materialise too.
class ndindex; // algo/multi_index.hpp: the range of a shape's multi-indices, row-major
// pad (algo/padding.hpp), roll, tile, repeat (algo/shifting.hpp) materialise from segments:
template <class T>
struct segment; // algo/segments.hpp: a box of the output and the strided view that fills it
template <class T>
struct segment_list; // algo/segments.hpp: boxes tiling the output exactly once
enum class pad_mode; // algo/segments.hpp: constant, edge, reflect, symmetric, wrap
template <class V>
class pad_pairs; // algo/segments.hpp: numpy.pad's (rank, 2) argument forms

// plan/ (PLAN) ----------------------------------------------------------------------------
struct operand_plan;     // plan/loop_plan.hpp: one operand's strides per loop level
struct boundary_plan;    // plan/loop_plan.hpp: a materialised temporary and its plan
enum class inner_kernel; // plan/loop_plan.hpp: contiguous, broadcast, tiled or strided
enum class reduce_kernel : std::uint8_t; // plan/loop_plan.hpp: how a reduction accumulates
struct loop_plan;                        // plan/loop_plan.hpp: the fused loop nest, a plain value
struct tree_line;                        // plan/loop_plan.hpp: one line of the tree explain prints
struct plan_notes;         // plan/loop_plan.hpp: explain's names and tree lines beside a plan
struct destination_layout; // plan/make_plan.hpp: where a loop writes
struct destination_ref;    // plan/make_plan.hpp: the same, by reference (what evaluation passes)

// random/ -----------------------------------------------------------------------------------
namespace random {
class seed_sequence; // random/seed_sequence.hpp: NumPy's SeedSequence
struct pcg64_state;  // random/pcg64.hpp: PCG64's state, increment and buffered half
class pcg64;         // random/pcg64.hpp: NumPy's PCG64 bit generator
class generator;     // random/generator.hpp: NumPy's Generator (default_rng)
} // namespace random

// explain/ (SHOW) -------------------------------------------------------------------------
struct explanation;           // explain/explain.hpp: the printable plan `explain(e)` returns
struct histogram_pass;        // explain/explain_histogram.hpp: one pass of a histogram
struct histogram_explanation; // explain/explain_histogram.hpp: what explain_histogram returns

// io/ -------------------------------------------------------------------------------------
namespace npy {
struct header; // io/npy.hpp: what a .npy header says (descr, fortran_order, shape)
} // namespace npy
class npz_entry;      // io/npz.hpp: a name and a reference to an array of any type, for save_npz
class npz_archive;    // io/npz.hpp: an opened .npz archive: names(), get<T>(name)
struct print_options; // io/print_options.hpp: precision, threshold, edgeitems, linewidth, suppress
struct csv_options;   // io/csv.hpp: delimiter, skip_header, usecols, ndmin of load_csv

} // namespace fusor
