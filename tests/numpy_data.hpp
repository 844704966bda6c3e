// Reading the arrays a NumPy reference script wrote for a test (tests/*/..._reference.py): each
// array is one line's tail, `dtype rank extent... value...`, values in row-major order as
// Python prints them (floats as repr(), bools as 0/1). Also what those suites share beside the
// arrays: the check of an outcome NumPy gave (a value, or an exception with message words) and
// the dispatch from a NumPy dtype name to a C++ type. Shared by the suites that read their
// cases as data (contract.numpy, toolbox.numpy, toolbox.shifting, stats.counting,
// tensor.factories); tests/numpy_cases.py is the writing side the scripts share.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace numpy_data {

/// The case file a reference script wrote: the path in environment variable `env` when set,
/// else `fallback` under the build tree; fails the test, naming the ctest fixture that writes
/// it, when it cannot be opened.
inline std::ifstream
open_cases(const char* env, const std::string& fallback, const std::string& fixture) {
    const char* p = std::getenv(env);
    std::ifstream in(p ? std::string(p) : std::string(FUSOR_BINARY_DIR) + "/" + fallback);
    REQUIRE_MESSAGE(in.good(),
                    "run the ctest fixture " << fixture << " first (or set " << std::string(env)
                                             << " to the file it wrote)");
    return in;
}

/// One array as written: its NumPy dtype name, shape and values (as text).
struct array_data {
    std::string dtype;
    fusor::shape_t shape;
    std::vector<std::string> values;
};

/// Reads `dtype rank extent... value...` from the rest of `s`; the value count must be the
/// shape's size.
inline array_data read_array(std::istringstream& s) {
    array_data a;
    fusor::index_t rank = 0;
    s >> a.dtype >> rank;
    for (fusor::index_t k = 0; k < rank; ++k) {
        fusor::index_t d = 0;
        s >> d;
        a.shape.push_back(d);
    }
    for (std::string v; s >> v;)
        a.values.push_back(v);
    REQUIRE(static_cast<fusor::index_t>(a.values.size()) == fusor::shape_size(a.shape));
    return a;
}

/// One case of a reference script's file, in the format the scripts share:
///
///     case <func> <id>
///     p <name> <token>...    a parameter (tokens may be none)
///     a <name> <array>       an operand (read_array's format)
///     e <name> <array>       a result
///     x <error>              the fusor exception expected instead
///     m <text>               ... whose what() contains <text>
///     <kind> <text>          any other line (a suite's own kinds): kept in order, as its kind
///                            and its text after the kind and a space
///     end
struct case_block {
    std::string func;
    int id = 0;
    std::map<std::string, std::vector<std::string>> params;
    std::vector<std::pair<std::string, array_data>> operands, results;
    std::string error;
    std::vector<std::string> needles;
    std::vector<std::pair<std::string, std::string>> other_lines;

    /// The text of the first line of kind `kind`, or "" when the case has none.
    std::string text(const std::string& kind) const {
        for (const auto& [k, t] : other_lines)
            if (k == kind)
                return t;
        return {};
    }

    /// Parameter `name`'s tokens; fails the test when the case has none of that name.
    const std::vector<std::string>& param(const std::string& name) const {
        const auto it = params.find(name);
        REQUIRE_MESSAGE(it != params.end(), func, " case ", id, ": no parameter ", name);
        return it->second;
    }
};

/// Every case of `in`, in file order.
inline std::vector<case_block> read_cases(std::ifstream& in) {
    std::vector<case_block> out;
    case_block c;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream s(line);
        std::string kind, name;
        s >> kind;
        const std::string rest = line.size() > kind.size() + 1 ? line.substr(kind.size() + 1) : "";
        if (kind == "case") {
            c = case_block{};
            s >> c.func >> c.id;
        } else if (kind == "p") {
            s >> name;
            auto& values = c.params[name]; // present even when empty
            for (std::string v; s >> v;)
                values.push_back(v);
        } else if (kind == "a" || kind == "e") {
            s >> name;
            (kind == "a" ? c.operands : c.results).emplace_back(name, read_array(s));
        } else if (kind == "x") {
            s >> c.error;
        } else if (kind == "m") {
            c.needles.push_back(rest);
        } else if (kind == "end") {
            out.push_back(std::move(c));
            c = case_block{};
        } else if (!kind.empty()) {
            c.other_lines.emplace_back(kind, rest);
        }
    }
    return out;
}

/// One value's text as `T` (floats through strtod: exact for repr() text, and inf/nan).
template <class T>
T parse_value(const std::string& v) {
    if constexpr (std::is_floating_point_v<T>)
        return static_cast<T>(std::strtod(v.c_str(), nullptr));
    else if constexpr (std::is_same_v<T, bool>)
        return v == "1";
    else if constexpr (std::is_signed_v<T>)
        return static_cast<T>(std::stoll(v));
    else
        return static_cast<T>(std::stoull(v));
}

/// The array as a tensor of its own dtype (`T` must be it).
template <class T>
fusor::tensor<T> to_tensor(const array_data& a) {
    REQUIRE(a.dtype == fusor::dtype_name<T>());
    fusor::tensor<T> t(a.shape, fusor::uninitialized);
    for (std::size_t i = 0; i < a.values.size(); ++i)
        t.data()[i] = parse_value<T>(a.values[i]);
    return t;
}

