// bench_small: the fixed cost of one evaluation, at the sizes users write in inner loops
// (physics on 3-vectors, per-sample ML, image tiles). Each case runs fused (fusor), as a
// hand-written loop, and in Eigen's Array (ArrayXf / row-major ArrayXXf maps over the same
// buffers) and xtensor when found. Times are per evaluation in nanoseconds; the `allocs`
// counter is the number of heap allocations one evaluation makes (counted by replacing the
// global operator new in this executable).
//   S1  c = a * b + d                      float32 (n,), n = 4 ... 16384 (into an existing c)
//   S2  c = a * row + 1.0f                 a (n, n), row (n,), n = 3, 8, 32, 128
//   S3  float s = eval(sum(a * b)).item()  float32 (n,), n = 4 ... 16384
//   S3i float s = sum(a * b).item()        the same without the result tensor, n = 4, 64, 1024
//   S4  sum(a, 1)                          (8, 16) and (64, 256) float32, into an existing out
//   S5  row softmax exp(x - max(x, 1, keepdims)) / sum(exp(...), 1, keepdims), (8, 16), (256, 4)
//       (short rows), (64, 256)
//   S6  c = (x - m) / s                    x (8, 16) and (64, 256), m and s (rows, 1): a row's
//                                          statistics applied (the normalisation step)
//   S7  v = sum((x - m) * (x - m), 1)      x (8, 16) and (64, 256), m (rows, 1): a row's
//                                          squared deviations summed (the variance step)
//   S8  d = x[1:] - x[:-1]                 x (n + 1,), n = 4, 64, 1024, 16384: two views of
//                                          one tensor (a finite difference)
//   S9  c = transpose(a) + b               a, b (n, n), n = 8, 32: a view read across
//   S10 c = exp(a) * b                     float32 (n,), n = 4 ... 16384: a math function
//                                          (SLEEF's, in registers; hand: std::exp per element)
//   S11 c = exp(x - m)                     x (8, 16) and (64, 256), m (rows, 1): a math
//                                          function over a column broadcast (softmax's step)
// Each way is checked against the hand loop once before timing. bench/report reads the ratios.
//
//   build/release/bench/bench_small --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <fusor/fusor.hpp>

#include "harness.hpp" // random_tensor

#if FUSOR_BENCH_EIGEN
#include <Eigen/Core>
#endif
#if FUSOR_BENCH_XTENSOR
#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xview.hpp>
#endif

// ---- allocation counting: the tests' replacement operator new (malloc underneath) ----------
#include "../tests/counting_new.hpp"
namespace {
std::atomic<std::int64_t> allocations{0};
}
void record_allocation(std::size_t) {
    allocations.fetch_add(1, std::memory_order_relaxed);
}

