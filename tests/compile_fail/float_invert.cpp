// Must not compile: auto r = fusor::eval(~a)
// expect: fusor: invert \(~\) needs integer or bool operands
#include <fusor/core.hpp>

int main() {
    fusor::tensor<double> a = {1, 2};
#ifdef FUSOR_EXPECT_FAILURE
    auto r = fusor::eval(~a);
#endif
}
