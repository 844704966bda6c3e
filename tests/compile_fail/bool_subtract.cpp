// Must not compile: fusor::tensor<bool> r = a - a
// expect: fusor: subtract \(-\) on bool
#include <fusor/core.hpp>

int main() {
    fusor::tensor<bool> a = {true, false};
#ifdef FUSOR_EXPECT_FAILURE
    fusor::tensor<bool> r = a - a;
#endif
}
