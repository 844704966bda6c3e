// Contractions against NumPy 1.24: einsum (one loop and the pairwise chain of three or more
// tensors), matmul, dot, vdot, inner, outer, tensordot and trace.
// tests/contract/contract_reference.py (the ctest fixture contract.numpy_reference) draws several
// hundred random cases over every dtype (and a few mixed pairs), runs NumPy on them and writes
// inputs and answers (or the fusor exception NumPy's error maps to, with words its message must
// contain) to contract_expected.txt; this test reads them as data. Subscripts, axes and offsets are
// run-time values, so each function is instantiated once per dtype (or mixed pair) and operand
// count, dispatched on the dtype names. Integer and bool results are compared exactly (NumPy's
// wrap-around included); float results against the exact value within the per-element bound the
// script writes and justifies.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../numpy_data.hpp"

using namespace fusor;

namespace {

using numpy_data::array_data;
using numpy_data::parse_value;
using numpy_data::show;
using numpy_data::to_tensor;

// ---- the data file ---------------------------------------------------------------------------

struct test_case {
    std::string func;
    int id = 0;
    std::string subscripts;
    std::map<std::string, std::vector<std::string>> params;
    std::vector<array_data> operands;
    std::optional<array_data> out;
    std::vector<double> tol;
    std::string error;
    std::vector<std::string> needles;

