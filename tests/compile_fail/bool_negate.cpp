// Must not compile: fusor::tensor<bool> r = -a
// expect: fusor: negative \(unary -\) on bool
#include <fusor/core.hpp>

int main() {
    fusor::tensor<bool> a = {true, false};
#ifdef FUSOR_EXPECT_FAILURE
    fusor::tensor<bool> r = -a;
#endif
}
