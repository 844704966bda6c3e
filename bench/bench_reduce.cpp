// bench_reduce: reductions, fused vs eager vs hand-written vs peers, in one run
// (docs/reductions.md, docs/performance.md).
//   W7  sum over axis 0 and axis 1, max over axis 1, argmax over axis 0 and axis 1 of (4096, 4096)
//       float32
//   W8  sum(a * b, 1), (4096, 4096) float32: the product is never stored
//   W9  row softmax of (4096, 1024) float32 (W9_softmax_1000: (1000, 1000); W9_softmax_10:
//       (419430, 10), ten classes per row), as the README writes it (exp stored once per block
//       of rows: plan/row_blocks.hpp), against the two-statement form (exp stored whole first)
//       and a hand loop storing exp once per row
//   W12 z-score (X - mean(X, 0)) / std(X, 0) of (100000, 8) float64, as the README writes it,
//       against the loop a good programmer writes (mean and 1 / std once per column), the same
//       loop dividing by std as the expression does (`hand_divide`: NumPy's bits) and the
//       two-statement fusor form (statistics into small tensors first); W12_zscore_32 the same
//       over (25000, 32)
//   W26 logsumexp(x, 1) of (4096, 1024) float32 against the hand loop (maximum once, exp once
//       per element) and the two-statement form without logsumexp; NumPy's three passes in the
//       report; W26_logsumexp_axis0 the same over axis 0 (columns)
//   W29 every element of a (4096, 1024) float32 view set to its row's norm, `view(out, all) =
//       sqrt(sum(x * x, 1, keepdims))` (the root hoisted: the root once per row), against the
//       hand loop and the two-statement form
//   F64 sum of 2^24 float64 (compensated) against a plain 8-accumulator loop: the price of
//       exactness
// The hand loops keep 8 independent accumulators along a contiguous axis (the form a compiler
// vectorises) and stream rows into a row of accumulators along axis 0. Every case reports the
// bytes it must read and write, so GB/s shows; each fused result is checked against its hand
// loop once before timing (bench/harness.hpp). Peers: xtensor and Eigen's Tensor module, when
// found. Compare ratios within one run.
//
//   build/release/bench/bench_reduce --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "harness.hpp"
#include "peers.hpp"

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
// Over axis 0, as a good programmer streams it: each row against the row of column maxima and
// their rows, the first maximum kept (strictly greater replaces it; the data holds no NaN).
void argmax_axis0_hand(const float* a, std::int64_t* out) {
    std::vector<float> best(a, a + n);
    for (fusor::index_t j = 0; j < n; ++j)
        out[j] = 0;
    for (fusor::index_t i = 1; i < n; ++i) {
        const float* r = a + i * n;
        for (fusor::index_t j = 0; j < n; ++j)
            if (r[j] > best[static_cast<std::size_t>(j)]) {
                best[static_cast<std::size_t>(j)] = r[j];
                out[j] = i;
            }
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
// The loop a good programmer writes: per row the max, then exp once (stored in the output
// row), its sum, and one division per element.
void softmax_hand(const float* x, fusor::index_t rows, fusor::index_t cols, float* out) {
    for (fusor::index_t i = 0; i < rows; ++i) {
        const float* r = x + i * cols;
        float* o = out + i * cols;
        float m = r[0];
        for (fusor::index_t j = 1; j < cols; ++j)
            m = r[j] > m ? r[j] : m;
        double s = 0;
        for (fusor::index_t j = 0; j < cols; ++j) {
            o[j] = std::exp(r[j] - m);
            s += o[j];
        }
        const auto fs = static_cast<float>(s);
        for (fusor::index_t j = 0; j < cols; ++j)
            o[j] /= fs;
    }
}
// z-score: three passes over X, each statistic computed once per column.
// logsumexp along rows as a good programmer writes it: the maximum once, then exp once per
// element (float exp, as std::exp of a float), summed in double.
void logsumexp_hand(const float* x, fusor::index_t rows, fusor::index_t cols, float* out) {
    for (fusor::index_t i = 0; i < rows; ++i) {
        const float* r = x + i * cols;
        float m = r[0];
        for (fusor::index_t j = 1; j < cols; ++j)
            m = r[j] > m ? r[j] : m;
        double s = 0;
        for (fusor::index_t j = 0; j < cols; ++j)
            s += std::exp(r[j] - m);
        out[i] = static_cast<float>(m + std::log(s));
    }
}

// The same over axis 0, as a good programmer streams it: the column maxima in one pass over
// the rows, then exp once per element into a row of double sums.
void logsumexp_axis0_hand(const float* x, fusor::index_t rows, fusor::index_t cols, float* out) {
    std::vector<float> m(x, x + cols);
    std::vector<double> s(static_cast<std::size_t>(cols), 0.0);
    for (fusor::index_t i = 1; i < rows; ++i)
        for (fusor::index_t j = 0; j < cols; ++j)
            m[j] = x[i * cols + j] > m[j] ? x[i * cols + j] : m[j];
    for (fusor::index_t i = 0; i < rows; ++i)
        for (fusor::index_t j = 0; j < cols; ++j)
            s[j] += std::exp(x[i * cols + j] - m[j]);
    for (fusor::index_t j = 0; j < cols; ++j)
        out[j] = static_cast<float>(m[j] + std::log(s[j]));
}

// `divide`: out = (x - mean) / std, as the expression (and NumPy) computes it; otherwise
// (x - mean) * (1 / std), the faster loop a programmer writes when the last bits may differ (a
// division per element where the row of reciprocals costs one per column: on a 512-bit divider
// the division pass takes ~20 % longer). Out of line: inlined into its timing lambda with
// `divide` known, g++ 12 compiled the dividing loop 50 % slower than this function alone.
[[gnu::noinline]] void zscore_hand(
    const double* x, fusor::index_t rows, fusor::index_t cols, double* out, bool divide = false) {
    std::vector<double> mean(static_cast<std::size_t>(cols)), inv(mean.size());
    for (fusor::index_t i = 0; i < rows; ++i)
        for (fusor::index_t j = 0; j < cols; ++j)
            mean[j] += x[i * cols + j];
    for (auto& m : mean)
        m /= static_cast<double>(rows);
    for (fusor::index_t i = 0; i < rows; ++i)
        for (fusor::index_t j = 0; j < cols; ++j) {
            const double d = x[i * cols + j] - mean[j];
            inv[j] += d * d;
        }
    if (divide) { // inv holds the standard deviations
        for (auto& v : inv)
            v = std::sqrt(v / static_cast<double>(rows));
        for (fusor::index_t i = 0; i < rows; ++i)
            for (fusor::index_t j = 0; j < cols; ++j)
                out[i * cols + j] = (x[i * cols + j] - mean[j]) / inv[j];
        return;
    }
    for (auto& v : inv)
        v = 1.0 / std::sqrt(v / static_cast<double>(rows));
    for (fusor::index_t i = 0; i < rows; ++i)
        for (fusor::index_t j = 0; j < cols; ++j)
            out[i * cols + j] = (x[i * cols + j] - mean[j]) * inv[j];
}
double sum_f64_hand(const double* d, fusor::index_t size) {
    double acc[8] = {};
    for (fusor::index_t j = 0; j < size; j += 8)
        for (int k = 0; k < 8; ++k)
            acc[k] += d[j + k];
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

auto softmax_expr(const fusor::tensor<float>& x) {
    auto p = fusor::exp(x - fusor::max(x, 1, fusor::keepdims));
    return p / fusor::sum(p, 1, fusor::keepdims);
}

constexpr std::int64_t square_bytes = n * n * 4;

// A (n,) result of T, for every way of one workload.
template <class T>
struct result {
    fusor::tensor<T> out = fusor::tensor<T>(fusor::shape_t{n});
    fusor::tensor<T> eager;
};

// W7: one reduction of A along one axis; `fused_expr(A)` is fusor's, the peers' are written
// out (xtensor's reducers and argmax, Eigen's sum/maximum/argmax).
template <class T, class Fused, class Hand, class Xt, class Eig>
void add_w7(const char* name,
            Fused fused_expr,
            Hand hand,
            [[maybe_unused]] Xt xt_expr,
            [[maybe_unused]] Eig eigen_expr) {
    auto r = std::make_shared<result<T>>();
    // The peers accumulate 4096 float32 terms of magnitude < 1 in float32: up to ~n eps =
    // 2.4e-4 from the exact sum (fusor and the hand loop accumulate in double).
    bench::workload<T> w(name, square_bytes + n * static_cast<std::int64_t>(sizeof(T)), n, 5e-4);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand", [r, hand] { hand(A().data(), r->out.data()); }, into_out);
    w.add(
        "fused", [r, fused_expr] { r->out = fused_expr(A()); }, into_out);
#if FUSOR_BENCH_XTENSOR
    w.add(
        "xtensor",
        [r, xt_expr] {
            auto o = bench::xt_of<1>(r->out);
            xt::noalias(o) = xt_expr(bench::xt_of<2>(A()));
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r, eigen_expr] {
            auto o = bench::eigen_of<1>(r->out);
            eigen_expr(o, bench::eigen_of<2>(A()));
        },
        into_out);
#endif
    w.submit();
}

void add_w8() {
    auto r = std::make_shared<result<float>>();
    bench::workload<float> w("W8_sum_of_product", 2 * square_bytes + n * 4, n, 5e-4); // as W7
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand", [r] { dot_rows_hand(A().data(), B().data(), r->out.data()); }, into_out);
    w.add(
        "fused", [r] { r->out = fusor::sum(A() * B(), 1); }, into_out);
    w.add(
        "eager",
        [r] { r->eager = fusor::eval_eager(fusor::sum(A() * B(), 1)); },
        [r] { return r->eager.data(); });
#if FUSOR_BENCH_XTENSOR
    w.add(
        "xtensor",
        [r] {
            auto o = bench::xt_of<1>(r->out);
            xt::noalias(o) = xt::sum(bench::xt_of<2>(A()) * bench::xt_of<2>(B()), {1});
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r] {
            bench::eigen_of<1>(r->out) =
                (bench::eigen_of<2>(A()) * bench::eigen_of<2>(B())).sum(bench::dims(1));
        },
        into_out);
#endif
    w.submit();
}

// `x`: (rows, cols) float32; `name` tells the shapes apart.
void add_w9(const char* name, const fusor::tensor<float>& x) {
    const fusor::index_t rows = x.shape()[0], cols = x.shape()[1];
    struct data {
        fusor::tensor<float> out, eager, row, row_sum, e;
    };
    auto r = std::make_shared<data>(data{fusor::tensor<float>(x.shape()),
                                         {},
                                         fusor::tensor<float>(fusor::shape_t{rows, 1}),
                                         fusor::tensor<float>(fusor::shape_t{rows, 1}),
                                         fusor::tensor<float>(x.shape())});
    bench::workload<float> w(name, 2 * rows * cols * 4, rows * cols, 1e-5);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand",
        [r, &x] { softmax_hand(x.data(), x.shape()[0], x.shape()[1], r->out.data()); },
        into_out);
    w.add(
        "fused", [r, &x] { r->out = softmax_expr(x); }, into_out);
    // The best two-statement form: exp stored once, then divided by its row sums.
    w.add(
        "two_statements",
        [r, &x] {
            r->e = fusor::exp(x - fusor::max(x, 1, fusor::keepdims));
            r->out = r->e / fusor::sum(r->e, 1, fusor::keepdims);
        },
        into_out);
    w.add(
        "eager",
        [r, &x] { r->eager = fusor::eval_eager(softmax_expr(x)); },
        [r] { return r->eager.data(); });
#if FUSOR_BENCH_XTENSOR
    // As a user writes it: the row max and row sum evaluated once each into (n, 1) arrays.
    w.add(
        "xtensor",
        [r, &x] {
            auto xx = bench::xt_of<2>(x);
            auto m = bench::xt_of<2>(r->row);
            auto s = bench::xt_of<2>(r->row_sum);
            auto o = bench::xt_of<2>(r->out);
            xt::noalias(m) = xt::amax(xx, {1}, xt::keep_dims);
            xt::noalias(s) = xt::sum(xt::exp(xx - m), {1}, xt::keep_dims);
            xt::noalias(o) = xt::exp(xx - m) / s;
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r, &x, rows, cols] {
            auto xx = bench::eigen_of<2>(x);
            auto m = bench::eigen_of<2>(r->row);
            auto s = bench::eigen_of<2>(r->row_sum);
            const auto bcast = bench::dims(1, cols);
            m = xx.maximum(bench::dims(1)).reshape(bench::dims(rows, 1));
            s = (xx - m.broadcast(bcast)).exp().sum(bench::dims(1)).reshape(bench::dims(rows, 1));
            bench::eigen_of<2>(r->out) = (xx - m.broadcast(bcast)).exp() / s.broadcast(bcast);
        },
        into_out);
#endif
    w.submit();
}

// W26: logsumexp(x, 1) of (4096, 1024) float32 (issue "The planner counts work": at least half
// the STREAM triad's bandwidth), against the hand loop and the two-statement fusor form a user
// writes without logsumexp (the row maximum into an (n, 1) tensor, then log(sum(exp(x - m))) + m).
void add_w26() {
    const auto& x = X();
    const fusor::index_t rows = x.shape()[0], cols = x.shape()[1];
    struct data {
        fusor::tensor<float> out, row;
    };
    auto r = std::make_shared<data>(data{fusor::tensor<float>(fusor::shape_t{rows}),
                                         fusor::tensor<float>(fusor::shape_t{rows, 1})});
    bench::workload<float> w("W26_logsumexp", rows * cols * 4 + rows * 4, rows, 1e-5);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand",
        [r, &x, rows, cols] { logsumexp_hand(x.data(), rows, cols, r->out.data()); },
        into_out);
    w.add(
        "fused", [r, &x] { r->out = fusor::logsumexp(x, 1); }, into_out);
    w.add(
        "two_statements",
        [r, &x] {
            r->row = fusor::max(x, 1, fusor::keepdims);
            r->out = fusor::log(fusor::sum(fusor::exp(x - r->row), 1)) + fusor::squeeze(r->row, 1);
        },
        into_out);
    w.submit();

    // Over axis 0: (1024,) results, each over 4096 rows.
    auto c = std::make_shared<data>(data{fusor::tensor<float>(fusor::shape_t{cols}),
                                         fusor::tensor<float>(fusor::shape_t{1, cols})});
    bench::workload<float> w0("W26_logsumexp_axis0", rows * cols * 4 + cols * 4, cols, 1e-5);
    auto into_c = [c] {
        return c->out.data();
    };
    w0.add(
        "hand",
        [c, &x, rows, cols] { logsumexp_axis0_hand(x.data(), rows, cols, c->out.data()); },
        into_c);
    w0.add(
        "fused", [c, &x] { c->out = fusor::logsumexp(x, 0); }, into_c);
    w0.add(
        "two_statements",
        [c, &x] {
            c->row = fusor::max(x, 0, fusor::keepdims);
            c->out = fusor::log(fusor::sum(fusor::exp(x - c->row), 0)) + fusor::squeeze(c->row, 0);
        },
        into_c);
    w0.submit();
}

// W29: every element of a (4096, 1024) float32 destination set to its row's norm,
// `view(out, all) = sqrt(sum(x * x, 1, keepdims))`: work over a reduction only, broadcast into a
// larger destination, so the planner hoists the root (plan/hoisting.hpp: the square root once
// per row, not once per element). The hand loop: each row's sum of squares in double, its root
// once, the row filled; two statements: the (4096, 1) norms, then the assignment.
void row_norm_broadcast_hand(const float* x, fusor::index_t rows, fusor::index_t cols, float* out) {
    for (fusor::index_t i = 0; i < rows; ++i) {
        const float* r = x + i * cols;
        double acc[8] = {};
        for (fusor::index_t j = 0; j < cols; j += 8)
            for (int k = 0; k < 8; ++k)
                acc[k] += static_cast<double>(r[j + k]) * r[j + k];
        const float norm = std::sqrt(static_cast<float>(((acc[0] + acc[1]) + (acc[2] + acc[3]))
                                                        + ((acc[4] + acc[5]) + (acc[6] + acc[7]))));
        std::fill(out + i * cols, out + (i + 1) * cols, norm);
    }
}
void add_w29() {
    const auto& x = X();
    const fusor::index_t rows = x.shape()[0], cols = x.shape()[1];
    struct data {
        fusor::tensor<float> out, norms;
    };
    auto r = std::make_shared<data>(
        data{fusor::zeros<float>({rows, cols}), fusor::tensor<float>(fusor::shape_t{rows, 1})});
    bench::workload<float> w("W29_row_norm_broadcast", 2 * rows * cols * 4, rows * cols, 1e-5);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand",
        [r, &x, rows, cols] { row_norm_broadcast_hand(x.data(), rows, cols, r->out.data()); },
        into_out);
    w.add(
        "fused",
        [r, &x] {
            fusor::view(r->out, fusor::all) = fusor::sqrt(fusor::sum(x * x, 1, fusor::keepdims));
        },
        into_out);
    w.add(
        "two_statements",
        [r, &x] {
            r->norms = fusor::sqrt(fusor::sum(x * x, 1, fusor::keepdims));
            fusor::view(r->out, fusor::all) = r->norms;
        },
        into_out);
    w.submit();
}