namespace {

using fusor::index_t;

fusor::tensor<float> random_tensor(const fusor::shape_t& shape, unsigned seed) {
    return bench::random_tensor<float>(shape, seed);
}

#if FUSOR_BENCH_EIGEN
using eigen_vector = Eigen::Map<Eigen::ArrayXf>;
using eigen_const_vector = Eigen::Map<const Eigen::ArrayXf>;
using eigen_rows = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using eigen_matrix = Eigen::Map<eigen_rows>;
using eigen_const_matrix = Eigen::Map<const eigen_rows>;
eigen_const_vector ev(const fusor::tensor<float>& t) {
    return {t.data(), t.size()};
}
eigen_vector ev(fusor::tensor<float>& t) {
    return {t.data(), t.size()};
}
eigen_const_matrix em(const fusor::tensor<float>& t) {
    return {t.data(), t.shape()[0], t.shape()[1]};
}
eigen_matrix em(fusor::tensor<float>& t) {
    return {t.data(), t.shape()[0], t.shape()[1]};
}
#endif

#if FUSOR_BENCH_XTENSOR
template <std::size_t N>
auto xt_of(const fusor::tensor<float>& t) {
    std::array<std::size_t, N> shape{};
    for (std::size_t k = 0; k < N; ++k)
        shape[k] = static_cast<std::size_t>(t.shape()[k]);
    return xt::adapt(const_cast<float*>(t.data()),
                     static_cast<std::size_t>(t.size()),
                     xt::no_ownership(),
                     shape);
}
#endif

// Registers `name/way`: `run()` is one evaluation. Before timing, `check()` compares the
// result with the hand loop's (exit 1 on a mismatch beyond `rtol`, relative to max(1, |x|)).
template <class Run>
void add(const std::string& name, const std::string& way, Run run) {
    benchmark::RegisterBenchmark((name + "/" + way).c_str(), [run](benchmark::State& st) mutable {
        const std::int64_t before = allocations.load();
        run();
        st.counters["allocs"] = static_cast<double>(allocations.load() - before);
        for (auto _ : st) {
            run();
            benchmark::ClobberMemory();
        }
    })->Unit(benchmark::kNanosecond);
}

void expect_close(
    const std::string& what, const float* got, const float* want, index_t n, double rtol) {
    for (index_t i = 0; i < n; ++i)
        if (!(std::fabs(got[i] - want[i]) <= rtol * std::fmax(1.0, std::fabs(want[i])))) {
            std::fprintf(stderr,
                         "%s: element %td is %.9g, the hand loop says %.9g\n",
                         what.c_str(),
                         i,
                         static_cast<double>(got[i]),
                         static_cast<double>(want[i]));
            std::exit(1);
        }
}

// The sums a good programmer writes: 32 float accumulators (four 8-lane registers, so the adds
// do not wait on each other), combined at the end. float32 throughout, as Eigen's.
float hand_dot(const float* a, const float* b, index_t n) {
    float acc[32] = {};
    index_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int j = 0; j < 32; ++j)
            acc[j] += a[i + j] * b[i + j];
    float s = 0;
    for (int j = 0; j < 32; ++j)
        s += acc[j];
    for (; i < n; ++i)
        s += a[i] * b[i];
    return s;
}
float hand_sum(const float* a, index_t n) {
    float acc[32] = {};
    index_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int j = 0; j < 32; ++j)
            acc[j] += a[i + j];
    float s = 0;
    for (int j = 0; j < 32; ++j)
        s += acc[j];
    for (; i < n; ++i)
        s += a[i];
    return s;
}

// ---- S1: c = a * b + d ------------------------------------------------------------------------
void s1(index_t n) {
    struct data {
        fusor::tensor<float> a, b, d, c;
    };
    auto* x = new data{random_tensor({n}, 1),
                       random_tensor({n}, 2),
                       random_tensor({n}, 3),
                       fusor::tensor<float>(fusor::shape_t{n})};
    const std::string name = "S1_mul_add/" + std::to_string(n);
    std::vector<float> want(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i)
        want[static_cast<std::size_t>(i)] = x->a.data()[i] * x->b.data()[i] + x->d.data()[i];
    auto check = [&](const char* way, auto run) {
        std::fill(x->c.data(), x->c.data() + n, 0.f);
        run();
        expect_close(name + "/" + way, x->c.data(), want.data(), n, 1e-6);
        add(name, way, run);
    };
    check("fused", [x] { x->c = x->a * x->b + x->d; });
    check("hand", [x, n] {
        const float *a = x->a.data(), *b = x->b.data(), *d = x->d.data();
        float* c = x->c.data();
        for (index_t i = 0; i < n; ++i)
            c[i] = a[i] * b[i] + d[i];
    });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x] {
        ev(x->c) = ev(std::as_const(x->a)) * ev(std::as_const(x->b)) + ev(std::as_const(x->d));
    });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto c = xt_of<1>(x->c);
        xt::noalias(c) = xt_of<1>(x->a) * xt_of<1>(x->b) + xt_of<1>(x->d);
    });
#endif
}

