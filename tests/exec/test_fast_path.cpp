// The same-shape fast path (exec/fast_path.hpp): the decision taken from the expression before
// planning agrees with the plan's `fast_path` flag on every case below, and what the fast path
// writes equals, bit for bit, what the planned loop writes (a plan observer forces planning).
// explain marks the loop in its text and JSON.
#include <cstdint>
#include <cstring>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "support.hpp"

using fusor::index_t;
using fusor::shape_t;

namespace {

using exec_test::counting;

void no_op_observer(const fusor::loop_plan&) {
}

// Plans every evaluation while alive, so the fast path is never taken.
struct force_planning {
    force_planning() { fusor::detail::plan_observer = &no_op_observer; }
    ~force_planning() { fusor::detail::plan_observer = nullptr; }
};

template <class D, class E>
bool decided_before_planning(const fusor::tensor_view<D>& dest, const E& e) {
    return fusor::exec::fast_path_applies(dest, fusor::as_node(e));
}

template <class D, class E>
bool planned_flag(const fusor::tensor_view<D>& dest, const E& e) {
    return fusor::make_plan(fusor::as_node(e), fusor::detail::layout_of(dest)).fast_path;
}

template <class T>
bool same_bits(const fusor::tensor<T>& a, const fusor::tensor<T>& b) {
    return a.shape() == b.shape()
           && std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(T)) == 0;
}

// `dest` (a fresh tensor of `e`'s shape) = e, both ways: the decision and the plan agree on
// `fast`, and both evaluations write the same bits.
template <class D, class E>
void check(const E& e, bool fast) {
    fusor::tensor<D> quick(e.shape(), fusor::uninitialized);
    fusor::tensor<D> planned(e.shape(), fusor::uninitialized);
    CHECK(decided_before_planning(quick.view(), e) == fast);
    CHECK(planned_flag(quick.view(), e) == fast);
    quick.view() = e;
    {
        force_planning planning;
        planned.view() = e;
    }
    CHECK(same_bits(quick, planned));
}

} // namespace

TEST_CASE("same-shape contiguous expressions take the fast path, with the planned loop's bits") {
    const auto a = counting<float>({64, 33}, 1), b = counting<float>({64, 33}, 2);
    const auto c = counting<float>({64, 33}, 3);
    check<float>(a * b + c, true);
    check<float>((a * b + c * a - b) * 0.5f, true);
    check<double>(a * b + c, true); // element types do not matter: float32 into float64
    check<float>(fusor::exp(a * 0.25f) * fusor::sin(b), true); // SLEEF in blocks either way
    check<float>(fusor::where(a > b, fusor::sqrt(fusor::abs(a)), c), true);
    check<bool>(a > b && b != c, true);
    const auto i = counting<std::int32_t>({5, 7, 9}, 4), j = counting<std::int32_t>({5, 7, 9}, 5);
    check<std::int32_t>(fusor::floor_divide(i, j) + i % 3, true); // j has zeros: NumPy's 0
    check<double>(i / j, true);
    // A contiguous slice of rows is a view of the same shape: still one flat loop.
    const auto rows = fusor::view(a, fusor::slice(10, 42));
    const auto other = fusor::view(b, fusor::slice(0, 32));
    check<float>(rows + other, true);
    // So is a reshape of a contiguous tensor.
    check<float>(fusor::reshape(a, {33, 64}) + fusor::reshape(b, {33, 64}), true);
}

