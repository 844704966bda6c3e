// The flat plan (plan/make_plan.hpp, plan_flat): an element-wise expression whose every tensor
// has the destination's shape and row-major layout is one contiguous loop, decided before the
// general walk. Its results equal the general walk's bit for bit (planning::flat_plans_enabled
// off forces the walk), everything else is planned by the walk, explain marks it, and planning
// or evaluating an element-wise assignment into an existing tensor allocates nothing.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../counting_new.hpp"
#include "../exec/support.hpp"

namespace {
std::atomic<long> allocations{0};
}
void record_allocation(std::size_t) {
    allocations.fetch_add(1, std::memory_order_relaxed);
}

using fusor::index_t;
using fusor::shape_t;

namespace {

using exec_test::counting;

// Plans every evaluation with the general walk while alive.
struct general_walk_only {
    general_walk_only() { fusor::planning::flat_plans_enabled = false; }
    ~general_walk_only() { fusor::planning::flat_plans_enabled = true; }
};

template <class D, class E>
bool planned_flat(const fusor::tensor_view<D>& dest, const E& e) {
    return fusor::make_plan(e, fusor::detail::layout_of(dest)).flat;
}

template <class T>
bool same_bits(const fusor::tensor<T>& a, const fusor::tensor<T>& b) {
    return a.shape() == b.shape()
           && std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(T)) == 0;
}

// `dest` (a fresh tensor of `e`'s shape) = e, both ways: the plan is flat or not as `flat`
// says, and the flat plan and the general walk write the same bits.
template <class D, class E>
void check(const E& e, bool flat) {
    fusor::tensor<D> quick(e.shape(), fusor::uninitialized);
    fusor::tensor<D> walked(e.shape(), fusor::uninitialized);
    const auto& n = fusor::detail::operand_for<D>(e);
    CHECK(planned_flat(quick.view(), n) == flat);
    quick.view() = e;
    {
        general_walk_only walk;
        CHECK_FALSE(planned_flat(walked.view(), n));
        walked.view() = e;
    }
    CHECK(same_bits(quick, walked));
}

} // namespace

TEST_CASE("same-shape contiguous expressions are one flat loop, with the general walk's bits") {
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

TEST_CASE("anything else takes the general walk") {
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
    // A reduction at the root never is.
    fusor::tensor<float> s({64}, fusor::uninitialized);
    CHECK_FALSE(planned_flat(s.view(), fusor::sum(a * b, 1)));
}

TEST_CASE("the destination: strided views and overlap take the walk, in place does not") {
    const auto a = counting<float>({64, 33}, 1), b = counting<float>({64, 33}, 2);
    // Writing a transposed view of the destination.
    fusor::tensor<float> t({33, 64}, fusor::uninitialized);
    CHECK_FALSE(planned_flat(fusor::transpose(t), a + b));
    // In place: every element reads what it overwrites, so no copy is needed (NumPy's rule).
    auto quick = a, walked = a;
    CHECK(planned_flat(quick.view(), quick * b + 1.0f));
    quick = quick * b + 1.0f;
    {
        general_walk_only walk;
        walked = walked * b + 1.0f;
    }
    CHECK(same_bits(quick, walked));
    // Reading the destination one row further on: NumPy's overlap rule copies first.
    fusor::tensor<float> x = counting<float>({65, 33}, 7);
    auto top = fusor::view(x, fusor::slice(0, 64));
    const auto bottom = fusor::view(x, fusor::slice(1, 65));
    CHECK_FALSE(planned_flat(top, bottom * 2.0f));
    const fusor::tensor<float> expected = fusor::eval(bottom * 2.0f);
    top = bottom * 2.0f;
    CHECK(same_bits(fusor::eval(top), expected));
}

TEST_CASE("above the parallel threshold a flat loop is split like any other") {
    const index_t n = fusor::parallel_threshold; // 65536 elements
    const auto a = counting<float>({n / 64, 64}, 1), b = counting<float>({n / 64, 64}, 2);
    fusor::tensor<float> out({n / 64, 64}, fusor::uninitialized);
    fusor::set_num_threads(2);
    const auto p = fusor::make_plan(a + b, fusor::detail::layout_of(out.view()));
    CHECK(p.flat);
    CHECK(p.threads == (fusor::num_threads() > 1 ? 2 : 1)); // 1 without the threading option
    check<float>(a * b - a, true);
    fusor::set_num_threads(1);
    CHECK(fusor::make_plan(a + b, fusor::detail::layout_of(out.view())).threads == 1);
    fusor::set_num_threads(2);
}

TEST_CASE("explain marks the flat plan in its text and JSON") {
    const auto a = counting<float>({64, 33}, 1), b = counting<float>({64, 33}, 2);
    const auto e = fusor::explain(a * b + 1.0f);
    CHECK(e.text().find("kernel:  contiguous (flat: every tensor of the output's shape and layout)")
          != std::string::npos);
    CHECK(e.json().find("\"flat\":true") != std::string::npos);
    // The tree still shows every operand's strides over the iteration space.
    CHECK(e.text().find("strides (33, 1) offset 0") != std::string::npos);
    const auto r = fusor::explain(a + counting<float>({33}, 3));
    CHECK(r.text().find("flat:") == std::string::npos);
    CHECK(r.json().find("\"flat\":false") != std::string::npos);
}

TEST_CASE("an element-wise assignment into an existing tensor allocates nothing, up to rank 6") {
    const auto a = counting<float>({64, 33}, 1), b = counting<float>({64, 33}, 2);
    const auto row = counting<float>({33}, 3);
    fusor::tensor<float> out(shape_t{64, 33});
    const auto a6 = counting<float>({2, 3, 2, 3, 2, 3}, 4), b6 = counting<float>({3}, 5);
    fusor::tensor<float> out6(shape_t{2, 3, 2, 3, 2, 3});
    const auto t = counting<float>({33, 64}, 6);
    const auto tt = fusor::transpose(t); // building a view allocates (its index map): not counted
    long before = allocations.load();
    out = a * b + 1.0f; // flat
    CHECK(allocations.load() - before == 0);
    before = allocations.load();
    out = a * row - b; // broadcast: the general walk
    CHECK(allocations.load() - before == 0);
    before = allocations.load();
    out6 = a6 * b6 + 2.0f; // rank 6
    CHECK(allocations.load() - before == 0);
    before = allocations.load();
    out += tt; // strided
    CHECK(allocations.load() - before == 0);
    // Kernels with scratch buffers (a splatted operand, vector math, a tile) take them from a
    // per-thread pool: after a first evaluation of the size, none allocates.
    const auto col = counting<float>({64, 1}, 7), one = counting<float>({1, 1}, 8);
    const auto big_t = counting<float>({64, 64}, 9);
    fusor::tensor<float> out64(shape_t{64, 64});
    const auto tt64 = fusor::transpose(big_t);
    for (int pass = 0; pass < 2; ++pass) {
        before = allocations.load();
        out = a + col * one;        // broadcast: two still operands splatted
        out = fusor::exp(a) * 0.5f; // blocked vector math (contiguous without SLEEF)
        out64 = big_t + tt64;       // tiled
        if (pass == 1)
            CHECK(allocations.load() - before == 0);
    }
    before = allocations.load();
    const auto p = fusor::make_plan(a * row - b, fusor::detail::layout_of(out.view()));
    CHECK(allocations.load() - before == 0);
    CHECK_FALSE(p.flat);
}
