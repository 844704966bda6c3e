// bench_contract: contractions (reduce/contraction.hpp: einsum, matmul), fused against the loop a
// good programmer writes without a BLAS, the BLAS itself and Eigen's Matrix products; bench/report
// adds NumPy's time for the same calls (np.matmul; np.einsum with optimize=True and
// optimize=False) and checks the targets, which are fused / NumPy.
//   W16  matmul (n, n) @ (n, n), float32 and float64, n = 1024 and 256
//   W17  maximum(matmul(a, b) + bias, 0.0f), (1024, 1024) float32, bias (1024,): the epilogue
//        (hand: cblas_sgemm, then one pass that adds the bias and clamps; NumPy: three passes);
//        W17_matmul_scaled_operand: matmul(a * 0.5f, b), an element-wise factor (hand: one
//        scaling pass into a buffer, then cblas_sgemm; NumPy: (a * 0.5) @ b)
//   W18  einsum, float32: "ij,ij->i" (4096, 1024) twice; "bij,bjk->bik" (64, 128, 128) twice;
//        "i,j->ij" (4096,) twice; "ijk,ik->ij" (256, 256, 256), (256, 256); "ij,jk,kl->il"
//        three (256, 256)
//   W19  matmul of 4x4 and 8x8 float32 into an existing tensor: the fixed cost of one small
//        product, ns per evaluation, against Eigen's fixed-size and dynamic-size Matrix product
// Ways: fused (fusor, one thread, the BLAS it may call too; the harness adds fused_threads), hand
// (the loops below, no BLAS), blas (cblas_sgemm / cblas_dgemm on one thread, when CMake finds a
// BLAS: FUSOR_BENCH_CBLAS), eigen (Eigen 3.4's Matrix products over Maps of the same buffers, one
// thread), and eigen_dynamic for W19. The bytes each run counts are the inputs read once and the
// output written once (GB/s means little for the compute-bound products: bench/report prints
// their times and GFLOP/s). Every way is checked against the hand loop once before timing:
// float32 sums of up to 1024 terms in another order (hand, Eigen and the BLAS accumulate in
// float, fusor's own loop in double) agree to 1e-3 relative to max(1, |x|); float64 to 1e-9.
//
//   build/release/bench/bench_contract --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true [--benchmark_filter=W16]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "harness.hpp"
#include "peers.hpp"

#if FUSOR_BENCH_EIGEN
#include <Eigen/Core>
#endif

#include <dlfcn.h>

#ifdef FUSOR_BENCH_CBLAS
#include <cblas.h>
#endif

