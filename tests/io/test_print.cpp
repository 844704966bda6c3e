// Printing against NumPy's own text: every case of test_print_cases.hpp (written by
// print_reference.py from NumPy 1.24: str(a) and numpy.array2string(a, ...) under the case's
// options) is printed with array2string(t, options) and with `os << t` after
// set_print_options(options), as a tensor and, for rank >= 1, as views whose elements are laid
// out in reverse (negative strides) and in column-major order (the text depends only on the
// values). Then the options themselves: defaults, setting, errors.
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "test_print_cases.hpp"

using fusor::index_t;
using fusor::shape_t;
using print_reference::print_case;

namespace {

// Restores the process-wide options when a test ends, whatever it set.
struct options_guard {
    fusor::print_options saved = fusor::get_print_options();
    ~options_guard() { fusor::set_print_options(saved); }
};

// The values of a case in row-major order, as print_reference.py built them.
template <class T>
std::vector<T> case_values(const print_case& c) {
    const auto n = static_cast<std::size_t>(fusor::shape_size(c.shape));
    std::vector<T> v;
    v.reserve(n);
    if (c.seed != 0) { // print_reference.py's lcg()
        std::uint64_t state = c.seed;
        for (std::size_t k = 0; k < n; ++k) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const std::uint64_t bits = state >> 11;
            if constexpr (std::is_same_v<T, bool>)
                v.push_back((bits & 1) != 0);
            else if constexpr (std::is_floating_point_v<T>)
                v.push_back(
                    static_cast<T>((std::ldexp(static_cast<double>(bits), -53) - 0.5) * c.scale));
            else
                v.push_back(static_cast<T>(static_cast<std::uint64_t>(c.lo) + bits % c.span));
        }
        return v;
    }
    if constexpr (std::is_floating_point_v<T>) {
        for (double x : c.f)
            v.push_back(static_cast<T>(x));
    } else if constexpr (std::is_signed_v<T>) {
        for (std::int64_t x : c.i)
            v.push_back(static_cast<T>(x));
    } else {
        for (std::uint64_t x : c.u)
            v.push_back(static_cast<T>(x));
    }
    REQUIRE(v.size() == n);
    return v;
}

template <class P>
std::string streamed(const P& t) {
    std::ostringstream os;
    os << t;
    return os.str();
}

// array2string and `os << x` of one tensor or view against both NumPy strings.
template <class P>
int check_printed(const P& x, const print_case& c, const char* layout) {
    int failures = 0;
    const std::string a2s = fusor::array2string(x, c.options);
    fusor::set_print_options(c.options);
    const std::string str = streamed(x);
    if (a2s != c.array2string) {
        ++failures;
        FAIL_CHECK(std::string(c.name) << " (" << layout << "): array2string\n"
                                       << a2s << "\nNumPy:\n"
                                       << std::string(c.array2string));
    }
    if (str != c.str) {
        ++failures;
        FAIL_CHECK(std::string(c.name) << " (" << layout << "): os << t\n"
                                       << str << "\nNumPy str(a):\n"
                                       << std::string(c.str));
    }
    return failures;
}

template <class T>
int check_case(const print_case& c) {
    const std::vector<T> values = case_values<T>(c);
    fusor::tensor<T> t(c.shape);
    std::copy(values.begin(), values.end(), t.data());
    int failures = check_printed(t, c, "tensor");
    const index_t n = t.size();
    if (c.shape.empty() || n < 2)
        return failures;
    // The same values stored back to front, read through negative strides.
    fusor::tensor<T> reversed(shape_t{n});
    for (index_t k = 0; k < n; ++k)
        reversed.data()[n - 1 - k] = values[static_cast<std::size_t>(k)];
    fusor::strides_t negative = fusor::row_major_strides(c.shape);
    for (auto& s : negative)
        s = -s;
    failures += check_printed(
        fusor::adapt(reversed.data() + (n - 1), c.shape, negative), c, "reversed view");
    // Stored column-major (the first index fastest), read through column-major strides.
    if (c.shape.size() >= 2) {
        fusor::strides_t column(c.shape.size());
        index_t acc = 1;
        for (std::size_t a = 0; a < c.shape.size(); ++a) {
            column[a] = acc;
            acc *= c.shape[a];
        }
        const fusor::strides_t row = fusor::row_major_strides(c.shape);
        fusor::tensor<T> storage(shape_t{n});
        std::vector<index_t> index(c.shape.size(), 0);
        for (index_t k = 0; k < n; ++k) {
            index_t offset = 0, rest = k;
            for (std::size_t a = 0; a < c.shape.size(); ++a) {
                offset += (rest / row[a]) * column[a];
                rest %= row[a];
            }
            storage.data()[offset] = values[static_cast<std::size_t>(k)];
        }
        failures +=
            check_printed(fusor::adapt(storage.data(), c.shape, column), c, "column-major view");
    }
    return failures;
}

