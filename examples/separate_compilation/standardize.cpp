// separate_compilation/standardize.cpp: one of the program's units. Built, like every unit of
// this program, with FUSOR_SEPARATE_COMPILATION: it compiles the expression's kernels, and the
// planner's non-template functions it calls come from fusor_src.cpp.
#include "standardize.hpp"

fusor::tensor<double> standardize_columns(const fusor::tensor<double>& x) {
    return (x - fusor::mean(x, 0)) / fusor::std(x, 0);
}
