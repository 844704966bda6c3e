// bench_broadcast: broadcasting, float32 — where a stride-0 operand meets the inner loop.
//   W3   (4096, 4096) + (4096,)      row broadcast (the row is re-read for every row)
//   W4   (4096, 4096) + (4096, 1)    column broadcast (one value per inner loop)
//   W5   (4096, 1) * (1, 4096)       outer product (both operands broadcast)
//   W10  (64, 256, 256) + (64, 1, 1) and + (1, 256, 256): the seeds' 3-D cases
//   W24  (4194304, 3) - (3,)         short rows (a point cloud minus its centroid): the row
//                                    re-read every 3 elements (the collapsed kernel)
// Ways: fused, eager, hand (the reference loop, same flags), xtensor, eigen (when found).
// Bytes: each input read once, the output written once.
//
//   build/release/bench/bench_broadcast --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true       (or bench/report for the whole suite)
#include <memory>

#include "harness.hpp"
#include "peers.hpp"

namespace {

using bench::index_t;
using fusor::shape_t;
using fusor::tensor;

struct pair_of {
    tensor<float> x, y, out;
    tensor<float> eager;
    pair_of(const shape_t& xs, const shape_t& ys, const shape_t& os)
        : x(bench::random_tensor<float>(xs, 1)), y(bench::random_tensor<float>(ys, 2)), out(os) {}
};

// The ways every broadcast workload shares: fused, eager and both peers, written once with
// the operation `op` and each library's broadcasting (fusor, NumPy and xtensor broadcast
// implicitly; Eigen needs reshape + broadcast, supplied as `eigen_expr`).
template <int Rank, int RankY, class Op, class Hand, class EigenExpr>
void add_broadcast(const char* name,
                   const shape_t& xs,
                   const shape_t& ys,
                   Op op,
                   Hand hand,
                   [[maybe_unused]] EigenExpr eigen_expr) {
    const shape_t os = fusor::broadcast_shapes(xs, ys);
    auto p = std::make_shared<pair_of>(xs, ys, os);
    const index_t n = fusor::shape_size(os);
    bench::workload<float> w(name, (p->x.size() + p->y.size() + n) * 4, n, 1e-6);
    auto into_out = [p] {
        return p->out.data();
    };
    w.add(
        "hand", [p, hand] { hand(p->x.data(), p->y.data(), p->out.data()); }, into_out);
    w.add(
        "fused", [p, op] { p->out = op(p->x, p->y); }, into_out);
    w.add(
        "eager",
        [p, op] { p->eager = fusor::eval_eager(op(p->x, p->y)); },
        [p] { return p->eager.data(); });
#if FUSOR_BENCH_XTENSOR
    w.add(
        "xtensor",
        [p, op] {
            auto o = bench::xt_of<Rank>(p->out);
            xt::noalias(o) = op(bench::xt_of<Rank>(p->x), bench::xt_of<RankY>(p->y));
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [p, eigen_expr] {
            auto o = bench::eigen_of<Rank>(p->out);
            eigen_expr(o, bench::eigen_of<Rank>(p->x), bench::eigen_of<RankY>(p->y));
        },
        into_out);
#endif
    w.submit();
}

constexpr index_t n = 4096;

const auto plus = [](const auto& x, const auto& y) {
    return x + y;
};
const auto times = [](const auto& x, const auto& y) {
    return x * y;
};

} // namespace

int main(int argc, char** argv) {
    return bench::run_main(argc, argv, [] {
        add_broadcast<2, 1>(
            "W3_row_broadcast",
            {n, n},
            {n},
            plus,
            [](const float* x, const float* y, float* o) {
                for (index_t i = 0; i < n; ++i)
                    for (index_t j = 0; j < n; ++j)
                        o[i * n + j] = x[i * n + j] + y[j];
            },
            BENCH_EIGEN([](auto& o, auto x, auto y) {
                o = x + y.reshape(bench::dims(1, n)).broadcast(bench::dims(n, 1));
            }));
        add_broadcast<2, 2>(
            "W4_column_broadcast",
            {n, n},
            {n, 1},
            plus,
            [](const float* x, const float* y, float* o) {
                for (index_t i = 0; i < n; ++i) {
                    const float yi = y[i];
                    for (index_t j = 0; j < n; ++j)
                        o[i * n + j] = x[i * n + j] + yi;
                }
            },
            BENCH_EIGEN([](auto& o, auto x, auto y) { o = x + y.broadcast(bench::dims(1, n)); }));
        add_broadcast<2, 2>(
            "W5_outer",
            {n, 1},
            {1, n},
            times,
            [](const float* x, const float* y, float* o) {
                for (index_t i = 0; i < n; ++i) {
                    const float xi = x[i];
                    for (index_t j = 0; j < n; ++j)
                        o[i * n + j] = xi * y[j];
                }
            },
            BENCH_EIGEN([](auto& o, auto x, auto y) {
                o = x.broadcast(bench::dims(1, n)) * y.broadcast(bench::dims(n, 1));
            }));
        add_broadcast<3, 3>(
            "W10_plus_64x1x1",
            {64, 256, 256},
            {64, 1, 1},
            plus,
            [](const float* x, const float* y, float* o) {
                for (index_t b = 0; b < 64; ++b) {
                    const float yb = y[b];
                    for (index_t k = 0; k < 256 * 256; ++k)
                        o[b * 65536 + k] = x[b * 65536 + k] + yb;
                }
            },
            BENCH_EIGEN(
                [](auto& o, auto x, auto y) { o = x + y.broadcast(bench::dims(1, 256, 256)); }));
        add_broadcast<3, 3>(
            "W10_plus_1x256x256",
            {64, 256, 256},
            {1, 256, 256},
            plus,
            [](const float* x, const float* y, float* o) {
                for (index_t b = 0; b < 64; ++b)
                    for (index_t k = 0; k < 256 * 256; ++k)
                        o[b * 65536 + k] = x[b * 65536 + k] + y[k];
            },
            BENCH_EIGEN(
                [](auto& o, auto x, auto y) { o = x + y.broadcast(bench::dims(64, 1, 1)); }));
        // The hand loop knows the row has 3 elements (a compile-time constant), as a point
        // cloud's code does.
        constexpr index_t points = index_t{1} << 22;
        add_broadcast<2, 1>(
            "W24_short_rows",
            {points, 3},
            {3},
            [](const auto& x, const auto& y) { return x - y; },
            [](const float* x, const float* y, float* o) {
                for (index_t i = 0; i < points; ++i)
                    for (index_t j = 0; j < 3; ++j)
                        o[i * 3 + j] = x[i * 3 + j] - y[j];
            },
            BENCH_EIGEN([](auto& o, auto x, auto y) {
                o = x - y.reshape(bench::dims(1, 3)).broadcast(bench::dims(points, 1));
            }));
    });
}