// ---- S2: c = a * row + 1.0f -------------------------------------------------------------------
void s2(index_t n) {
    struct data {
        fusor::tensor<float> a, row, c;
    };
    auto* x = new data{random_tensor({n, n}, 4),
                       random_tensor({n}, 5),
                       fusor::tensor<float>(fusor::shape_t{n, n})};
    const std::string name = "S2_row_broadcast/" + std::to_string(n * n);
    std::vector<float> want(static_cast<std::size_t>(n * n));
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j)
            want[static_cast<std::size_t>(i * n + j)] =
                x->a.data()[i * n + j] * x->row.data()[j] + 1.0f;
    auto check = [&](const char* way, auto run) {
        std::fill(x->c.data(), x->c.data() + n * n, 0.f);
        run();
        expect_close(name + "/" + way, x->c.data(), want.data(), n * n, 1e-6);
        add(name, way, run);
    };
    check("fused", [x] { x->c = x->a * x->row + 1.0f; });
    check("hand", [x, n] {
        const float *a = x->a.data(), *r = x->row.data();
        float* c = x->c.data();
        for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < n; ++j)
                c[i * n + j] = a[i * n + j] * r[j] + 1.0f;
    });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x] {
        const eigen_const_vector r = ev(std::as_const(x->row));
        em(x->c) = em(std::as_const(x->a)).rowwise() * r.transpose() + 1.0f;
    });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto c = xt_of<2>(x->c);
        xt::noalias(c) = xt_of<2>(x->a) * xt_of<1>(x->row) + 1.0f;
    });
#endif
}

// ---- S3: float s = eval(sum(a * b)).item() ----------------------------------------------------
// S3i: float s = sum(a * b).item(), which evaluates into the float itself (no result tensor).
void s3(index_t n, bool item_only) {
    struct data {
        fusor::tensor<float> a, b;
        float s = 0;
    };
    auto* x = new data{random_tensor({n}, 6), random_tensor({n}, 7)};
    const std::string name = (item_only ? "S3i_dot_item/" : "S3_dot/") + std::to_string(n);
    double want = 0;
    for (index_t i = 0; i < n; ++i)
        want += static_cast<double>(x->a.data()[i]) * x->b.data()[i];
    const float want_f = static_cast<float>(want);
    auto check = [&](const char* way, auto run) {
        x->s = 0;
        run();
        expect_close(name + "/" + way, &x->s, &want_f, 1, 1e-4);
        add(name, way, run);
    };
    if (item_only)
        check("fused", [x] { x->s = fusor::sum(x->a * x->b).item(); });
    else
        check("fused", [x] { x->s = fusor::eval(fusor::sum(x->a * x->b)).item(); });
    check("hand", [x, n] { x->s = hand_dot(x->a.data(), x->b.data(), n); });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x] { x->s = (ev(std::as_const(x->a)) * ev(std::as_const(x->b))).sum(); });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] { x->s = xt::sum(xt_of<1>(x->a) * xt_of<1>(x->b))(); });
#endif
}

// ---- S4: sum(a, 1) ----------------------------------------------------------------------------
void s4(index_t rows, index_t cols) {
    struct data {
        fusor::tensor<float> a, out;
    };
    auto* x = new data{random_tensor({rows, cols}, 8), fusor::tensor<float>(fusor::shape_t{rows})};
    const std::string name = "S4_sum_axis1/" + std::to_string(rows * cols);
    std::vector<float> want(static_cast<std::size_t>(rows));
    for (index_t i = 0; i < rows; ++i) {
        double s = 0;
        for (index_t j = 0; j < cols; ++j)
            s += x->a.data()[i * cols + j];
        want[static_cast<std::size_t>(i)] = static_cast<float>(s);
    }
    auto check = [&](const char* way, auto run) {
        std::fill(x->out.data(), x->out.data() + rows, 0.f);
        run();
        expect_close(name + "/" + way, x->out.data(), want.data(), rows, 1e-5);
        add(name, way, run);
    };
    check("fused", [x] { x->out = fusor::sum(x->a, 1); });
    check("hand", [x, rows, cols] {
        const float* a = x->a.data();
        for (index_t i = 0; i < rows; ++i) {
            x->out.data()[i] = hand_sum(a + i * cols, cols);
        }
    });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x] { ev(x->out) = em(std::as_const(x->a)).rowwise().sum(); });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto out = xt_of<1>(x->out);
        xt::noalias(out) = xt::sum(xt_of<2>(x->a), {1});
    });