// W12: the README's z-score over (rows, cols) float64; W12_zscore_32 the same 800,000 values as
// rows of 32 (column statistics of more features: the column sums in four registers on AVX-512).
void add_w12(const char* name, fusor::index_t rows, fusor::index_t cols) {
    const auto x = random_tensor<double>({rows, cols}, 5);
    struct data {
        fusor::tensor<double> x, out, eager, mean, sd;
    };
    auto r = std::make_shared<data>(data{x,
                                         fusor::tensor<double>(fusor::shape_t{rows, cols}),
                                         {},
                                         fusor::tensor<double>(fusor::shape_t{cols}),
                                         fusor::tensor<double>(fusor::shape_t{cols})});
    // The hand loop sums 100000 terms one by one (relative error up to ~1e-11 in the mean,
    // where fusor's pairwise sum stays near 1e-16) and multiplies by 1 / std where fusor
    // divides; x - mean magnifies the first near the mean.
    bench::workload<double> w(name, 3 * rows * cols * 8 + rows * cols * 8, rows * cols, 1e-9);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand", [r, rows, cols] { zscore_hand(r->x.data(), rows, cols, r->out.data()); }, into_out);
    w.add(
        "hand_divide",
        [r, rows, cols] { zscore_hand(r->x.data(), rows, cols, r->out.data(), true); },
        into_out);
    w.add(
        "fused", [r] { r->out = (r->x - fusor::mean(r->x, 0)) / fusor::std(r->x, 0); }, into_out);
    w.add(
        "two_statements",
        [r] {
            r->mean = fusor::mean(r->x, 0);
            r->sd = fusor::std(r->x, 0);
            r->out = (r->x - r->mean) / r->sd;
        },
        into_out);
    w.add(
        "eager",
        [r] { r->eager = fusor::eval_eager((r->x - fusor::mean(r->x, 0)) / fusor::std(r->x, 0)); },
        [r] { return r->eager.data(); });
    w.submit();
}

