// fusor/fusor.hpp: the one public header. Includes the stages in data-flow order, one block
// per stage (blank lines keep clang-format from sorting across them):
// core → tensor → expr (build) → reduce (nodes) → plan → exec → algo → random → io → explain
// (show).
#pragma once

#include <fusor/config.hpp>
#include <fusor/fwd.hpp>

// core: shapes, dtypes, broadcasting, axes, index maps, errors, the thread-count policy
#include <fusor/core/affine_map.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/contraction_spec.hpp>
#include <fusor/core/convert.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/lifetime.hpp>
#include <fusor/core/parallel.hpp>
#include <fusor/core/reshape.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/slice.hpp>

// tensor: the arrays
#include <fusor/tensor/factories.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

// expr: BUILD, the expression nodes and the functions that make them (and the shape helpers
// built from them: flipud ... atleast_3d, tril/triu, meshgrid, split)
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/functions.hpp>
#include <fusor/expr/grids.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/expr/shaping.hpp>
#include <fusor/expr/splitting.hpp>
#include <fusor/expr/triangular.hpp>
#include <fusor/expr/views.hpp>

// reduce: reduction nodes (and contractions: reductions over broadcast products)
#include <fusor/reduce/contraction.hpp>
#include <fusor/reduce/moments.hpp>
#include <fusor/reduce/nan_reductions.hpp>
#include <fusor/reduce/reduction.hpp>

// plan: PLAN, the loop_plan value and every decision in it
#include <fusor/plan/coalesce.hpp>
#include <fusor/plan/kernel_choice.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/plan/make_plan.hpp>
#include <fusor/plan/plan_cache.hpp>

// exec: EXECUTE, the driver, the kernels, assignment and eval
#include <fusor/exec/assign.hpp>
#include <fusor/exec/driver.hpp>
#include <fusor/exec/eager.hpp>
#include <fusor/exec/evaluator.hpp>
#include <fusor/exec/execute.hpp>
#include <fusor/exec/scratch.hpp>

// algo: eager algorithms over evaluated operands (scans, sorts, whole-array comparisons,
// selection, quantiles, histograms, searching, joining, masks, index arrays, interpolation;
// diff, lazy for n <= 1 and evaluated beyond)
#include <fusor/algo/advanced_indexing.hpp>
#include <fusor/algo/along_axis.hpp>
#include <fusor/algo/chunked_read.hpp>
#include <fusor/algo/diff.hpp>
#include <fusor/algo/equality.hpp>
#include <fusor/algo/histogram.hpp>
#include <fusor/algo/index_arrays.hpp>
#include <fusor/algo/interp.hpp>
#include <fusor/algo/joining.hpp>
#include <fusor/algo/masks.hpp>
#include <fusor/algo/multi_index.hpp>
#include <fusor/algo/nan_scan.hpp>
#include <fusor/algo/padding.hpp>
#include <fusor/algo/partition.hpp>
#include <fusor/algo/quantile.hpp>
#include <fusor/algo/scan.hpp>
#include <fusor/algo/searching.hpp>
#include <fusor/algo/segments.hpp>
#include <fusor/algo/shifting.hpp>
#include <fusor/algo/sort.hpp>
#include <fusor/algo/statistics.hpp>

// random: NumPy's random numbers (SeedSequence, PCG64, Generator)
#include <fusor/random/generator.hpp>

// io: printing, .npy and .npz files, CSV text
#include <fusor/io/csv.hpp>
#include <fusor/io/npy.hpp>
#include <fusor/io/npz.hpp>
#include <fusor/io/print.hpp>
#include <fusor/io/print_expression.hpp>

// explain: SHOW
#include <fusor/explain/explain.hpp>
#include <fusor/explain/explain_histogram.hpp>