    bool has(const std::string& p) const { return params.count(p) != 0; }
    index_t integer(const std::string& p) const { return std::stoll(params.at(p).at(0)); }
    shape_t axes(const std::string& p) const {
        shape_t a;
        for (const std::string& v : params.at(p))
            a.push_back(std::stoll(v));
        return a;
    }
    std::string name() const {
        std::string n = func + " case " + std::to_string(id);
        if (func == "einsum")
            n += " \"" + subscripts + "\"";
        for (const auto& [p, v] : params) {
            n += " " + p + "=";
            for (const std::string& t : v)
                n += t + ",";
        }
        for (const array_data& a : operands)
            n += " " + a.dtype + to_string(a.shape);
        return n;
    }
};

// A case as the checks read it: the shared block (numpy_data::read_cases) plus this suite's own
// lines, `s <subscripts>` (may hold spaces, or be empty) and `t <tolerance>...`.
test_case from_block(numpy_data::case_block&& b) {
    test_case c;
    c.func = std::move(b.func);
    c.id = b.id;
    c.subscripts = b.text("s");
    c.params = std::move(b.params);
    for (auto& [name, a] : b.operands) {
        REQUIRE(name == std::to_string(c.operands.size()));
        c.operands.push_back(std::move(a));
    }
    if (!b.results.empty())
        c.out = std::move(b.results.back().second);
    std::istringstream t(b.text("t"));
    for (std::string v; t >> v;)
        c.tol.push_back(std::strtod(v.c_str(), nullptr));
    c.error = std::move(b.error);
    c.needles = std::move(b.needles);
    return c;
}

const std::vector<test_case>& cases() {
    static const std::vector<test_case> all = [] {
        std::vector<test_case> out;
        std::ifstream in = numpy_data::open_cases("FUSOR_CONTRACT_EXPECTED",
                                                  "tests/contract/contract_expected.txt",
                                                  "contract.numpy_reference");
        for (numpy_data::case_block& b : numpy_data::read_cases(in))
            out.push_back(from_block(std::move(b)));
        return out;
    }();
    return all;
}

// ---- checking ---------------------------------------------------------------------------------

// The doctest messages are in these helpers per result type R, not in check_result's template
// per expression: each *_MESSAGE or INFO is a type of its own.
template <class R>
void check_dtype(const test_case& c) {
    REQUIRE_MESSAGE(c.out.has_value(), "no expected result");
    CHECK_MESSAGE(dtype_name<R>() == c.out->dtype,
                  "fusor's dtype ",
                  std::string(dtype_name<R>()),
                  ", NumPy's ",
                  c.out->dtype);
}

template <class R>
void check_stored(const test_case& c, const tensor<R>& got) {
    const array_data& want = *c.out;
    CHECK_MESSAGE(got.shape() == want.shape,
                  "fusor's shape ",
                  to_string(got.shape()),
                  ", NumPy's ",
                  to_string(want.shape));
    if (dtype_name<R>() != want.dtype || !(got.shape() == want.shape))
        return;
    if constexpr (std::is_floating_point_v<R>)
        REQUIRE(c.tol.size() == want.values.size());
    for (index_t i = 0; i < got.size(); ++i) {
        const R g = got.data()[i];
        const auto k = static_cast<std::size_t>(i);
        bool same = false;
        std::string expected;
        if constexpr (std::is_floating_point_v<R>) {
            const double w = std::strtod(want.values[k].c_str(), nullptr);
            same = std::abs(static_cast<double>(g) - w) <= c.tol[k];
            expected = show(w) + " (exact) within " + show(c.tol[k]);
        } else {
            same = g == parse_value<R>(want.values[k]);
            expected = want.values[k];
        }
        if (!same) {
            FAIL_CHECK("element ", i, ": fusor ", show(g), ", expected ", expected);
            return;
        }
    }
}

// Evaluates the contraction `e` and checks it against the case's result: dtype, shape, values
// (integers and bool exactly; floats within the case's tolerance of the exact value).
template <class E>
void check_result(const test_case& c, const E& e) {
    using R = typename std::remove_cvref_t<E>::value_type;
    check_dtype<R>(c);
    const tensor<R> got = e;
    check_stored(c, got);
}

// Runs `f` (which builds and checks the contraction) and checks its outcome against NumPy's
// (numpy_data::check_outcome), compiled once (numpy_data::erased_call).
void run_erased(const test_case& c, numpy_data::erased_call f) {
    INFO(c.name());
    numpy_data::check_outcome(c.error, c.needles, f);
}

template <class F>
void run_case(const test_case& c, F&& f) {
    run_erased(c, numpy_data::erase(f));
}

// ---- dtype dispatch -----------------------------------------------------------------------------

template <class A, class B = A>
struct types {
    using first = A;
    using second = B;
};

// Calls `f(types<A, B>{})` for the one entry of Ps whose dtypes are named `a` and `b`.
template <class... Ps, class F>
void with_dtypes(const std::string& a, const std::string& b, F&& f) {
    bool found = false;
    (
        [&] {
            if (!found && dtype_name<typename Ps::first>() == a
                && dtype_name<typename Ps::second>() == b) {
                found = true;
                f(Ps{});
            }
        }(),
        ...);
    REQUIRE_MESSAGE(found, "dtypes ", a, " and ", b, " are not dispatched here");
}

// Every dtype, all operands alike.
#define FUSOR_SAME_DTYPES                                                                          \
    types<bool>, types<std::int8_t>, types<std::int16_t>, types<std::int32_t>,                     \
        types<std::int64_t>, types<std::uint8_t>, types<std::uint16_t>, types<std::uint32_t>,      \
        types<std::uint64_t>, types<float>, types<double>
// The mixed pairs contract_reference.py draws (MIXED there), in this order of operands.
#define FUSOR_MIXED_DTYPES                                                                         \
    types<std::int8_t, std::uint8_t>, types<std::int32_t, float>, types<bool, std::int32_t>,       \
        types<std::uint64_t, std::int64_t>, types<std::int16_t, float>,                            \
        types<std::uint16_t, std::int8_t>, types<bool, double>, types<float, double>

// Every two-operand form: einsum, matmul, dot, vdot, inner, outer, tensordot (n or axes).
template <class A, class B>
void run_pair(const test_case& c) {
    const tensor<A> a = to_tensor<A>(c.operands.at(0));
    const tensor<B> b = to_tensor<B>(c.operands.at(1));
    run_case(c, [&] {
        if (c.func == "einsum")
            check_result(c, einsum(c.subscripts, a, b));
        else if (c.func == "matmul")
            check_result(c, matmul(a, b));
        else if (c.func == "dot")
            check_result(c, dot(a, b));
        else if (c.func == "vdot")
            check_result(c, vdot(a, b));
        else if (c.func == "inner")
            check_result(c, inner(a, b));
        else if (c.func == "outer")
            check_result(c, outer(a, b));
        else if (c.func == "tensordot" && c.has("n"))
            check_result(c, tensordot(a, b, c.integer("n")));
        else if (c.func == "tensordot")
            check_result(c, tensordot(a, b, tensordot_axes{c.axes("axes_a"), c.axes("axes_b")}));
        else
            FAIL("unknown function ", c.func);
    });
}

// einsum over ops[0] as an rvalue copy (owned by the node, so not chainable) and ops[1...].
template <class T, std::size_t N, std::size_t... J>
auto einsum_one_loop(const std::string& subscripts,
                     const std::array<tensor<T>, N>& ops,
                     std::index_sequence<J...>) {
    return einsum(subscripts, tensor<T>(ops[0]), ops[J + 1]...);
}

// einsum with one, three or four operands of type T (two go through run_pair). Three or more
// tensors of one type contract pairwise in a greedy order; with the first operand an rvalue
// the same case runs as one loop over every index: both paths are checked.
template <class T, std::size_t... I>
void run_einsum(const test_case& c, std::index_sequence<I...>) {
    constexpr std::size_t n = sizeof...(I);
    const std::array<tensor<T>, n> ops{to_tensor<T>(c.operands.at(I))...};
    run_case(c, [&] { check_result(c, einsum(c.subscripts, ops[I]...)); });
    if constexpr (n >= 3) {
        INFO("one loop: the first operand an rvalue tensor");
        run_case(c, [&] {
            check_result(c, einsum_one_loop(c.subscripts, ops, std::make_index_sequence<n - 1>{}));
        });
    }
}

template <class T>
void run_trace(const test_case& c) {
    const tensor<T> a = to_tensor<T>(c.operands.at(0));
    run_case(c, [&] {
        check_result(c, trace(a, c.integer("offset"), c.integer("axis1"), c.integer("axis2")));
    });
}

// One case, dispatched on its operands' dtypes and count.
void run(const test_case& c) {
    const std::size_t n = c.operands.size();
    const std::string& d0 = c.operands.at(0).dtype;
    bool same = true;
    for (const array_data& a : c.operands)
        same = same && a.dtype == d0;
    if (c.func == "trace") {
        with_dtypes<FUSOR_SAME_DTYPES>(
            d0, d0, [&](auto t) { run_trace<typename decltype(t)::first>(c); });
    } else if (n == 2 && same) {
        with_dtypes<FUSOR_SAME_DTYPES>(d0, d0, [&](auto t) {
            using T = typename decltype(t)::first;
            run_pair<T, T>(c);
        });
    } else if (n == 2) {
        with_dtypes<FUSOR_MIXED_DTYPES>(d0, c.operands[1].dtype, [&](auto t) {
            run_pair<typename decltype(t)::first, typename decltype(t)::second>(c);
        });
    } else {
        REQUIRE_MESSAGE(same, c.name(), ": mixed dtypes are drawn for two operands only");
        REQUIRE(c.func == "einsum");
        with_dtypes<FUSOR_SAME_DTYPES>(d0, d0, [&](auto t) {
            using T = typename decltype(t)::first;
            if (n == 1)
                run_einsum<T>(c, std::make_index_sequence<1>{});
            else if (n == 3)
                run_einsum<T>(c, std::make_index_sequence<3>{});
            else if (n == 4)
                run_einsum<T>(c, std::make_index_sequence<4>{});
            else
                FAIL(c.name(), ": ", n, " operands");
        });
    }
}

// Runs every case of the functions `funcs`; returns how many ran.
int run_all(std::initializer_list<std::string> funcs) {
    int ran = 0;
    for (const test_case& c : cases())
        for (const std::string& f : funcs)
            if (c.func == f) {
                run(c);
                ++ran;
            }
    return ran;
}

} // namespace

