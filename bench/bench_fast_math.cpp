// bench/bench_fast_math.cpp: W11 under FUSOR_FAST_MATH (SLEEF's 3.5-ulp forms where it has them;
// tests/ops/test_fast_math.cpp measures their errors), against the same peers as W11 in
// bench_elementwise.cpp, whose vectorised exp and sin are of similar accuracy. Built with
// FUSOR_FAST_MATH=1 (bench/CMakeLists.txt): a program must not mix translation units with and
// without it, so it is a binary of its own.
//
//   W11_fast_math  out = exp(a) * sin(b), 2^22 float32 (compute-bound): `exp` has no 3.5-ulp form
//                  (1 ulp), `sin` takes it
//
//   build/release/bench/bench_fast_math --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true       (or bench/report for the whole suite)
#include "w11_exp_sin.hpp"

static_assert(FUSOR_FAST_MATH == 1, "bench_fast_math is built with FUSOR_FAST_MATH=1");

int main(int argc, char** argv) {
    return bench::run_main(argc, argv, [] { bench::add_w11_exp_sin("W11_fast_math"); });
}