#endif
}

// ---- S5: row softmax --------------------------------------------------------------------------
void s5(index_t rows, index_t cols) {
    struct data {
        fusor::tensor<float> x, out;
        std::vector<float> m, s; // the hand loop's statistics
    };
    auto* x = new data{random_tensor({rows, cols}, 9),
                       fusor::tensor<float>(fusor::shape_t{rows, cols}),
                       std::vector<float>(static_cast<std::size_t>(rows)),
                       std::vector<float>(static_cast<std::size_t>(rows))};
    const std::string name = "S5_softmax/" + std::to_string(rows * cols);
    std::vector<float> want(static_cast<std::size_t>(rows * cols));
    for (index_t i = 0; i < rows; ++i) {
        float m = -INFINITY;
        for (index_t j = 0; j < cols; ++j)
            m = std::fmax(m, x->x.data()[i * cols + j]);
        double s = 0;
        for (index_t j = 0; j < cols; ++j)
            s += std::exp(static_cast<double>(x->x.data()[i * cols + j] - m));
        for (index_t j = 0; j < cols; ++j)
            want[static_cast<std::size_t>(i * cols + j)] = static_cast<float>(
                std::exp(static_cast<double>(x->x.data()[i * cols + j] - m)) / s);
    }
    auto check = [&](const char* way, auto run) {
        std::fill(x->out.data(), x->out.data() + rows * cols, 0.f);
        run();
        expect_close(name + "/" + way, x->out.data(), want.data(), rows * cols, 1e-5);
        add(name, way, run);
    };
    using fusor::keepdims;
    check("fused", [x] {
        const auto& X = x->x;
        x->out = fusor::exp(X - fusor::max(X, 1, keepdims))
                 / fusor::sum(fusor::exp(X - fusor::max(X, 1, keepdims)), 1, keepdims);
    });
    // The loop a good programmer writes: the max once, exp once (stored in out), the sum once,
    // then one multiply by the reciprocal per row.
    check("hand", [x, rows, cols] {
        const float* in = x->x.data();
        float* out = x->out.data();
        for (index_t i = 0; i < rows; ++i) {
            float m = -INFINITY;
            for (index_t j = 0; j < cols; ++j)
                m = std::fmax(m, in[i * cols + j]);
            float s = 0;
            for (index_t j = 0; j < cols; ++j) {
                out[i * cols + j] = std::exp(in[i * cols + j] - m);
                s += out[i * cols + j];
            }
            const float r = 1.0f / s;
            for (index_t j = 0; j < cols; ++j)
                out[i * cols + j] *= r;
        }
    });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x] {
        const auto in = em(std::as_const(x->x));
        auto out = em(x->out);
        const Eigen::ArrayXf m = in.rowwise().maxCoeff();
        out = (in.colwise() - m).exp();
        const Eigen::ArrayXf s = out.rowwise().sum();
        out.colwise() /= s;
    });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto in = xt_of<2>(x->x);
        auto out = xt_of<2>(x->out);
        auto e = xt::eval(xt::exp(in - xt::view(xt::amax(in, {1}), xt::all(), xt::newaxis())));
        xt::noalias(out) = e / xt::view(xt::sum(e, {1}), xt::all(), xt::newaxis());
    });
#endif
}

