// Accuracy of floating reductions (docs/reductions.md, "Summation"): float32 sums accumulate in
// double (pairwise along the innermost loop), float64 sums carry exact TwoSum error terms, in
// registers and in rows alike, so they are at least as accurate as NumPy's pairwise sum on
// every axis. Each test also shows the naive algorithm failing the same bound, so it can fail.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace {
double relative_error(double got, double exact) {
    return std::fabs(got - exact) / std::fabs(exact);
}

// 0.1f = 0.100000001490116119384765625 exactly, so 2^24 of them sum to 1677721.625 exactly
// (a 24-bit significand: representable in float32 too).
constexpr double tenth_f32 = 0.100000001490116119384765625;
} // namespace

TEST_CASE("float32 sum of 2^24 times 0.1f is within 2e-7 of 1677721.625") {
    const fusor::index_t n = fusor::index_t{1} << 24;
    const auto x = fusor::full<float>({n}, 0.1f);
    const double exact = tenth_f32 * static_cast<double>(n);
    REQUIRE(exact == 1677721.625);

    // The float lanes (reduce_kernel::float_lanes): each lane adds 16 tenths in float32,
    // 1.60000026226043701171875, and the 2^20 partial sums are added in double: 1677721.875,
    // two float32 units above the exact sum (NumPy's pairwise float32 sum: 1677748.6, 1.6e-5).
    const float s = fusor::eval(fusor::sum(x)).item();
    CHECK(relative_error(s, exact) <= 2e-7);
    CHECK(s == 1677721.875f);

    // The mean (the same lanes), 1677721.875 / 2^24 (a float32), and a naive float32 loop,
    // which is off by ~15 %.
    CHECK(fusor::eval(fusor::mean(x)).item() == static_cast<float>(1677721.875 / 16777216.0));
    float naive = 0.0f;
    for (float v : x)
        naive += v;
    CHECK(relative_error(naive, exact) > 0.1);
}

