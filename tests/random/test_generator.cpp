// fusor::random against NumPy, bit for bit: sessions of calls on default_rng(seed) whose values
// and bit-generator states after each call NumPy wrote (random/generator_reference.py), plus
// SeedSequence words, PCG64 advance and jumped, thread-count independence and the errors.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>
#include <fusor/random/generator.hpp>

namespace rnd = fusor::random;
using fusor::index_t;
using fusor::shape_t;

namespace {

std::string reference_path() {
    return std::string(FUSOR_BINARY_DIR) + "/tests/random/generator.txt";
}

std::vector<std::string> split(const std::string& s, const std::string& sep) {
    std::vector<std::string> parts;
    std::size_t start = 0, at;
    while ((at = s.find(sep, start)) != std::string::npos) {
        parts.push_back(s.substr(start, at - start));
        start = at + sep.size();
    }
    parts.push_back(s.substr(start));
    return parts;
}

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

rnd::uint128_t parse_u128(const std::string& s, int base) {
    rnd::uint128_t v = 0;
    for (char c : s)
        v = v * static_cast<unsigned>(base)
            + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                                                                                : c - 'a' + 10);
    return v;
}

rnd::integer_bound parse_bound(const std::string& s) {
    if (!s.empty() && s[0] == '-')
        return -static_cast<rnd::integer_bound>(parse_u128(s.substr(1), 10));
    return static_cast<rnd::integer_bound>(parse_u128(s, 10));
}

double double_from_bits(const std::string& decimal) {
    const auto bits = static_cast<std::uint64_t>(parse_u128(decimal, 10));
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

// A value as NumPy's reference prints it: float bits in hex, integers in decimal.
template <class T>
std::string format_value(T v) {
    char buf[40];
    if constexpr (std::is_same_v<T, double>) {
        std::uint64_t b;
        std::memcpy(&b, &v, sizeof b);
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(b));
    } else if constexpr (std::is_same_v<T, float>) {
        std::uint32_t b;
        std::memcpy(&b, &v, sizeof b);
        std::snprintf(buf, sizeof buf, "%08x", b);
    } else if constexpr (std::is_same_v<T, bool>) {
        std::snprintf(buf, sizeof buf, "%d", v ? 1 : 0);
    } else if constexpr (std::is_signed_v<T>) {
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    } else {
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
    }
    return buf;
}

template <class T>
std::string format_values(const fusor::tensor<T>& t) {
    std::string out;
    for (index_t i = 0; i < t.size(); ++i)
        out += (i ? " " : "") + format_value(t.data()[i]);
    return out;
}

template <class T>
std::string format_shape(const fusor::tensor<T>& t) {
    std::string out;
    for (index_t d = 0; d < t.shape().rank(); ++d)
        out += (d ? " " : "") + std::to_string(t.shape()[static_cast<std::size_t>(d)]);
    return out;
}

shape_t parse_shape(const std::string& s) {
    shape_t shape;
    for (const auto& w : words(s))
        shape.push_back(std::stoll(w));
    return shape;
}

// Calls `f(T{})` with the type NumPy names `dtype`.
template <class F>
void with_dtype(const std::string& dtype, F&& f) {
    if (dtype == "float64")
        f(double{});
    else if (dtype == "float32")
        f(float{});
    else if (dtype == "int8")
        f(std::int8_t{});
    else if (dtype == "int16")
        f(std::int16_t{});
    else if (dtype == "int32")
        f(std::int32_t{});
    else if (dtype == "int64")
        f(std::int64_t{});
    else if (dtype == "uint8")
        f(std::uint8_t{});
    else if (dtype == "uint16")
        f(std::uint16_t{});
    else if (dtype == "uint32")
        f(std::uint32_t{});
    else if (dtype == "uint64")
        f(std::uint64_t{});
    else if (dtype == "bool")
        f(bool{});
    else
        FAIL("unknown dtype " << dtype);
}

struct call_result {
    std::string shape, values;
};

