// arange and linspace (tensor/factories.hpp) against NumPy 1.24.
// tests/tensor/factories_reference.py (the ctest fixture tensor.factories_reference) draws the
// calls over every dtype and NumPy's default, runs NumPy on them and writes each call with its
// answer (or the fusor exception NumPy's error maps to) to factories_expected.txt; this test
// reads them as data, makes the same call (a Python int as an int64 argument, a float as a
// double) and compares dtype, shape and every value exactly (NaN equals NaN).
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../numpy_data.hpp"

namespace {

using numpy_data::array_data;

struct test_case {
    std::string func;
    int id = 0;
    std::string dtype;               ///< the dtype asked for, or "none"
    std::vector<std::string> kinds;  ///< per argument: "i" (int64) or "f" (double)
    std::vector<std::string> values; ///< the arguments' text
    std::optional<array_data> out;   ///< NumPy's result
    std::string error;               ///< or the fusor exception expected
};

const std::vector<test_case>& cases() {
    static const std::vector<test_case> all = [] {
        std::ifstream in = numpy_data::open_cases("FUSOR_FACTORIES_EXPECTED",
                                                  "tests/tensor/factories_expected.txt",
                                                  "tensor.factories_reference");
        std::vector<test_case> out;
        for (const numpy_data::case_block& b : numpy_data::read_cases(in)) {
            std::optional<array_data> result;
            if (!b.results.empty())
                result = b.results.front().second;
            out.push_back(test_case{b.func,
                                    b.id,
                                    b.param("dtype").at(0),
                                    b.param("args"),
                                    b.param("values"),
                                    std::move(result),
                                    b.error});
        }
        return out;
    }();
    return all;
}

int compared = 0, errors_checked = 0;

// Calls `f` with argument `i` of `c` as C++ would pass it: a Python int as int64, a float as a
// double.
template <class F>
void with_arg(const test_case& c, std::size_t i, F&& f) {
    const std::string& v = c.values.at(i);
    if (c.kinds.at(i) == "i")
        f(static_cast<std::int64_t>(std::stoll(v)));
    else
        f(std::strtod(v.c_str(), nullptr));
}

// `make()`'s outcome against NumPy's: its result compared exactly, or the exception.
template <class Make>
void check_call(const test_case& c, Make make) {
    const bool threw = numpy_data::check_outcome(c.error, {}, [&] {
        const auto got = make();
        if (!c.out) // NumPy raised: check_outcome reports that nothing was thrown
            return;
        compared += static_cast<int>(numpy_data::check_exact(got, *c.out));
    });
    errors_checked += threw;
}

// T: the element type asked for, void for none (fusor's deduction, as NumPy's default).
template <class T>
void run_arange(const test_case& c) {
    const auto call = [&](auto... a) {
        check_call(c, [&] {
            if constexpr (std::is_void_v<T>)
                return fusor::arange(a...);
            else
                return fusor::arange<T>(a...);
        });
    };
    switch (c.kinds.size()) {
    case 1:
        with_arg(c, 0, [&](auto a) { call(a); });
        break;
    case 2:
        with_arg(c, 0, [&](auto a) { with_arg(c, 1, [&](auto b) { call(a, b); }); });
        break;
    case 3:
        with_arg(c, 0, [&](auto a) {
            with_arg(c, 1, [&](auto b) { with_arg(c, 2, [&](auto s) { call(a, b, s); }); });
        });
        break;
    default:
        FAIL("arange takes 1 to 3 arguments, the case has ", c.kinds.size());
    }
}

template <class T>
void run_linspace(const test_case& c) {
    REQUIRE((c.values.size() == 3 || c.values.size() == 4));
    const double start = std::strtod(c.values[0].c_str(), nullptr);
    const double stop = std::strtod(c.values[1].c_str(), nullptr);
    const fusor::index_t num = std::stoll(c.values[2]);
    const bool endpoint = c.values.size() == 3 || c.values[3] != "0"; // NumPy's endpoint=
    check_call(c, [&] {
        if constexpr (std::is_void_v<T>)
            return fusor::linspace(start, stop, num, endpoint);
        else
            return fusor::linspace<T>(start, stop, num, endpoint);
    });
}

template <class T>
void run(const test_case& c) {
    if (c.func == "arange")
        run_arange<T>(c);
    else if (c.func == "linspace")
        run_linspace<T>(c);
    else
        FAIL("unknown function ", c.func);
}

} // namespace

TEST_CASE("arange and linspace give NumPy's values, dtypes and errors") {
    const auto& all = cases();
    // The script draws 300 arange and 200 linspace calls besides its fixed ones: a file cut
    // short (or empty) fails here instead of passing with nothing compared.
    REQUIRE(all.size() >= 500);
    for (const test_case& c : all) {
        INFO(c.func, " case ", c.id, " dtype ", c.dtype);
        if (c.dtype == "none")
            run<void>(c);
        else
            numpy_data::with_dtype(c.dtype,
                                   [&](auto tag) { run<typename decltype(tag)::type>(c); });
    }
    MESSAGE(
        all.size(), " calls, ", compared, " values compared, ", errors_checked, " errors checked");
    CHECK(errors_checked >= 8); // the script's fixed error cases
    CHECK(compared >= 3000);
}