// ---- S6: c = (x - m) / s, m and s one element per row ----------------------------------------
void s6(index_t rows, index_t cols) {
    struct data {
        fusor::tensor<float> x, m, s, c;
    };
    auto* x = new data{random_tensor({rows, cols}, 10),
                       random_tensor({rows, 1}, 11),
                       random_tensor({rows, 1}, 12) + 2.0f, // no divisor near 0
                       fusor::tensor<float>(fusor::shape_t{rows, cols})};
    const std::string name = "S6_row_normalize/" + std::to_string(rows * cols);
    std::vector<float> want(static_cast<std::size_t>(rows * cols));
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j)
            want[static_cast<std::size_t>(i * cols + j)] =
                (x->x.data()[i * cols + j] - x->m.data()[i]) / x->s.data()[i];
    auto check = [&](const char* way, auto run) {
        std::fill(x->c.data(), x->c.data() + rows * cols, 0.f);
        run();
        expect_close(name + "/" + way, x->c.data(), want.data(), rows * cols, 1e-6);
        add(name, way, run);
    };
    check("fused", [x] { x->c = (x->x - x->m) / x->s; });
    // The loop a good programmer writes: each row's two statistics read once.
    check("hand", [x, rows, cols] {
        const float* in = x->x.data();
        float* out = x->c.data();
        for (index_t i = 0; i < rows; ++i) {
            const float m = x->m.data()[i], s = x->s.data()[i];
            for (index_t j = 0; j < cols; ++j)
                out[i * cols + j] = (in[i * cols + j] - m) / s;
        }
    });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x, rows] {
        const eigen_const_vector m(x->m.data(), rows), s(x->s.data(), rows);
        em(x->c) = (em(std::as_const(x->x)).colwise() - m).colwise() / s;
    });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto c = xt_of<2>(x->c);
        xt::noalias(c) = (xt_of<2>(x->x) - xt_of<2>(x->m)) / xt_of<2>(x->s);
    });
#endif
}

// ---- S7: v = sum((x - m) * (x - m), 1), m one element per row ----------------------------------
void s7(index_t rows, index_t cols) {
    struct data {
        fusor::tensor<float> x, m, v;
    };
    auto* x = new data{random_tensor({rows, cols}, 13),
                       random_tensor({rows, 1}, 14),
                       fusor::tensor<float>(fusor::shape_t{rows})};
    const std::string name = "S7_row_variance/" + std::to_string(rows * cols);
    std::vector<float> want(static_cast<std::size_t>(rows));
    for (index_t i = 0; i < rows; ++i) {
        double s = 0;
        for (index_t j = 0; j < cols; ++j) {
            const double d = x->x.data()[i * cols + j] - x->m.data()[i];
            s += d * d;
        }
        want[static_cast<std::size_t>(i)] = static_cast<float>(s);
    }
    auto check = [&](const char* way, auto run) {
        std::fill(x->v.data(), x->v.data() + rows, 0.f);
        run();
        expect_close(name + "/" + way, x->v.data(), want.data(), rows, 1e-5);
        add(name, way, run);
    };
    check("fused", [x] { x->v = fusor::sum((x->x - x->m) * (x->x - x->m), 1); });
    // The loop a good programmer writes: each row's statistic read once, float accumulators.
    check("hand", [x, rows, cols] {
        const float* in = x->x.data();
        for (index_t i = 0; i < rows; ++i) {
            const float m = x->m.data()[i];
            float acc[16] = {};
            index_t j = 0;
            for (; j + 16 <= cols; j += 16)
                for (int q = 0; q < 16; ++q) {
                    const float d = in[i * cols + j + q] - m;
                    acc[q] += d * d;
                }
            float s = 0;
            for (int q = 0; q < 16; ++q)
                s += acc[q];
            for (; j < cols; ++j) {
                const float d = in[i * cols + j] - m;
                s += d * d;
            }
            x->v.data()[i] = s;
        }
    });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x, rows] {
        const eigen_const_vector m(x->m.data(), rows);
        ev(x->v) = (em(std::as_const(x->x)).colwise() - m).square().rowwise().sum();
    });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto v = xt_of<1>(x->v);
        const auto d = xt_of<2>(x->x) - xt_of<2>(x->m);
        xt::noalias(v) = xt::sum(d * d, {1});
    });