template <class T>
call_result result_of(const fusor::tensor<T>& t) {
    return {format_shape(t), format_values(t)};
}

// Runs one reference call on `g`.
call_result run_call(rnd::generator& g,
                     const std::string& method,
                     const std::string& dtype,
                     const std::vector<std::string>& args,
                     const shape_t& shape) {
    call_result r;
    if (method == "random" || method == "standard_normal" || method == "standard_exponential") {
        with_dtype(dtype, [&](auto t) {
            using T = decltype(t);
            if constexpr (std::is_floating_point_v<T>) {
                if (method == "random")
                    r = result_of(g.random<T>(shape));
                else if (method == "standard_normal")
                    r = result_of(g.standard_normal<T>(shape));
                else
                    r = result_of(g.standard_exponential<T>(shape));
            }
        });
    } else if (method == "integers") {
        const auto low = parse_bound(args[0]), high = parse_bound(args[1]);
        const bool endpoint = args[2] == "1";
        with_dtype(dtype, [&](auto t) {
            using T = decltype(t);
            if constexpr (std::is_integral_v<T>)
                r = result_of(g.integers<T>(low, high, shape, endpoint));
        });
    } else if (method == "uniform") {
        r = result_of(g.uniform(double_from_bits(args[0]), double_from_bits(args[1]), shape));
    } else if (method == "normal") {
        r = result_of(g.normal(double_from_bits(args[0]), double_from_bits(args[1]), shape));
    } else if (method == "exponential") {
        r = result_of(g.exponential(double_from_bits(args[0]), shape));
    } else if (method == "choice" || method == "choice_p") {
        const std::int64_t n = std::stoll(args[0]);
        const bool replace = args[1] == "1";
        std::vector<double> p;
        for (std::size_t k = 0; k < static_cast<std::size_t>(std::stoll(args[2])); ++k)
            p.push_back(double_from_bits(args[3 + k]));
        r = result_of(g.choice(n, shape, replace, p));
    } else if (method == "choice_array") {
        fusor::tensor<std::int64_t> a(shape_t{6, 4});
        for (index_t i = 0; i < 24; ++i)
            a.data()[i] = 3 * i;
        r = result_of(g.choice(a, shape_t{shape.empty() ? 0 : shape[0]}, args[0] == "1"));
    } else if (method == "permutation") {
        r = result_of(g.permutation(std::stoll(args[0])));
    } else if (method == "permutation_array") {
        fusor::tensor<std::int64_t> a(shape_t{5, 6});
        for (index_t i = 0; i < 30; ++i)
            a.data()[i] = i;
        r = result_of(g.permutation(a, std::stoll(args[0])));
    } else if (method == "permutation_empty") { // the edge session's: `shape` has no elements
        r = result_of(g.permutation(fusor::zeros<std::int64_t>(shape), std::stoll(args[0])));
    } else if (method == "shuffle") {
        if (args[0] == "empty") { // the edge session's: no draws
            fusor::tensor<double> a = fusor::zeros<double>(shape);
            g.shuffle(a, std::stoll(args[1]));
            r = result_of(a);
            return r;
        }
        fusor::tensor<double> a(args[0] == "1d" ? shape_t{12} : shape_t{4, 3});
        for (index_t i = 0; i < 12; ++i)
            a.data()[i] = static_cast<double>(i);
        g.shuffle(a, std::stoll(args[1]));
        r = result_of(a);
    } else {
        FAIL("unknown method " << method);
    }
    return r;
}

std::string format_state(const rnd::pcg64_state& s) {
    auto hex128 = [](rnd::uint128_t v) {
        char buf[40];
        std::snprintf(buf,
                      sizeof buf,
                      "%016llx%016llx",
                      static_cast<unsigned long long>(v >> 64),
                      static_cast<unsigned long long>(v));
        return std::string(buf);
    };
    return hex128(s.state) + " " + hex128(s.inc) + " " + (s.has_uint32 ? "1" : "0") + " "
           + (s.has_uint32 ? std::to_string(s.uinteger) : "-");
}

