// separate_compilation: a program of three units built with FUSOR_SEPARATE_COMPILATION
// (docs/api.md, "Separate compilation"): main.cpp and standardize.cpp use fusor as usual,
// fusor_src.cpp compiles fusor's non-template functions once. Reads the Iris measurements,
// standardizes each column and prints the columns' means (0) and standard deviations (1), then
// the first row and the loop fusor ran for it.
//
//   separate_compilation [path.csv]      (default: examples/data/iris.csv)
#include <cmath>
#include <exception>
#include <iostream>
#include <string>

#include <fusor/fusor.hpp>

#include "standardize.hpp"

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : FUSOR_EXAMPLES_DATA_DIR "/iris.csv";
    fusor::tensor<double> x;
    try {
        x = fusor::load_csv<double>(path, {.skip_header = 1, .usecols = {0, 1, 2, 3}});
    } catch (const std::exception& e) {
        std::cerr << "separate_compilation: " << e.what() << '\n';
        return 2;
    }
    const fusor::tensor<double> z = standardize_columns(x);
    const fusor::tensor<double> means = fusor::mean(z, 0);
    const fusor::tensor<double> sds = fusor::std(z, 0);
    bool ok = z.shape() == x.shape();
    for (fusor::index_t j = 0; j < 4; ++j)
        ok = ok && std::abs(means(j)) < 1e-12 && std::abs(sds(j) - 1.0) < 1e-12;
    std::cout << "standardized " << fusor::to_string(z.shape()) << " columns: means 0, standard "
              << "deviations 1: " << (ok ? "ok" : "FAILED") << '\n';
    std::cout << "first row: " << fusor::view(z, 0) << '\n';
    std::cout << fusor::explain(fusor::mean(fusor::square(z), 0));
    return ok ? 0 : 1;
}
