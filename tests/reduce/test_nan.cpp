// NaN-ignoring reductions and scans (reduce/nan_reductions.hpp, algo/nan_scan.hpp) against
// NumPy 1.24, differentially: nan_reference.py (the ctest fixture reduce.nan_reference) draws
// ~1,700 random cases (shapes with empty axes, all-NaN slices, +-inf, float32/float64/int32/
// int64/bool, every axis form, keepdims, ddof) and writes NumPy's results or the exception it
// raised. The cases are data: one loop per function and dtype calls the function with the
// case's axis form, so each (function, dtype) is one expression type, compiled once.
// Results compare bitwise (NaN equal to NaN) unless the case carries a tolerance: only float
// sums, means, products and variances, whose rounding order legitimately differs from
// NumPy's (float32 accumulates in double in fusor; see the script's docstring for each bound).
//
// The expected file is FUSOR_BINARY_DIR/tests/reduce/nan_expected.txt, or the path in the
// environment variable FUSOR_NAN_EXPECTED (to run the binary by hand).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/algo/nan_scan.hpp>
#include <fusor/fusor.hpp>
#include <fusor/reduce/nan_reductions.hpp>

#include "../explain_text.hpp"

namespace {

using fusor::index_t;
using fusor::shape_t;
using fusor::tensor;

enum class axis_form { none, one, list };

struct nan_case {
    int line = 0;
    std::string text; // the case as the file gives it, up to the result (for failure messages)
    std::string func, dtype;
    shape_t shape;
    std::vector<std::string> values;
    axis_form form = axis_form::none;
    index_t axis = 0;
    shape_t axes;
    bool keepdims = false;
    index_t ddof = 0;
    std::string error; // NumPy's exception, or empty when it returned a result
    std::string result_dtype;
    shape_t result_shape;
    std::vector<std::string> result_values;
    double rtol = 0.0, atol = 0.0;
};

shape_t read_shape(std::istringstream& s) {
    std::size_t ndim = 0;
    s >> ndim;
    shape_t shape;
    for (std::size_t k = 0; k < ndim; ++k) {
        index_t e = 0;
        s >> e;
        shape.push_back(e);
    }
    return shape;
}

std::vector<std::string> read_words(std::istringstream& s, index_t n) {
    std::vector<std::string> w(static_cast<std::size_t>(n));
    for (auto& x : w)
        s >> x;
    return w;
}

nan_case parse_case(const std::string& line, int number) {
    nan_case c;
    c.line = number;
    std::istringstream s(line);
    s >> c.func >> c.dtype;
    c.shape = read_shape(s);
    c.values = read_words(s, fusor::shape_size(c.shape));
    std::string form;
    s >> form;
    if (form == "one") {
        c.form = axis_form::one;
        s >> c.axis;
    } else if (form == "list") {
        c.form = axis_form::list;
        c.axes = read_shape(s);
    }
    int keepdims = 0;
    s >> keepdims >> c.ddof;
    c.keepdims = keepdims != 0;
    c.text = line.substr(0, static_cast<std::size_t>(s.tellg()));
    std::string status;
    s >> status;
    if (status == "error") {
        s >> c.error;
    } else {
        s >> c.result_dtype;
        c.result_shape = read_shape(s);
        c.result_values = read_words(s, fusor::shape_size(c.result_shape));
        s >> c.rtol >> c.atol;
    }
    REQUIRE_MESSAGE(!s.fail(), "nan_expected.txt line " << number << " does not parse");
    return c;
}

const std::vector<nan_case>& cases() {
    static const std::vector<nan_case> all = [] {
        const char* env = std::getenv("FUSOR_NAN_EXPECTED");
        const std::string path =
            env ? env : std::string(FUSOR_BINARY_DIR) + "/tests/reduce/nan_expected.txt";
        std::ifstream in(path);
        REQUIRE_MESSAGE(in.good(),
                        "cannot read " << path << ": run nan_reference.py first "
                                       << "(the reduce.nan_reference test)");
        std::vector<nan_case> v;
        std::string line;
        int number = 0;
        while (std::getline(in, line))
            v.push_back(parse_case(line, ++number));
        return v;
    }();
    return all;
}

// A value as the file writes it: float.hex() (strtod reads hex, nan, inf), decimal, 0/1.
template <class T>
T parse_value(const std::string& w) {
    if constexpr (std::is_floating_point_v<T>)
        return static_cast<T>(std::strtod(w.c_str(), nullptr)); // float32 values are exact
    else if constexpr (std::is_same_v<T, bool>)
        return w != "0";
    else
        return static_cast<T>(std::stoll(w));
}

template <class T>
tensor<T> input(const nan_case& c) {
    tensor<T> t(c.shape);
    for (std::size_t k = 0; k < c.values.size(); ++k)
        t.data()[k] = parse_value<T>(c.values[k]);
    return t;
}

// Exact: the same bits, or both NaN (any payload). Otherwise |got - want| <= atol + rtol|want|,
// an infinity only equal to itself.
template <class R>
bool matches(R got, R want, double rtol, double atol) {
    if constexpr (std::is_floating_point_v<R>) {
        if (std::isnan(got) || std::isnan(want))
            return std::isnan(got) && std::isnan(want);
        if (rtol == 0.0 && atol == 0.0)
            return std::bit_cast<std::conditional_t<sizeof(R) == 4, std::uint32_t, std::uint64_t>>(
                       got)
                   == std::bit_cast<
                       std::conditional_t<sizeof(R) == 4, std::uint32_t, std::uint64_t>>(want);
        if (std::isinf(got) || std::isinf(want))
            return got == want;
        return std::fabs(static_cast<double>(got) - static_cast<double>(want))
               <= atol + rtol * std::fabs(static_cast<double>(want));
    } else {
        return got == want;
    }
}

template <class R>
void check_result(const tensor<R>& got, const nan_case& c) {
    CHECK(fusor::dtype_name<R>() == c.result_dtype);
    CHECK(got.shape() == c.result_shape);
    if (got.shape() != c.result_shape)
        return;
    for (std::size_t k = 0; k < c.result_values.size(); ++k) {
        const R g = got.data()[k], w = parse_value<R>(c.result_values[k]);
        CHECK_MESSAGE(matches(g, w, c.rtol, c.atol),
                      "element " << k << ": fusor " << std::hexfloat << +g << ", numpy " << +w
                                 << std::defaultfloat << " (rtol " << c.rtol << ", atol " << c.atol
                                 << ")");
    }
}

template <class X>
auto evaluated(X&& x) {
    if constexpr (fusor::tensor_like<X>)
        return std::forward<X>(x); // nanargmin/max and the scans are eager already
    else
        return fusor::eval(x);
}

// The call forms a function takes.
enum forms { reduction_forms, arg_forms, scan_forms };

// `f(c, a, args...)` with the case's axis form and keepdims. Every form builds the same
// expression type (the axes and keepdims are run-time values of the node), so one evaluation
// is compiled per function and dtype.
template <forms Forms, class F, class T>
auto call(F f, const tensor<T>& a, const nan_case& c) {
    if constexpr (Forms == scan_forms) {
        return c.form == axis_form::none ? evaluated(f(c, a)) : evaluated(f(c, a, c.axis));
    } else {
        if (c.form == axis_form::one)
            return c.keepdims ? evaluated(f(c, a, c.axis, fusor::keepdims))
                              : evaluated(f(c, a, c.axis));
        if constexpr (Forms == reduction_forms)
            if (c.form == axis_form::list)
                return c.keepdims ? evaluated(f(c, a, c.axes, fusor::keepdims))
                                  : evaluated(f(c, a, c.axes));
        return c.keepdims ? evaluated(f(c, a, fusor::keepdims)) : evaluated(f(c, a));
    }
}

// Runs every case of `func` over operands of type T; returns how many there were.
template <forms Forms, class T, class F>
int run_cases(const std::string& func, F f) {
    int n = 0;
    for (const nan_case& c : cases()) {
        if (c.func != func || c.dtype != fusor::dtype_name<T>())
            continue;
        ++n;
        INFO("nan_expected.txt line " << c.line << ": " << c.text);
        const tensor<T> a = input<T>(c);
        if (c.error == "AxisError")
            CHECK_THROWS_AS(call<Forms>(f, a, c), fusor::axis_error);
        else if (c.error == "ValueError")
            CHECK_THROWS_AS(call<Forms>(f, a, c), fusor::value_error);
        else
            check_result(call<Forms>(f, a, c), c);
    }
    return n;
}

// Every dtype of the cases; at least 20 cases each, so an empty or truncated file fails.
template <forms Forms, class F>
void run_all_dtypes(const std::string& func, F f) {
    CHECK(run_cases<Forms, float>(func, f) >= 20);
    CHECK(run_cases<Forms, double>(func, f) >= 20);
    CHECK(run_cases<Forms, std::int32_t>(func, f) >= 20);
    CHECK(run_cases<Forms, std::int64_t>(func, f) >= 20);
    CHECK(run_cases<Forms, bool>(func, f) >= 20);
}

} // namespace

