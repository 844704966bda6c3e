// Operand lifetimes: assignment that keeps storage (every mode), and checked mode's
// lifetime_error for operands freed, reallocated or reshaped after an expression was built.
// The asan preset (a Debug build: checked mode on) runs this file under AddressSanitizer, so a
// check that let a freed read through fails there even when the values look right.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

using fusor::shape_t;
using fusor::tensor;

TEST_CASE("copy- and move-assignment of an equal-size tensor keep its storage") {
    tensor<double> a = {1.0, 2.0, 3.0};
    const double* storage = a.data();
    auto e = a + 1.0; // refers to a's buffer
    const tensor<double> b = {4.0, 5.0, 6.0};
    a = b;
    CHECK(a.data() == storage);
    tensor<double> r = e;
    CHECK(r(0) == 5.0);
    CHECK(r(2) == 7.0);

    a = tensor<double>{7.0, 8.0, 9.0}; // move-assignment of an rvalue
    CHECK(a.data() == storage);
    r = e;
    CHECK(r(0) == 8.0);

    tensor<double> c = {10.0, 11.0, 12.0};
    a = std::move(c);
    CHECK(a.data() == storage);
    CHECK(c.size() == 3); // equal sizes: copied, so `c` keeps its elements
    r = e;
    CHECK(r(1) == 12.0);

    // Another size: a new buffer, taken in O(1) from an rvalue; the source is left (0,). (More
    // elements than tensor::inline_capacity, so the buffer is on the heap and moves whole.)
    tensor<double> big = {1.0, 2.0, 3.0, 4.0, 5.0};
    const double* big_storage = big.data();
    a = std::move(big);
    CHECK(a.data() == big_storage);
    CHECK(big.shape() == shape_t{0});
    CHECK(big.size() == 0);
}

TEST_CASE("assigning an expression of another shape but the same size keeps the buffer") {
    tensor<double> a = {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}};
    const double* storage = a.data();
    a = fusor::transpose(a) * 10.0; // reads a, writes a: the aliasing copy still applies
    CHECK(a.data() == storage);
    CHECK(a.shape() == shape_t{3, 2});
    CHECK(a(0, 1) == 40.0);
    CHECK(a(2, 0) == 30.0);
    CHECK(a(2, 1) == 60.0);
}

TEST_CASE("re-evaluating over changed operands is lazy evaluation, not an error") {
    // numpy-semantics case 3: `mu` is an expression, so it follows X (docs/semantics.md).
    tensor<double> X = {{1.0, 10.0}, {2.0, 20.0}};
    auto mu = fusor::mean(X, 0);
    X -= mu;
    tensor<double> back = X + mu;
    CHECK(back(0, 0) == -0.5); // mean of the changed X is 0: not NumPy's 1.0
    // The safe spelling: a value.
    tensor<double> Y = {{1.0, 10.0}, {2.0, 20.0}};
    tensor<double> mu_value = fusor::mean(Y, 0);
    Y -= mu_value;
    tensor<double> back_y = Y + mu_value;
    CHECK(back_y(0, 0) == 1.0);
    CHECK(back_y(1, 1) == 20.0);
}

#if FUSOR_CHECKED
namespace {
auto doubled_local() {
    tensor<double> local = {1.0, 2.0, 3.0};
    return local * 2.0; // refers to `local`, destroyed on return
}
auto plus_one(const tensor<double>& t) {
    return t + 1.0;
}

std::string lifetime_message(auto&& evaluate) {
    try {
        evaluate();
    } catch (const fusor::lifetime_error& e) {
        const fusor::error* base = &e; // also a fusor::error and a std::logic_error
        CHECK(base != nullptr);
        return e.what();
    }
    FAIL("no lifetime_error");
    return {};
}
} // namespace

TEST_CASE("checked mode: an expression over a destroyed tensor throws lifetime_error") {
    auto e = doubled_local();
    const std::string m = lifetime_message([&] { tensor<double> r = e; });
    CHECK(m.find("operand 1") != std::string::npos);
    CHECK(m.find("float64 tensor") != std::string::npos);
    CHECK(m.find("was destroyed") != std::string::npos);
    // Every way of evaluating checks first.
    CHECK_THROWS_AS(fusor::eval(e), fusor::lifetime_error);
    CHECK_THROWS_AS((void)e.item(), fusor::lifetime_error);
    CHECK_THROWS_AS(fusor::explain(e), fusor::lifetime_error);
    CHECK_THROWS_AS(fusor::eval_eager(e), fusor::lifetime_error);
    tensor<double> dest(shape_t{3});
    CHECK_THROWS_AS(dest = e, fusor::lifetime_error);
    CHECK_THROWS_AS(dest += e, fusor::lifetime_error);
    CHECK_THROWS_AS(fusor::zeros_like(e), fusor::lifetime_error);

    // A const reference parameter bound to a temporary.
    auto f = plus_one(tensor<double>{1.0, 2.0});
    CHECK(lifetime_message([&] { tensor<double> r = f; }).find("was destroyed")
          != std::string::npos);
}

