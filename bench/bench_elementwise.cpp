// bench_elementwise: same-shape element-wise work, float32, and the machine's ceiling.
//   W1   out = a*b + c, 2^24 elements (memory-bound) and 2^14 (in cache)
//   W2   out = (a*b + c*d - e) * 0.5f, 2^24; also eager with preallocated temporaries, which
//        separates what eager costs in passes from what it costs in fresh pages
//   W11  out = exp(a) * sin(b), 2^22 (compute-bound)
//   W19  out = exp(a[::2]), 2^22 results (every second element of 2^23): the strided loop,
//        against the same exp over a contiguous copy (`contiguous`): the target is 0.8 of it
//   W25  out = sqrt(a*a + b*b), 2^14 (in cache) and 2^24 (memory-bound): the square root, which
//        the compiler does not vectorise under its default -fmath-errno (the hand loop's), and
//        fusor, Eigen and xtensor+xsimd run in SIMD registers
//   T_threshold_*  W1 at 32K, 64K, 128K and 512K elements, for the threads' threshold
//   STREAM copy (c = a) and triad (a = b + s*c), 2^24: the bandwidth ceiling
// Ways: fused, eager, hand (the reference loop, same flags), xtensor, eigen (when found).
//
//   build/release/bench/bench_elementwise --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true       (or bench/report for the whole suite)
#include <cmath>
#include <memory>

#include "harness.hpp"
#include "peers.hpp"
#include "w11_exp_sin.hpp"