namespace {

using fusor::index_t;

// ---- threads of the BLAS ----------------------------------------------------------------------

// OpenBLAS runs on its own threads (OPENBLAS_NUM_THREADS, else one per core), which
// fusor::set_num_threads does not govern; so every way that may call it sets them first: the
// BLAS references one, fused fusor's cap (1, or the machine's threads in fused_threads), as
// fusor's matrix products call the BLAS when the library is built with FUSOR_BLAS.
// openblas_set_num_threads is looked up at run time: only OpenBLAS has it (not every cblas.h
// declares it), and it is in the process whenever fusor or this bench links OpenBLAS.
void blas_threads(int n) {
    using setter = void (*)(int);
    static const auto set =
        reinterpret_cast<setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    static int current = 0;
    if (set && n != current) {
        set(n);
        current = n;
    }
}

// A fused way: fusor's evaluation with the BLAS held to fusor's thread cap.
template <class F>
auto fused(F f) {
    return [f] {
        blas_threads(fusor::num_threads());
        f();
    };
}

// ---- hand-written references ----------------------------------------------------------------

// The matrix product a good programmer writes without a BLAS: i-k-j, so the innermost loop
// streams a row of b into a row of c (contiguous, vectorised, no reduction across lanes) while
// c's row stays in cache for all k. Accumulates in T, as a BLAS does.
template <class T>
void matmul_ikj(const T* __restrict a,
                const T* __restrict b,
                T* __restrict c,
                index_t n,
                index_t k,
                index_t m) {
    for (index_t i = 0; i < n; ++i) {
        T* __restrict ci = c + i * m;
        std::fill(ci, ci + m, T(0));
        for (index_t p = 0; p < k; ++p) {
            const T aip = a[i * k + p];
            const T* __restrict bp = b + p * m;
            for (index_t j = 0; j < m; ++j)
                ci[j] += aip * bp[j];
        }
    }
}

// The same with the sizes known at compile time (what one writes for 4x4 or 8x8): a row of c in
// registers. `unroll 1` keeps the j loop a loop, which GCC 12 turns into one vector operation per
// (i, p); fully unrolled, its SLP vectoriser transposes b instead and takes 200 ns for 8x8 (9 ns
// this way).
template <int N>
void matmul_fixed(const float* __restrict a, const float* __restrict b, float* __restrict c) {
    for (int i = 0; i < N; ++i) {
        float row[N] = {};
        for (int p = 0; p < N; ++p) {
            const float aip = a[i * N + p];
#pragma GCC unroll 1
            for (int j = 0; j < N; ++j)
                row[j] += aip * b[p * N + j];
        }
        for (int j = 0; j < N; ++j)
            c[i * N + j] = row[j];
    }
}

// A dot product of n floats (n a multiple of 32 here) as a good programmer writes it: 32 float
// accumulators, four 8-lane registers, so the adds do not wait on each other, then summed as a
// tree (halving), not one by one: the 256-term dots of "ijk,ik->ij" would wait ~130 cycles on a
// chain of 32 adds.
float dot32(const float* __restrict a, const float* __restrict b, index_t n) {
    float acc[32] = {};
    for (index_t i = 0; i < n; i += 32)
        for (int j = 0; j < 32; ++j)
            acc[j] += a[i + j] * b[i + j];
    for (int w = 16; w > 0; w /= 2)
        for (int j = 0; j < w; ++j)
            acc[j] += acc[j + w];
    return acc[0];
}

#ifdef FUSOR_BENCH_CBLAS
// Row-major c = a @ b through the BLAS, on one thread.
void gemm(const float* a, const float* b, float* c, index_t n, index_t k, index_t m) {
    blas_threads(1);
    cblas_sgemm(CblasRowMajor,
                CblasNoTrans,
                CblasNoTrans,
                static_cast<int>(n),
                static_cast<int>(m),
                static_cast<int>(k),
                1.0f,
                a,
                static_cast<int>(k),
                b,
                static_cast<int>(m),
                0.0f,
                c,
                static_cast<int>(m));
}
void gemm(const double* a, const double* b, double* c, index_t n, index_t k, index_t m) {
    blas_threads(1);
    cblas_dgemm(CblasRowMajor,
                CblasNoTrans,
                CblasNoTrans,
                static_cast<int>(n),
                static_cast<int>(m),
                static_cast<int>(k),
                1.0,
                a,
                static_cast<int>(k),
                b,
                static_cast<int>(m),
                0.0,
                c,
                static_cast<int>(m));
}
#endif

#if FUSOR_BENCH_EIGEN
template <class T>
using eigen_matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using eigen_cmap = Eigen::Map<const eigen_matrix<T>>;
template <class T>
using eigen_mmap = Eigen::Map<eigen_matrix<T>>;

/// A row-major Eigen Matrix map of a 2-D fusor tensor, or of (rows, cols) at `p`.
template <class T>
eigen_cmap<T> cmat(const T* p, index_t rows, index_t cols) {
    return {p, rows, cols};
}
template <class T>
eigen_mmap<T> mmat(T* p, index_t rows, index_t cols) {
    return {p, rows, cols};
}
#endif

// ---- W16: matmul ----------------------------------------------------------------------------

template <class T>
void add_matmul(const char* name, index_t n) {
    struct data {
        fusor::tensor<T> a, b, out;
    };
    auto r = std::make_shared<data>(data{bench::random_tensor<T>({n, n}, 16),
                                         bench::random_tensor<T>({n, n}, 17),
                                         fusor::tensor<T>(fusor::shape_t{n, n})});
    const double rtol = sizeof(T) == 4 ? 1e-3 : 1e-9;
    bench::workload<T> w(name, 3 * n * n * static_cast<std::int64_t>(sizeof(T)), n * n, rtol);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand", [r, n] { matmul_ikj(r->a.data(), r->b.data(), r->out.data(), n, n, n); }, into_out);
    w.add("fused", fused([r] { r->out = fusor::matmul(r->a, r->b); }), into_out);
#ifdef FUSOR_BENCH_CBLAS
    w.add(
        "blas", [r, n] { gemm(r->a.data(), r->b.data(), r->out.data(), n, n, n); }, into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r, n] {
            mmat(r->out.data(), n, n).noalias() = cmat(r->a.data(), n, n) * cmat(r->b.data(), n, n);
        },
        into_out);
#endif
    w.submit();
}

