// A consumer's program: exits 0 when fusor computes a fused expression correctly.
#include <fusor/fusor.hpp>

int main() {
    fusor::tensor<double> a = {{1, 2, 3}, {4, 5, 6}};
    fusor::tensor<double> c = a * 2.0 + 1.0;
    const fusor::tensor<double> s = fusor::sum(a, 1);
    return (c(1, 2) == 13.0 && s(1) == 15.0) ? 0 : 1;
}
