// Must not compile: a += 0.5
// expect: same_kind
#include <fusor/core.hpp>

int main() {
    fusor::tensor<int> a = {1, 2};
#ifdef FUSOR_EXPECT_FAILURE
    a += 0.5;
#endif
}