TEST_CASE("the NumPy reference holds at least 600 cases of every function") {
    std::map<std::string, int> n;
    int errors = 0;
    for (const test_case& c : cases()) {
        ++n[c.func];
        errors += !c.error.empty();
    }
    CHECK(cases().size() >= 600);
    for (const char* f :
         {"einsum", "matmul", "dot", "vdot", "inner", "outer", "tensordot", "trace"})
        CHECK_MESSAGE(n[f] >= 20, f, ": ", n[f], " cases");
    CHECK(errors >= 40);
}

TEST_CASE("einsum, as numpy.einsum") {
    CHECK(run_all({"einsum"}) >= 300);
}

TEST_CASE("matmul, as numpy.matmul") {
    CHECK(run_all({"matmul"}) >= 80);
}

TEST_CASE("dot, vdot, inner and outer, as NumPy's") {
    CHECK(run_all({"dot", "vdot", "inner", "outer"}) >= 150);
}

TEST_CASE("tensordot, as numpy.tensordot (axis count and axis lists)") {
    CHECK(run_all({"tensordot"}) >= 80);
}

TEST_CASE("trace, as numpy.trace") {
    CHECK(run_all({"trace"}) >= 50);
}

TEST_CASE("a contraction is lazy: it reads its operands' values when evaluated") {
    tensor<double> a = {{1.0, 2.0}, {3.0, 4.0}};
    tensor<double> b = {{5.0, 6.0}, {7.0, 8.0}};
    auto product = matmul(a, b);
    auto summed = einsum("ij,ij->", a, b);
    auto diagonal_sum = trace(a);
    a(0, 0) = 10.0;
    b(1, 1) = -1.0;
    const tensor<double> r = product;
    CHECK(r(0, 0) == 10.0 * 5.0 + 2.0 * 7.0);
    CHECK(r(0, 1) == 10.0 * 6.0 + 2.0 * -1.0);
    CHECK(r(1, 0) == 3.0 * 5.0 + 4.0 * 7.0);
    CHECK(r(1, 1) == 3.0 * 6.0 + 4.0 * -1.0);
    CHECK(summed.item() == 10.0 * 5.0 + 2.0 * 6.0 + 3.0 * 7.0 + 4.0 * -1.0);
    CHECK(diagonal_sum.item() == 14.0);
    // Evaluated again after another change: the new values again.
    a(1, 1) = 0.0;
    CHECK(diagonal_sum.item() == 10.0);
    CHECK(eval(product)(1, 1) == 18.0);
}