// ---- W17: maximum(matmul(a, b) + bias, 0) ---------------------------------------------------

void add_epilogue() {
    constexpr index_t n = 1024;
    struct data {
        fusor::tensor<float> a, b, bias, out;
    };
    auto r = std::make_shared<data>(data{bench::random_tensor<float>({n, n}, 18),
                                         bench::random_tensor<float>({n, n}, 19),
                                         bench::random_tensor<float>({n}, 20),
                                         fusor::tensor<float>(fusor::shape_t{n, n})});
    bench::workload<float> w("W17_matmul_bias_relu", (3 * n * n + n) * 4, n * n, 1e-3);
    auto into_out = [r] {
        return r->out.data();
    };
    // The product into out, then one pass adding the bias and clamping at 0: what a programmer
    // writes with a BLAS at hand (without one, the i-k-j loop stands in for it).
    w.add(
        "hand",
        [r] {
#ifdef FUSOR_BENCH_CBLAS
            gemm(r->a.data(), r->b.data(), r->out.data(), n, n, n);
#else
            matmul_ikj(r->a.data(), r->b.data(), r->out.data(), n, n, n);
#endif
            float* __restrict c = r->out.data();
            const float* __restrict bias = r->bias.data();
            for (index_t i = 0; i < n; ++i)
                for (index_t j = 0; j < n; ++j)
                    c[i * n + j] = std::max(c[i * n + j] + bias[j], 0.0f);
        },
        into_out);
    w.add("fused",
          fused([r] { r->out = fusor::maximum(fusor::matmul(r->a, r->b) + r->bias, 0.0f); }),
          into_out);
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r] {
            auto c = mmat(r->out.data(), n, n);
            c.noalias() = cmat(r->a.data(), n, n) * cmat(r->b.data(), n, n);
            const Eigen::Map<const Eigen::RowVectorXf> bias(r->bias.data(), n);
            c = (c.rowwise() + bias).cwiseMax(0.0f);
        },
        into_out);
#endif
    w.submit();
}

// An element-wise factor: `matmul(a * 0.5f, b)`, (1024, 1024) float32. The planner computes
// a * 0.5 into a temporary when the BLAS then takes the product (plan/gemm.hpp,
// factor_gemm_candidate).
void add_scaled_operand() {
    constexpr index_t n = 1024;
    struct data {
        fusor::tensor<float> a, b, out;
        std::vector<float> scaled;
    };
    auto r = std::make_shared<data>(data{bench::random_tensor<float>({n, n}, 23),
                                         bench::random_tensor<float>({n, n}, 24),
                                         fusor::tensor<float>(fusor::shape_t{n, n}),
                                         std::vector<float>(static_cast<std::size_t>(n * n))});
    bench::workload<float> w("W17_matmul_scaled_operand", 3 * n * n * 4, n * n, 1e-3);
    auto into_out = [r] {
        return r->out.data();
    };
    // The scaled copy, then the product: what a programmer writes with a BLAS at hand.
    w.add(
        "hand",
        [r] {
            const float* __restrict a = r->a.data();
            float* __restrict s = r->scaled.data();
            for (index_t i = 0; i < n * n; ++i)
                s[i] = a[i] * 0.5f;
#ifdef FUSOR_BENCH_CBLAS
            gemm(s, r->b.data(), r->out.data(), n, n, n);
#else
            matmul_ikj(s, r->b.data(), r->out.data(), n, n, n);
#endif
        },
        into_out);
    w.add("fused", fused([r] { r->out = fusor::matmul(r->a * 0.5f, r->b); }), into_out);
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r] {
            mmat(r->out.data(), n, n).noalias() =
                (cmat(r->a.data(), n, n) * 0.5f) * cmat(r->b.data(), n, n);
        },
        into_out);
#endif
    w.submit();
}

// ---- W18: einsum ----------------------------------------------------------------------------

