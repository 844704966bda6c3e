// Reading the arrays a NumPy reference script wrote for a test (tests/*/..._reference.py): each
// array is one line's tail, `dtype rank extent... value...`, values in row-major order as
// Python prints them (floats as repr(), bools as 0/1). Shared by the suites that read their
// cases as data (contract.numpy, toolbox.numpy).
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>
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

} // namespace numpy_data
