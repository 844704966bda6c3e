// Must not compile: auto r = fusor::eval(fusor::sign(a))
// expect: fusor: sign of bool
#include <fusor/core.hpp>

int main() {
    fusor::tensor<bool> a = {true, false};
#ifdef FUSOR_EXPECT_FAILURE
    auto r = fusor::eval(fusor::sign(a));
#endif
}