int check_case_of_dtype(const print_case& c) {
    const std::string d = c.dtype;
    if (d == "bool")
        return check_case<bool>(c);
    if (d == "int8")
        return check_case<std::int8_t>(c);
    if (d == "int16")
        return check_case<std::int16_t>(c);
    if (d == "int32")
        return check_case<std::int32_t>(c);
    if (d == "int64")
        return check_case<std::int64_t>(c);
    if (d == "uint8")
        return check_case<std::uint8_t>(c);
    if (d == "uint16")
        return check_case<std::uint16_t>(c);
    if (d == "uint32")
        return check_case<std::uint32_t>(c);
    if (d == "uint64")
        return check_case<std::uint64_t>(c);
    if (d == "float32")
        return check_case<float>(c);
    if (d == "float64")
        return check_case<double>(c);
    FAIL("unknown dtype " << d);
    return 1;
}

} // namespace

TEST_CASE("printing matches NumPy for every generated case") {
    options_guard guard;
    REQUIRE(print_reference::cases.size() > 700);
    int failures = 0;
    for (const print_case& c : print_reference::cases)
        failures += check_case_of_dtype(c);
    CHECK(failures == 0);
}

TEST_CASE("the brief's examples") {
    options_guard guard;
    fusor::set_print_options({});
    CHECK(streamed(fusor::tensor<double>{1e-6, 0.5, 0.25}) == "[1.0e-06 5.0e-01 2.5e-01]");
    CHECK(streamed(fusor::tensor<float>{-0.55264729f, 0.5f}) == "[-0.5526473  0.5      ]");
    fusor::tensor<double> x(shape_t{});
    x.data()[0] = 0.9921580365105283;
    CHECK(streamed(x) == "0.9921580365105283");
    CHECK(fusor::array2string(x) == "0.99215804");
}

TEST_CASE("print options: defaults, set and get, and what is refused") {
    options_guard guard;
    fusor::set_print_options({});
    const fusor::print_options d = fusor::get_print_options();
    CHECK(d.precision == 8);
    CHECK(d.threshold == 1000);
    CHECK(d.edgeitems == 3);
    CHECK(d.linewidth == 75);
    CHECK(d.suppress == false);

    fusor::tensor<double> t{0.123456, 1.0};
    CHECK(streamed(t) == "[0.123456 1.      ]");
    fusor::set_print_options({.precision = 3});
    CHECK(fusor::get_print_options().precision == 3);
    CHECK(streamed(t) == "[0.123 1.   ]");
    // An explicit options argument wins over the current options.
    CHECK(fusor::array2string(t, {}) == "[0.123456 1.      ]");
    CHECK(fusor::array2string(t) == "[0.123 1.   ]");

    CHECK_THROWS_AS(fusor::set_print_options({.precision = -1}), fusor::value_error);
    CHECK_THROWS_AS(fusor::set_print_options({.edgeitems = -1}), fusor::value_error);
    CHECK(fusor::get_print_options().precision == 3); // unchanged by the refused calls
    CHECK_THROWS_AS(fusor::array2string(t, {.precision = -2}), fusor::value_error);
}