TEST_CASE("the NumPy cases are there: at least 300") {
    CHECK(cases().size() >= 300);
}

TEST_CASE("nansum, nanprod, nanmean equal numpy's") {
    SUBCASE("nansum") {
        run_all_dtypes<reduction_forms>(
            "nansum", [](const nan_case&, const auto&... x) { return fusor::nansum(x...); });
    }
    SUBCASE("nanprod") {
        run_all_dtypes<reduction_forms>(
            "nanprod", [](const nan_case&, const auto&... x) { return fusor::nanprod(x...); });
    }
    SUBCASE("nanmean") {
        run_all_dtypes<reduction_forms>(
            "nanmean", [](const nan_case&, const auto&... x) { return fusor::nanmean(x...); });
    }
}

TEST_CASE("nanvar and nanstd equal numpy's, ddof included") {
    SUBCASE("nanvar") {
        run_all_dtypes<reduction_forms>("nanvar", [](const nan_case& c, const auto&... x) {
            return fusor::nanvar(x..., fusor::ddof{c.ddof});
        });
    }
    SUBCASE("nanstd") {
        run_all_dtypes<reduction_forms>("nanstd", [](const nan_case& c, const auto&... x) {
            return fusor::nanstd(x..., fusor::ddof{c.ddof});
        });
    }
}

