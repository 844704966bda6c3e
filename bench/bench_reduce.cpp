// bench_reduce: reductions, fused vs eager vs hand-written, in one run (docs/reductions.md).
//   W7  sum over axis 0 and axis 1, max over axis 1, argmax over axis 1 of (4096, 4096) float32
//   W8  sum(a * b, 1), (4096, 4096) float32: the product is never stored
//   W9  row softmax of (4096, 1024) float32: max and sum materialised once each
//   F64 sum of 2^24 float64 (compensated) against a plain 8-accumulator loop: the price of
//       exactness
// The hand loops keep 8 independent accumulators along a contiguous axis (the form a compiler
// vectorises) and stream rows into a row of accumulators along axis 0. Every case reports the
// bytes it must read and write, so GB/s shows; each fused result is checked against its hand
// loop once before timing. Compare ratios within one run.
//
//   build/release/bench/bench_reduce --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include <fusor/fusor.hpp>

namespace {

constexpr fusor::index_t n = 4096;

template <class T>
fusor::tensor<T> random_tensor(fusor::shape_t shape, unsigned seed) {
    fusor::tensor<T> t(shape, fusor::uninitialized);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<T> d(-1, 1);
    for (auto& v : t)
        v = d(rng);
    return t;
}

const fusor::tensor<float>& A() {
    static const auto t = random_tensor<float>({n, n}, 1);
    return t;
}
const fusor::tensor<float>& B() {
    static const auto t = random_tensor<float>({n, n}, 2);
    return t;
}
const fusor::tensor<float>& X() {
    static const auto t = random_tensor<float>({n, 1024}, 3);
    return t;
}
const fusor::tensor<double>& D() {
    static const auto t = random_tensor<double>({fusor::index_t{1} << 24}, 4);
    return t;
}

// ---- hand-written references ----------------------------------------------------------------
void sum_axis1_hand(const float* a, fusor::index_t rows, fusor::index_t cols, float* out) {
    for (fusor::index_t i = 0; i < rows; ++i) {
        const float* r = a + i * cols;
        double acc[8] = {};
        for (fusor::index_t j = 0; j < cols; j += 8)
            for (int k = 0; k < 8; ++k)
                acc[k] += r[j + k];
        out[i] = static_cast<float>(((acc[0] + acc[1]) + (acc[2] + acc[3]))
                                    + ((acc[4] + acc[5]) + (acc[6] + acc[7])));
    }
}
void sum_axis0_hand(const float* a, float* out) {
    std::vector<double> acc(n, 0.0);
    for (fusor::index_t i = 0; i < n; ++i)
        for (fusor::index_t j = 0; j < n; ++j)
            acc[static_cast<std::size_t>(j)] += a[i * n + j];
    for (fusor::index_t j = 0; j < n; ++j)
        out[j] = static_cast<float>(acc[static_cast<std::size_t>(j)]);
}
void max_axis1_hand(const float* a, float* out) {
    for (fusor::index_t i = 0; i < n; ++i) {
        const float* r = a + i * n;
        float m[8];
        for (int k = 0; k < 8; ++k)
            m[k] = r[k];
        for (fusor::index_t j = 8; j < n; j += 8)
            for (int k = 0; k < 8; ++k)
                m[k] = r[j + k] > m[k] ? r[j + k] : m[k]; // no NaN in the data
        float best = m[0];
        for (int k = 1; k < 8; ++k)
            best = m[k] > best ? m[k] : best;
        out[i] = best;
    }
}
void argmax_axis1_hand(const float* a, std::int64_t* out) {
    for (fusor::index_t i = 0; i < n; ++i) {
        const float* r = a + i * n;
        fusor::index_t best = 0;
        for (fusor::index_t j = 1; j < n; ++j)
            if (r[j] > r[best])
                best = j;
        out[i] = best;
    }
}
void dot_rows_hand(const float* a, const float* b, float* out) {
    for (fusor::index_t i = 0; i < n; ++i) {
        const float *ra = a + i * n, *rb = b + i * n;
        double acc[8] = {};
        for (fusor::index_t j = 0; j < n; j += 8)
            for (int k = 0; k < 8; ++k)
                acc[k] += static_cast<double>(ra[j + k] * rb[j + k]);
        out[i] = static_cast<float>(((acc[0] + acc[1]) + (acc[2] + acc[3]))
                                    + ((acc[4] + acc[5]) + (acc[6] + acc[7])));
    }
}
void softmax_hand(const float* x, float* out) {
    const fusor::index_t cols = 1024;
    for (fusor::index_t i = 0; i < n; ++i) {
        const float* r = x + i * cols;
        float* o = out + i * cols;
        float m = r[0];
        for (fusor::index_t j = 1; j < cols; ++j)
            m = r[j] > m ? r[j] : m;
        double s = 0;
        for (fusor::index_t j = 0; j < cols; ++j)
            s += std::exp(r[j] - m);
        const auto fs = static_cast<float>(s);
        for (fusor::index_t j = 0; j < cols; ++j)
            o[j] = std::exp(r[j] - m) / fs;
    }
}
double sum_f64_hand(const double* d, fusor::index_t size) {
    double acc[8] = {};
    for (fusor::index_t j = 0; j < size; j += 8)
        for (int k = 0; k < 8; ++k)
            acc[k] += d[j + k];
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

template <class T>
void require_close(const fusor::tensor<T>& got, const fusor::tensor<T>& want, const char* what) {
    for (fusor::index_t i = 0; i < want.size(); ++i) {
        const double g = static_cast<double>(got.data()[i]),
                     w = static_cast<double>(want.data()[i]);
        if (std::fabs(g - w) > 1e-5 * (1 + std::fabs(w))) {
            std::fprintf(stderr, "%s: mismatch at %td: %g vs %g\n", what, i, g, w);
            std::exit(1);
        }
    }
}

auto softmax_expr(const fusor::tensor<float>& x) {
    auto p = fusor::exp(x - fusor::max(x, 1, fusor::keepdims));
    return p / fusor::sum(p, 1, fusor::keepdims);
}

void check_all() {
    fusor::tensor<float> want(fusor::shape_t{n});
    sum_axis1_hand(A().data(), n, n, want.data());
    require_close(fusor::eval(fusor::sum(A(), 1)), want, "W7 sum axis 1");
    sum_axis0_hand(A().data(), want.data());
    require_close(fusor::eval(fusor::sum(A(), 0)), want, "W7 sum axis 0");
    max_axis1_hand(A().data(), want.data());
    require_close(fusor::eval(fusor::max(A(), 1)), want, "W7 max axis 1");
    fusor::tensor<std::int64_t> idx(fusor::shape_t{n});
    argmax_axis1_hand(A().data(), idx.data());
    require_close(fusor::eval(fusor::argmax(A(), 1)), idx, "W7 argmax axis 1");
    dot_rows_hand(A().data(), B().data(), want.data());
    require_close(fusor::eval(fusor::sum(A() * B(), 1)), want, "W8");
    fusor::tensor<float> sm(X().shape());
    softmax_hand(X().data(), sm.data());
    require_close(fusor::eval(softmax_expr(X())), sm, "W9");
    const double s = fusor::eval(fusor::sum(D())).item();
    if (std::fabs(s - sum_f64_hand(D().data(), D().size())) > 1e-9 * D().size()) {
        std::fprintf(stderr, "F64 sum mismatch\n");
        std::exit(1);
    }
}

constexpr std::int64_t square_bytes = n * n * 4;

// ---- W7 ---------------------------------------------------------------------------------------
void W7_sum_axis1_fused(benchmark::State& st) {
    fusor::tensor<float> out(fusor::shape_t{n});
    for (auto _ : st) {
        out = fusor::sum(A(), 1);
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * square_bytes);
}
void W7_sum_axis1_hand(benchmark::State& st) {
    fusor::tensor<float> out(fusor::shape_t{n});
    for (auto _ : st) {
        sum_axis1_hand(A().data(), n, n, out.data());
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * square_bytes);
}
void W7_sum_axis0_fused(benchmark::State& st) {
    fusor::tensor<float> out(fusor::shape_t{n});
    for (auto _ : st) {
        out = fusor::sum(A(), 0);
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * square_bytes);
}
void W7_sum_axis0_hand(benchmark::State& st) {
    fusor::tensor<float> out(fusor::shape_t{n});
    for (auto _ : st) {
        sum_axis0_hand(A().data(), out.data());
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * square_bytes);
}
void W7_max_axis1_fused(benchmark::State& st) {
    fusor::tensor<float> out(fusor::shape_t{n});
    for (auto _ : st) {
        out = fusor::max(A(), 1);
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * square_bytes);
}
void W7_max_axis1_hand(benchmark::State& st) {
    fusor::tensor<float> out(fusor::shape_t{n});
    for (auto _ : st) {
        max_axis1_hand(A().data(), out.data());
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * square_bytes);
}
void W7_argmax_axis1_fused(benchmark::State& st) {
    fusor::tensor<std::int64_t> out(fusor::shape_t{n});
    for (auto _ : st) {
        out = fusor::argmax(A(), 1);
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * square_bytes);
}
void W7_argmax_axis1_hand(benchmark::State& st) {
    fusor::tensor<std::int64_t> out(fusor::shape_t{n});
    for (auto _ : st) {
        argmax_axis1_hand(A().data(), out.data());
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * square_bytes);
}

// ---- W8 ---------------------------------------------------------------------------------------
void W8_fused(benchmark::State& st) {
    fusor::tensor<float> out(fusor::shape_t{n});
    for (auto _ : st) {
        out = fusor::sum(A() * B(), 1);
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * 2 * square_bytes);
}
void W8_eager(benchmark::State& st) {
    for (auto _ : st) {
        auto out = fusor::eval_eager(fusor::sum(A() * B(), 1));
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * 2 * square_bytes);
}
void W8_hand(benchmark::State& st) {
    fusor::tensor<float> out(fusor::shape_t{n});
    for (auto _ : st) {
        dot_rows_hand(A().data(), B().data(), out.data());
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * 2 * square_bytes);
}

// ---- W9 ---------------------------------------------------------------------------------------
constexpr std::int64_t softmax_bytes = 2 * n * 1024 * 4; // read x, write the result
void W9_fused(benchmark::State& st) {
    fusor::tensor<float> out(X().shape());
    for (auto _ : st) {
        out = softmax_expr(X());
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * softmax_bytes);
}
void W9_eager(benchmark::State& st) {
    for (auto _ : st) {
        auto out = fusor::eval_eager(softmax_expr(X()));
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * softmax_bytes);
}
void W9_hand(benchmark::State& st) {
    fusor::tensor<float> out(X().shape());
    for (auto _ : st) {
        softmax_hand(X().data(), out.data());
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * softmax_bytes);
}

// ---- float64 sum: compensated vs plain ------------------------------------------------------
void F64_sum_fused(benchmark::State& st) {
    for (auto _ : st)
        benchmark::DoNotOptimize(fusor::eval(fusor::sum(D())).item());
    st.SetBytesProcessed(st.iterations() * D().size() * 8);
}
void F64_sum_hand(benchmark::State& st) {
    for (auto _ : st)
        benchmark::DoNotOptimize(sum_f64_hand(D().data(), D().size()));
    st.SetBytesProcessed(st.iterations() * D().size() * 8);
}

} // namespace

BENCHMARK(W7_sum_axis1_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W7_sum_axis1_hand)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W7_sum_axis0_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W7_sum_axis0_hand)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W7_max_axis1_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W7_max_axis1_hand)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W7_argmax_axis1_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W7_argmax_axis1_hand)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W8_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W8_eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W8_hand)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W9_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W9_eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W9_hand)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(F64_sum_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(F64_sum_hand)->Unit(benchmark::kMillisecond)->UseRealTime();

int main(int argc, char** argv) {
    check_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
