// fusor/fusor.hpp: the whole library. Includes the stages in data-flow order, one block per
// stage (blank lines keep clang-format from sorting across them): fusor/core.hpp (core →
// tensor → expr (build) → reduce (nodes) → plan → exec, printing) → algo → random → io →
// explain (show).
#pragma once

#include <fusor/core.hpp>

// algo: eager algorithms over evaluated operands (scans, sorts, whole-array comparisons,
// selection, quantiles, histograms, searching, joining, masks, index arrays, interpolation;
// diff, lazy for n <= 1 and evaluated beyond)
#include <fusor/algo/advanced_indexing.hpp>
#include <fusor/algo/along_axis.hpp>
#include <fusor/algo/calculus.hpp>
#include <fusor/algo/chunked_read.hpp>
#include <fusor/algo/convolve.hpp>
#include <fusor/algo/cross.hpp>
#include <fusor/algo/diag.hpp>
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
