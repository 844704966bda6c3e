// Must not compile: sum(a, 0, 1) (NumPy's axis=(0, 1) is sum(a, {0, 1}) in fusor)
// expect: Several axes go in braces: sum\(a, \{0, 1\}\), not sum\(a, 0, 1\)
#include <fusor/core.hpp>

int main() {
    fusor::tensor<double> a = {{1, 2}, {3, 4}};
    auto ok = fusor::sum(a, {0, 1});
    (void)ok;
#ifdef FUSOR_EXPECT_FAILURE
    auto s = fusor::sum(a, 0, 1);
#endif
}
