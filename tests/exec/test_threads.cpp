// Threads: results are bit-for-bit identical for 1, 2, 3 and 4 threads (the split depends only
// on the loop's extents), reductions included; small loops and reductions whose outermost
// loop reduces stay on the calling thread; an exception thrown inside a thread reaches the
// caller as itself.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "support.hpp"

using fusor::index_t;
using fusor::shape_t;

namespace {

// Values spread over many magnitudes, so a changed summation order would change the bits.
fusor::tensor<float> spread(const shape_t& s, unsigned seed) {
    fusor::tensor<float> t(s);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> mantissa(-1.f, 1.f);
    std::uniform_int_distribution<int> exponent(-12, 12);
    for (auto& v : t)
        v = std::ldexp(mantissa(rng), exponent(rng));
    return t;
}

template <class T>
bool same_bits(const fusor::tensor<T>& a, const fusor::tensor<T>& b) {
    return a.shape() == b.shape()
           && std::memcmp(a.data(), b.data(), sizeof(T) * static_cast<std::size_t>(a.size())) == 0;
}

// The threads line explain prints for `e` under the current thread cap.
std::string threads_line(const auto& e) {
    return exec_test::explain_line(e, "threads: ");
}

// Evaluates `make()` with 1 thread, then with 2, 3 and 4, and checks every result is the
// 1-thread result bit for bit.
template <class Make>
void identical_for_any_thread_count(Make make) {
    fusor::set_num_threads(1);
    const auto one = make();
    for (int n : {2, 3, 4}) {
        CAPTURE(n);
        fusor::set_num_threads(n);
        const auto many = make();
        CHECK(same_bits(one, many));
    }
    fusor::set_num_threads(1);
}

struct restore_threads {
    ~restore_threads() { fusor::set_num_threads(fusor::threads_enabled ? 2 : 1); }
};

} // namespace

TEST_CASE("large loops split across threads; small ones and reducing outer loops do not") {
    restore_threads restore;
    const auto a = spread({300, 257}, 1);
    fusor::set_num_threads(2);
    if (fusor::threads_enabled) {
        CHECK(threads_line(a * a + 1.f).starts_with("threads: 2 (the outermost loop in "));
        CHECK(threads_line(fusor::sum(a, 1)).starts_with("threads: 2"));
    } else {
        CHECK(threads_line(a * a + 1.f).starts_with("threads: 1"));
    }
    // Below the threshold; a reduction whose outermost loop reduces and whose kept inner loop
    // is narrower than two chunks of split_inner_width; a full reduction: the calling thread.
    const auto small = spread({100, 100}, 2);
    CHECK(threads_line(small * small).starts_with("threads: 1"));
    CHECK(threads_line(fusor::sum(a, 0)).starts_with("threads: 1"));
    CHECK(threads_line(fusor::sum(a)).starts_with("threads: 1"));
    // A wide kept inner loop under a reducing outer one: cut along the inner loop.
    const auto wide = spread({64, 4096}, 17);
    if (fusor::threads_enabled)
        CHECK(threads_line(fusor::sum(wide, 0))
              == "threads: 2 (the innermost loop in 4 chunks of 1024, 65536 elements each; a "
                 "fixed split)");
    // The cap: one thread means no split at all.
    fusor::set_num_threads(1);
    CHECK(threads_line(a * a + 1.f).starts_with("threads: 1"));
    CHECK_THROWS_AS(fusor::set_num_threads(0), fusor::value_error);
}

TEST_CASE("element-wise results do not depend on the thread count") {
    restore_threads restore;
    const auto a = spread({300, 257}, 3), b = spread({300, 257}, 4), c = spread({257}, 5);
    identical_for_any_thread_count([&] { return fusor::eval(a * b + c); });
    const auto col = spread({512, 1}, 6), row = spread({1, 300}, 7);
    identical_for_any_thread_count([&] { return fusor::eval(col * row - 0.5f); });
    const auto cube = spread({8, 64, 64}, 8), per = spread({8, 1, 1}, 9);
    identical_for_any_thread_count([&] { return fusor::eval(cube + per); });
    const auto sq = spread({300, 300}, 10), sq2 = spread({300, 300}, 11);
    identical_for_any_thread_count([&] { return fusor::eval(sq + fusor::transpose(sq2)); });
    const auto flat = spread({1 << 17}, 12), flat2 = spread({1 << 17}, 13);
    identical_for_any_thread_count(
        [&] { return fusor::eval(fusor::exp(flat * 0.1f) * fusor::sin(flat2)); });
    // One long contiguous loop is split inside its only level; a strided destination too.
    identical_for_any_thread_count([&] {
        fusor::tensor<float> out(shape_t{257, 300});
        fusor::transpose(out.view()) = a * 2.f;
        return out;
    });
}