TEST_CASE("a float32 run of 256 or more adds each term in float with at most 15 others") {
    // 2^24 first, then ones: 2^24 + 1 rounds back to 2^24 in float32 (to even), so a one lost
    // shows which terms shared a float partial sum. Lane j takes terms j, j + 32, j + 64 ...,
    // 16 of them at most, then starts a new partial sum (docs/reductions.md).
    const auto run_with_ones = [](fusor::index_t n, std::initializer_list<fusor::index_t> at) {
        std::vector<float> v(static_cast<std::size_t>(n), 0.0f);
        v[0] = 16777216.0f;
        for (fusor::index_t i : at)
            v[static_cast<std::size_t>(i)] = 1.0f;
        return v;
    };
    const auto sum_of = [](std::vector<float>& v) {
        const auto n = static_cast<fusor::index_t>(v.size());
        return fusor::eval(fusor::sum(fusor::adapt(v.data(), {n}))).item();
    };
    // 15 ones in lane 0 after 2^24: every one lost (the exact 16777231 would round to 16777232).
    std::vector<float> same_lane = run_with_ones(
        512, {32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480});
    CHECK(sum_of(same_lane) == 16777216.0f);
    // The same ones in lanes 1 to 15: none shares a partial sum with 2^24.
    std::vector<float> other_lanes =
        run_with_ones(512, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
    CHECK(sum_of(other_lanes) == 16777232.0f);
    // Lane 0's 17th to 20th terms start a new partial sum: those four ones count.
    std::vector<float> next_group = run_with_ones(1024, {32, 64, 512, 544, 576, 608});
    CHECK(sum_of(next_group) == 16777220.0f);
    // Under 256 terms the lanes are float64 (NumPy's 8 lanes and tree): nothing lost.
    std::vector<float> short_run = run_with_ones(255, {32, 64, 96, 128, 160, 192, 224});
    CHECK(sum_of(short_run) == 16777224.0f);
}

TEST_CASE("float32 sums along an outer axis are as exact as along the contiguous one") {
    // The case API.md quotes: NumPy sums axis 0 of (2^24 + 8, 2) sequentially in float32 and
    // stalls at 16777216; fusor's row accumulators are double.
    const fusor::index_t n = (fusor::index_t{1} << 24) + 8;
    const auto ones = fusor::ones<float>({n, 2});
    const auto s = fusor::eval(fusor::sum(ones, 0));
    CHECK(s(0) == 16777224.0f);
    CHECK(s(1) == 16777224.0f);

    const auto tenths = fusor::full<float>({fusor::index_t{1} << 23, 2}, 0.1f);
    const auto t = fusor::eval(fusor::sum(tenths, 0));
    CHECK(t(0) == static_cast<float>(tenth_f32 * (1 << 23)));
    CHECK(t(1) == 838860.8125f);
}

namespace {
struct accuracy_data {
    std::vector<double> values;
    double mean = 0, var = 0;
};

// Written by accuracy_reference.py (ctest fixture reduce.accuracy_reference).
accuracy_data load_accuracy_data() {
    const std::string dir = std::string(FUSOR_BINARY_DIR) + "/tests/accuracy/";
    accuracy_data d;
    std::ifstream ref(dir + "accuracy_reference.txt");
    REQUIRE_MESSAGE(ref.good(),
                    "missing " << dir << "accuracy_reference.txt: run through ctest (the "
                               << "reduce.accuracy_reference fixture writes it)");
    ref >> d.mean >> d.var;
    std::ifstream bin(dir + "accuracy_data.f64", std::ios::binary);
    d.values.resize(1000000);
    bin.read(reinterpret_cast<char*>(d.values.data()),
             static_cast<std::streamsize>(d.values.size() * sizeof(double)));
    REQUIRE(bin.gcount() == static_cast<std::streamsize>(d.values.size() * sizeof(double)));
    return d;
}
} // namespace

TEST_CASE("mean and var of 10^6 float64 values 1e9 + N(0,1) match math.fsum to 1e-12") {
    const accuracy_data d = load_accuracy_data();
    const auto x = fusor::adapt(d.values.data(), {1000000});
    INFO("reference mean " << d.mean << ", var " << d.var);

    CHECK(relative_error(fusor::eval(fusor::mean(x)).item(), d.mean) <= 1e-12);
    CHECK(relative_error(fusor::eval(fusor::var(x)).item(), d.var) <= 1e-12);
    CHECK(relative_error(fusor::eval(fusor::std(x)).item(), std::sqrt(d.var)) <= 1e-12);

    // The same data as an outer axis (row accumulators) and through a transpose: every loop
    // order gets the same accuracy.
    const auto m = fusor::adapt(d.values.data(), {2, 500000});
    CHECK(relative_error(fusor::eval(fusor::mean(fusor::transpose(m))).item(), d.mean) <= 1e-12);
    CHECK(relative_error(fusor::eval(fusor::var(fusor::transpose(m))).item(), d.var) <= 1e-12);
    const auto col = fusor::adapt(d.values.data(), {1000000, 1});
    CHECK(relative_error(fusor::eval(fusor::mean(col, 0))(0), d.mean) <= 1e-12);

    // A one-pass variance E[x^2] - E[x]^2 cancels catastrophically here (x^2 ~ 1e18, whose
    // ulp is 128): the bound is far out of its reach.
    double s = 0, s2 = 0;
    for (double v : d.values) {
        s += v;
        s2 += v * v;
    }
    const double n = 1e6, naive_var = s2 / n - (s / n) * (s / n);
    CHECK(relative_error(naive_var, d.var) > 1e-3);
}

TEST_CASE("compensated float64 sums keep what a plain loop loses") {
    // 1e16, then 1000 ones, then -1e16: the exact sum is 1000. A plain double loop loses every
    // 1 against 1e16 (half its ulp of 2) and returns 0. The compensated bound, 2 eps |sum| +
    // O(n eps^2) sum|x| ~ 3e-13 here, makes the compensated sum exact, in a register and in
    // a row of accumulators alike.
    std::vector<double> v{1e16};
    v.insert(v.end(), 1000, 1.0);
    v.push_back(-1e16);
    const auto n = static_cast<fusor::index_t>(v.size());
    CHECK(fusor::eval(fusor::sum(fusor::adapt(v.data(), {n}))).item() == 1000.0);
    CHECK(fusor::eval(fusor::sum(fusor::adapt(v.data(), {n, 1}), 0))(0) == 1000.0);
    // Reversed, and with the big values in the middle of the run.
    CHECK(fusor::eval(fusor::sum(fusor::flip(fusor::adapt(v.data(), {n})))).item() == 1000.0);
    std::swap(v[0], v[500]);
    CHECK(fusor::eval(fusor::sum(fusor::adapt(v.data(), {n}))).item() == 1000.0);
    double plain = 0;
    for (double e : v)
        plain += e;
    CHECK(plain != 1000.0);
}

TEST_CASE("infinities and NaN pass through the compensated sum") {
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(fusor::eval(fusor::sum(fusor::tensor<double>{1.0, inf, 2.0})).item() == inf);
    CHECK(fusor::eval(fusor::sum(fusor::tensor<double>{-inf, 1.0})).item() == -inf);
    CHECK(std::isnan(fusor::eval(fusor::sum(fusor::tensor<double>{inf, -inf})).item()));
    CHECK(fusor::eval(fusor::sum(fusor::tensor<double>{1e308, 1e308})).item() == inf);
    CHECK(std::isnan(fusor::eval(fusor::mean(fusor::tensor<double>{1.0, NAN})).item()));
}
