// The small products' tests (test_small_products.cpp) built for AVX-512 (tests/CMakeLists.txt):
// the small_gemm kernel widens eight float32 products at once (exec/small_gemm.hpp, `widen`),
// and its bits must still be the row kernel's.
#define FUSOR_TEST_TARGET 3
#include "test_small_products.cpp"
