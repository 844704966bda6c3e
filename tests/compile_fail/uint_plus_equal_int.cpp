// Must not compile: a += b
// expect: same_kind
#include <fusor/core.hpp>

int main() {
    fusor::tensor<std::uint8_t> a = {1, 2};
    fusor::tensor<std::int8_t> b = {1, 2};
#ifdef FUSOR_EXPECT_FAILURE
    a += b;
#endif
}
