// Vectorised math (SLEEF through exec/vector_math.hpp): exp, sin, log ... (every function
// vector_math.hpp vectorises) are within 2 ulp of the C library's std::exp, std::sin, std::log ...
// for float and double, over magnitudes from 1e-30 to 1e30 and the special values (±0, ±inf, NaN,
// subnormals, domain errors); and every layout (contiguous, broadcast, strided, transposed, a
// strided destination, a reduction's strided run) computes them the same way, so an element has
// the same bits whichever loop computes it. sqrt (the SIMD square-root instruction, with or
// without SLEEF) gives exactly std::sqrt's bits.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

using fusor::index_t;
using fusor::shape_t;

namespace {

// Distance in units in the last place: the number of representable values between a and b.
// Equal NaN-ness and equal infinities are 0 apart; a NaN against a number is "infinitely" far.
template <class T>
std::int64_t ulp_distance(T a, T b) {
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b) ? 0 : std::numeric_limits<std::int64_t>::max();
    if (a == b)
        return 0; // also +0 against -0, and equal infinities
    using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    auto ordered = [](T x) {
        const I i = std::bit_cast<I>(x);
        return i < 0 ? static_cast<std::int64_t>(std::numeric_limits<I>::min()) - i
                     : static_cast<std::int64_t>(i);
    };
    const std::int64_t d = ordered(a) - ordered(b);
    return d < 0 ? -d : d;
}

template <class T>
fusor::tensor<T> inputs() {
    std::vector<T> v;
    for (int e = -30; e <= 30; ++e)
        for (T m : {T(1), T(1.234567), T(3.1415926), T(7.77)}) {
            v.push_back(m * static_cast<T>(std::pow(10.0, e)));
            v.push_back(-m * static_cast<T>(std::pow(10.0, e)));
        }
    for (int i = -2000; i <= 2000; ++i)
        v.push_back(static_cast<T>(i) / T(100)); // [-20, 20] in steps of 0.01
    for (T x : {T(0),
                -T(0),
                T(1),
                -T(1),
                std::numeric_limits<T>::infinity(),
                -std::numeric_limits<T>::infinity(),
                std::numeric_limits<T>::quiet_NaN(),
                std::numeric_limits<T>::denorm_min(),
                std::numeric_limits<T>::min(),
                std::numeric_limits<T>::max(),
                std::numeric_limits<T>::lowest(),
                T(88.7),
                T(89),
                T(709.7),
                T(710),
                T(-103),
                T(-745)})
        v.push_back(x);
    fusor::tensor<T> t(shape_t{static_cast<index_t>(v.size())}, fusor::uninitialized);
    std::copy(v.begin(), v.end(), t.data());
    return t;
}

// fusor's f over x (a contiguous loop: the vectorised path) against `reference` per element.
template <class T, class F, class R>
void within_two_ulp(const std::string& name, F f, R reference) {
    CAPTURE(name);
    const fusor::tensor<T> x = inputs<T>();
    const fusor::tensor<T> y = fusor::eval(f(x));
    std::int64_t worst = 0;
    T worst_x = 0;
    for (index_t i = 0; i < x.size(); ++i) {
        const std::int64_t d = ulp_distance(y.data()[i], static_cast<T>(reference(x.data()[i])));
        if (d > worst) {
            worst = d;
            worst_x = x.data()[i];
        }
    }
    CAPTURE(worst_x);
    CHECK(worst <= 2);
}

template <class T>
void all_functions() {
    // clang-format off
    within_two_ulp<T>("exp",    [](const auto& x) { return fusor::exp(x); },    [](T v) { return std::exp(v); });
    within_two_ulp<T>("exp2",   [](const auto& x) { return fusor::exp2(x); },   [](T v) { return std::exp2(v); });
    within_two_ulp<T>("expm1",  [](const auto& x) { return fusor::expm1(x); },  [](T v) { return std::expm1(v); });
    within_two_ulp<T>("log",    [](const auto& x) { return fusor::log(x); },    [](T v) { return std::log(v); });
    within_two_ulp<T>("log2",   [](const auto& x) { return fusor::log2(x); },   [](T v) { return std::log2(v); });
    within_two_ulp<T>("log10",  [](const auto& x) { return fusor::log10(x); },  [](T v) { return std::log10(v); });
    within_two_ulp<T>("cbrt",   [](const auto& x) { return fusor::cbrt(x); },   [](T v) { return std::cbrt(v); });
    within_two_ulp<T>("sin",    [](const auto& x) { return fusor::sin(x); },    [](T v) { return std::sin(v); });
    within_two_ulp<T>("cos",    [](const auto& x) { return fusor::cos(x); },    [](T v) { return std::cos(v); });
    within_two_ulp<T>("tan",    [](const auto& x) { return fusor::tan(x); },    [](T v) { return std::tan(v); });
    within_two_ulp<T>("arcsin", [](const auto& x) { return fusor::arcsin(x); }, [](T v) { return std::asin(v); });
    within_two_ulp<T>("arccos", [](const auto& x) { return fusor::arccos(x); }, [](T v) { return std::acos(v); });
    within_two_ulp<T>("arctan", [](const auto& x) { return fusor::arctan(x); }, [](T v) { return std::atan(v); });
    within_two_ulp<T>("tanh",   [](const auto& x) { return fusor::tanh(x); },   [](T v) { return std::tanh(v); });
    // clang-format on
}

} // namespace

