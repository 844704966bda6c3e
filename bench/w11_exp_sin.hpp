// bench/w11_exp_sin.hpp: W11, out = exp(a) * sin(b) over 2^22 float32 (compute-bound), with
// its ways: the hand loop (std::exp, std::sin), fused, xtensor and Eigen. bench_elementwise
// runs it at fusor's default accuracy, bench_fast_math under FUSOR_FAST_MATH (a binary of its
// own: the macro must be the same in every translation unit of a program).
#pragma once

#include <cmath>
#include <memory>

#include "harness.hpp"
#include "peers.hpp"

namespace bench {

/// Registers W11 as workload `name`.
inline void add_w11_exp_sin(const char* name) {
    using fusor::tensor;
    const index_t n = index_t{1} << 22;
    const auto a = std::make_shared<tensor<float>>(random_tensor<float>({n}, 1));
    const auto b = std::make_shared<tensor<float>>(random_tensor<float>({n}, 2));
    auto out = std::make_shared<tensor<float>>(fusor::shape_t{n});
    // Vectorised exp/sin (every way's but the hand loop's) differ from std::exp/std::sin by a
    // few ulp.
    workload<float> w(name, 3 * n * 4, n, 1e-5);
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
            auto o = xt_of<1>(*out);
            xt::noalias(o) = xt::exp(xt_of<1>(*a)) * xt::sin(xt_of<1>(*b));
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [a, b, out] {
            eigen_of<1>(*out) =
                eigen_of<1>(*a).exp()
                * eigen_of<1>(*b).unaryExpr(Eigen::internal::scalar_sin_op<float>());
        },
        into_out);
#endif
    w.submit();
}

} // namespace bench