void add_f64() {
    auto r = std::make_shared<double>();
    bench::workload<double> w("F64_sum_compensated", D().size() * 8, 1, 1e-12);
    w.add(
        "hand", [r] { *r = sum_f64_hand(D().data(), D().size()); }, [r] { return r.get(); });
    w.add(
        "fused", [r] { *r = fusor::eval(fusor::sum(D())).item(); }, [r] { return r.get(); });
    w.submit();
}

} // namespace

int main(int argc, char** argv) {
    return bench::run_main(argc, argv, [] {
        add_w7<float>(
            "W7_sum_axis1",
            [](const auto& a) { return fusor::sum(a, 1); },
            [](const float* a, float* o) { sum_axis1_hand(a, n, n, o); },
            BENCH_XTENSOR([](const auto& a) { return xt::sum(a, {1}); }),
            BENCH_EIGEN([](auto& o, const auto& a) { o = a.sum(bench::dims(1)); }));
        add_w7<float>(
            "W7_sum_axis0",
            [](const auto& a) { return fusor::sum(a, 0); },
            sum_axis0_hand,
            BENCH_XTENSOR([](const auto& a) { return xt::sum(a, {0}); }),
            BENCH_EIGEN([](auto& o, const auto& a) { o = a.sum(bench::dims(0)); }));
        add_w7<float>(
            "W7_max_axis1",
            [](const auto& a) { return fusor::max(a, 1); },
            max_axis1_hand,
            BENCH_XTENSOR([](const auto& a) { return xt::amax(a, {1}); }),
            BENCH_EIGEN([](auto& o, const auto& a) { o = a.maximum(bench::dims(1)); }));
        add_w7<std::int64_t>(
            "W7_argmax_axis0",
            [](const auto& a) { return fusor::argmax(a, 0); },
            argmax_axis0_hand,
            BENCH_XTENSOR([](const auto& a) { return xt::argmax(a, 0); }),
            BENCH_EIGEN(
                [](auto& o, const auto& a) { o = a.argmax(0).template cast<std::int64_t>(); }));
        add_w7<std::int64_t>(
            "W7_argmax_axis1",
            [](const auto& a) { return fusor::argmax(a, 1); },
            argmax_axis1_hand,
            BENCH_XTENSOR([](const auto& a) { return xt::argmax(a, 1); }),
            BENCH_EIGEN(
                [](auto& o, const auto& a) { o = a.argmax(1).template cast<std::int64_t>(); }));
        add_w8();
        add_w9("W9_softmax", X());
        // The second shape: 4 MB, in cache on hosts with a large L2/L3.
        static const auto square = random_tensor<float>({1000, 1000}, 6);
        add_w9("W9_softmax_1000", square);
        // Short rows: ten classes per row (a classifier's outputs), 16 MiB as W9_softmax.
        static const auto classes = random_tensor<float>({419430, 10}, 7);
        add_w9("W9_softmax_10", classes);
        add_w12("W12_zscore", 100000, 8);
        add_w12("W12_zscore_32", 25000, 32);
        add_w26();
        add_w29();
        add_f64();
    });
}
