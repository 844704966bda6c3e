// fusor/core.hpp: the smaller umbrella, for code that builds and evaluates expressions and
// prints tensors: core → tensor → expr (build) → reduce (nodes) → plan → exec, then printing
// (io/print.hpp, last). It leaves out the eager algorithms (algo/), random numbers, .npy/.npz/
// CSV files and explain; fusor/fusor.hpp includes this header and all of those. Including it
// alone costs about half of fusor.hpp's compile time (docs/performance.md, "Compile time").
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

// printing: operator<< and print options for tensors, views and expressions
#include <fusor/io/print.hpp>
#include <fusor/io/print_expression.hpp>