TEST_CASE("checked mode: the operand is named by its position") {
    tensor<double> a = {1.0, 2.0};
    auto e = [&] {
        tensor<float> gone = {1.0f, 2.0f};
        return a + gone;
    }();
    const std::string m = lifetime_message([&] { tensor<double> r = e; });
    CHECK(m.find("operand 2") != std::string::npos);
    CHECK(m.find("float32 tensor") != std::string::npos);
}

TEST_CASE("checked mode: reallocated, reshaped and moved-from operands") {
    tensor<double> a = {1.0, 2.0, 3.0};
    auto e = a * 2.0;
    a = tensor<double>{1.0, 2.0, 3.0, 4.0};
    CHECK(lifetime_message([&] { tensor<double> r = e; }).find("was reallocated")
          != std::string::npos);

    tensor<double> b = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0};
    auto eb = b + 1.0;
    b.reshape({2, 3});
    CHECK(lifetime_message([&] { tensor<double> r = eb; }).find("was reshaped")
          != std::string::npos);

    tensor<double> c = {1.0, 2.0};
    auto ec = c + 1.0;
    tensor<double> taken = std::move(c);
    CHECK(lifetime_message([&] { tensor<double> r = ec; }).find("was moved from")
          != std::string::npos);
    CHECK(taken.size() == 2);

    // Unchanged operands, and equal-size reassignment, stay valid.
    tensor<double> d = {1.0, 2.0};
    auto ed = d + 1.0;
    d = tensor<double>{5.0, 6.0};
    tensor<double> r = ed;
    CHECK(r(1) == 7.0);
}

TEST_CASE("checked mode: a view over a reassigned tensor") {
    tensor<double> a = {1.0, 2.0, 3.0};
    auto v = fusor::view(a, fusor::slice(0, 2));
    auto e = v * 2.0;
    a.reshape({3, 1}); // a view has its own shape: reshaping the tensor leaves it valid
    tensor<double> ok = e;
    CHECK(ok(1) == 4.0);
    a = tensor<double>(shape_t{5}); // a new buffer
    const std::string m = lifetime_message([&] { tensor<double> r = e; });
    CHECK(m.find("float64 view") != std::string::npos);
    CHECK(m.find("was reallocated") != std::string::npos);
    CHECK_THROWS_AS((void)v.item(), fusor::lifetime_error);
    CHECK_THROWS_AS((void)v.at(0), fusor::lifetime_error);
    CHECK_THROWS_AS(v = 1.0, fusor::lifetime_error);
    CHECK_THROWS_AS(v += 1.0, fusor::lifetime_error);
    auto t = fusor::transpose(fusor::view(a, fusor::slice(0, 2)));
    a = tensor<double>(shape_t{7});
    CHECK_THROWS_AS(fusor::eval(t + 1.0), fusor::lifetime_error);
}

TEST_CASE("checked mode: adapt over a std::vector that grew") {
    std::vector<double> v = {1.0, 2.0, 3.0};
    v.shrink_to_fit();
    auto e = fusor::adapt(v) + 1.0;
    tensor<double> before = e;
    CHECK(before(2) == 4.0);
    v.push_back(4.0); // past the capacity: the elements move
    const std::string m = lifetime_message([&] { tensor<double> r = e; });
    CHECK(m.find("adapted std::vector that reallocated") != std::string::npos);

    std::vector<float> w(6, 1.0f);
    auto ew = fusor::adapt(w, {2, 3}) * 2.0f;
    w.resize(2);
    CHECK(lifetime_message([&] { tensor<float> r = ew; }).find("shrank") != std::string::npos);
}
#else
// Reported as skipped, not passed: the lifetime_error checks need FUSOR_CHECKED (the asan
// preset, a Debug build, runs them).
TEST_CASE("checked mode: lifetime_error (needs FUSOR_CHECKED; this build has NDEBUG)"
          * doctest::skip()) {
}
#endif

TEST_CASE("adapt(std::vector) views its elements; a shape too large throws value_error") {
    std::vector<int> v = {1, 2, 3, 4, 5, 6};
    auto m = fusor::adapt(v, {2, 3});
    CHECK(m.shape() == shape_t{2, 3});
    m(1, 2) = 60;
    CHECK(v[5] == 60);
    CHECK(fusor::adapt(v).shape() == shape_t{6});
    const std::vector<int>& cv = v;
    CHECK(fusor::sum(fusor::adapt(cv)).item() == 1 + 2 + 3 + 4 + 5 + 60);
    CHECK_THROWS_AS(fusor::adapt(v, {4, 2}), fusor::value_error);
}
