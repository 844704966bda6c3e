// fusor/src.hpp: the definitions of every non-template function of fusor, for a program built with
// FUSOR_SEPARATE_COMPILATION (config.hpp; docs/api.md, "Separate compilation"). Include it in
// exactly one translation unit, compiled with the same FUSOR_* macros (FUSOR_CHECKED,
// FUSOR_HAS_SLEEF, FUSOR_HAS_OPENMP, FUSOR_HAS_BLAS ...) and flags as the rest of the program:
//
//     // fusor_src.cpp
//     #include <fusor/src.hpp>
//
// tests/headers checks that it names every .ipp file.
#pragma once

#include <fusor/config.hpp>

#ifndef FUSOR_SEPARATE_COMPILATION
#error                                                                                             \
    "fusor/src.hpp: define FUSOR_SEPARATE_COMPILATION for every translation unit of the program (header-only builds include the definitions with each header)"
#endif

#include <fusor/algo/advanced_indexing.ipp>
#include <fusor/algo/chunked_read.ipp>
#include <fusor/algo/histogram.ipp>
#include <fusor/algo/index_arrays.ipp>
#include <fusor/algo/interp.ipp>
#include <fusor/algo/joining.ipp>
#include <fusor/algo/multi_index.ipp>
#include <fusor/algo/padding.ipp>
#include <fusor/algo/partition.ipp>
#include <fusor/algo/quantile.ipp>
#include <fusor/algo/searching.ipp>
#include <fusor/algo/segments.ipp>
#include <fusor/core/affine_map.ipp>
#include <fusor/core/axis.ipp>
#include <fusor/core/broadcast.ipp>
#include <fusor/core/contraction_spec.ipp>
#include <fusor/core/lifetime.ipp>
#include <fusor/core/parallel.ipp>
#include <fusor/core/reshape.ipp>
#include <fusor/core/rounding.ipp>
#include <fusor/core/shape.ipp>
#include <fusor/exec/execute.ipp>
#include <fusor/exec/gemm.ipp>
#include <fusor/exec/rescaled_blocks.ipp>
#include <fusor/exec/scratch.ipp>
#include <fusor/exec/segmented_eval.ipp>
#include <fusor/exec/threads.ipp>
#include <fusor/explain/explain.ipp>
#include <fusor/explain/explain_histogram.ipp>
#include <fusor/expr/shaping.ipp>
#include <fusor/expr/splitting.ipp>
#include <fusor/fusor.hpp>
#include <fusor/io/csv.ipp>
#include <fusor/io/npy.ipp>
#include <fusor/io/npz.ipp>
#include <fusor/io/print_format.ipp>
#include <fusor/io/print_options.ipp>
#include <fusor/ops/math.ipp>
#include <fusor/plan/coalesce.ipp>
#include <fusor/plan/cost.ipp>
#include <fusor/plan/gemm.ipp>
#include <fusor/plan/kernel_choice.ipp>
#include <fusor/plan/loop_plan.ipp>
#include <fusor/plan/make_plan.ipp>
#include <fusor/plan/plan_cache.ipp>
#include <fusor/plan/row_blocks.ipp>
#include <fusor/plan/segment_cells.ipp>
#include <fusor/plan/split.ipp>
#include <fusor/random/bounded.ipp>
#include <fusor/random/generator.ipp>
#include <fusor/reduce/contraction.ipp>
#include <fusor/reduce/reduction.ipp>
