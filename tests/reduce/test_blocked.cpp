// The blocked register reduction (exec/execute.hpp, blocked_reduction): a sum whose run reads
// an operand standing still (`sum(x - m, 1)`) or a math function with a vectorised form
// (`sum(exp(x), 1)`) reads its run in blocks of broadcast_block. Its lanes take the elements
// in the order of the plain path, so it gives the bits of summing the same terms stored first,
// at every run length around the block and lane boundaries.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

namespace {
template <class T>
fusor::tensor<T> wavy(fusor::index_t rows, fusor::index_t cols) {
    fusor::tensor<T> x(fusor::shape_t{rows, cols});
    for (fusor::index_t i = 0; i < x.size(); ++i)
        x.data()[i] = static_cast<T>(std::sin(0.37 * static_cast<double>(i)) * 3.0 + 0.25);
    return x;
}

template <class T>
bool same_bits(const fusor::tensor<T>& a, const fusor::tensor<T>& b) {
    return a.shape() == b.shape()
           && std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(T)) == 0;
}

// Run lengths at every boundary the kernels have: lanes (8, 32), NumPy's 8-lane limit (512),
// the block (1,024), pairwise leaves (4,096) and a split beyond them.
constexpr fusor::index_t lengths[] = {
    1, 7, 8, 9, 33, 511, 512, 513, 1000, 1023, 1024, 1025, 2049, 4095, 4096, 4097, 9001};
} // namespace

TEST_CASE_TEMPLATE("sum(x - m, 1) in blocks has the bits of summing x - m stored",
                   T,
                   float,
                   double) {
    for (const fusor::index_t n : lengths) {
        CAPTURE(n);
        const auto x = wavy<T>(3, n);
        const auto m = fusor::eval(fusor::max(x, 1, fusor::keepdims));
        const auto e = fusor::sum(x - m, 1);
        const fusor::explanation ex = fusor::explain(e);
        if (n > 1) // a run of 1 is no run: the axis coalesces away (a row of accumulators)
            CHECK(ex.plan.kernel == fusor::inner_kernel::broadcast);
        const fusor::tensor<T> blocked = e;
        const fusor::tensor<T> stored = fusor::sum(fusor::eval(x - m), 1);
        CHECK(same_bits(blocked, stored));
    }
}

TEST_CASE_TEMPLATE("sum(exp(x - m), 1) computes exp as element-wise loops do", T, float, double) {
    for (const fusor::index_t n : lengths) {
        CAPTURE(n);
        const auto x = wavy<T>(2, n);
        const auto m = fusor::eval(fusor::max(x, 1, fusor::keepdims));
        const auto e = fusor::sum(fusor::exp(x - m), 1);
        const fusor::tensor<T> fused = e;
        // exp stored by an element-wise loop first, then summed: the same terms.
        const fusor::tensor<T> stored = fusor::sum(fusor::eval(fusor::exp(x - m)), 1);
        if (FUSOR_VECTOR_MATH == 0) {
            // Without SLEEF both call the C library per element: still the same terms.
            CHECK(same_bits(fused, stored));
            continue;
        }
        CHECK(same_bits(fused, stored));
        if (n > 1) { // a run of 1 coalesces away (exp(x - m) is exp(0) = 1 there)
            const fusor::explanation ex = fusor::explain(e);
            REQUIRE(ex.plan.vector_functions.size() == 1);
            CHECK(ex.plan.vector_functions[0] == "exp");
        }
    }
}

TEST_CASE_TEMPLATE("a row's variance sum((x - m) * (x - m), 1) has the bits of its terms stored",
                   T,
                   float,
                   double) {
    // m a column (one element per run): the broadcast kernel's blocked runs in the general plan
    // (above parallel_threshold) and the flat reduction's under it. A run of up to
    // broadcast_block is one block, whose lanes g++ vectorises (the block loop's had stayed
    // scalar), and the flat reduction takes 8 runs per pass; the terms and their order, and so
    // the bits, are the same.
    using fusor::index_t;
    for (const index_t n : {index_t{9},
                            index_t{33},
                            index_t{256},
                            index_t{511},
                            index_t{512},
                            index_t{1000},
                            index_t{1024},
                            index_t{1025}}) {
        for (const index_t rows : {index_t{6}, index_t{19}, fusor::parallel_threshold / n + 3}) {
            CAPTURE(n);
            CAPTURE(rows);
            const auto x = wavy<T>(rows, n);
            const auto m = fusor::eval(fusor::mean(x, 1, fusor::keepdims));
            const auto e = fusor::sum((x - m) * (x - m), 1);
            // Runs of at most collapse_max_cols (48) in the general plan collapse (the test
            // below).
            const bool collapses =
                n <= fusor::collapse_max_cols && rows * n >= fusor::parallel_threshold;
            CHECK(fusor::explain(e).plan.kernel
                  == (collapses ? fusor::inner_kernel::collapsed : fusor::inner_kernel::broadcast));
            // Under parallel_threshold, runs of 8 to 255 float32 terms: the flat reduction's
            // pairwise_rows, each pass of 8 runs with its columns splatted run after run, the
            // runs left over one at a time (float64 sums are compensated).
            const bool flat_rows = std::is_same_v<T, float> && n < fusor::sum_float_lane_min_run
                                   && rows * n < fusor::parallel_threshold;
            const fusor::reduce_kernel k = fusor::explain(e).plan.reduction;
            CHECK((k == fusor::reduce_kernel::pairwise_rows
                   || k == fusor::reduce_kernel::pairwise_rows_simd) // AVX-512
                  == flat_rows);
            const fusor::tensor<T> stored = fusor::sum(fusor::eval((x - m) * (x - m)), 1);
            for (const int threads : {1, 2}) {
                fusor::set_num_threads(threads);
                const fusor::tensor<T> fused = e;
                CHECK(same_bits(fused, stored));
            }
            fusor::set_num_threads(fusor::threads_enabled ? 2 : 1);
        }
    }
}