TEST_CASE("a contraction that throws leaves the destination untouched") {
    const tensor<double> a = {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}};
    const tensor<double> bad = {{1.0, 2.0}, {3.0, 4.0}};
    tensor<double> c = {{-1.0, -2.0}, {-3.0, -4.0}};
    const tensor<double> before = c;
    const auto untouched = [&] {
        CHECK(c.shape() == before.shape());
        CHECK(eval(all(c == before)).item());
    };
    CHECK_THROWS_AS(c = matmul(a, bad), value_error);
    untouched();
    CHECK_THROWS_AS(c = dot(a, bad), value_error);
    untouched();
    CHECK_THROWS_AS(c = einsum("ij,jk->ik", a, bad), value_error);
    untouched();
    CHECK_THROWS_AS(c = tensordot(a, bad, 1), value_error);
    untouched();
    const tensor<double> batch_a(shape_t{2, 2, 3}), batch_b(shape_t{3, 3, 2});
    CHECK_THROWS_AS(c = matmul(batch_a, batch_b), broadcast_error);
    untouched();
    // A valid contraction whose result does not fit the destination view: checked before the
    // first store.
    CHECK_THROWS_AS(view(c, all, slice(0, 1)) = matmul(bad, bad), broadcast_error);
    untouched();
}

TEST_CASE("a C++ scalar stands for a 0-d operand of dot, inner, vdot, outer and tensordot") {
    // numpy.dot(a, 2.0) converts the scalar to a 0-d array and multiplies; fusor's scalar is
    // weak, as everywhere (docs/api.md): the other operand's type wins unless the scalar's kind
    // is higher. Values from NumPy 1.24 (np.dot(a, 2.0), np.outer(a, 2.0), ...).
    const tensor<float> a = {{0.f, 1.f, 2.f}, {3.f, 4.f, 5.f}};
    const tensor<float> twice = {{0.f, 2.f, 4.f}, {6.f, 8.f, 10.f}};
    const tensor<std::int32_t> i = {0, 1, 2};
    const auto same = [](const auto& got, const auto& want) {
        using G = value_type_t<std::remove_cvref_t<decltype(got)>>;
        using W = value_type_t<std::remove_cvref_t<decltype(want)>>;
        CHECK(std::is_same_v<G, W>);
        const tensor<W> g = got;
        REQUIRE(g.shape() == want.shape());
        CHECK(eval(all(g == want)).item());
    };
    same(dot(a, 2.0), twice); // float32: NumPy 1.24 gives float64 (its scalar is strong)
    same(dot(2.0, a), twice);
    same(inner(a, 2.0f), twice);
    same(inner(2, a), twice);
    same(tensordot(a, 2.0, 0), twice);
    same(tensordot(2.0, a, 0), twice);
    same(dot(i, 2), tensor<std::int32_t>{0, 2, 4});
    same(dot(i, 2.5), tensor<double>{0.0, 2.5, 5.0}); // a higher kind: float64
    same(dot(tensor<bool>{true, false}, true), tensor<bool>{true, false});
    same(dot(tensor<std::int8_t>{100}, 2), tensor<std::int8_t>{-56}); // wraps in int8, as a * 2
    same(outer(a, 2.0), reshape(twice, {6, 1}));
    same(outer(2, i), tensor<std::int32_t>{{0, 2, 4}});
    const auto v = vdot(tensor<double>{3.0}, 2.0);
    CHECK(v.shape() == shape_t{});
    CHECK(eval(v).item() == 6.0);
    CHECK(eval(vdot(2.0, tensor<double>{{3.0}})).item() == 6.0);
    // NumPy's errors: vdot's sizes differ; tensordot cannot sum axes of a 0-d operand.
    CHECK_THROWS_AS((void)vdot(i, 2), value_error);
    CHECK_THROWS_AS((void)tensordot(a, 2.0), value_error);
    CHECK_THROWS_AS((void)tensordot(2.0, a, 1), value_error);
    // An integer scalar outside the other operand's type is an error (NEP 50's OverflowError).
    CHECK_THROWS_AS((void)dot(tensor<std::int8_t>{1}, 300), value_error);
}

