// bench_toolbox: NumPy's everyday toolbox (docs/api.md "Joining, masks and index arrays") at
// memory-bound sizes, each against the loop a good C++ programmer writes; bench/report adds
// NumPy's time for the same call (the targets: masks and take >= 1.0x NumPy,
// concatenate >= 0.9x the hand memcpy).
//   W20  x[mask] of 2^24 float32, the mask true for half of them at random (fused:
//        `tensor<float> s = view(x, m)`; hand: count the trues, allocate, one branch-free
//        copy loop; NumPy: x[m])
//   W21  x[idx] of 2^20 random int64 indices into 2^24 float32 (fused: `view(x, idx)`; take:
//        `fusor::take(x, idx, 0)`; hand: a bounds-checked gather; NumPy: np.take(x, idx), and
//        x[idx] as numpy_fancy)
//   W21_rows  x[idx] of 2^20 random rows of a (2^22, 4) float32 table (an embedding lookup;
//        fused: `view(x, idx)`; take: `fusor::take(x, idx, 0)`; hand: a bounds-checked loop
//        copying each row; NumPy: np.take(x, idx, 0), and x[idx] as numpy_fancy)
//   W22  concatenate of three (2048, 2048) float32 along axis 0 (hand: three memcpy into a
//        new buffer; NumPy: np.concatenate)
//   W23  roll(x, 1, 0) - x over (4096, 4096) float32 (hand: one loop, row i - 1 minus row i,
//        the first row from the last; NumPy: np.roll(x, 1, 0) - x). roll is a lazy segmented
//        node: two cells (row 0, rows 1..4095), one fused loop each, no temporary. Target:
//        fused >= 2x NumPy.
//   W23_into  the same into an existing (4096, 4096) result (fused: `out = roll(x, 1, 0) - x`;
//        hand: the loop above into an existing buffer; NumPy: np.subtract(np.roll(x, 1, 0), x,
//        out=out)). With a fresh result both fusor and NumPy pay the kernel's page faults for
//        it once (NumPy's subtraction reuses roll's temporary), and those faults are half of
//        fusor's time; into an existing result what is left is what fusion saves: NumPy's
//        temporary (its allocation, faults and the copy) and its second pass.
//   W24  sum(concatenate({a, b}, 0), 1) of two (2048, 4096) float32 (hand: the row sums of a,
//        then of b, in double as fusor sums float32; NumPy: np.concatenate([a, b]).sum(1)):
//        one reduction per part, read in place. Target: fused >= 2x NumPy.
//   W27_sort  sort(x) of 2^22 float32 (hand: a copy and std::sort; NumPy: np.sort(x))
//   W27_argsort  argsort(x) of the same, stable (hand: 0..n-1 and std::stable_sort by value;
//        NumPy: np.argsort(x, kind='stable'))
//   W28_nonzero  nonzero(m) of a 2^22 bool mask, half true at random (hand: count the trues,
//        allocate, store every position and step on the trues, no branch; NumPy: np.nonzero)
//   W28_isin  isin(v, t) of 2^22 int64 in [0, 1000) against the 500 even numbers (hand: a
//        table of 1,000 flags; NumPy: np.isin, whose default is a table too)
// Every way allocates its result, as NumPy does, except W23_into. Bytes: the inputs read once (for
// W21 the gathered elements, not the whole array) and the output written once.
//
//   build/release/bench/bench_toolbox --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "harness.hpp"