std::vector<std::string> reference_lines() {
    std::ifstream in(reference_path());
    REQUIRE_MESSAGE(in.good(),
                    "missing " << reference_path()
                               << " (ctest runs random.generator_reference first)");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            lines.push_back(line);
    return lines;
}

} // namespace

TEST_CASE("generator: every call of every session gives NumPy's values and state") {
    std::map<int, rnd::generator> sessions;
    int calls = 0;
    for (const auto& line : reference_lines()) {
        if (line.rfind("call ", 0) != 0)
            continue;
        const auto parts = split(line, " ; ");
        REQUIRE(parts.size() == 4);
        const auto head = words(parts[0]);
        const int sid = std::stoi(head[1]);
        const auto seed = static_cast<std::uint64_t>(parse_u128(head[2], 10));
        const std::string method = head[3], dtype = head[4];
        const std::vector<std::string> args(head.begin() + 5, head.end());
        if (!sessions.count(sid))
            sessions.emplace(sid, rnd::default_rng(seed));
        rnd::generator& g = sessions.at(sid);
        const shape_t shape = parse_shape(parts[1]);
        CAPTURE(line.substr(0, 160));
        const call_result r = run_call(g, method, dtype, args, shape);
        CHECK(r.shape == parts[1]);
        CHECK(r.values == parts[2]);
        // The state after the call proves the same number of draws was consumed; NumPy's
        // `uinteger` only means something while `has_uint32` is set.
        auto expected_state = words(parts[3]);
        if (expected_state[2] == "0")
            expected_state[3] = "-";
        CHECK(format_state(g.bit_generator().state())
              == expected_state[0] + " " + expected_state[1] + " " + expected_state[2] + " "
                     + expected_state[3]);
        ++calls;
    }
    CHECK(calls >= 26 * 24 + 3 * 16); // every method and dtype in each of the 26 sessions, and
                                      // the 3 edge sessions' 16 calls
    CHECK(sessions.size() >= 29);
}

TEST_CASE("seed_sequence, advance and jumped give NumPy's words and draws") {
    int checked = 0;
    for (const auto& line : reference_lines()) {
        const auto parts = split(line, " ; ");
        const auto head = words(parts[0]);
        CAPTURE(line);
        if (head[0] == "seedseq") {
            std::vector<std::uint64_t> key;
            for (std::size_t k = 2; k < head.size(); ++k)
                key.push_back(static_cast<std::uint64_t>(parse_u128(head[k], 10)));
            rnd::seed_sequence seq(static_cast<std::uint64_t>(parse_u128(head[1], 10)), key);
            std::string got;
            for (auto w : seq.generate_state<std::uint32_t>(4))
                got += (got.empty() ? "" : " ") + std::to_string(w);
            CHECK(got == parts[1]);
        } else if (head[0] == "advance" || head[0] == "jumped") {
            rnd::pcg64 g(static_cast<std::uint64_t>(std::stoull(head[1])));
            if (head[0] == "advance") {
                for (int k = 0; k < 3; ++k)
                    g.next_uint64();
                g.advance(parse_u128(head[2], 10));
            } else {
                g = g.jumped(std::stoull(head[2]));
            }
            std::string got;
            for (int k = 0; k < 3; ++k)
                got += (k ? " " : "") + std::to_string(g.next_uint64());
            CHECK(got == parts[1]);
        } else {
            continue;
        }
        ++checked;
    }
    CHECK(checked >= 30);
}