TEST_CASE("einsum of three or more operands of mixed types computes in the list's result type") {
    // NumPy casts every operand to the result type of the whole list before it multiplies:
    // np.einsum('i,i,i->', int8 [100, 50], int8 [100, 3], int64 [1, 2]) == 10300 (the int8
    // product 100 * 100 would wrap to 16); np.einsum('i,i,i->i', ...) == [10000, 300] in any
    // operand order; float32 [.1, .2], float32 [.3, .7], float64 [1, 1] -> 0.1700000013411045
    // (one float64 product, where a float32 product of the first two rounds first).
    const tensor<std::int8_t> a = {100, 50};
    const tensor<std::int8_t> b = {100, 3};
    const tensor<std::int64_t> d = {1, 2};
    const auto total = einsum("i,i,i->", a, b, d);
    static_assert(std::is_same_v<value_type_t<decltype(total)>, std::int64_t>);
    CHECK(eval(total).item() == 10300);
    CHECK(array_equal(einsum("i,i,i->i", a, b, d), tensor<std::int64_t>{10000, 300}));
    CHECK(array_equal(einsum("i,i,i->i", d, a, b), tensor<std::int64_t>{10000, 300}));
    CHECK(array_equal(
        einsum("i,j,k->ijk", a, b, d),
        tensor<std::int64_t>{{{10000, 20000}, {300, 600}}, {{5000, 10000}, {150, 300}}}));
    const tensor<float> f1 = {0.1f, 0.2f}, f2 = {0.3f, 0.7f};
    const tensor<double> g = {1.0, 1.0};
    CHECK(eval(einsum("i,i,i->", f1, f2, g)).item() == 0x1.5c28f5f0a3d70p-3);
    // One type throughout: the product wraps in that type, as NumPy's.
    CHECK(eval(einsum("i,i,i->", a, b, a)).item() == -116); // np.einsum(.., a, b, a): int8 -116
}