TEST_CASE("the vectorised math functions are within 2 ulp of the C library") {
#ifdef FUSOR_HAS_SLEEF
    // Built with SLEEF: the contiguous loops above really take the vectorised path.
    CHECK(fusor::exec::vector_function<fusor::ops::exp, float>::available);
    CHECK(fusor::exec::vector_function<fusor::ops::tanh, double>::available);
#endif
    SUBCASE("float32") {
        all_functions<float>();
    }
    SUBCASE("float64") {
        all_functions<double>();
    }
}

TEST_CASE("fused with other operations, broadcast and in blocks past one buffer") {
    // 3000 elements per row: three blocks of 1024, the last partial; a broadcast operand.
    fusor::tensor<float> a(shape_t{3, 3000}), b(shape_t{3, 1});
    for (index_t i = 0; i < a.size(); ++i)
        a.data()[i] = static_cast<float>(i % 1000) / 100.f - 5.f;
    b.data()[0] = 1.f;
    b.data()[1] = -2.f;
    b.data()[2] = 0.5f;
    const fusor::tensor<float> y = fusor::eval(fusor::exp(a * b) * fusor::sin(a) + 1.f);
    std::int64_t worst = 0;
    for (index_t r = 0; r < 3; ++r)
        for (index_t c = 0; c < 3000; ++c) {
            const float x = a.data()[r * 3000 + c];
            // exp and sin each within 2 ulp, then one multiply and one add: within 6 float eps
            // of (|exp * sin| + 1), in double.
            const double es = std::exp(double(x * b.data()[r])) * std::sin(double(x));
            const double err = std::abs(y.data()[r * 3000 + c] - (es + 1))
                               / ((std::abs(es) + 1) * std::numeric_limits<float>::epsilon());
            worst = std::max<std::int64_t>(worst, static_cast<std::int64_t>(err));
        }
    CHECK(worst <= 6);
}

TEST_CASE_TEMPLATE("a math function gives the same bits in every layout", T, float, double) {
    // (64, 3001): rows of three blocks of 1024 and a partial one when read every second column.
    fusor::tensor<T> a(shape_t{64, 3001});
    for (index_t i = 0; i < a.size(); ++i)
        a.data()[i] = static_cast<T>((i * 7919) % 20011) / T(1000) - T(10);
    auto every_second = fusor::view(a, fusor::all, fusor::slice(0, 3001, 2));
    const fusor::tensor<T> copy = every_second; // the same values, contiguous
    SUBCASE("a strided operand") {
        const fusor::tensor<T> strided = fusor::exp(every_second) * fusor::sin(every_second);
        CHECK(fusor::array_equal(strided, fusor::tensor<T>(fusor::exp(copy) * fusor::sin(copy))));
        const fusor::loop_plan p = fusor::explain(fusor::exp(every_second)).plan;
        CHECK(p.kernel == fusor::inner_kernel::strided);
        CHECK(p.vector_functions.empty() == !FUSOR_VECTOR_MATH);
    }
    SUBCASE("a transposed operand") {
        const fusor::tensor<T> transposed = fusor::exp(fusor::transpose(a));
        const fusor::tensor<T> stored = fusor::transpose(a);
        CHECK(fusor::array_equal(transposed, fusor::tensor<T>(fusor::exp(stored))));
    }
    SUBCASE("a strided destination") {
        fusor::tensor<T> wide(shape_t{64, 6002});
        wide = T(7);
        auto even = fusor::view(wide, fusor::all, fusor::slice(0, 6002, 2));
        even = fusor::log(fusor::abs(a) + T(1));
        CHECK(fusor::array_equal(fusor::tensor<T>(even),
                                 fusor::tensor<T>(fusor::log(fusor::abs(a) + T(1)))));
        CHECK(wide(0, 1) == T(7)); // the odd columns untouched
        CHECK(wide(63, 6001) == T(7));
    }
    SUBCASE("a sum over a strided run") {
        const fusor::tensor<T> strided = fusor::sum(fusor::exp(every_second * T(0.1)), 1);
        CHECK(fusor::array_equal(strided,
                                 fusor::tensor<T>(fusor::sum(fusor::exp(copy * T(0.1)), 1))));
    }
}

// The bits of x, to compare results exactly (NaN payloads included).
template <class T>
auto bits_of(T x) {
    return std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(x);
}