TEST_CASE("reductions do not depend on the thread count") {
    restore_threads restore;
    auto a = spread({1000, 100}, 14);
    // Ties and NaNs for the arg-reductions and max.
    a.data()[5 * 100 + 7] = a.data()[5 * 100 + 60] = 1e9f;
    a.data()[9 * 100 + 3] = std::numeric_limits<float>::quiet_NaN();
    identical_for_any_thread_count([&] { return fusor::eval(fusor::sum(a, 1)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::sum(a, 0)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::mean(a, 1)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::var(a, 1)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::max(a, 1)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::argmax(a, 1)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::argmin(a, 1)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::prod(a * 0.f + 1.001f, 1)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::sum(a)); });
    // Reducing outer loops cut along their kept inner loop (1 to 4 threads over 4 chunks).
    const auto wide = spread({64, 4100}, 18);
    identical_for_any_thread_count([&] { return fusor::eval(fusor::sum(wide, 0)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::mean(wide, 0)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::var(wide, 0)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::max(wide, 0)); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::argmax(wide, 0)); });
    const auto cube = spread({8, 16, 2048}, 19);
    identical_for_any_thread_count([&] { return fusor::eval(fusor::sum(cube, {0, 1})); });
    identical_for_any_thread_count([&] { return fusor::eval(fusor::sum(cube * cube, 0)); });
    const fusor::tensor<double> d = fusor::eval(fusor::cast<double>(spread({400, 300}, 15)));
    identical_for_any_thread_count([&] { return fusor::eval(fusor::sum(d, 1)); });
    // Softmax: the fused row reductions are boundaries, each split on its own.
    const auto x = spread({512, 200}, 16);
    identical_for_any_thread_count([&] {
        const auto e = fusor::exp(x - fusor::max(x, 1, fusor::keepdims));
        return fusor::eval(e / fusor::sum(e, 1, fusor::keepdims));
    });
}

TEST_CASE("reductions over a reducing outer loop add one row after another, bit for bit") {
    // Rows per pass over the accumulators (execute.hpp, jammed_rows_block: eight for `sum(a, 0)`,
    // four for `sum(a * a, 0)`, two for `sum(a + a + a, 0)`) must keep the order of a row at a
    // time: ((acc + x_r) + x_{r+1}) + .... Row counts under a pass, a pass and rows left over,
    // whole passes; one and two threads.
    restore_threads restore;
    for (const index_t rows :
         {index_t{2}, index_t{7}, index_t{13}, index_t{64}, index_t{65}, index_t{70}}) {
        CAPTURE(rows);
        const auto a = spread({rows, 2050}, 20 + static_cast<unsigned>(rows));
        // The same sums a row at a time, in double (float32 sums accumulate in double); a * a
        // is float32, rounded before it is summed.
        std::vector<double> acc(2050, 0.0), squares(2050, 0.0), three(2050, 0.0);
        for (index_t r = 0; r < rows; ++r)
            for (index_t c = 0; c < 2050; ++c) {
                const float x = a.data()[r * 2050 + c];
                acc[static_cast<std::size_t>(c)] += static_cast<double>(x);
                squares[static_cast<std::size_t>(c)] += static_cast<double>(x * x);
                // (x + x) + x in float32, as the expression's (adds only: nothing for a
                // compiler to contract into an FMA in one form and not the other).
                const float twice = x + x;
                three[static_cast<std::size_t>(c)] += static_cast<double>(twice + x);
            }
        for (int threads : {1, 2}) {
            fusor::set_num_threads(threads);
            const fusor::tensor<float> s = fusor::eval(fusor::sum(a, 0));
            const fusor::tensor<float> n2 = fusor::eval(fusor::sum(a * a, 0));
            const fusor::tensor<float> n3 = fusor::eval(fusor::sum(a + a + a, 0));
            for (index_t c = 0; c < 2050; ++c) {
                const auto k = static_cast<std::size_t>(c);
                REQUIRE(s.data()[c] == static_cast<float>(acc[k]));
                REQUIRE(n2.data()[c] == static_cast<float>(squares[k]));
                REQUIRE(n3.data()[c] == static_cast<float>(three[k]));
            }
        }
    }
}

// TwoSum (Knuth), as docs/reductions.md specifies float64 sums: the reference for the
// compensated accumulators, one row at a time.
struct two_sum_reference {
    double sum = 0.0, correction = 0.0;
    void add(double x) {
        const double t = sum + x;
        const double z = t - sum;
        correction += (sum - (t - z)) + (x - z);
        sum = t;
    }
    double total() const { return sum + correction; }
};