TEST_CASE("anything else is planned") {
    const auto a = counting<float>({64, 33}, 1), b = counting<float>({64, 33}, 2);
    check<float>(a + counting<float>({33}, 3), false);                       // a broadcast operand
    check<float>(a + fusor::transpose(counting<float>({33, 64}, 4)), false); // strided operand
    check<float>(fusor::transpose(a + b), false);                       // a view of an expression
    check<float>(a - fusor::max(a, 1, fusor::keepdims), false);         // a reduction inside
    check<float>(fusor::view(a, fusor::slice(0, 64, 2)) * 2.0f, false); // every other row
    check<float>(counting<float>({1, 1}, 5) * 3.0f, false);             // one element: 0 levels
    check<float>(counting<float>({0, 4}, 6) + 1.0f, false);             // empty
    const auto zero_d = fusor::eval(fusor::sum(a));
    check<float>(zero_d * 2.0f, false);
    // A reduction at the root never does.
    fusor::tensor<float> s({64}, fusor::uninitialized);
    CHECK_FALSE(decided_before_planning(s.view(), fusor::sum(a * b, 1)));
    CHECK_FALSE(planned_flag(s.view(), fusor::sum(a * b, 1)));
}

TEST_CASE("the destination: strided views and overlap are planned, in place is not") {
    const auto a = counting<float>({64, 33}, 1), b = counting<float>({64, 33}, 2);
    // Writing a transposed view of the destination.
    fusor::tensor<float> t({33, 64}, fusor::uninitialized);
    CHECK_FALSE(decided_before_planning(fusor::transpose(t), a + b));
    CHECK_FALSE(planned_flag(fusor::transpose(t), a + b));
    // In place: every element reads what it overwrites, so no copy is needed (NumPy's rule).
    auto quick = a, planned = a;
    CHECK(decided_before_planning(quick.view(), quick * b + 1.0f));
    CHECK(planned_flag(quick.view(), quick * b + 1.0f));
    quick = quick * b + 1.0f;
    {
        force_planning planning;
        planned = planned * b + 1.0f;
    }
    CHECK(same_bits(quick, planned));
    // Reading the destination one row further on: NumPy's overlap rule copies first.
    fusor::tensor<float> x = counting<float>({65, 33}, 7);
    auto top = fusor::view(x, fusor::slice(0, 64));
    const auto bottom = fusor::view(x, fusor::slice(1, 65));
    CHECK_FALSE(decided_before_planning(top, bottom * 2.0f));
    CHECK_FALSE(planned_flag(top, bottom * 2.0f));
    const fusor::tensor<float> expected = fusor::eval(bottom * 2.0f);
    top = bottom * 2.0f;
    CHECK(same_bits(fusor::eval(top), expected));
}

TEST_CASE("above the parallel threshold the loop is planned, unless one thread may run it") {
    const index_t n = fusor::parallel_threshold; // 65536 elements
    const auto a = counting<float>({n / 64, 64}, 1), b = counting<float>({n / 64, 64}, 2);
    fusor::tensor<float> out({n / 64, 64}, fusor::uninitialized);
    fusor::set_num_threads(2);
    const bool several = fusor::num_threads() > 1; // false without the threading option
    CHECK(decided_before_planning(out.view(), a + b) == !several);
    CHECK(planned_flag(out.view(), a + b) == !several);
    fusor::set_num_threads(1);
    CHECK(decided_before_planning(out.view(), a + b));
    CHECK(planned_flag(out.view(), a + b));
    check<float>(a * b - a, true);
    fusor::set_num_threads(2);
    // One below the threshold: always.
    const auto c = counting<float>({n - 1}, 3);
    check<float>(c * c, true);
}

TEST_CASE("explain marks the fast path in its text and JSON") {
    const auto a = counting<float>({64, 33}, 1), b = counting<float>({64, 33}, 2);
    const auto e = fusor::explain(a * b + 1.0f);
    CHECK(e.text().find("kernel:  contiguous (every operand at unit stride; same-shape fast path, "
                        "no plan built)")
          != std::string::npos);
    CHECK(e.json().find("\"fast_path\":true") != std::string::npos);
    const auto r = fusor::explain(a + counting<float>({33}, 3));
    CHECK(r.text().find("fast path") == std::string::npos);
    CHECK(r.json().find("\"fast_path\":false") != std::string::npos);
}
