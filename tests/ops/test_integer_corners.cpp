// Integer corners against NumPy, exhaustively: for each integer dtype, every pair of corner
// values (min, -1, 0, 1, max, ...) through + - * // % << >> ** and float64 → T casts, compared
// with what NumPy computed (tests/ops/corners_reference.py writes the table before this test
// runs). Division by zero, INT_MIN // -1, overflow and over-wide shifts are all in the grid; the
// sanitizer build runs this under -fsanitize=undefined, which proves none of them is undefined
// behaviour in C++.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace {
struct line {
    std::string result_dtype;
    std::vector<std::string> values; // as NumPy printed them (integers, or floats for inputs)
};

// (dtype, op) → line, read once.
const std::map<std::pair<std::string, std::string>, line>& reference() {
    static const auto table = [] {
        std::map<std::pair<std::string, std::string>, line> t;
        std::ifstream in(FUSOR_BINARY_DIR "/tests/corners/corners_reference.txt");
        REQUIRE_MESSAGE(in.good(), "run the ctest fixture ops.corners_reference first");
        std::string text;
        while (std::getline(in, text)) {
            std::istringstream s(text);
            std::string dtype, op;
            line l;
            s >> dtype >> op >> l.result_dtype;
            for (std::string v; s >> v;)
                l.values.push_back(v);
            t[{dtype, op}] = std::move(l);
        }
        return t;
    }();
    return table;
}

template <class T>
std::vector<T> parse(const std::vector<std::string>& text) {
    std::vector<T> out;
    for (const auto& v : text) {
        if constexpr (std::is_floating_point_v<T>)
            out.push_back(static_cast<T>(std::stod(v)));
        else if constexpr (std::is_signed_v<T>)
            out.push_back(static_cast<T>(std::stoll(v)));
        else
            out.push_back(static_cast<T>(std::stoull(v)));
    }
    return out;
}

template <class T>
fusor::tensor<T> column(const std::vector<T>& v) {
    fusor::tensor<T> t(fusor::shape_t{static_cast<fusor::index_t>(v.size()), 1});
    std::copy(v.begin(), v.end(), t.begin());
    return t;
}
template <class T>
fusor::tensor<T> row(const std::vector<T>& v) {
    fusor::tensor<T> t(fusor::shape_t{1, static_cast<fusor::index_t>(v.size())});
    std::copy(v.begin(), v.end(), t.begin());
    return t;
}

// Compares fusor's grid with NumPy's line for (dtype of T, op), element by element, naming
// the operands of the first few mismatches.
template <class T, class E>
void check_grid(const std::string& dt,
                const std::string& op,
                const E& e,
                const std::vector<T>& a,
                const std::vector<T>& b) {
    const line& want = reference().at({dt, op});
    using R = fusor::value_type_t<E>;
    CHECK_MESSAGE(fusor::dtype_name<R>() == want.result_dtype, dt << ' ' << op);
    const auto got = fusor::eval(e);
    const auto expected = parse<R>(want.values);
    REQUIRE(static_cast<std::size_t>(got.size()) == expected.size());
    int shown = 0;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        const R g = got.begin()[k];
        if (g != expected[k] && shown++ < 5) {
            const auto i = k / b.size(), j = k % b.size();
            FAIL_CHECK(dt << ": " << +a[i] << ' ' << op << ' ' << +b[j] << " gave " << +g
                          << ", NumPy " << +expected[k]);
        }
    }
    CHECK_MESSAGE(shown == 0, dt << ' ' << op << ": " << shown << " mismatches");
}

template <class T>
void check_dtype() {
    const std::string dt(fusor::dtype_name<T>());
    const auto c = parse<T>(reference().at({dt, "corners"}).values);
    const auto a = column(c), b = row(c);
    check_grid<T>(dt, "+", a + b, c, c);
    check_grid<T>(dt, "-", a - b, c, c);
    check_grid<T>(dt, "*", a * b, c, c);
    check_grid<T>(dt, "//", fusor::floor_divide(a, b), c, c);
    check_grid<T>(dt, "%", a % b, c, c);
    check_grid<T>(dt, "<<", a << b, c, c);
    check_grid<T>(dt, ">>", a >> b, c, c);
    check_grid<T>(dt, "fmod", fusor::fmod(a, b), c, c);
    const auto e = parse<T>(reference().at({dt, "exponents"}).values);
    check_grid<T>(dt, "**", fusor::power(a, row(e)), c, e);

    const auto inputs = parse<double>(reference().at({dt, "cast_inputs"}).values);
    const auto x = row(inputs);
    check_grid<double>(dt, "cast", fusor::cast<T>(x), {0.0}, inputs);
}
} // namespace

TEST_CASE_TEMPLATE("integer corners match NumPy",
                   T,
                   std::int8_t,
                   std::int16_t,
                   std::int32_t,
                   std::int64_t,
                   std::uint8_t,
                   std::uint16_t,
                   std::uint32_t,
                   std::uint64_t) {
    check_dtype<T>();
}

TEST_CASE("a negative integer exponent throws value_error, from a scalar at once") {
    fusor::tensor<std::int32_t> a = {2, 3};
    CHECK_THROWS_AS((void)fusor::power(a, -1), fusor::value_error);
    fusor::tensor<std::int32_t> out = {7, 7};
    fusor::tensor<std::int32_t> exps = {1, -1};
    CHECK_THROWS_WITH_AS(out = fusor::power(a, exps),
                         "Integers to negative integer powers are not allowed.",
                         fusor::value_error);
    // Floats raise nothing: 2.0 ** -1 is 0.5.
    CHECK(fusor::eval(fusor::power(fusor::cast<double>(a), -1))(0) == 0.5);
}

TEST_CASE("round(e, decimals) at the int64 extremes of decimals: NumPy's limits, no overflow") {
    // Every |decimals| past 308 makes 10^|decimals| inf, so NumPy's round gives NaN for every
    // float (x * inf / inf, x / inf * inf) and the NaN cast for integers: INT64_MIN and INT64_MAX
    // must give what 400 and -400 give (NumPy: np.round(a, ±400)), and computing -INT64_MIN must
    // not happen (this suite runs under -fsanitize=undefined).
    const fusor::tensor<double> x = {1.5, -2.5, 0.0, 1e300};
    for (const std::int64_t d : {std::numeric_limits<std::int64_t>::min(),
                                 std::int64_t{-400},
                                 std::int64_t{400},
                                 std::numeric_limits<std::int64_t>::max()}) {
        CAPTURE(d);
        const auto r = fusor::eval(fusor::round(x, d));
        for (std::int64_t i = 0; i < 4; ++i)
            CHECK(std::isnan(r(i)));
    }
    // Integers: NaN cast back, as NumPy 1.24 on x86-64 (np.round(int8([25, 127]), -400) is
    // [0, 0]; int64's is INT64_MIN).
    const fusor::tensor<std::int8_t> i8 = {25, 127};
    const auto r8 = fusor::eval(fusor::round(i8, std::numeric_limits<std::int64_t>::min()));
    CHECK(r8(0) == 0);
    CHECK(r8(1) == 0);
    const fusor::tensor<std::int64_t> i64 = {25};
    CHECK(fusor::eval(fusor::round(i64, std::numeric_limits<std::int64_t>::min()))(0)
          == std::numeric_limits<std::int64_t>::min());
    // Positive decimals leave integers unchanged, however large.
    CHECK(fusor::eval(fusor::round(i8, std::numeric_limits<std::int64_t>::max()))(1) == 127);
}
