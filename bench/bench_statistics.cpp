// bench_statistics: the statistics and random-number workloads of docs/statistics.md, at 16M
// elements (memory-bound), each against the loop a good C++ programmer writes; bench/report adds
// NumPy's time for the same call (the targets are fusor / NumPy).
//   W13  standard_normal of 2^24 float64 (fusor: NumPy's ziggurat over PCG64, bit-exact with
//        NumPy; hand: std::normal_distribution over std::mt19937_64, other values)
//   W14  median along axis 1 of (4096, 4096) float32 (hand: nth_element per row, the lower
//        half's maximum for the other middle element)
//   W15  histogram of 2^24 float32 into 100 bins over the data's range (hand: min/max pass,
//        then one pass computing each bin as (x - lo) * (bins / (hi - lo)))
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "harness.hpp"

namespace {

using fusor::index_t;

void standard_normal_workload() {
    const index_t n = index_t{1} << 24;
    const std::int64_t bytes = n * 8;
    {
        auto rng = fusor::random::default_rng(1);
        benchmark::RegisterBenchmark("W13_standard_normal/fused",
                                     [rng, n, bytes](benchmark::State& st) mutable {
                                         for (auto _ : st) {
                                             auto z = rng.standard_normal({n});
                                             benchmark::DoNotOptimize(z.data());
                                         }
                                         st.SetBytesProcessed(st.iterations() * bytes);
                                     })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    }
    benchmark::RegisterBenchmark("W13_standard_normal/hand",
                                 [n, bytes](benchmark::State& st) {
                                     std::mt19937_64 engine(1);
                                     std::normal_distribution<double> normal;
                                     for (auto _ : st) {
                                         std::vector<double> z(static_cast<std::size_t>(n));
                                         for (double& v : z)
                                             v = normal(engine);
                                         benchmark::DoNotOptimize(z.data());
                                     }
                                     st.SetBytesProcessed(st.iterations() * bytes);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

void median_workload() {
    static const auto a = bench::random_tensor<float>({4096, 4096}, 14);
    static fusor::tensor<float> fused_out, hand_out(fusor::shape_t{4096});
    const index_t rows = 4096, cols = 4096;
    bench::workload<float>("W14_median_axis1", rows * cols * 4 + rows * 4, rows, 0.0)
        .add(
            "fused", [] { fused_out = fusor::median(a, 1); }, [] { return fused_out.data(); })
        .add(
            "hand",
            [rows, cols] {
                std::vector<float> lane(static_cast<std::size_t>(cols));
                const auto half = static_cast<std::ptrdiff_t>(cols / 2);
                for (index_t r = 0; r < rows; ++r) {
                    std::copy_n(a.data() + r * cols, cols, lane.begin());
                    std::nth_element(lane.begin(), lane.begin() + half, lane.end());
                    const float upper = lane[static_cast<std::size_t>(half)];
                    const float lower = *std::max_element(lane.begin(), lane.begin() + half);
                    hand_out.data()[r] = lower + (upper - lower) * 0.5f;
                }
            },
            [] { return hand_out.data(); })
        .submit();
}

void histogram_workload() {
    static const auto a = bench::random_tensor<float>({index_t{1} << 24}, 15);
    static std::vector<std::int64_t> fused_out, hand_out;
    constexpr int bins = 100;
    // rtol 1e-4: the hand loop skips NumPy's correction against the edges themselves, so a
    // few of the 16M values that lie on an edge land in the neighbouring bin (2 here).
    bench::workload<std::int64_t>("W15_histogram", a.size() * 4 + bins * 8, bins, 1e-4)
        .add(
            "fused",
            [] {
                auto h = fusor::histogram(a, bins);
                fused_out.assign(h.hist.data(), h.hist.data() + h.hist.size());
            },
            [] { return fused_out.data(); })
        .add(
            "hand",
            [] {
                const float* x = a.data();
                const index_t n = a.size();
                auto [lo_it, hi_it] = std::minmax_element(x, x + n);
                const double lo = *lo_it, hi = *hi_it, norm = bins / (hi - lo);
                hand_out.assign(bins, 0);
                for (index_t i = 0; i < n; ++i) {
                    auto b = static_cast<index_t>((x[i] - lo) * norm);
                    hand_out[static_cast<std::size_t>(std::min<index_t>(b, bins - 1))] += 1;
                }
            },
            [] { return hand_out.data(); })
        .submit();
}

} // namespace

int main(int argc, char** argv) {
    return bench::run_main(argc, argv, [] {
        standard_normal_workload();
        median_workload();
        histogram_workload();
    });
}
