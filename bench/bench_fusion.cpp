// bench_fusion: what fusion buys, in one run. Each workload runs as
//   fused  - fusor's single fused loop (assignment into a preallocated tensor),
//   eager  - fusor::eval_eager, NumPy-style: one temporary and one pass per node,
//   hand   - the loop a person would write, compiled with the same flags (the reference).
// Every case reports bytes processed (each input read once, the output written once), so
// Google Benchmark prints GB/s; compare ratios within one run, not absolute times.
//
//   build/release/bench/bench_fusion --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include <benchmark/benchmark.h>

#include <fusor/fusor.hpp>

namespace {

constexpr fusor::index_t big = fusor::index_t{1} << 24;

fusor::tensor<float> random_tensor(fusor::index_t n, unsigned seed) {
    fusor::tensor<float> t(fusor::shape_t{n}, fusor::uninitialized);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    for (auto& v : t)
        v = d(rng);
    return t;
}

struct inputs {
    fusor::tensor<float> a, b, c, d, e;
    explicit inputs(fusor::index_t n)
        : a(random_tensor(n, 1)), b(random_tensor(n, 2)), c(random_tensor(n, 3)),
          d(random_tensor(n, 4)), e(random_tensor(n, 5)) {}
};

inputs& data() {
    static inputs in(big);
    return in;
}

// Checked once before timing: the fused result must equal the hand-written loop's.
void require_equal(const fusor::tensor<float>& got,
                   const fusor::tensor<float>& want,
                   const char* what) {
    for (fusor::index_t i = 0; i < want.size(); ++i)
        if (std::fabs(got.data()[i] - want.data()[i]) > 1e-6f * (1.f + std::fabs(want.data()[i]))) {
            std::fprintf(stderr, "%s: mismatch at %td\n", what, i);
            std::exit(1);
        }
}

// ---- W1: out = a * b + c --------------------------------------------------------------------
void w1_hand(const inputs& in, fusor::tensor<float>& out) {
    const float *a = in.a.data(), *b = in.b.data(), *c = in.c.data();
    float* o = out.data();
    for (fusor::index_t i = 0, n = out.size(); i < n; ++i)
        o[i] = a[i] * b[i] + c[i];
}

void W1_fused(benchmark::State& st) {
    auto& in = data();
    fusor::tensor<float> out(in.a.shape());
    for (auto _ : st) {
        out = in.a * in.b + in.c;
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * big * 4 * 4);
}
void W1_eager(benchmark::State& st) {
    auto& in = data();
    for (auto _ : st) {
        auto out = fusor::eval_eager(in.a * in.b + in.c);
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * big * 4 * 4);
}
void W1_hand(benchmark::State& st) {
    auto& in = data();
    fusor::tensor<float> out(in.a.shape());
    for (auto _ : st) {
        w1_hand(in, out);
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * big * 4 * 4);
}

// ---- W2: out = (a * b + c * d - e) * 0.5f ----------------------------------------------------
void w2_hand(const inputs& in, fusor::tensor<float>& out) {
    const float *a = in.a.data(), *b = in.b.data(), *c = in.c.data(), *d = in.d.data(),
                *e = in.e.data();
    float* o = out.data();
    for (fusor::index_t i = 0, n = out.size(); i < n; ++i)
        o[i] = (a[i] * b[i] + c[i] * d[i] - e[i]) * 0.5f;
}

void W2_fused(benchmark::State& st) {
    auto& in = data();
    fusor::tensor<float> out(in.a.shape());
    for (auto _ : st) {
        out = (in.a * in.b + in.c * in.d - in.e) * 0.5f;
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * big * 6 * 4);
}
void W2_eager(benchmark::State& st) {
    auto& in = data();
    for (auto _ : st) {
        auto out = fusor::eval_eager((in.a * in.b + in.c * in.d - in.e) * 0.5f);
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * big * 6 * 4);
}
void W2_hand(benchmark::State& st) {
    auto& in = data();
    fusor::tensor<float> out(in.a.shape());
    for (auto _ : st) {
        w2_hand(in, out);
        benchmark::DoNotOptimize(out.data());
    }
    st.SetBytesProcessed(st.iterations() * big * 6 * 4);
}

void check_all() {
    auto& in = data();
    fusor::tensor<float> want(in.a.shape()), got(in.a.shape());
    w1_hand(in, want);
    got = in.a * in.b + in.c;
    require_equal(got, want, "W1 fused");
    require_equal(fusor::eval_eager(in.a * in.b + in.c), want, "W1 eager");
    w2_hand(in, want);
    got = (in.a * in.b + in.c * in.d - in.e) * 0.5f;
    require_equal(got, want, "W2 fused");
    require_equal(fusor::eval_eager((in.a * in.b + in.c * in.d - in.e) * 0.5f), want, "W2 eager");
}

} // namespace

BENCHMARK(W1_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W1_eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W1_hand)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W2_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W2_eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(W2_hand)->Unit(benchmark::kMillisecond)->UseRealTime();

int main(int argc, char** argv) {
    check_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
