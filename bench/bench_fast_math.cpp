// bench/bench_fast_math.cpp: W11 under FUSOR_FAST_MATH (SLEEF's 3.5-ulp forms where it has them;
// tests/ops/test_fast_math.cpp measures their errors), against the same peers as W11 in
// bench_elementwise.cpp, whose vectorised exp and sin are of similar accuracy. Built with
// FUSOR_FAST_MATH=1 (bench/CMakeLists.txt): a program must not mix translation units with and
// without it, so it is a binary of its own.
//
//   W11_fast_math  out = exp(a) * sin(b), 2^22 float32 (compute-bound): `exp` has no 3.5-ulp form
//                  (1 ulp), `sin` takes it
//
//   build/release/bench/bench_fast_math --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true       (or bench/report for the whole suite)
#include <cmath>
#include <memory>

#include "harness.hpp"
#include "peers.hpp"

static_assert(FUSOR_FAST_MATH == 1, "bench_fast_math is built with FUSOR_FAST_MATH=1");

namespace {

using bench::index_t;
using fusor::tensor;

void add_w11_fast_math() {
    const index_t n = index_t{1} << 22;
    const auto a = std::make_shared<tensor<float>>(bench::random_tensor<float>({n}, 1));
    const auto b = std::make_shared<tensor<float>>(bench::random_tensor<float>({n}, 2));
    auto out = std::make_shared<tensor<float>>(fusor::shape_t{n});
    // Within a few ulp of std::exp * std::sin, as every way's vectorised functions are.
    bench::workload<float> w("W11_fast_math", 3 * n * 4, n, 1e-5);
    auto into_out = [out] {
        return out->data();
    };
    w.add(
        "hand",
        [a, b, out] {
            const float *pa = a->data(), *pb = b->data();
            float* o = out->data();
            for (index_t i = 0, m = out->size(); i < m; ++i)
                o[i] = std::exp(pa[i]) * std::sin(pb[i]);
        },
        into_out);
    w.add(
        "fused", [a, b, out] { *out = fusor::exp(*a) * fusor::sin(*b); }, into_out);
#if FUSOR_BENCH_XTENSOR
    w.add(
        "xtensor",
        [a, b, out] {
            auto o = bench::xt_of<1>(*out);
            xt::noalias(o) = xt::exp(bench::xt_of<1>(*a)) * xt::sin(bench::xt_of<1>(*b));
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [a, b, out] {
            bench::eigen_of<1>(*out) =
                bench::eigen_of<1>(*a).exp()
                * bench::eigen_of<1>(*b).unaryExpr(Eigen::internal::scalar_sin_op<float>());
        },
        into_out);
#endif
    w.submit();
}

} // namespace

int main(int argc, char** argv) {
    return bench::run_main(argc, argv, [] { add_w11_fast_math(); });
}
