// The pairwise_rows kernel's tests (test_pairwise_rows.cpp) built for AVX2 (tests/CMakeLists.txt):
// 4 runs per pass, each run's 8 lanes two vectors of 4 doubles.
#define FUSOR_TEST_TARGET 2
#include "test_pairwise_rows.cpp"
