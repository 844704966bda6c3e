// Must not compile: fusor::broadcast_to(a, {3, 2}) = 1.0f
// expect: read-only view
#include <fusor/core.hpp>

int main() {
    fusor::tensor<float> a = {1, 2};
#ifdef FUSOR_EXPECT_FAILURE
    fusor::broadcast_to(a, {3, 2}) = 1.0f;
#endif
}