namespace {

using bench::index_t;
using fusor::tensor;

struct operands {
    tensor<float> a, b, c, d, e;
    explicit operands(index_t n)
        : a(bench::random_tensor<float>({n}, 1)), b(bench::random_tensor<float>({n}, 2)),
          c(bench::random_tensor<float>({n}, 3)), d(bench::random_tensor<float>({n}, 4)),
          e(bench::random_tensor<float>({n}, 5)) {}
};

void add_w1(const char* name, index_t n) {
    auto in = std::make_shared<operands>(n);
    auto out = std::make_shared<tensor<float>>(fusor::shape_t{n});
    auto eager = std::make_shared<tensor<float>>();
    bench::workload<float> w(name, 4 * n * 4, n, 1e-6);
    auto into_out = [out] {
        return out->data();
    };
    w.add(
        "hand",
        [in, out] {
            const float *a = in->a.data(), *b = in->b.data(), *c = in->c.data();
            float* o = out->data();
            for (index_t i = 0, m = out->size(); i < m; ++i)
                o[i] = a[i] * b[i] + c[i];
        },
        into_out);
    w.add(
        "fused", [in, out] { *out = in->a * in->b + in->c; }, into_out);
    w.add(
        "eager",
        [in, eager] { *eager = fusor::eval_eager(in->a * in->b + in->c); },
        [eager] { return eager->data(); });
#if FUSOR_BENCH_XTENSOR
    w.add(
        "xtensor",
        [in, out] {
            auto o = bench::xt_of<1>(*out);
            xt::noalias(o) =
                bench::xt_of<1>(in->a) * bench::xt_of<1>(in->b) + bench::xt_of<1>(in->c);
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [in, out] {
            bench::eigen_of<1>(*out) =
                bench::eigen_of<1>(in->a) * bench::eigen_of<1>(in->b) + bench::eigen_of<1>(in->c);
        },
        into_out);
#endif
    w.submit();
}

void add_w2() {
    const index_t n = index_t{1} << 24;
    auto in = std::make_shared<operands>(n);
    auto out = std::make_shared<tensor<float>>(fusor::shape_t{n});
    auto eager = std::make_shared<tensor<float>>();
    // The four temporaries NumPy-style evaluation needs, allocated once.
    auto tmp = std::make_shared<std::array<tensor<float>, 4>>();
    for (auto& t : *tmp)
        t = tensor<float>(fusor::shape_t{n});
    bench::workload<float> w("W2_five_operands", 6 * n * 4, n, 1e-6);
    auto into_out = [out] {
        return out->data();
    };
    w.add(
        "hand",
        [in, out] {
            const float *a = in->a.data(), *b = in->b.data(), *c = in->c.data(), *d = in->d.data(),
                        *e = in->e.data();
            float* o = out->data();
            for (index_t i = 0, m = out->size(); i < m; ++i)
                o[i] = (a[i] * b[i] + c[i] * d[i] - e[i]) * 0.5f;
        },
        into_out);
    w.add(
        "fused", [in, out] { *out = (in->a * in->b + in->c * in->d - in->e) * 0.5f; }, into_out);
    w.add(
        "eager",
        [in, eager] { *eager = fusor::eval_eager((in->a * in->b + in->c * in->d - in->e) * 0.5f); },
        [eager] { return eager->data(); });
    w.add(
        "eager_prealloc",
        [in, out, tmp] {
            auto& t = *tmp;
            t[0] = in->a * in->b;
            t[1] = in->c * in->d;
            t[2] = t[0] + t[1];
            t[3] = t[2] - in->e;
            *out = t[3] * 0.5f;
        },
        into_out);
#if FUSOR_BENCH_XTENSOR
    w.add(
        "xtensor",
        [in, out] {
            auto o = bench::xt_of<1>(*out);
            xt::noalias(o) =
                (bench::xt_of<1>(in->a) * bench::xt_of<1>(in->b)
                 + bench::xt_of<1>(in->c) * bench::xt_of<1>(in->d) - bench::xt_of<1>(in->e))
                * 0.5f;
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [in, out] {
            bench::eigen_of<1>(*out) = (bench::eigen_of<1>(in->a) * bench::eigen_of<1>(in->b)
                                        + bench::eigen_of<1>(in->c) * bench::eigen_of<1>(in->d)
                                        - bench::eigen_of<1>(in->e))
                                       * 0.5f;
        },
        into_out);
#endif
    w.submit();
}

void add_w25(const char* name, index_t n) {
    auto in = std::make_shared<operands>(n);
    auto out = std::make_shared<tensor<float>>(fusor::shape_t{n});
    // fused, hand and xtensor round the square root correctly; under -march=native a compiler
    // may contract a*a + b*b into a fused multiply-add, so the last bit can differ. Eigen 3.4 on
    // AVX-512 does not: under EIGEN_FAST_MATH (its default) its float sqrt is rsqrt14 and one
    // Newton step (over [1, 100) 34 % of results off, up to 2.7 ulp; sqrt(+inf) is NaN), a
    // cheaper function than the one fused and xtensor compute (docs/performance.md).
    bench::workload<float> w(name, 3 * n * 4, n, 1e-6);
    auto into_out = [out] {
        return out->data();
    };
    w.add(
        "hand",
        [in, out] {
            const float *a = in->a.data(), *b = in->b.data();
            float* o = out->data();
            for (index_t i = 0, m = out->size(); i < m; ++i)
                o[i] = std::sqrt(a[i] * a[i] + b[i] * b[i]);
        },
        into_out);
    w.add(
        "fused", [in, out] { *out = fusor::sqrt(in->a * in->a + in->b * in->b); }, into_out);
#if FUSOR_BENCH_XTENSOR
    w.add(
        "xtensor",
        [in, out] {
            auto o = bench::xt_of<1>(*out);
            auto a = bench::xt_of<1>(in->a);
            auto b = bench::xt_of<1>(in->b);
            xt::noalias(o) = xt::sqrt(a * a + b * b);
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [in, out] {
            auto a = bench::eigen_of<1>(in->a);
            auto b = bench::eigen_of<1>(in->b);
            bench::eigen_of<1>(*out) = (a * a + b * b).sqrt();
        },
        into_out);
#endif
    w.submit();
}

void add_w19() {
    const index_t n = index_t{1} << 22;
    auto a = std::make_shared<tensor<float>>(bench::random_tensor<float>({2 * n}, 7));
    auto packed = std::make_shared<tensor<float>>(fusor::view(*a, fusor::slice(0, 2 * n, 2)));
    auto out = std::make_shared<tensor<float>>(fusor::shape_t{n});
    // SLEEF's exp against std::exp: within 2 ulp.
    bench::workload<float> w("W19_exp_strided", 2 * n * 4, n, 1e-6);
    auto into_out = [out] {
        return out->data();
    };
    w.add(
        "hand",
        [a, out] {
            const float* x = a->data();
            float* o = out->data();
            for (index_t i = 0, m = out->size(); i < m; ++i)
                o[i] = std::exp(x[2 * i]);
        },
        into_out);
    w.add(
        "fused",
        [a, out] { *out = fusor::exp(fusor::view(*a, fusor::slice(0, 2 * out->size(), 2))); },
        into_out);
    w.add(
        "contiguous", [packed, out] { *out = fusor::exp(*packed); }, into_out);
    w.submit();
}

void add_stream() {
    const index_t n = index_t{1} << 24;
    auto in = std::make_shared<operands>(n);
    auto out = std::make_shared<tensor<float>>(fusor::shape_t{n});
    bench::workload<float> copy("STREAM_copy", 2 * n * 4, n, 0);
    copy.add(
        "hand",
        [in, out] {
            const float* a = in->a.data();
            float* o = out->data();
            for (index_t i = 0, m = out->size(); i < m; ++i)
                o[i] = a[i];
        },
        [out] { return out->data(); });
    copy.add(
        "fused", [in, out] { out->view() = in->a; }, [out] { return out->data(); });
    copy.submit();
    bench::workload<float> triad("STREAM_triad", 3 * n * 4, n, 0);
    triad.add(
        "hand",
        [in, out] {
            const float *b = in->b.data(), *c = in->c.data();
            float* o = out->data();
            for (index_t i = 0, m = out->size(); i < m; ++i)
                o[i] = b[i] + 3.0f * c[i];
        },
        [out] { return out->data(); });
    triad.submit();
}

} // namespace

int main(int argc, char** argv) {
    return bench::run_main(argc, argv, [] {
        add_w1("W1_mul_add", index_t{1} << 24);
        add_w1("W1_mul_add_in_cache", index_t{1} << 14);
        // Around fusor's parallel threshold (64K elements): fused_threads against fused shows
        // where a split starts to pay.
        add_w1("T_threshold_32K", index_t{1} << 15);
        add_w1("T_threshold_64K", index_t{1} << 16);
        add_w1("T_threshold_128K", index_t{1} << 17);
        add_w1("T_threshold_512K", index_t{1} << 19);
        add_w2();
        bench::add_w11_exp_sin("W11_exp_sin");
        add_w19();
        add_w25("W25_sqrt_in_cache", index_t{1} << 14);
        add_w25("W25_sqrt", index_t{1} << 24);
        add_stream();
    });
}