TEST_CASE("spawned sequences: children differ from the parent and from each other") {
    rnd::seed_sequence root(7);
    auto kids = root.spawn(3);
    REQUIRE(kids.size() == 3);
    CHECK(kids[2].spawn_key() == std::vector<std::uint64_t>{2});
    auto more = root.spawn(1);
    CHECK(more[0].spawn_key() == std::vector<std::uint64_t>{3}); // continues the count
    auto a = rnd::default_rng(kids[0]).integers(0, 1000000, shape_t{4});
    auto b = rnd::default_rng(kids[1]).integers(0, 1000000, shape_t{4});
    auto c = rnd::default_rng(root).integers(0, 1000000, shape_t{4});
    CHECK_FALSE(fusor::array_equal(a, b));
    CHECK_FALSE(fusor::array_equal(a, c));
}

TEST_CASE("threads: large fills give the values of one thread") {
    if (!fusor::threads_enabled) {
        MESSAGE("skipped: built without OpenMP, fills run on one thread");
        return;
    }
    const shape_t big{1 << 18};
    for (bool buffered : {false, true}) {
        CAPTURE(buffered);
        auto make = [&] {
            auto g = rnd::default_rng(2026);
            if (buffered)
                g.bit_generator().next_uint32(); // a buffered half the float fill must use first
            return g;
        };
        fusor::set_num_threads(1);
        auto g1 = make();
        auto d1 = g1.random(big);
        auto f1 = g1.random<float>(shape_t{(1 << 18) + 1});
        auto u1 = g1.uniform(-2.0, 3.0, big);
        auto tail1 = g1.random<float>(shape_t{3});
        fusor::set_num_threads(2);
        auto g2 = make();
        auto d2 = g2.random(big);
        auto f2 = g2.random<float>(shape_t{(1 << 18) + 1});
        auto u2 = g2.uniform(-2.0, 3.0, big);
        auto tail2 = g2.random<float>(shape_t{3});
        CHECK(fusor::array_equal(d1, d2));
        CHECK(fusor::array_equal(f1, f2));
        CHECK(fusor::array_equal(u1, u2));
        CHECK(fusor::array_equal(tail1, tail2));
        CHECK(g1.bit_generator().state() == g2.bit_generator().state());
    }
}