TEST_CASE("short rows: accumulators held in a register still add one row after another") {
    // Rows of up to 8 columns keep a sum's, mean's or norm's accumulators in vector registers
    // across all the rows (execute.hpp, jammed_rows_block): all eight lanes, or the first `cols`
    // of them; on AVX and AVX-512 rows of up to two_rows_register_columns (16, 32) do too, in
    // registers that may overlap. The bits must be those of a row at a time,
    // for float64 (TwoSum corrections) and float32 (double sums), odd and even row counts, an
    // operand read through a broadcast (x - m), and any thread count.
    restore_threads restore;
    for (const index_t cols : {1, 3, 7, 8, 9, 12, 16, 17, 24, 31, 32, 33}) {
        for (const index_t rows : {index_t{2}, index_t{5}, index_t{4096}, index_t{4097}}) {
            CAPTURE(cols);
            CAPTURE(rows);
            const auto a = spread({rows, cols}, 40 + static_cast<unsigned>(rows + cols));
            const fusor::tensor<double> d = fusor::eval(fusor::cast<double>(a) * 1.0000001);
            const fusor::tensor<double> m = fusor::eval(fusor::cast<double>(spread({cols}, 7)));
            std::vector<two_sum_reference> s(static_cast<std::size_t>(cols));
            std::vector<two_sum_reference> dev(s.size()), sq(s.size());
            std::vector<double> s32(s.size(), 0.0);
            for (index_t r = 0; r < rows; ++r)
                for (index_t c = 0; c < cols; ++c) {
                    const auto k = static_cast<std::size_t>(c);
                    const double x = d.data()[r * cols + c];
                    s[k].add(x);
                    dev[k].add(x - m.data()[c]);
                    sq[k].add(fusor::detail::rounded(x * x)); // NumPy's rounded square
                    s32[k] += static_cast<double>(a.data()[r * cols + c]);
                }
            for (int threads : {1, 2}) {
                fusor::set_num_threads(threads);
                const fusor::tensor<double> sum = fusor::eval(fusor::sum(d, 0));
                const fusor::tensor<double> mean = fusor::eval(fusor::mean(d, 0));
                const fusor::tensor<double> deviation = fusor::eval(fusor::sum(d - m, 0));
                const fusor::tensor<double> norm = fusor::eval(fusor::norm(d, 0));
                const fusor::tensor<float> sum32 = fusor::eval(fusor::sum(a, 0));
                for (index_t c = 0; c < cols; ++c) {
                    const auto k = static_cast<std::size_t>(c);
                    REQUIRE(sum.data()[c] == s[k].total());
                    REQUIRE(mean.data()[c] == s[k].total() / static_cast<double>(rows));
                    REQUIRE(deviation.data()[c] == dev[k].total());
                    REQUIRE(norm.data()[c] == std::sqrt(sq[k].total()));
                    // One column is one contiguous run, summed from sum_float_lane_min_run
                    // terms in float lanes (tests/reduce/test_accuracy.cpp), not row by row.
                    if (cols > 1 || rows < fusor::sum_float_lane_min_run)
                        REQUIRE(sum32.data()[c] == static_cast<float>(s32[k]));
                }
            }
        }
    }
}

