// bench_transpose: W6, out = A + transpose(B), (4096, 4096) float32.
// B's rows are 16 KiB apart, so reading it transposed touches a new cache line (and a new page
// every 256 elements) per element: a plain loop thrashes L1 and the TLB. The reference ("hand")
// is the loop a performance engineer writes: 8x8 tiles, each B tile transposed in registers
// (AVX unpack/shuffle/permute) and added to A's rows; "hand_naive" is the plain double loop.
// Ways: fused, eager, hand, hand_naive, xtensor, eigen (when found).
//
//   build/release/bench/bench_transpose --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true       (or bench/report for the whole suite)
#include <memory>

#if defined(__AVX__)
#include <immintrin.h>
#endif

#include "harness.hpp"
#include "peers.hpp"

namespace {

using bench::index_t;
using fusor::tensor;

constexpr index_t n = 4096;

// out[i0 + k][j0 .. j0 + 8) = a[i0 + k][j0 .. j0 + 8) + b[j0 .. j0 + 8)[i0 + k], k < 8.
inline void tile_8x8(const float* a, const float* b, float* o, index_t i0, index_t j0) {
#if defined(__AVX__)
    __m256 r[8];
    for (int m = 0; m < 8; ++m)
        r[m] = _mm256_loadu_ps(b + (j0 + m) * n + i0); // r[m][k] = b[j0 + m][i0 + k]
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    __m256 c[8]; // c[k][m] = b[j0 + m][i0 + k]: row k of the transposed tile
    c[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    c[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    c[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    c[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    c[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    c[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    c[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    c[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
    for (int k = 0; k < 8; ++k) {
        const index_t row = (i0 + k) * n + j0;
        _mm256_storeu_ps(o + row, _mm256_add_ps(_mm256_loadu_ps(a + row), c[k]));
    }
#else
    for (index_t k = 0; k < 8; ++k)
        for (index_t m = 0; m < 8; ++m)
            o[(i0 + k) * n + j0 + m] = a[(i0 + k) * n + j0 + m] + b[(j0 + m) * n + i0 + k];
#endif
}

void add_w6() {
    struct data {
        tensor<float> a = bench::random_tensor<float>({n, n}, 1);
        tensor<float> b = bench::random_tensor<float>({n, n}, 2);
        tensor<float> out = tensor<float>(fusor::shape_t{n, n});
        tensor<float> eager;
    };
    auto p = std::make_shared<data>();
    bench::workload<float> w("W6_plus_transpose", 3 * n * n * 4, n * n, 0);
    auto into_out = [p] {
        return p->out.data();
    };
    w.add(
        "hand",
        [p] {
            for (index_t i0 = 0; i0 < n; i0 += 8)
                for (index_t j0 = 0; j0 < n; j0 += 8)
                    tile_8x8(p->a.data(), p->b.data(), p->out.data(), i0, j0);
        },
        into_out);
    w.add(
        "hand_naive",
        [p] {
            const float *a = p->a.data(), *b = p->b.data();
            float* o = p->out.data();
            for (index_t i = 0; i < n; ++i)
                for (index_t j = 0; j < n; ++j)
                    o[i * n + j] = a[i * n + j] + b[j * n + i];
        },
        into_out);
    w.add(
        "fused", [p] { p->out = p->a + fusor::transpose(p->b); }, into_out);
    w.add(
        "eager",
        [p] { p->eager = fusor::eval_eager(p->a + fusor::transpose(p->b)); },
        [p] { return p->eager.data(); });
#if FUSOR_BENCH_XTENSOR
    w.add(
        "xtensor",
        [p] {
            auto o = bench::xt_of<2>(p->out);
            xt::noalias(o) = bench::xt_of<2>(p->a) + xt::transpose(bench::xt_of<2>(p->b));
        },
        into_out);
#endif
#if FUSOR_BENCH_EIGEN
    w.add(
        "eigen",
        [p] {
            bench::eigen_of<2>(p->out) =
                bench::eigen_of<2>(p->a) + bench::eigen_of<2>(p->b).shuffle(bench::dims(1, 0));
        },
        into_out);
#endif
    w.submit();
}

} // namespace

int main(int argc, char** argv) {
    return bench::run_main(argc, argv, [] { add_w6(); });
}
