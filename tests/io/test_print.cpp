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