TEST_CASE("nanmin and nanmax equal numpy's: NaN only for all-NaN slices") {
    SUBCASE("nanmin") {
        run_all_dtypes<reduction_forms>(
            "nanmin", [](const nan_case&, const auto&... x) { return fusor::nanmin(x...); });
    }
    SUBCASE("nanmax") {
        run_all_dtypes<reduction_forms>(
            "nanmax", [](const nan_case&, const auto&... x) { return fusor::nanmax(x...); });
    }
}

TEST_CASE("nanargmin and nanargmax equal numpy's, and throw value_error on all-NaN slices") {
    SUBCASE("nanargmin") {
        run_all_dtypes<arg_forms>(
            "nanargmin", [](const nan_case&, const auto&... x) { return fusor::nanargmin(x...); });
    }
    SUBCASE("nanargmax") {
        run_all_dtypes<arg_forms>(
            "nanargmax", [](const nan_case&, const auto&... x) { return fusor::nanargmax(x...); });
    }
}

TEST_CASE("nancumsum and nancumprod equal numpy's") {
    SUBCASE("nancumsum") {
        run_all_dtypes<scan_forms>(
            "nancumsum", [](const nan_case&, const auto&... x) { return fusor::nancumsum(x...); });
    }
    SUBCASE("nancumprod") {
        run_all_dtypes<scan_forms>("nancumprod", [](const nan_case&, const auto&... x) {
            return fusor::nancumprod(x...);
        });
    }
}

