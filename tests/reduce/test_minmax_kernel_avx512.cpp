// The SIMD max/min kernel's tests (test_minmax_kernel.cpp) built for AVX-512
// (tests/CMakeLists.txt): lanes of 64 bytes.
#define FUSOR_TEST_TARGET 3
#include "test_minmax_kernel.cpp"
