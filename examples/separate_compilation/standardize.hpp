// separate_compilation/standardize.hpp: a function one unit defines and another calls.
#pragma once

#include <fusor/core.hpp>

/// Each column of `x` (rows, cols) shifted to mean 0 and scaled to standard deviation 1, as
/// `(x - x.mean(0)) / x.std(0)` in NumPy: shape (rows, cols), float64.
fusor::tensor<double> standardize_columns(const fusor::tensor<double>& x);
