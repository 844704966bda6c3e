// bootstrap: a 95% bootstrap confidence interval of the mean petal length of each Iris species,
// drawn with NumPy's random numbers: fusor::random::default_rng(42) gives the values
// numpy.random.default_rng(42) gives, so this prints what examples/bootstrap.py prints (the
// NumPy script docs/statistics.md shows; ctest runs both and compares).
//
//   bootstrap [path.csv] [resamples]      (default: examples/data/iris.csv, 10001)
//
// For each species (in order of first appearance) with n flowers: draw `resamples` samples of n
// petal lengths with replacement (rng.choice(x, {resamples, n})), take each sample's mean, and
// report the 2.5th and 97.5th percentiles of those means (NumPy's default, linear method).
// 10001 resamples make both percentiles order statistics ((10001 - 1) * 0.025 = 250 exactly):
// the draws are NumPy's bit for bit, but fusor's float64 mean is compensated and may differ
// from NumPy's pairwise mean in the last bit, which an interpolated percentile printed to four
// decimals could show (docs/statistics.md).
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fusor/fusor.hpp>

#ifndef FUSOR_EXAMPLES_DATA_DIR
#define FUSOR_EXAMPLES_DATA_DIR "examples/data"
#endif

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : FUSOR_EXAMPLES_DATA_DIR "/iris.csv";
    const fusor::index_t resamples = argc > 2 ? std::stoll(argv[2]) : 10001;
    fusor::tensor<double> petal_length;
    std::vector<std::string> labels;
    try {
        petal_length = fusor::load_csv<double>(path, {.skip_header = 1, .usecols = {2}});
        labels = fusor::load_csv_column(path, 4, {.skip_header = 1});
    } catch (const fusor::io_error& e) {
        std::cerr << "bootstrap: " << e.what() << '\n';
        return 2;
    }

    // The species in order of first appearance, and each one's petal lengths.
    std::vector<std::string> species;
    std::vector<std::vector<double>> lengths;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        std::size_t s = 0;
        while (s < species.size() && species[s] != labels[i])
            ++s;
        if (s == species.size()) {
            species.push_back(labels[i]);
            lengths.emplace_back();
        }
        lengths[s].push_back(petal_length.data()[i]);
    }

    auto rng = fusor::random::default_rng(42);
    for (std::size_t s = 0; s < species.size(); ++s) {
        const auto n = static_cast<fusor::index_t>(lengths[s].size());
        fusor::tensor<double> x(fusor::shape_t{n});
        std::copy(lengths[s].begin(), lengths[s].end(), x.data());
        // (resamples, n) draws with replacement, as rng.choice(x, size=(resamples, n)).
        const fusor::tensor<double> samples = rng.choice(x, {resamples, n});
        const fusor::tensor<double> means = fusor::mean(samples, 1);
        const fusor::tensor<double> ci = fusor::percentile(means, std::vector<double>{2.5, 97.5});
        std::printf("%-16s n=%lld  mean %.4f  95%% CI [%.4f, %.4f]\n",
                    species[s].c_str(),
                    static_cast<long long>(n),
                    fusor::mean(x).item(),
                    ci.data()[0],
                    ci.data()[1]);
    }
    return 0;
}
