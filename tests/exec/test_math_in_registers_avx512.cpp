// The register form's tests (test_math_in_registers.cpp) built for AVX-512 (tests/CMakeLists.txt),
// whose partial registers use mask registers where AVX2's use mask vectors.
#define FUSOR_TEST_AVX512 1
#include "test_math_in_registers.cpp"