namespace {

using fusor::index_t;

void mask_workload() {
    const index_t n = index_t{1} << 24;
    static const auto x = bench::random_tensor<float>({n}, 20);
    static const fusor::tensor<bool> m = x > 0.0f; // half of them, at random
    static std::optional<fusor::tensor<float>> fused_out;
    static std::unique_ptr<float[]> hand_out;
    const auto count = static_cast<index_t>(std::count(m.data(), m.data() + n, true));
    bench::workload<float>("W20_mask_select_half", n * 4 + n + count * 4, count, 0.0)
        .add(
            "fused", [] { fused_out.emplace(fusor::view(x, m)); }, [] { return fused_out->data(); })
        .add(
            "hand",
            [n] {
                const bool* mask = m.data();
                const float* in = x.data();
                const index_t c = std::count(mask, mask + n, true);
                hand_out.reset(new float[static_cast<std::size_t>(c) + 1]);
                float* out = hand_out.get();
                index_t k = 0;
                for (index_t i = 0; i < n; ++i) {
                    out[k] = in[i];
                    k += mask[i];
                }
            },
            [] { return hand_out.get(); })
        .submit();
}

// x[idx] of `m` random int64 indices into a table of `n` rows of `W` float32 (W = 1: a 1-d
// table of `n` elements): fused (`view(x, idx)`), take, and the hand loop (a bounds-checked copy
// of each row). W21 and W21_rows.
template <index_t W>
void take_workload(const char* name, index_t n, index_t m, unsigned seed) {
    static const auto x =
        W == 1 ? bench::random_tensor<float>({n}, seed) : bench::random_tensor<float>({n, W}, seed);
    static fusor::tensor<std::int64_t> idx(fusor::shape_t{m}, fusor::uninitialized);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> pick(0, n - 1);
    for (auto& i : idx)
        i = pick(rng);
    static std::optional<fusor::tensor<float>> fused_out, take_out;
    static std::unique_ptr<float[]> hand_out;
    bench::workload<float>(name, m * 8 + 2 * m * W * 4, m * W, 0.0)
        .add(
            "fused",
            [] { fused_out.emplace(fusor::view(x, idx)); },
            [] { return fused_out->data(); })
        .add(
            "take",
            [] { take_out.emplace(fusor::take(x, idx, 0)); },
            [] { return take_out->data(); })
        .add(
            "hand",
            [n, m] {
                hand_out.reset(new float[static_cast<std::size_t>(m * W)]);
                const std::int64_t* at = idx.data();
                const float* in = x.data();
                float* out = hand_out.get();
                for (index_t j = 0; j < m; ++j) {
                    std::int64_t i = at[j];
                    i += i < 0 ? n : 0;
                    if (i < 0 || i >= n)
                        throw std::out_of_range("index out of bounds");
                    if constexpr (W == 1)
                        out[j] = in[i];
                    else
                        for (index_t c = 0; c < W; ++c)
                            out[j * W + c] = in[i * W + c];
                }
            },
            [] { return hand_out.get(); })
        .submit();
}

void concatenate_workload() {
    const index_t rows = 2048, cols = 2048, part = rows * cols;
    static const auto a = bench::random_tensor<float>({rows, cols}, 22);
    static const auto b = bench::random_tensor<float>({rows, cols}, 23);
    static const auto c = bench::random_tensor<float>({rows, cols}, 24);
    static std::optional<fusor::tensor<float>> fused_out;
    static std::unique_ptr<float[]> hand_out;
    bench::workload<float>("W22_concatenate_3x2048x2048", 6 * part * 4, 3 * part, 0.0)
        .add(
            "fused",
            [] {
                fused_out.emplace(fusor::concatenate({a, b, c}, 0));
            },
            [] { return fused_out->data(); })
        .add(
            "hand",
            [part] {
                hand_out.reset(new float[static_cast<std::size_t>(3 * part)]);
                const auto bytes = static_cast<std::size_t>(part) * sizeof(float);
                std::memcpy(hand_out.get(), a.data(), bytes);
                std::memcpy(hand_out.get() + part, b.data(), bytes);
                std::memcpy(hand_out.get() + 2 * part, c.data(), bytes);
            },
            [] { return hand_out.get(); })
        .submit();
}

// W23's hand loop: out = roll(in, 1, 0) - in over (rows, cols), row i - 1 minus row i, the
// first row from the last.
void hand_roll_minus(const float* in, float* out, index_t rows, index_t cols) {
    for (index_t i = 0; i < rows; ++i) {
        const float* prev = in + ((i + rows - 1) % rows) * cols;
        const float* row = in + i * cols;
        float* o = out + i * cols;
        for (index_t j = 0; j < cols; ++j)
            o[j] = prev[j] - row[j];
    }
}

void roll_workload() {
    const index_t rows = 4096, cols = 4096, n = rows * cols;
    static const auto x = bench::random_tensor<float>({rows, cols}, 25);
    static std::optional<fusor::tensor<float>> fused_out;
    static std::unique_ptr<float[]> hand_out;
    bench::workload<float>("W23_roll_minus_x_4096x4096", 2 * n * 4, n, 0.0)
        .add(
            "fused",
            [] { fused_out.emplace(fusor::roll(x, 1, 0) - x); },
            [] { return fused_out->data(); })
        .add(
            "hand",
            [rows, cols, n] {
                hand_out.reset(new float[static_cast<std::size_t>(n)]);
                hand_roll_minus(x.data(), hand_out.get(), rows, cols);
            },
            [] { return hand_out.get(); })
        .submit();
}

void roll_into_workload() {
    const index_t rows = 4096, cols = 4096, n = rows * cols;
    static const auto x = bench::random_tensor<float>({rows, cols}, 25);
    static fusor::tensor<float> fused_out(fusor::shape_t{rows, cols});
    static std::unique_ptr<float[]> hand_out(new float[static_cast<std::size_t>(n)]());
    bench::workload<float>("W23_roll_minus_x_into_4096x4096", 2 * n * 4, n, 0.0)
        .add(
            "fused", [] { fused_out = fusor::roll(x, 1, 0) - x; }, [] { return fused_out.data(); })
        .add(
            "hand",
            [rows, cols] { hand_roll_minus(x.data(), hand_out.get(), rows, cols); },
            [] { return hand_out.get(); })
        .submit();
}

void concatenate_sum_workload() {
    const index_t rows = 2048, cols = 4096, part = rows * cols;
    static const auto a = bench::random_tensor<float>({rows, cols}, 26);
    static const auto b = bench::random_tensor<float>({rows, cols}, 27);
    static std::optional<fusor::tensor<float>> fused_out;
    static std::unique_ptr<float[]> hand_out;
    bench::workload<float>("W24_sum_concatenate_axis1", 2 * part * 4 + 2 * rows * 4, 2 * rows, 1e-4)
        .add(
            "fused",
            [] {
                fused_out.emplace(fusor::sum(fusor::concatenate({a, b}, 0), 1));
            },
            [] { return fused_out->data(); })
        .add(
            "hand",
            [rows, cols] {
                hand_out.reset(new float[static_cast<std::size_t>(2 * rows)]);
                float* out = hand_out.get();
                for (const float* in : {a.data(), b.data()}) {
                    for (index_t i = 0; i < rows; ++i) {
                        double s = 0;
                        for (index_t j = 0; j < cols; ++j)
                            s += in[i * cols + j];
                        *out++ = static_cast<float>(s);
                    }
                }
            },
            [] { return hand_out.get(); })
        .submit();
}

void sort_workloads() {
    const index_t n = index_t{1} << 22;
    static const auto x = bench::random_tensor<float>({n}, 27);
    static std::optional<fusor::tensor<float>> sorted;
    static std::unique_ptr<float[]> hand_sorted;
    bench::workload<float>("W27_sort_4M", 2 * n * 4, n, 0.0)
        .add(
            "fused", [] { sorted.emplace(fusor::sort(x)); }, [] { return sorted->data(); })
        .add(
            "hand",
            [n] {
                hand_sorted.reset(new float[static_cast<std::size_t>(n)]);
                std::copy(x.data(), x.data() + n, hand_sorted.get());
                std::sort(hand_sorted.get(), hand_sorted.get() + n);
            },
            [] { return hand_sorted.get(); })
        .submit();
    static std::optional<fusor::tensor<std::int64_t>> order;
    static std::unique_ptr<std::int64_t[]> hand_order;
    bench::workload<std::int64_t>("W27_argsort_4M", n * 4 + n * 8, n, 0.0)
        .add(
            "fused", [] { order.emplace(fusor::argsort(x)); }, [] { return order->data(); })
        .add(
            "hand",
            [n] {
                hand_order.reset(new std::int64_t[static_cast<std::size_t>(n)]);
                std::int64_t* first = hand_order.get();
                std::iota(first, first + n, std::int64_t{0});
                const float* v = x.data();
                std::stable_sort(
                    first, first + n, [v](std::int64_t a, std::int64_t b) { return v[a] < v[b]; });
            },
            [] { return hand_order.get(); })
        .submit();
}

void nonzero_workload() {
    const index_t n = index_t{1} << 22;
    static const fusor::tensor<bool> m = bench::random_tensor<float>({n}, 28) > 0.0f;
    static std::optional<std::vector<fusor::tensor<std::int64_t>>> fused_out;
    static std::unique_ptr<std::int64_t[]> hand_out;
    const auto count = static_cast<index_t>(std::count(m.data(), m.data() + n, true));
    bench::workload<std::int64_t>("W28_nonzero_half_4M", n + count * 8, count, 0.0)
        .add(
            "fused",
            [] { fused_out.emplace(fusor::nonzero(m)); },
            [] { return (*fused_out)[0].data(); })
        .add(
            "hand",
            [n] {
                const bool* mask = m.data();
                const index_t c = std::count(mask, mask + n, true);
                hand_out.reset(new std::int64_t[static_cast<std::size_t>(c) + 1]);
                std::int64_t* out = hand_out.get();
                index_t k = 0;
                for (index_t i = 0; i < n; ++i) {
                    out[k] = i;
                    k += mask[i];
                }
            },
            [] { return hand_out.get(); })
        .submit();
}

void isin_workload() {
    const index_t n = index_t{1} << 22;
    static fusor::tensor<std::int64_t> v(fusor::shape_t{n}, fusor::uninitialized);
    std::mt19937_64 rng(29);
    std::uniform_int_distribution<std::int64_t> pick(0, 999);
    for (auto& e : v)
        e = pick(rng);
    static fusor::tensor<std::int64_t> evens(fusor::shape_t{500}, fusor::uninitialized);
    for (index_t i = 0; i < 500; ++i)
        evens.data()[i] = 2 * i;
    static std::optional<fusor::tensor<bool>> fused_out;
    static std::unique_ptr<bool[]> hand_out;
    bench::workload<bool>("W28_isin_4M", n * 8 + n, n, 0.0)
        .add(
            "fused",
            [] { fused_out.emplace(fusor::isin(v, evens)); },
            [] { return fused_out->data(); })
        .add(
            "hand",
            [n] {
                bool table[1000] = {};
                for (const std::int64_t t : evens)
                    table[t] = true;
                hand_out.reset(new bool[static_cast<std::size_t>(n)]);
                const std::int64_t* in = v.data();
                for (index_t i = 0; i < n; ++i)
                    hand_out[static_cast<std::size_t>(i)] =
                        in[i] >= 0 && in[i] < 1000 && table[in[i]];
            },
            [] { return hand_out.get(); })
        .submit();
}

} // namespace

int main(int argc, char** argv) {
    return bench::run_main(argc, argv, [] {
        mask_workload();
        take_workload<1>("W21_take_1M_of_16M", index_t{1} << 24, index_t{1} << 20, 21);
        take_workload<4>("W21_take_rows_1M_of_4Mx4", index_t{1} << 22, index_t{1} << 20, 25);
        concatenate_workload();
        roll_workload();
        roll_into_workload();
        concatenate_sum_workload();
        sort_workloads();
        nonzero_workload();
        isin_workload();
    });
}