TEST_CASE("docs/printing.md examples") {
    options_guard guard;
    fusor::set_print_options({});
    using fusor::array2string;
    using fusor::tensor;
    CHECK(streamed(tensor<std::int32_t>{{1, -20}, {300, 4}}) == "[[  1 -20]\n [300   4]]");
    CHECK(streamed(tensor<bool>{{true, false}, {false, true}})
          == "[[ True False]\n [False  True]]");
    CHECK(streamed(tensor<double>{0.5, -1.25, 10.0}) == "[ 0.5  -1.25 10.  ]");
    CHECK(streamed(tensor<double>{1e8, 1.0}) == "[1.e+08 1.e+00]");
    CHECK(streamed(tensor<double>{1.0, 1001.0}) == "[1.000e+00 1.001e+03]");
    CHECK(streamed(tensor<double>{std::nan(""), -INFINITY, 1.5}) == "[ nan -inf  1.5]");
    CHECK(streamed(tensor<double>{-0.0, 1.0}) == "[-0.  1.]");
    CHECK(array2string(tensor<double>{0.125, 0.375}, {.precision = 2}) == "[0.12 0.38]");

    tensor<std::int64_t> cube(shape_t{2, 2, 3});
    for (index_t k = 0; k < cube.size(); ++k)
        cube.data()[k] = k;
    CHECK(streamed(cube) == "[[[ 0  1  2]\n  [ 3  4  5]]\n\n [[ 6  7  8]\n  [ 9 10 11]]]");

    tensor<double> quarters(shape_t{30});
    for (index_t k = 0; k < 30; ++k)
        quarters.data()[k] = static_cast<double>(k) / 4;
    CHECK(streamed(quarters)
          == "[0.   0.25 0.5  0.75 1.   1.25 1.5  1.75 2.   2.25 2.5  2.75 3.   3.25\n"
             " 3.5  3.75 4.   4.25 4.5  4.75 5.   5.25 5.5  5.75 6.   6.25 6.5  6.75\n"
             " 7.   7.25]");

    tensor<std::int64_t> blocks(shape_t{8, 2, 100});
    for (index_t k = 0; k < blocks.size(); ++k)
        blocks.data()[k] = k;
    CHECK(streamed(blocks)
          == "[[[   0    1    2 ...   97   98   99]\n"
             "  [ 100  101  102 ...  197  198  199]]\n"
             "\n"
             " [[ 200  201  202 ...  297  298  299]\n"
             "  [ 300  301  302 ...  397  398  399]]\n"
             "\n"
             " [[ 400  401  402 ...  497  498  499]\n"
             "  [ 500  501  502 ...  597  598  599]]\n"
             "\n"
             " ...\n"
             "\n"
             " [[1000 1001 1002 ... 1097 1098 1099]\n"
             "  [1100 1101 1102 ... 1197 1198 1199]]\n"
             "\n"
             " [[1200 1201 1202 ... 1297 1298 1299]\n"
             "  [1300 1301 1302 ... 1397 1398 1399]]\n"
             "\n"
             " [[1400 1401 1402 ... 1497 1498 1499]\n"
             "  [1500 1501 1502 ... 1597 1598 1599]]]");

    CHECK(streamed(tensor<double>(shape_t{2, 0})) == "[]");

    tensor<double> d(shape_t{});
    tensor<float> f(shape_t{});
    auto str0 = [&](double v) {
        d.data()[0] = v;
        return streamed(d);
    };
    auto str0f = [&](float v) {
        f.data()[0] = v;
        return streamed(f);
    };
    CHECK(str0(0.9921580365105283) == "0.9921580365105283");
    CHECK(str0f(0.9921580365105283f) == "0.99215806");
    CHECK(str0(1.0) == "1.0");
    CHECK(str0(-0.0) == "-0.0");
    CHECK(str0(1e20) == "1e+20");
    CHECK(str0(1e-5) == "1e-05");
    CHECK(str0(1e16) == "1e+16");
    CHECK(str0f(123456789.0f) == "123456790.0");
    CHECK(str0f(83726224.0f) == "83726220.0");
    CHECK(streamed(tensor<float>{83726224.0f}) == "[83726224.]");
    d.data()[0] = 0.9921580365105283;
    CHECK(array2string(d) == "0.99215804");

    const double pi = 3.141592653589793;
    CHECK(array2string(tensor<double>{pi, 1.0 / 3, 2.0}, {.precision = 3})
          == "[3.142 0.333 2.   ]");
    tensor<std::int64_t> ten(shape_t{10});
    tensor<double> twelve(shape_t{12});
    for (index_t k = 0; k < 12; ++k) {
        if (k < 10)
            ten.data()[k] = k;
        twelve.data()[k] = static_cast<double>(k);
    }
    CHECK(array2string(ten, {.threshold = 5, .edgeitems = 2}) == "[0 1 ... 8 9]");
    CHECK(array2string(twelve, {.linewidth = 30})
          == "[ 0.  1.  2.  3.  4.  5.  6.\n  7.  8.  9. 10. 11.]");
    CHECK(array2string(tensor<double>{1e-10, 1.0, 0.5}, {.suppress = true}) == "[0.  1.  0.5]");
    CHECK(array2string(tensor<double>{1e-10, 1.0, 0.5}) == "[1.e-10 1.e+00 5.e-01]");
    CHECK(
        array2string(tensor<double>{std::ldexp(1.0, 149), 1.234567890123456e-5}, {.precision = 16})
        == "[7.136238463529800e+44 1.234567890123456e-05]");
}