TEST_CASE("softmax's sum and division see the same exp bits") {
    const auto x = wavy<float>(5, 1500);
    const fusor::tensor<float> p = fusor::exp(x - fusor::max(x, 1, fusor::keepdims));
    const fusor::tensor<float> s = fusor::sum(p, 1, fusor::keepdims);
    const fusor::tensor<float> fused =
        fusor::exp(x - fusor::max(x, 1, fusor::keepdims))
        / fusor::sum(fusor::exp(x - fusor::max(x, 1, fusor::keepdims)), 1, fusor::keepdims);
    const fusor::tensor<float> two_statements = p / s;
    CHECK(same_bits(fused, two_statements));
}

TEST_CASE_TEMPLATE("short runs collapse into one loop with the bits of one run at a time",
                   T,
                   float,
                   double) {
    // Runs of at most collapse_max_cols (48) terms, at least 256 terms in all, that read a column
    // (a statistic per run) or a math function with a vectorised form: the collapsed kernel binds
    // blocks of whole runs and sums each run from them (planning::collapsible_runs). Its sums must
    // have the bits of the same terms stored first and summed (pairwise for float32, compensated
    // for float64); on one thread and two, in the general plan (above parallel_threshold) and under
    // it.
    using fusor::index_t;
    for (const index_t cols : {index_t{2},
                               index_t{4},
                               index_t{7},
                               index_t{8},
                               index_t{9},
                               index_t{17},
                               index_t{33},
                               fusor::collapse_max_cols,
                               fusor::collapse_max_cols + 1}) {
        for (const index_t rows : {index_t{300}, fusor::parallel_threshold / cols + 5}) {
            CAPTURE(cols);
            CAPTURE(rows);
            const auto x = wavy<T>(rows, cols);
            const auto m = fusor::eval(fusor::max(x, 1, fusor::keepdims));
            const auto w = wavy<T>(1, cols);
            // Under the thread threshold runs of 17 to 48 collapse by their bytes
            // (collapses(): 17 float32 do, 48 do not).
            const bool collapses = fusor::collapses(rows, cols, index_t{sizeof(T)}, true);
            CHECK(collapses
                  == (cols <= 17 || (cols <= fusor::collapse_max_cols && rows > index_t{300})
                      || (cols == 33 && std::is_same_v<T, float>)));
            const auto e1 = fusor::sum(x - m, 1);
            const auto e2 = fusor::sum(fusor::exp(x - m), 1);
            const auto e3 = fusor::mean(fusor::exp(x * w), 1);
            CHECK((fusor::explain(e2).plan.kernel == fusor::inner_kernel::collapsed) == collapses);
            CHECK((fusor::explain(e3).plan.kernel == fusor::inner_kernel::collapsed) == collapses);
            if (collapses)
                CHECK(
                    explain_text::one_line(fusor::explain(e2).text())
                        .find("an element per run, repeated over it: t1; each run summed from the "
                              "block")
                    != std::string::npos);
            const fusor::tensor<T> s1 = fusor::sum(fusor::eval(x - m), 1);
            const fusor::tensor<T> s2 = fusor::sum(fusor::eval(fusor::exp(x - m)), 1);
            const fusor::tensor<T> s3 = fusor::mean(fusor::eval(fusor::exp(x * w)), 1);
            for (const int threads : {1, 2}) {
                fusor::set_num_threads(threads);
                const fusor::tensor<T> f1 = e1, f2 = e2, f3 = e3;
                CHECK(same_bits(f1, s1));
                CHECK(same_bits(f2, s2));
                CHECK(same_bits(f3, s3));
            }
            fusor::set_num_threads(fusor::threads_enabled ? 2 : 1);
        }
    }
}

TEST_CASE("a flat reduction with a column keeps its runs one at a time, as explain says") {
    // Under parallel_threshold, without math functions: the flat reduction (its own loop, a run
    // at a time), not the collapsed kernel, and explain names the loop that runs.
    const auto x = wavy<float>(300, 4);
    const auto m = fusor::eval(fusor::max(x, 1, fusor::keepdims));
    fusor::tensor<float> out(fusor::shape_t{300});
    const fusor::explanation ex = fusor::explain(out, fusor::sum(x - m, 1));
    CHECK(ex.plan.flat_reduction);
    CHECK(ex.plan.kernel == fusor::inner_kernel::broadcast);
    out = fusor::sum(x - m, 1);
    CHECK(same_bits(out, fusor::tensor<float>(fusor::sum(fusor::eval(x - m), 1))));
}
