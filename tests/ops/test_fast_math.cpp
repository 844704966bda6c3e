// FUSOR_FAST_MATH (ops/vector_forms.hpp): the functions of FUSOR_VECTOR_FUNCTIONS_FAST run
// SLEEF's 3.5-ulp forms and stay within 3.5 ulp; exp, expm1 and log10 (no such form) within 1;
// explain names the accuracy of each. Errors are measured against the function in a wider
// type (double for float32, long double for float64), in units in the last place of the
// result's type, over inputs spread across each function's domain. Skipped without SLEEF.
#define FUSOR_FAST_MATH 1

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

namespace {

// `n` values from lo to hi: evenly spaced, or evenly spaced in log scale for `log_scale` (lo > 0).
template <class T>
fusor::tensor<T> spread(double lo, double hi, fusor::index_t n, bool log_scale) {
    fusor::tensor<T> t = fusor::zeros<T>({n});
    for (fusor::index_t i = 0; i < n; ++i) {
        const double f = static_cast<double>(i) / static_cast<double>(n - 1);
        t.data()[i] = static_cast<T>(log_scale ? lo * std::pow(hi / lo, f) : lo + (hi - lo) * f);
    }
    return t;
}

// |got - exact| in units in the last place of T at `exact`.
template <class T, class W>
double ulps(T got, W exact) {
    if (std::isnan(got) && std::isnan(exact))
        return 0;
    const T rounded = static_cast<T>(exact);
    if (std::isinf(rounded))
        return got == rounded ? 0 : std::numeric_limits<double>::infinity();
    const T a = std::fabs(rounded);
    const W spacing =
        static_cast<W>(std::nextafter(a, std::numeric_limits<T>::infinity())) - static_cast<W>(a);
    return static_cast<double>(std::fabs(static_cast<W>(got) - exact) / spacing);
}

// The largest error of `f` (fusor's) against `exact` (in the wider type W) over `x`.
template <class T, class W, class F, class Exact>
double max_ulps(const fusor::tensor<T>& x, F f, Exact exact) {
    const fusor::tensor<T> y = f(x);
    double worst = 0;
    for (fusor::index_t i = 0; i < x.size(); ++i)
        worst = std::max(worst, ulps<T, W>(y.data()[i], exact(static_cast<W>(x.data()[i]))));
    return worst;
}

struct domain {
    double lo, hi;
    bool log_scale;
};

template <class T, class W>
void check_bounds() {
    using namespace fusor;
    const index_t n = 200003;
    auto check = [&](const std::string& name, domain d, double bound, auto f, auto exact) {
        const double worst = max_ulps<T, W>(spread<T>(d.lo, d.hi, n, d.log_scale), f, exact);
        MESSAGE(name << " " << dtype_name<T>() << ": at most " << worst << " ulp");
        CHECK_MESSAGE(worst <= bound, name << ": " << worst << " ulp, bound " << bound);
    };
    // The 3.5-ulp forms.
    const double fast = 3.5;
    check(
        "sin",
        {-1000, 1000, false},
        fast,
        [](const auto& x) { return eval(sin(x)); },
        [](W v) { return std::sin(v); });
    check(
        "cos",
        {-1000, 1000, false},
        fast,
        [](const auto& x) { return eval(cos(x)); },
        [](W v) { return std::cos(v); });
    check(
        "tan",
        {-100, 100, false},
        fast,
        [](const auto& x) { return eval(tan(x)); },
        [](W v) { return std::tan(v); });
    check(
        "log",
        {1e-30, 1e30, true},
        fast,
        [](const auto& x) { return eval(log(x)); },
        [](W v) { return std::log(v); });
    check(
        "log2",
        {1e-30, 1e30, true},
        fast,
        [](const auto& x) { return eval(log2(x)); },
        [](W v) { return std::log2(v); });
    check(
        "exp2",
        {-120, 120, false},
        fast,
        [](const auto& x) { return eval(exp2(x)); },
        [](W v) { return std::exp2(v); });
    check(
        "cbrt",
        {-1e6, 1e6, false},
        fast,
        [](const auto& x) { return eval(cbrt(x)); },
        [](W v) { return std::cbrt(v); });
    check(
        "arcsin",
        {-1, 1, false},
        fast,
        [](const auto& x) { return eval(arcsin(x)); },
        [](W v) { return std::asin(v); });
    check(
        "arccos",
        {-1, 1, false},
        fast,
        [](const auto& x) { return eval(arccos(x)); },
        [](W v) { return std::acos(v); });
    check(
        "arctan",
        {-1e4, 1e4, false},
        fast,
        [](const auto& x) { return eval(arctan(x)); },
        [](W v) { return std::atan(v); });
    check(
        "tanh",
        {-20, 20, false},
        fast,
        [](const auto& x) { return eval(tanh(x)); },
        [](W v) { return std::tanh(v); });
    // No 3.5-ulp form: still SLEEF's 1-ulp one.
    check(
        "exp",
        {-80, 80, false},
        1.0,
        [](const auto& x) { return eval(exp(x)); },
        [](W v) { return std::exp(v); });
    check(
        "expm1",
        {-80, 80, false},
        1.0,
        [](const auto& x) { return eval(expm1(x)); },
        [](W v) { return std::expm1(v); });
    check(
        "log10",
        {1e-30, 1e30, true},
        1.0,
        [](const auto& x) { return eval(log10(x)); },
        [](W v) { return std::log10(v); });
}

} // namespace

TEST_CASE("FUSOR_FAST_MATH keeps every function within its bound, float32"
          * doctest::skip(!FUSOR_VECTOR_MATH)) {
    check_bounds<float, double>();
}

TEST_CASE("FUSOR_FAST_MATH keeps every function within its bound, float64"
          * doctest::skip(!FUSOR_VECTOR_MATH)) {
    check_bounds<double, long double>();
}

TEST_CASE("explain names the 3.5-ulp functions" * doctest::skip(!FUSOR_VECTOR_MATH)) {
    using namespace fusor;
    const tensor<float> a = zeros<float>({64}), b = zeros<float>({64});
    const std::string text = explain_text::one_line(explain(exp(a) * sin(b)).text());
    CHECK(text.find("exp by SLEEF (") != std::string::npos);
    CHECK(text.find(", 1 ulp); sin by SLEEF (") != std::string::npos);
    CHECK(text.find(", 3.5 ulp)") != std::string::npos);
    CHECK(fast_vector_form("sin"));
    CHECK_FALSE(fast_vector_form("exp"));
    CHECK_FALSE(fast_vector_form("sqrt"));
}