TEST_CASE("errors: NumPy's messages, typed") {
    auto g = rnd::default_rng(1);
    CHECK_THROWS_WITH_AS(g.integers(5, 5, shape_t{2}), "low >= high", fusor::value_error);
    CHECK_THROWS_WITH_AS(g.integers(5, 4, shape_t{2}, true), "low > high", fusor::value_error);
    // NumPy's words when low is 0 (the one-argument form's); an empty shape checks nothing.
    CHECK_THROWS_WITH_AS(g.integers(0, 0, shape_t{2}), "high <= 0", fusor::value_error);
    CHECK_THROWS_WITH_AS(g.integers(0, -1, shape_t{2}, true), "high < 0", fusor::value_error);
    CHECK_THROWS_WITH_AS(g.integers(0, 0), "high <= 0", fusor::value_error);
    CHECK(g.integers(5, 5, shape_t{0}).shape() == shape_t{0});
    CHECK(g.choice(0, shape_t{0}).shape() == shape_t{0});
    CHECK_THROWS_WITH_AS(g.integers<std::uint8_t>(-1, 5, shape_t{2}),
                         "low is out of bounds for uint8",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(g.integers<std::uint8_t>(0, 300, shape_t{2}),
                         "high is out of bounds for uint8",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(g.uniform(1.0, 0.0, shape_t{2}), "high - low < 0", fusor::value_error);
    // NumPy: OverflowError; fusor: its bad-argument error, with NumPy's message.
    CHECK_THROWS_AS(g.uniform(-1e308, 1e308, shape_t{2}), fusor::value_error);
    CHECK_THROWS_WITH_AS(g.normal(0.0, -1.0, shape_t{2}), "scale < 0", fusor::value_error);
    CHECK_THROWS_WITH_AS(g.exponential(-1.0, shape_t{2}), "scale < 0", fusor::value_error);
    // NumPy tests the sign bit: -0.0 is refused, NaN passes (NaN values: the edge sessions).
    CHECK_THROWS_WITH_AS(g.normal(1.0, -0.0, shape_t{2}), "scale < 0", fusor::value_error);
    CHECK_THROWS_WITH_AS(g.exponential(-0.0), "scale < 0", fusor::value_error);
    CHECK_THROWS_WITH_AS(g.uniform(0.0, -0.0, shape_t{2}), "high - low < 0", fusor::value_error);
    CHECK_THROWS_AS(g.uniform(0.0, std::nan(""), shape_t{2}), fusor::value_error);
    CHECK_THROWS_WITH_AS(g.choice(5, shape_t{6}, false),
                         "Cannot take a larger sample than population when replace is False",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(g.choice(0, shape_t{3}),
                         "a must be a positive integer unless no samples are taken",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(g.choice(3, shape_t{2}, true, {0.5, 0.5}),
                         "a and p must have same size",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(g.choice(3, shape_t{2}, true, {0.5, 0.6, -0.1}),
                         "probabilities are not non-negative",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(g.choice(3, shape_t{2}, true, {0.5, 0.6, 0.1}),
                         "probabilities do not sum to 1",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(g.choice(3, shape_t{3}, false, {0.5, 0.5, 0.0}),
                         "Fewer non-zero entries in p than size",
                         fusor::value_error);
    CHECK_THROWS_AS(rnd::default_rng(-1), fusor::value_error);
    fusor::tensor<double> t(shape_t{3});
    CHECK_THROWS_AS(g.shuffle(t, 1), fusor::axis_error);
    // A failed call draws nothing: the state is unchanged.
    const auto before = g.bit_generator().state();
    CHECK_THROWS(g.integers(3, 1, shape_t{4}));
    CHECK(g.bit_generator().state() == before);
}

template <class T>
std::vector<double> values_of(const fusor::tensor<T>& t) {
    return std::vector<double>(t.begin(), t.end());
}

TEST_CASE("views, expressions, probability expressions and a braced shape, as NumPy takes them") {
    // NumPy 1.24, one generator through every call (tests/random's session, by hand):
    //   g = np.random.default_rng(42); g.integers(10, size=5); g.integers(10); g.integers(3, 7)
    //   a = np.arange(1, 13.).reshape(4, 3); g.shuffle(a[:, 0]); g.shuffle(a[::2])
    //   g.shuffle(a[:, 1:], axis=1); g.permutation(a[:, 1]); g.permutation(a * 2.0, axis=1)
    //   g.choice(a[:, 2], 3); w = np.array([1, 2, 3, 4.]); g.choice(4, 6, True, w / w.sum())
    //   g.choice(4, 2, False, np.array([.125, .25, .125, .5], np.float32))
    auto g = rnd::default_rng(42);
    const auto first = g.integers(10, {5}); // {5} is the shape: [0, 10)
    CHECK(first.shape() == shape_t{5});
    CHECK(values_of(first) == std::vector<double>{0, 7, 6, 4, 4});
    CHECK(g.integers(10) == 8);
    CHECK(g.integers(3, 7) == 3);
    fusor::tensor<double> a = fusor::reshape(fusor::arange(1.0, 13.0), {4, 3});
    g.shuffle(fusor::view(a, fusor::all, 0));
    g.shuffle(fusor::view(a, fusor::slice(0, fusor::none, 2)));
    g.shuffle(fusor::view(a, fusor::all, fusor::slice(1, fusor::none)), 1);
    CHECK(values_of(a) == std::vector<double>{10, 2, 3, 1, 5, 6, 4, 8, 9, 7, 11, 12});
    CHECK(values_of(g.permutation(fusor::view(a, fusor::all, 1)))
          == std::vector<double>{8, 5, 2, 11});
    const auto p2 = g.permutation(a * 2.0, 1);
    CHECK(p2.shape() == shape_t{4, 3});
    CHECK(values_of(p2) == std::vector<double>{4, 20, 6, 10, 2, 12, 16, 8, 18, 22, 14, 24});
    CHECK(values_of(g.choice(fusor::view(a, fusor::all, 2), {3})) == std::vector<double>{6, 9, 6});
    const fusor::tensor<double> w{1, 2, 3, 4};
    CHECK(values_of(g.choice(4, {6}, true, w / fusor::sum(w)))
          == std::vector<double>{3, 3, 3, 2, 1, 2});
    const fusor::tensor<float> p32{0.125f, 0.25f, 0.125f, 0.5f};
    CHECK(values_of(g.choice(4, {2}, false, p32)) == std::vector<double>{0, 3});
    // float32 p: NumPy's tolerance is float32's sqrt(eps), so 0.1f + ... + 0.4f (1 + 1.5e-8)
    // passes, as np.random.default_rng(0).choice(4, 2, False, p=float32 array) -> [3, 1].
    auto g0 = rnd::default_rng(0);
    const fusor::tensor<float> tenths{0.1f, 0.2f, 0.3f, 0.4f};
    CHECK(values_of(g0.choice(4, {2}, false, tenths)) == std::vector<double>{3, 1});
    auto g1 = rnd::default_rng(0);
    const std::vector<double> tenths64{0.1f, 0.2f, 0.3f, 0.4f}; // the same sum, in float64
    CHECK_THROWS_WITH_AS(
        g1.choice(4, {2}, false, tenths64), "probabilities do not sum to 1", fusor::value_error);
    const fusor::tensor<double> p_2d{{0.5, 0.5}, {0.0, 0.0}};
    CHECK_THROWS_WITH_AS(g.choice(4, {2}, true, p_2d),
                         "choice: p must be 1-dimensional (shape (2, 2))",
                         fusor::value_error);
    // One value without a shape: g = np.random.default_rng(3); g.choice(5) -> 4,
    // g.choice(np.array([[1., 2], [3, 4], [5, 6]])) -> [1., 2.], g.choice(np.array([7, 8, 9])) -> 7
    auto g3 = rnd::default_rng(3);
    CHECK(g3.choice(5) == 4);
    const fusor::tensor<double> rows{{1, 2}, {3, 4}, {5, 6}};
    const auto row0 = g3.choice(rows);
    CHECK(row0.shape() == shape_t{2});
    CHECK(values_of(row0) == std::vector<double>{1, 2});
    const auto seven = g3.choice(fusor::tensor<std::int64_t>{7, 8, 9});
    CHECK(seven.shape() == shape_t{});
    CHECK(seven.item() == 7);
    // A writable view with stride 0 repeats elements (broadcast_to's views are read-only, as
    // NumPy's, and do not compile here): refused before any draw.
    fusor::tensor<double> row{1, 2};
    const auto before = g.bit_generator().state();
    CHECK_THROWS_AS(g.shuffle(fusor::adapt(row.data(), {3, 2}, {0, 1})), fusor::value_error);
    CHECK(g.bit_generator().state() == before);
#if FUSOR_CHECKED
    // A view of a tensor that is gone: lifetime_error, as an expression over it, and no draw.
    auto* gone = new fusor::tensor<double>{1, 2, 3};
    const auto dangling = fusor::view(*gone, fusor::slice(0, 2));
    delete gone;
    CHECK_THROWS_AS(g.shuffle(dangling), fusor::lifetime_error);
    CHECK(g.bit_generator().state() == before);
#endif
}

TEST_CASE("shorthands: random::uniform and random::normal are default_rng(seed)'s") {
    auto u = rnd::uniform<float>({3, 4}, 0.0, 1.0, 42);
    auto expected = rnd::default_rng(42).uniform(0.0, 1.0, shape_t{3, 4});
    REQUIRE(u.shape() == shape_t{3, 4});
    for (index_t i = 0; i < 12; ++i)
        CHECK(u.data()[i] == static_cast<float>(expected.data()[i]));
    auto n = rnd::normal({5}, 1.0, 2.0, 7);
    CHECK(fusor::array_equal(n, rnd::default_rng(7).normal(1.0, 2.0, shape_t{5})));
}
