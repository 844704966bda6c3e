// Must not compile: auto r = fusor::eval(a & a)
// expect: fusor: bitwise_and needs integer or bool operands
#include <fusor/core.hpp>

int main() {
    fusor::tensor<float> a = {1, 2};
#ifdef FUSOR_EXPECT_FAILURE
    auto r = fusor::eval(a & a);
#endif
}
