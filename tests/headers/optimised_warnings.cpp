// Compiled at -O1 and at -O2 with -Wall -Wextra -Werror (tests/headers/CMakeLists.txt): users'
// optimisation levels other than the tests' -O3, where g++'s flow-sensitive warnings
// (-Wmaybe-uninitialized) see the kernels differently. The reductions that fill vectors lane by
// lane (sums, means, max/min and their arg forms, small matrix products) once failed here.
#include <fusor/fusor.hpp>

double reductions(const fusor::tensor<double>& x, const fusor::tensor<float>& y) {
    const fusor::tensor<double> m = fusor::max(x, 1);
    const fusor::tensor<float> n = fusor::min(y, 0);
    const fusor::tensor<double> s = fusor::mean(x, 1);
    const fusor::tensor<float> t = fusor::sum(y, 1);
    const fusor::tensor<double> v = fusor::var(x, 0);
    return m(0) + n(0) + s(0) + t(0) + v(0) + fusor::max(x * 2.0).item()
           + static_cast<double>(fusor::eval(fusor::argmax(x, 1))(0))
           + static_cast<double>(fusor::eval(fusor::argmin(y, 0))(0)) + fusor::mean(x).item();
}

double products(const fusor::tensor<float>& a, const fusor::tensor<double>& c) {
    const fusor::tensor<float> p = fusor::matmul(a, a);
    const fusor::tensor<double> q = fusor::matmul(c, c);
    return p(0, 0) + q(0, 0);
}