// "ij,ij->i": the row-wise dot product, (4096, 1024) twice -> (4096,). Memory-bound.
void add_einsum_rowdot() {
    constexpr index_t rows = 4096, cols = 1024;
    struct data {
        fusor::tensor<float> a, b, out;
    };
    auto r = std::make_shared<data>(data{bench::random_tensor<float>({rows, cols}, 21),
                                         bench::random_tensor<float>({rows, cols}, 22),
                                         fusor::tensor<float>(fusor::shape_t{rows})});
    bench::workload<float> w("W18_einsum_ij_ij_i", (2 * rows * cols + rows) * 4, rows, 1e-3);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand",
        [r] {
            for (index_t i = 0; i < rows; ++i)
                r->out.data()[i] = dot32(r->a.data() + i * cols, r->b.data() + i * cols, cols);
        },
        into_out);
    w.add("fused", fused([r] { r->out = fusor::einsum("ij,ij->i", r->a, r->b); }), into_out);
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r] {
            Eigen::Map<Eigen::VectorXf>(r->out.data(), rows) =
                cmat(r->a.data(), rows, cols)
                    .cwiseProduct(cmat(r->b.data(), rows, cols))
                    .rowwise()
                    .sum();
        },
        into_out);
#endif
    w.submit();
}

// "bij,bjk->bik": 64 products of (128, 128) matrices.
void add_einsum_bmm() {
    constexpr index_t batch = 64, n = 128;
    struct data {
        fusor::tensor<float> a, b, out;
    };
    auto r = std::make_shared<data>(data{bench::random_tensor<float>({batch, n, n}, 23),
                                         bench::random_tensor<float>({batch, n, n}, 24),
                                         fusor::tensor<float>(fusor::shape_t{batch, n, n})});
    bench::workload<float> w("W18_einsum_bij_bjk_bik", 3 * batch * n * n * 4, batch * n * n, 1e-3);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand",
        [r] {
            for (index_t b = 0; b < batch; ++b)
                matmul_ikj(r->a.data() + b * n * n,
                           r->b.data() + b * n * n,
                           r->out.data() + b * n * n,
                           n,
                           n,
                           n);
        },
        into_out);
    w.add("fused", fused([r] { r->out = fusor::einsum("bij,bjk->bik", r->a, r->b); }), into_out);
#ifdef FUSOR_BENCH_CBLAS
    w.add(
        "blas",
        [r] {
            for (index_t b = 0; b < batch; ++b)
                gemm(r->a.data() + b * n * n,
                     r->b.data() + b * n * n,
                     r->out.data() + b * n * n,
                     n,
                     n,
                     n);
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r] {
            for (index_t b = 0; b < batch; ++b)
                mmat(r->out.data() + b * n * n, n, n).noalias() =
                    cmat(r->a.data() + b * n * n, n, n) * cmat(r->b.data() + b * n * n, n, n);
        },
        into_out);
#endif
    w.submit();
}

// "i,j->ij": the outer product of two (4096,) vectors -> (4096, 4096). Write-bound.
void add_einsum_outer() {
    constexpr index_t n = 4096;
    struct data {
        fusor::tensor<float> a, b, out;
    };
    auto r = std::make_shared<data>(data{bench::random_tensor<float>({n}, 25),
                                         bench::random_tensor<float>({n}, 26),
                                         fusor::tensor<float>(fusor::shape_t{n, n})});
    // One product per element, nothing summed: every way agrees exactly.
    bench::workload<float> w("W18_einsum_i_j_ij", (2 * n + n * n) * 4, n * n, 0.0);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand",
        [r] {
            const float* __restrict a = r->a.data();
            const float* __restrict b = r->b.data();
            float* __restrict c = r->out.data();
            for (index_t i = 0; i < n; ++i)
                for (index_t j = 0; j < n; ++j)
                    c[i * n + j] = a[i] * b[j];
        },
        into_out);
    w.add("fused", fused([r] { r->out = fusor::einsum("i,j->ij", r->a, r->b); }), into_out);
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r] {
            mmat(r->out.data(), n, n).noalias() =
                Eigen::Map<const Eigen::VectorXf>(r->a.data(), n)
                * Eigen::Map<const Eigen::RowVectorXf>(r->b.data(), n);
        },
        into_out);
#endif
    w.submit();
}

