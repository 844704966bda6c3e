// iris_knn: leave-one-out 1-nearest-neighbour classification of the UCI Iris flowers, with every
// step a fused fusor expression.
//
//   iris_knn [path.csv]      (default: examples/data/iris.csv)
//
// The CSV has a header line, then rows of 4 numeric features and a species label: fusor::load_csv
// reads the features (usecols 0-3), fusor::load_csv_column the labels. A missing file, a ragged
// row or a non-numeric cell prints one line naming the file, line and column (the io_error's
// message), and exits with code 2.
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <fusor/fusor.hpp>

#ifndef FUSOR_EXAMPLES_DATA_DIR
#define FUSOR_EXAMPLES_DATA_DIR "examples/data"
#endif

namespace {

using fusor::all;
using fusor::newaxis;

// All pairwise Euclidean distances between the rows of F (n, d) -> (n, n):
//   sqrt(sum(square(F[:, newaxis, :] - F[newaxis, :, :]), axis=2))
// The (n, n, d) difference is never stored: the sum consumes it inside its own loop.
auto pairwise_distances(const fusor::tensor<double>& F) {
    return fusor::sqrt(fusor::sum(
        fusor::square(fusor::view(F, all, newaxis, all) - fusor::view(F, newaxis, all, all)), 2));
}

// Leave-one-out 1-NN: a flower's own distance is set to +inf through the diagonal view, so
// argmin finds its nearest *other* flower.
std::int64_t correct_predictions(const fusor::tensor<double>& F,
                                 const fusor::tensor<std::int64_t>& species) {
    fusor::tensor<double> D = pairwise_distances(F);
    fusor::diagonal(D) = std::numeric_limits<double>::infinity();
    const fusor::tensor<std::int64_t> nearest = fusor::argmin(D, 1);
    std::int64_t correct = 0;
    for (fusor::index_t i = 0; i < nearest.size(); ++i)
        correct += species(nearest(i)) == species(i);
    return correct;
}

void report(const char* what, std::int64_t correct, fusor::index_t n) {
    std::cout << std::left << std::setw(22) << what << correct << "/" << n << " correct ("
              << std::fixed << std::setprecision(4)
              << static_cast<double>(correct) / static_cast<double>(n) << ")\n";
}

} // namespace

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : FUSOR_EXAMPLES_DATA_DIR "/iris.csv";
    fusor::tensor<double> X;
    std::vector<std::string> labels;
    try {
        X = fusor::load_csv<double>(path, {.skip_header = 1, .usecols = {0, 1, 2, 3}});
        labels = fusor::load_csv_column(path, 4, {.skip_header = 1});
    } catch (const fusor::io_error& e) {
        std::cerr << "iris_knn: " << e.what() << '\n';
        return 2;
    }
    const fusor::index_t n = X.shape()[0], d = X.shape()[1];
    if (n < 2) {
        std::cerr << "iris_knn: " << path << ": need at least 2 rows, found " << n << '\n';
        return 2;
    }

    // The species as integer codes, in order of first appearance.
    fusor::tensor<std::int64_t> species(fusor::shape_t{n});
    std::map<std::string, std::int64_t> codes;
    for (fusor::index_t i = 0; i < n; ++i)
        species(i) = codes.emplace(labels[static_cast<std::size_t>(i)], codes.size()).first->second;

    // Standardise every feature: (X - mean(X, 0)) / std(X, 0), one fused loop over (n, 4)
    // reading the two (4,) reductions, each computed once.
    const fusor::tensor<double> Z = (X - fusor::mean(X, 0)) / fusor::std(X, 0);

    std::cout << "Iris leave-one-out 1-nearest-neighbour (" << n << " flowers, " << d
              << " features, " << codes.size() << " species)\n";
    report("standardised features", correct_predictions(Z, species), n);
    report("raw features", correct_predictions(X, species), n);

    std::cout << "\nThe distance expression, as fusor plans it:\n"
              << fusor::explain(pairwise_distances(Z));
    return 0;
}
