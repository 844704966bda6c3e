// Must not compile: a + v with a std::vector v (one readable error, not the standard library's
// whole operator list)
// expect: fusor: the operands of \+ are fusor tensors, views and expressions
#include <vector>

#include <fusor/core.hpp>

int main() {
    fusor::tensor<double> a = {1, 2};
    std::vector<double> v = {1, 2};
    auto ok = a + fusor::adapt(v);
    (void)ok;
#ifdef FUSOR_EXPECT_FAILURE
    auto e = a + v;
#endif
}