// "ijk,ik->ij": per i, a (256, 256) matrix times a vector (a batched matrix-vector product):
// (256, 256, 256), (256, 256) -> (256, 256). Reads 64 MiB once: memory-bound.
void add_einsum_ijk_ik() {
    constexpr index_t n = 256;
    struct data {
        fusor::tensor<float> a, b, out;
    };
    auto r = std::make_shared<data>(data{bench::random_tensor<float>({n, n, n}, 27),
                                         bench::random_tensor<float>({n, n}, 28),
                                         fusor::tensor<float>(fusor::shape_t{n, n})});
    bench::workload<float> w("W18_einsum_ijk_ik_ij", (n * n * n + 2 * n * n) * 4, n * n, 1e-3);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand",
        [r] {
            for (index_t i = 0; i < n; ++i)
                for (index_t j = 0; j < n; ++j)
                    r->out.data()[i * n + j] =
                        dot32(r->a.data() + (i * n + j) * n, r->b.data() + i * n, n);
        },
        into_out);
    w.add("fused", fused([r] { r->out = fusor::einsum("ijk,ik->ij", r->a, r->b); }), into_out);
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r] {
            for (index_t i = 0; i < n; ++i)
                Eigen::Map<Eigen::VectorXf>(r->out.data() + i * n, n).noalias() =
                    cmat(r->a.data() + i * n * n, n, n)
                    * Eigen::Map<const Eigen::VectorXf>(r->b.data() + i * n, n);
        },
        into_out);
#endif
    w.submit();
}

// "ij,jk,kl->il": three (256, 256) matrices. fusor runs one loop over all four indices (256^4
// products, NumPy's optimize=False); the hand loop, the BLAS and Eigen multiply pairwise
// ((a @ b) @ c, 2 * 256^3 products), as NumPy's optimize=True does.
void add_einsum_chain() {
    constexpr index_t n = 256;
    struct data {
        fusor::tensor<float> a, b, c, ab, out;
    };
    auto r = std::make_shared<data>(data{bench::random_tensor<float>({n, n}, 29),
                                         bench::random_tensor<float>({n, n}, 30),
                                         bench::random_tensor<float>({n, n}, 31),
                                         fusor::tensor<float>(fusor::shape_t{n, n}),
                                         fusor::tensor<float>(fusor::shape_t{n, n})});
    // Entries near 28 in magnitude; a @ b rounded to float32 in between for all but fusor.
    bench::workload<float> w("W18_einsum_ij_jk_kl_il", 4 * n * n * 4, n * n, 1e-3);
    auto into_out = [r] {
        return r->out.data();
    };
    w.add(
        "hand",
        [r] {
            matmul_ikj(r->a.data(), r->b.data(), r->ab.data(), n, n, n);
            matmul_ikj(r->ab.data(), r->c.data(), r->out.data(), n, n, n);
        },
        into_out);
    w.add("fused",
          fused([r] { r->out = fusor::einsum("ij,jk,kl->il", r->a, r->b, r->c); }),
          into_out);
#ifdef FUSOR_BENCH_CBLAS
    w.add(
        "blas",
        [r] {
            gemm(r->a.data(), r->b.data(), r->ab.data(), n, n, n);
            gemm(r->ab.data(), r->c.data(), r->out.data(), n, n, n);
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [r] {
            mmat(r->out.data(), n, n).noalias() =
                (cmat(r->a.data(), n, n) * cmat(r->b.data(), n, n)) * cmat(r->c.data(), n, n);
        },
        into_out);
#endif
    w.submit();
}

// ---- W19: small matmul, ns per evaluation ---------------------------------------------------

// Registers `name/way` in nanoseconds (the harness's workloads are in milliseconds), after
// checking the way's result against `want` (the hand loop's).
template <class Run>
void add_small(const std::string& name,
               const char* way,
               Run run,
               const float* got,
               const std::vector<float>& want,
               std::int64_t bytes) {
    run();
    for (std::size_t i = 0; i < want.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= 1e-5 * std::fmax(1.0, std::fabs(want[i])))) {
            std::fprintf(stderr,
                         "%s/%s: element %zu is %.9g, the hand-written loop says %.9g\n",
                         name.c_str(),
                         way,
                         i,
                         static_cast<double>(got[i]),
                         static_cast<double>(want[i]));
            std::exit(1);
        }
    benchmark::RegisterBenchmark((name + "/" + way).c_str(),
                                 [run, bytes](benchmark::State& st) mutable {
                                     for (auto _ : st) {
                                         run();
                                         benchmark::ClobberMemory();
                                     }
                                     st.SetBytesProcessed(st.iterations() * bytes);
                                 })
        ->Unit(benchmark::kNanosecond);
}

