// The SIMD max/min kernel's tests (test_minmax_kernel.cpp) built for AVX2 (tests/CMakeLists.txt):
// lanes of 32 bytes, the registers of most x86-64 machines in use.
#define FUSOR_TEST_TARGET 2
#include "test_minmax_kernel.cpp"