TEST_CASE("argmax and argmin over a reducing outer loop keep what one row at a time keeps") {
    // The arg-rows kernels (exec/arg_rows_kernel.hpp) compare rows with a row of kept values and
    // a row of their indices: the first maximum (minimum) of each column, the first NaN once
    // there is one, ties to the earlier row. A tensor's rows of four- or eight-byte values take
    // eight rows per pass in registers (arg_eight_rows: passes, rows left over, columns left
    // over past the last whole register); an expression or int16 a row per pass (arg_rows).
    // Against a row-at-a-time loop, for float32 and float64 with NaNs and ties, int32, uint32,
    // int64 and int16 (no NaN), a column-sliced view and an expression, one and two threads.
    restore_threads restore;
    constexpr index_t cols = 2050; // 128 registers of float32 and 2 columns over on AVX-512
    for (const index_t rows : {index_t{2}, index_t{8}, index_t{9}, index_t{17}, index_t{300}}) {
        CAPTURE(rows);
        auto a = spread({rows, cols}, 30 + static_cast<unsigned>(rows));
        const float nan = std::numeric_limits<float>::quiet_NaN();
        a.data()[(rows - 1) * cols + 3] = nan; // a NaN in the last row only
        a.data()[0 * cols + 4] = nan;          // in the first row, then more
        a.data()[(rows / 2) * cols + 4] = nan;
        a.data()[(rows - 1) * cols + 5] = a.data()[0 * cols + 5] = 3e30f; // a tie, first wins
        a.data()[(rows - 1) * cols + 6] = a.data()[0 * cols + 6] = -3e30f;
        a.data()[(rows - 1) * cols + cols - 1] = nan; // in a column past the last register
        a.data()[(rows / 2) * cols + 2047] = 4e30f;   // in the last register's last lane
        fusor::tensor<std::int32_t> k = fusor::zeros<std::int32_t>({rows, cols});
        for (index_t i = 0; i < k.size(); ++i)
            k.data()[i] = static_cast<std::int32_t>((i * 7919) % 1013) - 500;
        const fusor::tensor<double> d = fusor::eval(fusor::cast<double>(a) * 3.0);
        const fusor::tensor<std::uint32_t> u = fusor::eval(fusor::cast<std::uint32_t>(k + 500));
        const fusor::tensor<std::int64_t> w = fusor::eval(fusor::cast<std::int64_t>(k) * 7);
        const fusor::tensor<std::int16_t> h = fusor::eval(fusor::cast<std::int16_t>(k));
        auto reference = [&](const auto* x, bool greater, index_t n, index_t from) {
            std::vector<std::int64_t> out(static_cast<std::size_t>(n), 0);
            for (index_t c = 0; c < n; ++c) {
                auto kept = x[from + c];
                for (index_t r = 1; r < rows; ++r) {
                    const auto v = x[r * cols + from + c];
                    const bool better = greater ? v > kept : v < kept;
                    if (better || (v != v && kept == kept)) {
                        kept = v;
                        out[static_cast<std::size_t>(c)] = r;
                    }
                }
            }
            return out;
        };
        const fusor::tensor<float> twice = fusor::eval(a + a);
        const auto want_max = reference(a.data(), true, cols, 0),
                   want_min = reference(a.data(), false, cols, 0);
        const auto want_kmax = reference(k.data(), true, cols, 0),
                   want_kmin = reference(k.data(), false, cols, 0);
        const auto want_twice = reference(twice.data(), true, cols, 0);
        const auto want_dmin = reference(d.data(), false, cols, 0),
                   want_umax = reference(u.data(), true, cols, 0);
        const auto want_wmin = reference(w.data(), false, cols, 0),
                   want_hmax = reference(h.data(), true, cols, 0);
        const auto want_view = reference(a.data(), true, cols - 3, 1);
        const auto sliced = fusor::view(a, fusor::all, fusor::slice(1, -2));
        for (int threads : {1, 2}) {
            CAPTURE(threads);
            fusor::set_num_threads(threads);
            const fusor::tensor<std::int64_t> got_max = fusor::argmax(a, 0),
                                              got_min = fusor::argmin(a, 0),
                                              got_kmax = fusor::argmax(k, 0),
                                              got_kmin = fusor::argmin(k, 0),
                                              got_twice = fusor::argmax(a + a, 0),
                                              got_dmin = fusor::argmin(d, 0),
                                              got_umax = fusor::argmax(u, 0),
                                              got_wmin = fusor::argmin(w, 0),
                                              got_hmax = fusor::argmax(h, 0),
                                              got_view = fusor::argmax(sliced, 0);
            for (index_t c = 0; c < cols; ++c) {
                const auto j = static_cast<std::size_t>(c);
                CAPTURE(c);
                REQUIRE(got_max.data()[c] == want_max[j]);
                REQUIRE(got_min.data()[c] == want_min[j]);
                REQUIRE(got_kmax.data()[c] == want_kmax[j]);
                REQUIRE(got_kmin.data()[c] == want_kmin[j]);
                REQUIRE(got_twice.data()[c] == want_twice[j]);
                REQUIRE(got_dmin.data()[c] == want_dmin[j]);
                REQUIRE(got_umax.data()[c] == want_umax[j]);
                REQUIRE(got_wmin.data()[c] == want_wmin[j]);
                REQUIRE(got_hmax.data()[c] == want_hmax[j]);
                if (c < cols - 3)
                    REQUIRE(got_view.data()[c] == want_view[j]);
            }
        }
    }
}

TEST_CASE("an exception thrown inside a thread reaches the caller") {
    restore_threads restore;
    fusor::tensor<std::int32_t> base(shape_t{400, 200}), exponent(shape_t{400, 200});
    base = 2;
    exponent = 3;
    exponent.data()[399 * 200 + 5] = -1; // in the last chunk: another thread meets it
    for (int n : {1, 2, 4}) {
        CAPTURE(n);
        fusor::set_num_threads(n);
        CHECK_THROWS_AS(fusor::eval(fusor::power(base, exponent)), fusor::value_error);
    }
}
