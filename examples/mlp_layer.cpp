// mlp_layer: the forward pass of a two-layer perceptron on the UCI Iris flowers, each layer one
// fused fusor expression around a matrix product. It prints what examples/mlp_layer.py (the same
// program in NumPy) prints, then how fusor plans the first layer (ctest runs both programs and
// compares the numbers).
//
//   mlp_layer [--no-explain] [data_dir]      (default: examples/data)
//
// data_dir holds iris.csv and the weights the Python twin wrote with --write-weights (checked
// in): mlp_W1.npy (4, 16), mlp_b1.npy (16,), mlp_W2.npy (16, 3), mlp_b2.npy (3,), float64.
//   X       (150, 4)  the features, standardised: (X - mean(X, 0)) / std(X, 0)
//   hidden  (150, 16) maximum(matmul(X, W1) + b1, 0.0): the product, the bias and the relu in
//                     one loop (with a BLAS: one dgemm, then one pass over its result)
//   logits  (150, 3)  matmul(hidden, W2) + b2
//   P       (150, 3)  the row softmax; argmax(P, 1) is the predicted species
// Six decimals of the float64 probabilities agree with NumPy's: the two programs may sum in
// other orders (fusor's float64 sums are compensated, NumPy's pairwise or the BLAS's), which
// moves the last bits only, and none of the printed values lies within 1e-8 of a rounding tie.
// A missing or malformed file prints one line naming it and exits with code 2.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <fusor/fusor.hpp>

#ifndef FUSOR_EXAMPLES_DATA_DIR
#define FUSOR_EXAMPLES_DATA_DIR "examples/data"
#endif

namespace {

// The first layer: matmul, bias and relu, lazily; `hidden = first_layer(...)` runs it.
auto first_layer(const fusor::tensor<double>& X,
                 const fusor::tensor<double>& W1,
                 const fusor::tensor<double>& b1) {
    return fusor::maximum(fusor::matmul(X, W1) + b1, 0.0);
}

} // namespace

int main(int argc, char** argv) {
    bool show_explain = true;
    std::string dir = FUSOR_EXAMPLES_DATA_DIR;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--no-explain")
            show_explain = false;
        else
            dir = arg;
    }

    fusor::tensor<double> X, W1, b1, W2, b2;
    std::vector<std::string> labels;
    try {
        const std::string iris = dir + "/iris.csv";
        X = fusor::load_csv<double>(iris, {.skip_header = 1, .usecols = {0, 1, 2, 3}});
        labels = fusor::load_csv_column(iris, 4, {.skip_header = 1});
        W1 = fusor::load_npy<double>(dir + "/mlp_W1.npy");
        b1 = fusor::load_npy<double>(dir + "/mlp_b1.npy");
        W2 = fusor::load_npy<double>(dir + "/mlp_W2.npy");
        b2 = fusor::load_npy<double>(dir + "/mlp_b2.npy");
    } catch (const fusor::io_error& e) {
        std::cerr << "mlp_layer: " << e.what() << '\n';
        return 2;
    }
    const fusor::index_t n = X.shape()[0];

    // The species as integer codes, in order of first appearance (as the Python twin).
    std::vector<std::string> names;
    std::map<std::string, std::int64_t> codes;
    fusor::tensor<std::int64_t> species(fusor::shape_t{n});
    for (fusor::index_t i = 0; i < n; ++i) {
        const std::string& label = labels[static_cast<std::size_t>(i)];
        if (codes.emplace(label, static_cast<std::int64_t>(names.size())).second)
            names.push_back(label);
        species(i) = codes[label];
    }

    using fusor::keepdims;
    const fusor::tensor<double> Z = (X - fusor::mean(X, 0)) / fusor::std(X, 0);
    const fusor::tensor<double> hidden = first_layer(Z, W1, b1);
    const fusor::tensor<double> logits = fusor::matmul(hidden, W2) + b2;
    // exp(logits - max) appears twice; fusor computes the row max once and reuses it.
    const fusor::tensor<double> P =
        fusor::exp(logits - fusor::max(logits, 1, keepdims))
        / fusor::sum(fusor::exp(logits - fusor::max(logits, 1, keepdims)), 1, keepdims);
    const fusor::tensor<std::int64_t> predicted = fusor::argmax(P, 1);
    const std::int64_t correct = fusor::sum(predicted == species).item();

    std::printf("Iris two-layer perceptron: %lld flowers, %lld features -> %lld hidden (relu) -> "
                "%lld classes (softmax)\n",
                static_cast<long long>(n),
                static_cast<long long>(X.shape()[1]),
                static_cast<long long>(W1.shape()[1]),
                static_cast<long long>(W2.shape()[1]));
    std::printf("accuracy %lld/%lld (%.4f)\n",
                static_cast<long long>(correct),
                static_cast<long long>(n),
                static_cast<double>(correct) / static_cast<double>(n));
    std::printf("probabilities of the first 5 flowers (");
    for (std::size_t k = 0; k < names.size(); ++k)
        std::printf("%s%s", k ? ", " : "", names[k].c_str());
    std::printf("):\n");
    for (fusor::index_t i = 0; i < 5 && i < n; ++i) {
        std::printf("%lld:", static_cast<long long>(i));
        for (fusor::index_t k = 0; k < P.shape()[1]; ++k)
            std::printf(" %.6f", P(i, k));
        std::printf("\n");
    }

    if (show_explain)
        std::cout << "\nThe first layer, maximum(matmul(X, W1) + b1, 0.0), as fusor plans it:\n"
                  << fusor::explain(first_layer(Z, W1, b1));
    return 0;
}