/// A value as the failure messages print it (17 digits; integers as integers).
template <class T>
std::string show(T v) {
    std::ostringstream s;
    s.precision(17);
    if constexpr (std::is_same_v<T, bool> || std::is_floating_point_v<T>)
        s << v;
    else if constexpr (std::is_signed_v<T>)
        s << static_cast<long long>(v);
    else
        s << static_cast<unsigned long long>(v);
    return s.str();
}

/// `got` against NumPy's array `want`, exactly: dtype, shape, then every value (NaN equals NaN;
/// -0.0 equals 0.0, as numpy.array_equal), stopping at the first that differs. Returns the
/// number of values compared.
template <class R>
fusor::index_t check_exact(const fusor::tensor<R>& got, const array_data& want) {
    CHECK_MESSAGE(fusor::dtype_name<R>() == want.dtype,
                  "fusor's dtype ",
                  std::string(fusor::dtype_name<R>()),
                  ", NumPy's ",
                  want.dtype);
    CHECK_MESSAGE(got.shape() == want.shape,
                  "fusor's shape ",
                  fusor::to_string(got.shape()),
                  ", NumPy's ",
                  fusor::to_string(want.shape));
    if (fusor::dtype_name<R>() != want.dtype || !(got.shape() == want.shape))
        return 0;
    fusor::index_t compared = 0;
    for (fusor::index_t i = 0; i < got.size(); ++i) {
        const R g = got.data()[i];
        const R w = parse_value<R>(want.values[static_cast<std::size_t>(i)]);
        bool same = g == w;
        if constexpr (std::is_floating_point_v<R>)
            same = same || (std::isnan(g) && std::isnan(w));
        ++compared;
        if (!same) {
            FAIL_CHECK("element ", i, ": fusor ", show(g), ", NumPy ", show(w));
            break;
        }
    }
    return compared;
}

/// A call of `void()` passed without templates: the pointer to a callable and the one function
/// that calls it. The checks below take it instead of the callable's type, so each is compiled
/// once per test file, not once per lambda (toolbox.numpy has ~700 of them; as a template,
/// check_outcome was 1.7 MB of that file's 19 MB of unoptimised code).
struct erased_call {
    void* callable;
    void (*call)(void*);
    void operator()() const { call(callable); }
};

template <class L>
void call_erased(void* callable) {
    (*static_cast<L*>(callable))();
}

template <class F>
erased_call erase(F& f) {
    using L = std::remove_reference_t<F>;
    return {const_cast<void*>(static_cast<const void*>(&f)), &call_erased<L>};
}

/// `f()`'s outcome against NumPy's: with `error` empty NumPy returned, so `f` must not throw;
/// otherwise `f` must throw the fusor exception `error` names (`value_error`, `broadcast_error`,
/// `axis_error`, `index_error`; the reference scripts map NumPy's exceptions to these) with
/// every one of `needles` in its message. True when an exception was checked.
inline bool
check_outcome(const std::string& error, const std::vector<std::string>& needles, erased_call f) {
    if (error.empty()) {
        try {
            f();
        } catch (const std::exception& e) {
            FAIL_CHECK("threw \"", std::string(e.what()), "\" where NumPy did not raise");
        }
        return false;
    }
    std::string thrown = "nothing", what;
    try {
        f();
    } catch (const fusor::value_error& e) {
        thrown = "value_error";
        what = e.what();
    } catch (const fusor::broadcast_error& e) {
        thrown = "broadcast_error";
        what = e.what();
    } catch (const fusor::axis_error& e) {
        thrown = "axis_error";
        what = e.what();
    } catch (const fusor::index_error& e) {
        thrown = "index_error";
        what = e.what();
    } catch (const std::exception& e) {
        thrown = "another exception";
        what = e.what();
    }
    CHECK_MESSAGE(thrown == error,
                  "NumPy raised (as fusor) ",
                  error,
                  "; fusor threw ",
                  thrown,
                  ": \"",
                  what,
                  "\"");
    for (const std::string& n : needles) {
        const bool named = what.find(n) != std::string::npos;
        CHECK_MESSAGE(named, "the message \"", what, "\" does not name \"", n, "\"");
    }
    return true;
}

template <class F>
bool check_outcome(const std::string& error, const std::vector<std::string>& needles, F&& f) {
    return check_outcome(error, needles, erase(f));
}

/// A C++ element type carried as a value: `f(type_tag<T>{})`, then `typename decltype(t)::type`.
template <class T>
struct type_tag {
    using type = T;
};

/// Calls `f(type_tag<T>{})` for the one T among Ts whose NumPy name is `name`; fails the test
/// when none is.
template <class... Ts, class F>
void dispatch(const std::string& name, F&& f) {
    bool found = false;
    (
        [&] {
            if (!found && fusor::dtype_name<Ts>() == name) {
                found = true;
                f(type_tag<Ts>{});
            }
        }(),
        ...);
    REQUIRE_MESSAGE(found, "dtype ", name, " is not dispatched here");
}

/// `dispatch` over every element type fusor has (NumPy's bool, int8 … uint64, float32, float64).
template <class F>
void with_dtype(const std::string& name, F&& f) {
    dispatch<bool,
             std::int8_t,
             std::int16_t,
             std::int32_t,
             std::int64_t,
             std::uint8_t,
             std::uint16_t,
             std::uint32_t,
             std::uint64_t,
             float,
             double>(name, std::forward<F>(f));
}

} // namespace numpy_data