TEST_CASE_TEMPLATE("sqrt: the argument set gives std::sqrt's bits", T, float, double) {
    // With or without the SIMD square root: NaN for negative arguments, -0 for -0, +inf for
    // +inf, subnormals included.
    const fusor::tensor<T> x = inputs<T>();
    const fusor::tensor<T> y = fusor::sqrt(x);
    index_t differ = 0;
    for (index_t i = 0; i < x.size(); ++i) {
        const T want = std::sqrt(x.data()[i]), got = y.data()[i];
        differ += std::isnan(want) ? !std::isnan(got) : bits_of(want) != bits_of(got);
    }
    CHECK(differ == 0);
    CHECK(std::signbit(fusor::tensor<T>(fusor::sqrt(fusor::full<T>(shape_t{3}, -T(0))))(1)));
}

TEST_CASE_TEMPLATE("sqrt runs in SIMD registers, in every layout with the same bits"
                       * doctest::skip(!FUSOR_VECTOR_SQRT),
                   T,
                   float,
                   double) {
    // The square-root instruction rounds correctly, as std::sqrt does: the blocked kernel
    // computes it, and explain says so.
    const fusor::tensor<T> x = inputs<T>();
    CHECK(fusor::exec::vector_function<fusor::ops::sqrt, T>::available);
    const fusor::loop_plan p = fusor::explain(fusor::sqrt(x)).plan;
    REQUIRE(p.vector_functions.size() == 1);
    CHECK(p.vector_functions[0] == "sqrt");
    CHECK(explain_text::one_line(fusor::explain(fusor::sqrt(x)).text())
              .find("sqrt by SIMD sqrt (exact)")
          != std::string::npos);
    // Fused with other work, strided, inside a sum and transposed: the contiguous loop's bits.
    fusor::tensor<T> a(shape_t{64, 3001});
    for (index_t i = 0; i < a.size(); ++i)
        a.data()[i] = static_cast<T>((i * 7919) % 20011) / T(1000) - T(3);
    auto every_second = fusor::view(a, fusor::all, fusor::slice(0, 3001, 2));
    const fusor::tensor<T> copy = every_second;
    CHECK(fusor::array_equal(fusor::tensor<T>(fusor::sqrt(every_second * every_second + T(1))),
                             fusor::tensor<T>(fusor::sqrt(copy * copy + T(1)))));
    CHECK(fusor::array_equal(fusor::tensor<T>(fusor::sum(fusor::sqrt(fusor::abs(every_second)), 1)),
                             fusor::tensor<T>(fusor::sum(fusor::sqrt(fusor::abs(copy)), 1))));
    const fusor::tensor<T> stored = fusor::transpose(a);
    CHECK(fusor::array_equal(fusor::tensor<T>(fusor::sqrt(fusor::abs(fusor::transpose(a)))),
                             fusor::tensor<T>(fusor::sqrt(fusor::abs(stored)))));
}

TEST_CASE_TEMPLATE("a math function at the root is computed in the destination, and only there",
                   T,
                   float,
                   double) {
    // The blocked kernel computes a root exp or sqrt straight into the destination (no copy
    // from a buffer): a last partial register must not write past the loop's end, and an
    // in-place assignment must read each element before it is overwritten.
    for (const index_t n : {index_t{1}, index_t{5}, index_t{1024}, index_t{1029}, index_t{3001}}) {
        CAPTURE(n);
        fusor::tensor<T> x(shape_t{n});
        for (index_t i = 0; i < n; ++i)
            x.data()[i] = static_cast<T>(i % 37) / T(8);
        fusor::tensor<T> wide(shape_t{n + 20});
        wide = T(-7);
        auto head = fusor::view(wide, fusor::slice(0, n));
        head = fusor::exp(x);
        index_t wrong = 0;
        for (index_t i = 0; i < n; ++i)
            wrong += bits_of(wide.data()[i]) != bits_of(fusor::tensor<T>(fusor::exp(x)).data()[i]);
        CHECK(wrong == 0);
        for (index_t i = n; i < n + 20; ++i)
            CHECK(wide.data()[i] == T(-7)); // untouched past the view
        fusor::tensor<T> y = x;
        y = fusor::sqrt(y * T(2));
        for (index_t i = 0; i < n; ++i)
            wrong += bits_of(y.data()[i]) != bits_of(std::sqrt(x.data()[i] * T(2)));
        CHECK(wrong == 0);
        // Each row of a (3, n) destination (assigned through its view: broadcast into it, not
        // rebound to (1, n)): rows are separate inner loops, or one collapsed loop.
        fusor::tensor<T> rows(shape_t{3, n});
        rows.view() = fusor::sqrt(fusor::view(x, fusor::newaxis, fusor::all) + T(1));
        for (index_t r = 0; r < 3; ++r)
            for (index_t i = 0; i < n; ++i)
                wrong += bits_of(rows(r, i)) != bits_of(std::sqrt(x.data()[i] + T(1)));
        CHECK(wrong == 0);
    }
}