#endif
}

// ---- S8: d = x[1:] - x[:-1], two views of one tensor ------------------------------------------
void s8(index_t n) {
    struct data {
        fusor::tensor<float> x, d;
    };
    auto* x = new data{random_tensor({n + 1}, 15), fusor::tensor<float>(fusor::shape_t{n})};
    const std::string name = "S8_difference_views/" + std::to_string(n);
    std::vector<float> want(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i)
        want[static_cast<std::size_t>(i)] = x->x.data()[i + 1] - x->x.data()[i];
    auto check = [&](const char* way, auto run) {
        std::fill(x->d.data(), x->d.data() + n, 0.f);
        run();
        expect_close(name + "/" + way, x->d.data(), want.data(), n, 1e-6);
        add(name, way, run);
    };
    check("fused", [x] {
        x->d = fusor::view(x->x, fusor::slice(1, fusor::none))
               - fusor::view(x->x, fusor::slice(fusor::none, -1));
    });
    check("hand", [x, n] {
        const float* in = x->x.data();
        float* out = x->d.data();
        for (index_t i = 0; i < n; ++i)
            out[i] = in[i + 1] - in[i];
    });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x, n] {
        const auto in = ev(std::as_const(x->x));
        ev(x->d) = in.tail(n) - in.head(n);
    });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto d = xt_of<1>(x->d);
        const auto in = xt_of<1>(x->x);
        xt::noalias(d) = xt::view(in, xt::range(1, xt::placeholders::_))
                         - xt::view(in, xt::range(xt::placeholders::_, -1));
    });
#endif
}

// ---- S9: c = transpose(a) + b, a square matrix read across --------------------------------------
void s9(index_t n) {
    struct data {
        fusor::tensor<float> a, b, c;
    };
    auto* x = new data{random_tensor({n, n}, 16),
                       random_tensor({n, n}, 17),
                       fusor::tensor<float>(fusor::shape_t{n, n})};
    const std::string name = "S9_transpose_plus/" + std::to_string(n * n);
    std::vector<float> want(static_cast<std::size_t>(n * n));
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j)
            want[static_cast<std::size_t>(i * n + j)] =
                x->a.data()[j * n + i] + x->b.data()[i * n + j];
    auto check = [&](const char* way, auto run) {
        std::fill(x->c.data(), x->c.data() + n * n, 0.f);
        run();
        expect_close(name + "/" + way, x->c.data(), want.data(), n * n, 1e-6);
        add(name, way, run);
    };
    check("fused", [x] { x->c = fusor::transpose(x->a) + x->b; });
    check("hand", [x, n] {
        const float *a = x->a.data(), *b = x->b.data();
        float* c = x->c.data();
        for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < n; ++j)
                c[i * n + j] = a[j * n + i] + b[i * n + j];
    });
#if FUSOR_BENCH_EIGEN
    check("eigen",
          [x] { em(x->c) = em(std::as_const(x->a)).transpose() + em(std::as_const(x->b)); });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto c = xt_of<2>(x->c);
        xt::noalias(c) = xt::transpose(xt_of<2>(x->a)) + xt_of<2>(x->b);
    });
#endif
}

