// tests/stats/test_quantile.cpp: median, percentile, quantile (and nan- forms), partition and
// argpartition against NumPy 1.24. The cases are data: quantile_reference.py (ctest fixture
// stats.quantile_reference) writes random shapes, inputs, parameters and NumPy's results, and
// one loop here runs them for six element types. Values must be bit-equal (NaN equals NaN):
// fusor follows NumPy's arithmetic step for step, so no tolerance is needed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/algo/partition.hpp>
#include <fusor/algo/quantile.hpp>
#include <fusor/fusor.hpp>

using fusor::index_t;
using fusor::shape_t;
using fusor::tensor;

namespace {

std::string cases_path() {
    if (const char* p = std::getenv("FUSOR_QUANTILE_CASES"))
        return p;
    return std::string(FUSOR_BINARY_DIR) + "/tests/stats/quantile_cases.txt";
}

std::vector<std::string> read_cases() {
    std::ifstream in(cases_path());
    REQUIRE_MESSAGE(in.good(), "missing " << cases_path() << ": run quantile_reference.py");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            lines.push_back(line);
    return lines;
}

struct tokens {
    std::istringstream in;
    explicit tokens(const std::string& s) : in(s) {}
    std::string next() {
        std::string t;
        in >> t;
        return t;
    }
    index_t integer() { return std::stoll(next()); }
    double real() { return std::strtod(next().c_str(), nullptr); }
    shape_t dims(index_t rank) {
        shape_t s;
        for (index_t k = 0; k < rank; ++k)
            s.push_back(integer());
        return s;
    }
    std::vector<std::string> words(index_t n) {
        std::vector<std::string> w;
        for (index_t k = 0; k < n; ++k)
            w.push_back(next());
        return w;
    }
};

template <class T>
T parse(const std::string& s) {
    if constexpr (std::is_floating_point_v<T>)
        return static_cast<T>(std::strtod(s.c_str(), nullptr));
    else if constexpr (std::is_signed_v<T>)
        return static_cast<T>(std::stoll(s));
    else
        return static_cast<T>(std::stoull(s));
}

template <class T>
tensor<T> make_tensor(const shape_t& shape, const std::vector<std::string>& data) {
    tensor<T> x(shape, fusor::uninitialized);
    for (std::size_t k = 0; k < data.size(); ++k)
        x.data()[k] = parse<T>(data[k]);
    return x;
}

bool same_bits(double a, double b) {
    if (a != a || b != b)
        return a != a && b != b;
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// What a call gave: an error type, or a result's dtype, shape and values (as double).
struct outcome {
    std::string error, dtype;
    shape_t shape;
    std::vector<double> values;
};

template <class R>
outcome capture(const tensor<R>& r) {
    outcome o;
    o.dtype = std::string(fusor::dtype_name<R>());
    o.shape = r.shape();
    for (index_t k = 0; k < r.size(); ++k)
        o.values.push_back(static_cast<double>(r.data()[k]));
    return o;
}

template <class F>
outcome guarded(F&& f) {
    try {
        return f();
    } catch (const fusor::axis_error&) {
        return {"axis_error", {}, {}, {}};
    } catch (const fusor::index_error&) {
        return {"index_error", {}, {}, {}};
    } catch (const fusor::value_error&) {
        return {"value_error", {}, {}, {}};
    }
}

fusor::quantile_method method_named(const std::string& s) {
    using m = fusor::quantile_method;
    static const std::pair<const char*, m> names[] = {
        {"linear", m::linear},
        {"lower", m::lower},
        {"higher", m::higher},
        {"nearest", m::nearest},
        {"midpoint", m::midpoint},
        {"inverted_cdf", m::inverted_cdf},
        {"averaged_inverted_cdf", m::averaged_inverted_cdf},
        {"closest_observation", m::closest_observation},
        {"interpolated_inverted_cdf", m::interpolated_inverted_cdf},
        {"hazen", m::hazen},
        {"weibull", m::weibull},
        {"median_unbiased", m::median_unbiased},
        {"normal_unbiased", m::normal_unbiased},
    };
    for (const auto& [name, value] : names)
        if (s == name)
            return value;
    FAIL("unknown method " << s);
    return m::linear;
}

// One Q line of quantile_reference.py.
struct quantile_case {
    std::string fn, dtype;
    shape_t shape;
    char axis_kind = 'N';
    index_t axis = 0;
    shape_t axes;
    bool keepdims = false;
    char q_kind = '-';
    std::vector<double> q;
    std::string method;
    std::vector<std::string> data;
    std::string status, np_dtype;
    outcome expected;

    explicit quantile_case(const std::string& line) {
        tokens t(line);
        t.next(); // Q
        fn = t.next();
        dtype = t.next();
        shape = t.dims(t.integer());
        axis_kind = t.next()[0];
        if (axis_kind == 'I')
            axis = t.integer();
        else if (axis_kind == 'L')
            axes = t.dims(t.integer());
        keepdims = t.integer() == 1;
        q_kind = t.next()[0];
        if (q_kind == 'S')
            q.push_back(t.real());
        else if (q_kind == 'L')
            for (index_t n = t.integer(), k = 0; k < n; ++k)
                q.push_back(t.real());
        method = t.next();
        if (method == "-")
            method.clear();
        data = t.words(t.integer());
        status = t.next();
        if (status != "ok") {
            expected.error = status;
            return;
        }
        expected.dtype = t.next();
        expected.shape = t.dims(t.integer());
        for (index_t n = t.integer(), k = 0; k < n; ++k)
            expected.values.push_back(t.real());
    }
};

// Calls `f` in the form the case names: axes none / one integer / a shape_t, keepdims or not,
// the method passed or left to its default.
template <class F, class X, class... Q>
auto call(const F& f, const X& x, const quantile_case& c, const Q&... q) {
    auto with_axes = [&](const auto&... axis) {
        if constexpr (sizeof...(Q) == 0)
            return c.keepdims ? f(x, axis..., fusor::keepdims) : f(x, axis...);
        else {
            if (c.method.empty())
                return c.keepdims ? f(x, q..., axis..., fusor::keepdims) : f(x, q..., axis...);
            const fusor::quantile_method m = method_named(c.method);
            return c.keepdims ? f(x, q..., axis..., fusor::keepdims, m) : f(x, q..., axis..., m);
        }
    };
    if (c.axis_kind == 'N')
        return with_axes();
    if (c.axis_kind == 'I')
        return with_axes(c.axis);
    return with_axes(c.axes);
}

template <class T>
outcome run_quantile_case(const quantile_case& c, bool through_view) {
    const tensor<T> x = make_tensor<T>(c.shape, c.data);
    return guarded([&] {
        const fusor::quantiles q =
            c.q_kind == 'S' ? fusor::quantiles(c.q[0]) : fusor::quantiles(c.q);
        auto go = [&](const auto& input) {
            if (c.fn == "median")
                return capture(call(fusor::median, input, c));
            if (c.fn == "nanmedian")
                return capture(call(fusor::nanmedian, input, c));
            if (c.fn == "quantile")
                return capture(call(fusor::quantile, input, c, q));
            if (c.fn == "percentile")
                return capture(call(fusor::percentile, input, c, q));
            if (c.fn == "nanquantile")
                return capture(call(fusor::nanquantile, input, c, q));
            REQUIRE(c.fn == "nanpercentile");
            return capture(call(fusor::nanpercentile, input, c, q));
        };
        // A view is evaluated into a tensor first; a tensor is read in place.
        return through_view ? go(x.view()) : go(x);
    });
}

template <class F>
auto for_dtype(const std::string& dtype, F&& f) {
    if (dtype == "float32")
        return f(float{});
    if (dtype == "float64")
        return f(double{});
    if (dtype == "int32")
        return f(std::int32_t{});
    if (dtype == "int64")
        return f(std::int64_t{});
    if (dtype == "uint8")
        return f(std::uint8_t{});
    REQUIRE(dtype == "bool");
    return f(bool{});
}

bool is_discrete(const std::string& method) {
    return method == "lower" || method == "higher" || method == "nearest"
           || method == "inverted_cdf" || method == "closest_observation";
}

// Empty when `got` is what NumPy gave (see quantile_reference.py for the deliberate
// differences: the result type of discrete methods, nanquantile's q axis on empty input).
std::string compare(const quantile_case& c, const outcome& got) {
    const outcome& want = c.expected;
    if (!want.error.empty() || !got.error.empty())
        return want.error == got.error
                   ? ""
                   : "error: want '" + want.error + "', got '" + got.error + "'";
    if (!(got.shape == want.shape))
        return "shape: want " + fusor::to_string(want.shape) + ", got "
               + fusor::to_string(got.shape);
    const bool median_form = c.fn.find("median") != std::string::npos;
    if (median_form && got.dtype != want.dtype)
        return "dtype: want " + want.dtype + ", got " + got.dtype;
    if (!median_form) {
        if (got.dtype != "float64")
            return "dtype: got " + got.dtype;
        // NumPy's float64 holds for interpolating methods except where NumPy writes its NaN
        // in the input's type (a 0-d result of a lane with NaN, an all-NaN lane of nanquantile,
        // nanquantile of no element): then every value is NaN.
        const bool all_nan =
            std::all_of(want.values.begin(), want.values.end(), [](double v) { return v != v; });
        if (want.dtype != "float64" && !is_discrete(c.method) && !all_nan)
            return "numpy dtype " + want.dtype + " for an interpolating method";
    }
    // Among equal zeros of both signs the one a selection leaves at a position depends on the
    // algorithm (NumPy's introselect, std::nth_element); both are right. Zero signs are
    // compared only when the input holds one sign of zero.
    const bool both_zeros = std::find(c.data.begin(), c.data.end(), "-0x0.0p+0") != c.data.end()
                            && std::find(c.data.begin(), c.data.end(), "0x0.0p+0") != c.data.end();
    for (std::size_t k = 0; k < want.values.size(); ++k)
        if (!same_bits(want.values[k], got.values[k])
            && !(both_zeros && want.values[k] == 0 && got.values[k] == 0)) {
            std::ostringstream s;
            s.precision(17);
            s << "value " << k << ": want " << want.values[k] << ", got " << got.values[k];
            return s.str();
        }
    return "";
}

// numpy.sort's order: NaN after every number.
template <class T>
bool sorts_before(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        return a < b || (b != b && a == a);
    else
        return a < b;
}
template <class T>
bool same_value(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        if (a != a || b != b)
            return a != a && b != b;
    return a == b;
}

// One P line: partition / argpartition, checked by the property NumPy documents.
template <class T>
std::string run_partition_case(const std::string& line) {
    tokens t(line);
    t.next(); // P
    const std::string fn = t.next();
    t.next(); // dtype
    const shape_t shape = t.dims(t.integer());
    const index_t axis = t.integer();
    std::vector<index_t> kth;
    for (index_t n = t.integer(), k = 0; k < n; ++k)
        kth.push_back(t.integer());
    const tensor<T> x = make_tensor<T>(shape, t.words(t.integer()));
    const std::string status = t.next();
    const bool arg = fn == "argpartition";
    // Values after partitioning, and for argpartition the indices.
    tensor<T> values;
    tensor<std::int64_t> indices;
    const outcome o = guarded([&] {
        if (arg)
            indices = kth.size() == 1 ? fusor::argpartition(x, kth[0], axis)
                                      : fusor::argpartition(x, kth, axis);
        else
            values = kth.size() == 1 ? fusor::partition(x, kth[0], axis)
                                     : fusor::partition(x, kth, axis);
        return outcome{};
    });
    if (status != "ok" || !o.error.empty())
        return status == o.error ? "" : "error: want '" + status + "', got '" + o.error + "'";
    const std::vector<std::string> sorted_words = t.words(t.integer());
    std::vector<T> sorted;
    for (const auto& w : sorted_words)
        sorted.push_back(parse<T>(w));
    const shape_t s = x.rank() == 0 ? shape_t{1} : x.shape();
    const tensor<std::int64_t>& idx = indices;
    if ((arg ? idx.shape() : values.shape()) != s)
        return "shape";
    const index_t rank = s.rank(), a = axis < 0 ? axis + rank : axis;
    index_t outer = 1, n = s[static_cast<std::size_t>(a)], inner = 1;
    for (index_t k = 0; k < rank; ++k)
        (k < a ? outer : inner) *= k == a ? 1 : s[static_cast<std::size_t>(k)];
    for (index_t o2 = 0; o2 < outer; ++o2)
        for (index_t i = 0; i < inner; ++i) {
            const index_t first = o2 * n * inner + i;
            std::vector<T> lane(static_cast<std::size_t>(n)), want(lane);
            std::vector<bool> seen(static_cast<std::size_t>(n));
            for (index_t k = 0; k < n; ++k) {
                const index_t at = first + k * inner;
                want[static_cast<std::size_t>(k)] = sorted[static_cast<std::size_t>(at)];
                if (!arg) {
                    lane[static_cast<std::size_t>(k)] = values.data()[at];
                    continue;
                }
                const std::int64_t j = idx.data()[at];
                if (j < 0 || j >= n || seen[static_cast<std::size_t>(j)])
                    return "argpartition: not a permutation of the lane";
                seen[static_cast<std::size_t>(j)] = true;
                lane[static_cast<std::size_t>(k)] = x.data()[first + j * inner];
            }
            for (index_t k0 : n == 0 ? std::vector<index_t>{} : kth) { // NumPy checks no kth then
                const auto k = static_cast<std::size_t>(k0 < 0 ? k0 + n : k0);
                if (!same_value(lane[k], want[k]))
                    return "element kth=" + std::to_string(k0) + " not in sorted position";
                for (std::size_t j = 0; j < lane.size(); ++j)
                    if ((j < k && sorts_before(lane[k], lane[j]))
                        || (j > k && sorts_before(lane[j], lane[k])))
                        return "kth=" + std::to_string(k0) + ": element " + std::to_string(j)
                               + " on the wrong side";
            }
            std::sort(lane.begin(), lane.end(), [](T p, T q) { return sorts_before(p, q); });
            for (std::size_t j = 0; j < lane.size(); ++j)
                if (!same_value(lane[j], want[j]))
                    return "not a permutation of the lane";
        }
    return "";
}

std::string shorten(const std::string& line) {
    return line.size() > 400 ? line.substr(0, 400) + " ..." : line;
}

} // namespace

TEST_CASE("stats.quantile: NumPy's median, percentile, quantile and nan- forms (data cases)") {
    const std::vector<std::string> lines = read_cases();
    int checked = 0, failed = 0, views = 0;
    for (const std::string& line : lines) {
        if (line[0] != 'Q')
            continue;
        const quantile_case c(line);
        const bool through_view = checked % 4 == 3;
        views += through_view ? 1 : 0;
        const outcome got = for_dtype(
            c.dtype, [&](auto t) { return run_quantile_case<decltype(t)>(c, through_view); });
        const std::string why = compare(c, got);
        if (!why.empty() && ++failed <= 20)
            FAIL_CHECK(why << "\n  case: " << shorten(line));
        ++checked;
    }
    MESSAGE(checked << " quantile-family cases (" << views << " through a view), " << failed
                    << " failed");
    CHECK(failed == 0);
    CHECK(checked >= 350);
}

TEST_CASE("stats.quantile: partition and argpartition keep NumPy's documented property") {
    const std::vector<std::string> lines = read_cases();
    int checked = 0, failed = 0;
    for (const std::string& line : lines) {
        if (line[0] != 'P')
            continue;
        tokens t(line);
        t.next();
        t.next();
        const std::string why =
            for_dtype(t.next(), [&](auto v) { return run_partition_case<decltype(v)>(line); });
        if (!why.empty() && ++failed <= 20)
            FAIL_CHECK(why << "\n  case: " << shorten(line));
        ++checked;
    }
    MESSAGE(checked << " partition cases, " << failed << " failed");
    CHECK(failed == 0);
    CHECK(checked >= 100);
}

TEST_CASE("stats.quantile: call forms, options in any order, the API examples") {
    using fusor::quantile_method;
    const tensor<double> x = {{7, 1, 4, 2}, {3, 9, 8, 5}, {6, 0, 2, 2}};
    const tensor<double> m1 = fusor::median(x, 1);
    CHECK(m1.shape() == shape_t{3});
    CHECK(m1(0) == 3.0);
    CHECK(m1(1) == 6.5);
    CHECK(m1(2) == 2.0);
    CHECK(fusor::median(x, {0, 1}).shape() == shape_t{});
    CHECK(fusor::median(x, {0, 1})() == 3.5);
    CHECK(fusor::median(x, fusor::keepdims).shape() == shape_t{1, 1});
    CHECK(fusor::median(x, {}, fusor::keepdims).shape() == shape_t{3, 4});
    CHECK(fusor::median(x * 2.0, -1)(1) == 13.0); // an expression is evaluated first
    const tensor<double> p = fusor::percentile(x, 90.0, 0);
    CHECK(p.shape() == shape_t{4});
    const tensor<double> q = fusor::quantile(x, 0.25, 1, quantile_method::midpoint);
    CHECK(q(0) == 1.5); // between sorted[0] = 1 and sorted[1] = 2
    const auto ql = fusor::quantile(x, {0.0, 1.0}, {1}, fusor::keepdims, quantile_method::lower);
    const auto ql2 = fusor::quantile(x, {0.0, 1.0}, {1}, quantile_method::lower, fusor::keepdims);
    CHECK(ql.shape() == shape_t{2, 3, 1});
    CHECK(ql2.shape() == shape_t{2, 3, 1});
    CHECK(ql(0, 1, 0) == 3.0);
    CHECK(ql(1, 1, 0) == 9.0);
    CHECK(fusor::quantile(x, std::vector<double>{0.5}, 0).shape() == shape_t{1, 4});
    CHECK(fusor::percentile(x, {50}, shape_t{0, 1}).shape() == shape_t{1});
    const tensor<float> f = {1.5f, NAN, 0.5f};
    CHECK(fusor::nanmedian(f)() == 1.0f);
    CHECK(std::isnan(fusor::median(f)()));
    CHECK(fusor::nanpercentile(f, 100)() == 1.5);
    const tensor<int> k = fusor::partition(tensor<int>{3, 1, 2, 5, 4}, {1, 3});
    CHECK(k(1) == 2);
    CHECK(k(3) == 4);
    CHECK(fusor::argpartition(tensor<double>{3, 1, 2}, 0)(0) == 1);
}

TEST_CASE("stats.quantile: q as an array of any shape, as NumPy's n-d q") {
    // m = np.array([[1, 2, 3, 4], [5, 6, 7, 9.]]); np.quantile(m, [[.1, .5], [.9, 1.]], 1)
    const tensor<double> m = {{1, 2, 3, 4}, {5, 6, 7, 9}};
    const tensor<double> q = {{0.1, 0.5}, {0.9, 1.0}};
    const tensor<double> r = fusor::quantile(m, q, 1);
    CHECK(r.shape() == shape_t{2, 2, 2});
    const std::vector<double> want = {1.3, 5.3, 2.5, 6.5, 3.7, 8.4, 4.0, 9.0};
    for (index_t i = 0; i < r.size(); ++i) // NumPy's float64 results, to the bit
        CHECK(r.data()[i] == want[static_cast<std::size_t>(i)]);
    // np.quantile(m, np.linspace(0, 1, 3)) -> [1., 4.5, 9.]: an expression for q.
    const tensor<double> lin = fusor::quantile(m, fusor::linspace(0.0, 1.0, 3));
    CHECK(lin.shape() == shape_t{3});
    CHECK(lin(1) == 4.5);
    // np.percentile(m, np.array([25, 50], np.float32)) -> [2.75, 4.5]; a 0-d q is one number.
    const tensor<double> pf = fusor::percentile(m, tensor<float>{25.f, 50.f});
    CHECK(pf(0) == 2.75);
    CHECK(pf(1) == 4.5);
    tensor<double> half(shape_t{});
    half = 0.5;
    CHECK(fusor::quantile(m, half, 0).shape() == shape_t{4});
    CHECK(fusor::quantile(m, tensor<double>(shape_t{0}), 1).shape() == shape_t{0, 2});
    CHECK_THROWS_AS(fusor::quantile(m, tensor<double>{0.5, 1.5}), fusor::value_error);
}

TEST_CASE("stats.quantile: errors name the call") {
    const tensor<double> x = {{1, 2}, {3, 4}};
    CHECK_THROWS_AS(fusor::quantile(x, 1.5), fusor::value_error);
    CHECK_THROWS_AS(fusor::quantile(x, {0.5, NAN}), fusor::value_error);
    CHECK_THROWS_AS(fusor::percentile(x, -1.0), fusor::value_error);
    CHECK_THROWS_AS(fusor::median(x, 2), fusor::axis_error);
    CHECK_THROWS_AS(fusor::median(x, {0, -2}), fusor::value_error);
    CHECK_THROWS_AS(fusor::quantile(tensor<double>(shape_t{2, 0}), 0.5, 1), fusor::index_error);
    CHECK_THROWS_AS(fusor::quantile(tensor<bool>{true, false}, 0.5), fusor::value_error);
    CHECK(fusor::quantile(tensor<bool>{true, false}, 0.5, fusor::quantile_method::lower)() == 0);
    CHECK_THROWS_AS(fusor::partition(x, 2), fusor::value_error);
    CHECK_THROWS_AS(fusor::partition(x, -3, 0), fusor::value_error);
    CHECK_THROWS_AS(fusor::partition(x, std::vector<index_t>{}), fusor::value_error);
    CHECK_THROWS_AS(fusor::partition(x, 0, 2), fusor::axis_error);
    CHECK_THROWS_AS(fusor::partition(tensor<double>(), 0), fusor::axis_error);
    CHECK(fusor::argpartition(tensor<double>(), 0).shape() == shape_t{1});
    try {
        fusor::partition(tensor<int>{1, 2, 3, 4}, -5);
        FAIL("no exception");
    } catch (const fusor::value_error& e) {
        const std::string what = e.what();
        CHECK(what.find("-5") != std::string::npos); // the kth given
        CHECK(what.find("size 4") != std::string::npos);
    }
}

// detail::select_nth (the quickselect behind partition and median) on the patterns that break
// naive quickselects: sorted, reversed, all equal, few distinct values, organ pipe, random.
TEST_CASE("stats.quantile: select_nth places the kth element as a sort would") {
    std::uint64_t s = 99;
    auto next = [&] {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<index_t>(s >> 33);
    };
    int checked = 0;
    for (index_t n : {1, 2, 3, 16, 17, 18, 100, 129, 1000, 5000})
        for (int pattern = 0; pattern < 6; ++pattern)
            for (int round = 0; round < 4; ++round) {
                std::vector<std::int32_t> v(static_cast<std::size_t>(n));
                for (index_t i = 0; i < n; ++i)
                    v[static_cast<std::size_t>(i)] =
                        static_cast<std::int32_t>(pattern == 0   ? i
                                                  : pattern == 1 ? n - i
                                                  : pattern == 2 ? 7
                                                  : pattern == 3 ? next() % 3
                                                  : pattern == 4 ? std::min(i, n - i)
                                                                 : next() % 100000);
                std::vector<std::int32_t> sorted = v;
                std::sort(sorted.begin(), sorted.end());
                const index_t k = round == 0 ? 0 : round == 1 ? n - 1 : next() % n;
                fusor::detail::select_nth(v.data(), v.data() + k, v.data() + n);
                const auto kk = static_cast<std::size_t>(k);
                REQUIRE(v[kk] == sorted[kk]);
                for (std::size_t i = 0; i < v.size(); ++i)
                    REQUIRE((i < kk ? v[i] <= v[kk] : v[i] >= v[kk]));
                std::sort(v.begin(), v.end());
                REQUIRE(v == sorted);
                ++checked;
            }
    CHECK(checked == 240);
}

// Reduced axes that are not adjacent make a lane of several strided runs (an odometer over them;
// beyond 8 of them its digits live on the heap): rank 7 and rank 19 with every other axis
// reduced, against lanes gathered by hand.
TEST_CASE("stats.quantile: lanes over many separated axes") {
    for (index_t rank : {7, 19}) {
        shape_t shape, axes;
        for (index_t k = 0; k < rank; ++k) {
            shape.push_back(rank == 7 ? 3 : 2);
            if (k % 2 == 0)
                axes.push_back(k);
        }
        tensor<double> x(shape, fusor::uninitialized);
        for (index_t i = 0; i < x.size(); ++i)
            x.data()[i] = static_cast<double>((i * 7919) % 10007);
        const tensor<double> m = fusor::median(x, axes);
        const tensor<double> q = fusor::quantile(x, 0.3, axes);
        const fusor::strides_t st = fusor::row_major_strides(shape);
        index_t lanes = 1, n = 1;
        for (index_t k = 0; k < rank; ++k)
            (k % 2 == 0 ? n : lanes) *= shape[static_cast<std::size_t>(k)];
        REQUIRE(m.size() == lanes);
        for (index_t lane = 0; lane < lanes; ++lane) {
            std::vector<double> v;
            for (index_t j = 0; j < n; ++j) {
                // digits of `lane` go to the odd axes, digits of `j` to the even ones
                index_t off = 0, l = lane, r = j;
                for (index_t k = rank - 1; k >= 0; --k) {
                    const index_t e = shape[static_cast<std::size_t>(k)];
                    index_t& src = k % 2 == 0 ? r : l;
                    off += (src % e) * st[static_cast<std::size_t>(k)];
                    src /= e;
                }
                v.push_back(x.data()[off]);
            }
            std::sort(v.begin(), v.end());
            const std::size_t h = v.size() / 2;
            const double want = v.size() % 2 ? 0.0 + v[h] : (0.0 + v[h - 1] + v[h]) / 2;
            REQUIRE(m.data()[lane] == want);
            const double pos = static_cast<double>(n - 1) * 0.3;
            const auto lo = static_cast<std::size_t>(pos);
            REQUIRE(q.data()[lane] == fusor::detail::numpy_lerp(v[lo], v[lo + 1], pos - lo));
        }
    }
}

// Large lanes run on several threads (above parallel_threshold) and strided lanes are read
// in blocks: every layout and thread count must give the bits of one lane sorted alone.
TEST_CASE("stats.quantile: threads and strided lanes give each lane's own answer") {
    const index_t rows = 300, cols = 500;
    tensor<float> x(shape_t{rows, cols}, fusor::uninitialized);
    std::uint64_t s = 12345;
    for (index_t k = 0; k < x.size(); ++k) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x.data()[k] = static_cast<float>(static_cast<std::int64_t>(s >> 40) % 2001 - 1000) / 8;
    }
    auto lane_median = [](std::vector<float> v) {
        std::sort(v.begin(), v.end());
        const std::size_t h = v.size() / 2;
        return v.size() % 2 ? 0.0f + v[h] : (0.0f + v[h - 1] + v[h]) / 2.0f;
    };
    for (int threads : {1, 2}) {
        fusor::set_num_threads(threads);
        const tensor<float> by_row = fusor::median(x, 1), by_col = fusor::median(x, 0);
        const tensor<double> q = fusor::quantile(x, {0.1, 0.9}, 0);
        for (index_t r = 0; r < rows; ++r) {
            std::vector<float> lane(x.data() + r * cols, x.data() + (r + 1) * cols);
            REQUIRE(by_row(r) == lane_median(lane));
        }
        for (index_t c = 0; c < cols; ++c) {
            std::vector<float> lane;
            for (index_t r = 0; r < rows; ++r)
                lane.push_back(x(r, c));
            REQUIRE(by_col(c) == lane_median(lane));
            std::sort(lane.begin(), lane.end());
            // linear at q = 0.1 over 300 elements: position 29.900000000000002
            const double want = fusor::detail::numpy_lerp(lane[29], lane[30], 0.1 * 299 - 29);
            REQUIRE(q(0, c) == want);
        }
    }
    fusor::set_num_threads(2);
}