namespace {
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double Inf = std::numeric_limits<double>::infinity();

template <class T>
bool same_values(const tensor<T>& x, const tensor<T>& y) {
    if (x.shape() != y.shape())
        return false;
    for (index_t k = 0; k < x.size(); ++k)
        if (!matches(x.data()[k], y.data()[k], 0.0, 0.0))
            return false;
    return true;
}
} // namespace

TEST_CASE("nansum(a * b, 1) is one fused loop: a * b is never stored") {
    tensor<double> a = {{1, NaN, 3, 4}, {NaN, NaN, NaN, NaN}, {0.5, -Inf, 2, 8}};
    tensor<double> b = {{2, 2, NaN, 1}, {1, 1, 1, 1}, {4, 1, 1, 1}};
    const auto x = fusor::explain(fusor::nansum(a * b, 1));
    const std::string text = explain_text::one_line(x.text());
    CAPTURE(text);
    CHECK(x.plan.boundaries.empty()); // no temporary at all
    CHECK(text.rfind("fusor::explain: 1 loop, 0 materialised temporaries", 0) == 0);
    CHECK(text.find("sum_step(*out, nan_to_zero((*t0 * *t1)))") != std::string::npos);
    // Fused equals the two-step form bit for bit, and NumPy's values (small exact sums).
    const tensor<double> fused = fusor::eval(fusor::nansum(a * b, 1));
    const tensor<double> product = fusor::eval(a * b);
    CHECK(same_values(fused, fusor::eval(fusor::nansum(product, 1))));
    CHECK(same_values(fused, tensor<double>{6.0, 0.0, -Inf}));
}

namespace {
// Every temporary of `plan` and of the loops it waits for holds 3 elements: the counts, sums
// and means of the three rows, never the (3, 5) operand.
void check_boundaries(const fusor::loop_plan& plan) {
    for (const auto& boundary : plan.boundaries) {
        CHECK(fusor::shape_size(boundary.shape) == 3);
        check_boundaries(*boundary.plan);
    }
}
} // namespace

TEST_CASE("nanmean and nanvar of a * b store no temporary of the operand's shape") {
    tensor<float> a = fusor::ones<float>({3, 5});
    tensor<float> b = fusor::ones<float>({3, 5});
    for (const auto& plan : {fusor::explain(fusor::nanmean(a * b, 1)).plan,
                             fusor::explain(fusor::nanvar(a * b, 1, fusor::ddof{1})).plan,
                             fusor::explain(fusor::nanstd(a * b, 1, fusor::keepdims)).plan}) {
        CHECK(fusor::shape_size(plan.iter_shape) == 3); // (3,), or (3, 1) with keepdims
        REQUIRE(!plan.boundaries.empty());
        check_boundaries(plan);
    }
}