// ---- S10: c = exp(a) * b, a math function -------------------------------------------------------
void s10(index_t n) {
    struct data {
        fusor::tensor<float> a, b, c;
    };
    auto* x = new data{
        random_tensor({n}, 18), random_tensor({n}, 19), fusor::tensor<float>(fusor::shape_t{n})};
    const std::string name = "S10_exp_mul/" + std::to_string(n);
    std::vector<float> want(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i)
        want[static_cast<std::size_t>(i)] = std::exp(x->a.data()[i]) * x->b.data()[i];
    auto check = [&](const char* way, auto run) {
        std::fill(x->c.data(), x->c.data() + n, 0.f);
        run();
        // The vectorised exp functions differ from std::exp by a few units in the last place.
        expect_close(name + "/" + way, x->c.data(), want.data(), n, 1e-5);
        add(name, way, run);
    };
    check("fused", [x] { x->c = fusor::exp(x->a) * x->b; });
    check("hand", [x, n] {
        const float *a = x->a.data(), *b = x->b.data();
        float* c = x->c.data();
        for (index_t i = 0; i < n; ++i)
            c[i] = std::exp(a[i]) * b[i];
    });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x] { ev(x->c) = ev(std::as_const(x->a)).exp() * ev(std::as_const(x->b)); });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto c = xt_of<1>(x->c);
        xt::noalias(c) = xt::exp(xt_of<1>(x->a)) * xt_of<1>(x->b);
    });
#endif
}

// ---- S11: c = exp(x - m), m one element per row ----------------------------------------------
void s11(index_t rows, index_t cols) {
    struct data {
        fusor::tensor<float> x, m, c;
    };
    auto* x = new data{random_tensor({rows, cols}, 20),
                       random_tensor({rows, 1}, 21),
                       fusor::tensor<float>(fusor::shape_t{rows, cols})};
    const std::string name = "S11_exp_minus_column/" + std::to_string(rows * cols);
    std::vector<float> want(static_cast<std::size_t>(rows * cols));
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j)
            want[static_cast<std::size_t>(i * cols + j)] =
                std::exp(x->x.data()[i * cols + j] - x->m.data()[i]);
    auto check = [&](const char* way, auto run) {
        std::fill(x->c.data(), x->c.data() + rows * cols, 0.f);
        run();
        // The vectorised exp functions differ from std::exp by a few units in the last place.
        expect_close(name + "/" + way, x->c.data(), want.data(), rows * cols, 1e-5);
        add(name, way, run);
    };
    check("fused", [x] { x->c = fusor::exp(x->x - x->m); });
    // The loop a good programmer writes: each row's statistic read once.
    check("hand", [x, rows, cols] {
        const float* in = x->x.data();
        float* out = x->c.data();
        for (index_t i = 0; i < rows; ++i) {
            const float m = x->m.data()[i];
            for (index_t j = 0; j < cols; ++j)
                out[i * cols + j] = std::exp(in[i * cols + j] - m);
        }
    });
#if FUSOR_BENCH_EIGEN
    check("eigen", [x, rows] {
        const eigen_const_vector m(x->m.data(), rows);
        em(x->c) = (em(std::as_const(x->x)).colwise() - m).exp();
    });
#endif
#if FUSOR_BENCH_XTENSOR
    check("xtensor", [x] {
        auto c = xt_of<2>(x->c);
        xt::noalias(c) = xt::exp(xt_of<2>(x->x) - xt_of<2>(x->m));
    });
#endif
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    fusor::set_num_threads(1);
    for (index_t n : {4, 16, 64, 256, 1024, 16384})
        s1(n);
    for (index_t n : {3, 8, 32, 128})
        s2(n);
    for (index_t n : {4, 16, 64, 256, 1024, 16384})
        s3(n, false);
    for (index_t n : {4, 64, 1024})
        s3(n, true);
    s4(8, 16);
    s4(64, 256);
    s5(8, 16);
    s5(256, 4); // short rows: four classes per row
    s5(64, 256);
    s6(8, 16);
    s6(64, 256);
    s7(8, 16);
    s7(64, 256);
    for (index_t n : {4, 64, 1024, 16384})
        s8(n);
    for (index_t n : {8, 32})
        s9(n);
    for (index_t n : {4, 16, 64, 256, 1024, 16384})
        s10(n);
    s11(8, 16);
    s11(64, 256);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