template <int N>
void add_small_matmul() {
    struct data {
        fusor::tensor<float> a, b, out;
    };
    auto* x = new data{bench::random_tensor<float>({N, N}, 32),
                       bench::random_tensor<float>({N, N}, 33),
                       fusor::tensor<float>(fusor::shape_t{N, N})};
    const std::string name = "W19_matmul_" + std::to_string(N) + "x" + std::to_string(N);
    const std::int64_t bytes = 3 * N * N * 4;
    std::vector<float> want(N * N);
    matmul_fixed<N>(x->a.data(), x->b.data(), want.data());
    auto check = [&](const char* way, auto run) {
        std::fill(x->out.data(), x->out.data() + N * N, 0.0f);
        add_small(name, way, run, x->out.data(), want, bytes);
    };
    check("fused", fused([x] { x->out = fusor::matmul(x->a, x->b); }));
    check("hand", [x] { matmul_fixed<N>(x->a.data(), x->b.data(), x->out.data()); });
#if FUSOR_BENCH_EIGEN
    using fixed = Eigen::Matrix<float, N, N, Eigen::RowMajor>;
    check("eigen", [x] {
        Eigen::Map<fixed>(x->out.data()).noalias() =
            Eigen::Map<const fixed>(x->a.data()) * Eigen::Map<const fixed>(x->b.data());
    });
    check("eigen_dynamic", [x] {
        mmat(x->out.data(), N, N).noalias() = cmat(x->a.data(), N, N) * cmat(x->b.data(), N, N);
    });
#endif
}

// Whether --benchmark_filter selects any way of workload `name`. The harness runs every way of a
// workload once to check it before timing, and fused contractions are slow until the planner
// calls a BLAS (seconds for W16 at 1024 and the three-operand einsum): a filtered run sets up
// only the workloads it times.
bool wanted(const std::string& name) {
    const std::string filter = benchmark::GetBenchmarkFilter();
    if (filter.empty() || filter == "all" || filter[0] == '-')
        return true;
    const std::regex re(filter);
    for (const char* way : {"fused", "fused_threads", "hand", "blas", "eigen", "eigen_dynamic"})
        if (std::regex_search(name + "/" + way + "/real_time", re))
            return true;
    return false;
}

} // namespace

int main(int argc, char** argv) {
#if FUSOR_BENCH_EIGEN
    Eigen::setNbThreads(1); // Eigen's products use OpenMP's threads when built with -fopenmp
#endif
    return bench::run_main(argc, argv, [] {
        const std::pair<const char*, void (*)()> workloads[] = {
            {"W16_matmul_f32_1024",
             [] {
                 add_matmul<float>("W16_matmul_f32_1024", 1024);
             }},
            {"W16_matmul_f32_256",
             [] {
                 add_matmul<float>("W16_matmul_f32_256", 256);
             }},
            {"W16_matmul_f64_1024",
             [] {
                 add_matmul<double>("W16_matmul_f64_1024", 1024);
             }},
            {"W16_matmul_f64_256",
             [] {
                 add_matmul<double>("W16_matmul_f64_256", 256);
             }},
            {"W17_matmul_bias_relu", add_epilogue},
            {"W17_matmul_scaled_operand", add_scaled_operand},
            {"W18_einsum_ij_ij_i", add_einsum_rowdot},
            {"W18_einsum_bij_bjk_bik", add_einsum_bmm},
            {"W18_einsum_i_j_ij", add_einsum_outer},
            {"W18_einsum_ijk_ik_ij", add_einsum_ijk_ik},
            {"W18_einsum_ij_jk_kl_il", add_einsum_chain},
            {"W19_matmul_4x4", add_small_matmul<4>},
            {"W19_matmul_8x8", add_small_matmul<8>},
        };
        for (const auto& [name, add] : workloads)
            if (wanted(name))
                add();
    });
}