// Rows long enough for the executor's vector lanes (8 interleaved accumulators, each starting
// at NaN: exec/execute.hpp, lane_reduce) and, from 64, the SIMD max/min kernel (lanes starting
// at -inf or +inf: exec/minmax_kernel.hpp), with NaNs in any lane, whole rows of NaN, rows whose
// only number sits in the tail and rows whose only number is that starting infinity: the result
// is the rows' fmax/fmin (NaN only for an all-NaN row), row-major and through a transpose (the
// strided path), float32 and float64.
template <class T>
void check_rows_any_lane(bool greater) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> value(-100.0, 100.0);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    for (index_t cols : {1, 7, 8, 9, 16, 17, 31, 64, 100}) {
        const index_t rows = 12;
        tensor<T> a(shape_t{rows, cols});
        for (index_t r = 0; r < rows; ++r)
            for (index_t c = 0; c < cols; ++c) {
                const double nan_share = r == 0   ? 1.0
                                         : r == 1 ? (c == cols - 1 ? 0.0 : 1.0)
                                                  : 0.1 * static_cast<double>(r % 8);
                a.data()[r * cols + c] = coin(rng) < nan_share ? std::numeric_limits<T>::quiet_NaN()
                                                               : static_cast<T>(value(rng));
            }
        // Rows 2 and 3: NaN but one -inf (+inf) mid-row, the value the SIMD kernel's lanes start
        // at for nanmax (nanmin): the result is that infinity, not NaN.
        for (index_t c = 0; c < cols; ++c) {
            const bool mid = c == cols / 2;
            a.data()[2 * cols + c] =
                mid ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::quiet_NaN();
            a.data()[3 * cols + c] =
                mid ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::quiet_NaN();
        }
        const tensor<T> at = fusor::eval(fusor::transpose(a));
        const tensor<T> got =
            greater ? fusor::eval(fusor::nanmax(a, 1)) : fusor::eval(fusor::nanmin(a, 1));
        const tensor<T> got_t = greater ? fusor::eval(fusor::nanmax(fusor::transpose(at), 1))
                                        : fusor::eval(fusor::nanmin(fusor::transpose(at), 1));
        for (index_t r = 0; r < rows; ++r) {
            T want = std::numeric_limits<T>::quiet_NaN();
            for (index_t c = 0; c < cols; ++c) {
                const T v = a.data()[r * cols + c];
                if (!std::isnan(v) && (std::isnan(want) || (greater ? v > want : v < want)))
                    want = v;
            }
            INFO("cols ", cols, " row ", r);
            if (std::isnan(want)) {
                CHECK(std::isnan(got.data()[r]));
                CHECK(std::isnan(got_t.data()[r]));
            } else {
                CHECK(got.data()[r] == want);
                CHECK(got_t.data()[r] == want);
            }
        }
    }
}

TEST_CASE("nanmax and nanmin over rows of 1 to 100: NaNs in any lane, all-NaN rows") {
    check_rows_any_lane<float>(true);
    check_rows_any_lane<float>(false);
    check_rows_any_lane<double>(true);
    check_rows_any_lane<double>(false);
}

TEST_CASE("expressions and views give what their evaluated tensors give") {
    tensor<double> a = {{3, NaN, -1, 7}, {NaN, 2, 2, NaN}, {5, 5, NaN, -Inf}};
    const tensor<double> t = fusor::eval(fusor::transpose(a) * 2.0);
    // nanargmin/nanargmax evaluate an expression operand once, then search it.
    CHECK(same_values(fusor::nanargmin(fusor::transpose(a) * 2.0, 1), fusor::nanargmin(t, 1)));
    CHECK(same_values(fusor::nanargmax(fusor::transpose(a) * 2.0), fusor::nanargmax(t)));
    CHECK(same_values(fusor::nanargmin(fusor::transpose(a), 0, fusor::keepdims),
                      fusor::nanargmin(fusor::eval(fusor::transpose(a)), 0, fusor::keepdims)));
    CHECK(same_values(fusor::nancumsum(fusor::transpose(a) * 2.0, 0), fusor::nancumsum(t, 0)));
    CHECK(same_values(fusor::nancumprod(fusor::transpose(a) * 2.0), fusor::nancumprod(t)));
    CHECK(same_values(fusor::eval(fusor::nanmax(fusor::transpose(a) * 2.0, 1)),
                      fusor::eval(fusor::nanmax(t, 1))));
    CHECK(same_values(fusor::eval(fusor::nanvar(fusor::transpose(a), {0})),
                      fusor::eval(fusor::nanvar(fusor::eval(fusor::transpose(a)), {0}))));
    // The all-NaN check runs on the expression's values too, before anything is returned.
    tensor<double> rows = {{1, NaN}, {NaN, NaN}};
    CHECK_THROWS_AS(fusor::nanargmax(rows * 1.0, 1), fusor::value_error);
    CHECK_THROWS_AS(fusor::nanargmax(rows * 1.0, 2), fusor::axis_error);
    CHECK(same_values(fusor::nanargmax(rows * 1.0), tensor<std::int64_t>(shape_t{}))); // flat: 0
    // The value NumPy documents as untrustworthy, reproduced: NaN counts as +Inf in nanargmin.
    CHECK(same_values(fusor::nanargmin(tensor<double>{NaN, Inf}), tensor<std::int64_t>(shape_t{})));
}
