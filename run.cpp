#include <fusor/fusor.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
int main() {
    std::ifstream in("cases.txt");
    long n, m; double per;
    auto rd = [&](long k) { fusor::tensor<double> t = fusor::zeros<double>({k}); std::string s; for (long i = 0; i < k; ++i) { in >> s; t.data()[i] = std::strtod(s.c_str(), nullptr); } return t; };
    while (in >> n >> m >> per) {
        auto xp = rd(n), fp = rd(n), x = rd(m);
        std::optional<double> p; if (per != 0) p = per;
        auto r = fusor::interp(x, xp, fp, std::nullopt, std::nullopt, p);
        for (long i = 0; i < m; ++i) std::printf("%s%a", i ? " " : "", r.data()[i]);
        std::printf("\n");
    }
}
