// Must not compile: auto r = fusor::eval(a << 1.5)
// expect: fusor: left_shift \(<<\) needs integer or bool operands
#include <fusor/core.hpp>

int main() {
    fusor::tensor<int> a = {1, 2};
#ifdef FUSOR_EXPECT_FAILURE
    auto r = fusor::eval(a << 1.5);
#endif
}
