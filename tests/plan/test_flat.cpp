// The flat plan (plan/make_plan.hpp, plan_flat): an element-wise expression whose every tensor
// has the destination's shape and row-major layout is one contiguous loop, decided before the
// general walk. Its results equal the general walk's bit for bit (planning::flat_plans_enabled
// off forces the walk), everything else is planned by the walk, explain marks it, and planning
// or evaluating an element-wise assignment into an existing tensor allocates nothing.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../counting_new.hpp"
#include "../exec/support.hpp"
#include "../explain_text.hpp"

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
    const auto a = counting<float>({64, 49}, 1), b = counting<float>({64, 49}, 2);
    const auto c = counting<float>({64, 49}, 3);
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
    check<float>(fusor::reshape(a, {49, 64}) + fusor::reshape(b, {49, 64}), true);
}

TEST_CASE("anything else takes the general walk") {
    const auto a = counting<float>({64, 49}, 1), b = counting<float>({64, 49}, 2);
    check<float>(a + counting<float>({49}, 3), false);                       // a broadcast operand
    check<float>(a + fusor::transpose(counting<float>({49, 64}, 4)), false); // strided operand
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
    const auto a = counting<float>({64, 49}, 1), b = counting<float>({64, 49}, 2);
    // Writing a transposed view of the destination.
    fusor::tensor<float> t({49, 64}, fusor::uninitialized);
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
    fusor::tensor<float> x = counting<float>({65, 49}, 7);
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
    const auto a = counting<float>({64, 49}, 1), b = counting<float>({64, 49}, 2);
    const auto e = fusor::explain(a * b + 1.0f);
    CHECK(explain_text::one_line(e.text()).find(
              "kernel:  contiguous (flat: every tensor of the output's shape and layout)")
          != std::string::npos);
    CHECK(e.json().find("\"flat\":true") != std::string::npos);
    // The tree still shows every operand's strides over the iteration space.
    CHECK(explain_text::one_line(e.text()).find("strides (49, 1) offset 0") != std::string::npos);
    const auto r = fusor::explain(a + counting<float>({49}, 3));
    CHECK(explain_text::one_line(r.text()).find("flat:") == std::string::npos);
    CHECK(r.json().find("\"flat\":false") != std::string::npos);
}

namespace {
// `dest` = e as the row-broadcast case (or not, as `rows` says) and by the general walk: the
// same bits. `dest` is a fresh tensor of `e`'s shape.
template <class D, class E>
void check_rows(const E& e, bool rows) {
    fusor::tensor<D> quick(e.shape(), fusor::uninitialized);
    fusor::tensor<D> walked(e.shape(), fusor::uninitialized);
    const auto& n = fusor::detail::operand_for<D>(e);
    const auto p = fusor::make_plan(n, fusor::detail::layout_of(quick.view()));
    CHECK(p.flat_rows == rows);
    CHECK_FALSE(p.flat);
    quick.view() = e;
    {
        general_walk_only walk;
        CHECK_FALSE(fusor::make_plan(n, fusor::detail::layout_of(walked.view())).flat_rows);
        walked.view() = e;
    }
    CHECK(same_bits(quick, walked));
}
} // namespace

TEST_CASE("a row read again for every row: the flat loop per row, with the general walk's bits") {
    const auto a = counting<float>({64, 49}, 1), row = counting<float>({49}, 2);
    check_rows<float>(a * row + 1.0f, true);
    check_rows<float>(row - a, true);
    check_rows<double>(a * counting<float>({1, 49}, 3), true); // leading 1s
    check_rows<float>(row * 2.0f + a * row, true);             // one row read twice
    const auto a3 = counting<float>({4, 5, 6}, 4);
    check_rows<float>(a3 + counting<float>({5, 6}, 5), true); // a row of the last two axes
    check_rows<float>(a3 * counting<float>({6}, 6) + counting<float>({6}, 7), true);
    const auto i = counting<std::int32_t>({6, 7}, 8);
    check_rows<std::int32_t>(fusor::floor_divide(i, counting<std::int32_t>({7}, 9)), true);
    // A plan of two levels whose rows are views: a contiguous slice is a row, a strided one not.
    const auto wide = counting<float>({2, 49}, 10);
    check_rows<float>(a + fusor::view(wide, 1), true);
    check_rows<float>(a + fusor::view(counting<float>({98}, 11), fusor::slice(0, 98, 2)), false);
    // Not rows: rows of two lengths, a 0-d operand, one row of output.
    check_rows<float>(a3 + counting<float>({5, 6}, 5) + counting<float>({6}, 6), false);
    check_rows<float>(a * fusor::eval(fusor::sum(row)), false);
    check_rows<float>(counting<float>({1, 49}, 13) + row, false);
    // Vector math or the thread split: the general walk's plan runs.
    const bool sleef = FUSOR_VECTOR_MATH != 0;
    check_rows<float>(fusor::exp(a) * row, !sleef);
    const index_t n = fusor::parallel_threshold;
    const auto big = counting<float>({n / 64, 64}, 14), big_row = counting<float>({64}, 15);
    check_rows<float>(big * big_row, false);
}

// A column: one element per row (shape (rows, 1), or extent 1 on the row's axes), splatted per
// row. The general walk holds a single still operand in a register; the flat loop splats it.
TEST_CASE("a column read once per row: the flat loop per row, with the general walk's bits") {
    const auto a = counting<float>({64, 49}, 1), row = counting<float>({49}, 2);
    const auto m = counting<float>({64, 1}, 3), s = counting<float>({64, 1}, 4);
    check_rows<float>(a - m, true);         // one column (the walk holds it)
    check_rows<float>((a - m) * s, true);   // two columns
    check_rows<float>(a * m + row, true);   // a column and a row
    check_rows<float>(m * row, true);       // an outer product: no tensor of the output's
    check_rows<double>(a * m - 1.0f, true); // float64 destination
    const auto a3 = counting<float>({4, 5, 6}, 5);
    check_rows<float>(a3 - counting<float>({4, 5, 1}, 6), true); // rows of the last axis
    check_rows<float>(a3 * counting<float>({4, 1, 1}, 7), true); // rows of the last two
    check_rows<float>(a3 * counting<float>({4, 1, 1}, 7) + counting<float>({5, 6}, 8), true);
    const auto wide = counting<float>({64, 3}, 9);
    check_rows<float>(a - fusor::view(wide, fusor::all, fusor::slice(1, 2)), false); // strided
    const auto run = counting<float>({64}, 10);
    check_rows<float>(a - fusor::view(run, fusor::all, fusor::newaxis), true); // a view, (64, 1)
    // Not columns: another rank, rows and columns of different axes, a (1, 1), rows longer than
    // a broadcast block.
    check_rows<float>(a3 - counting<float>({5, 1}, 11), false);
    check_rows<float>(a3 * counting<float>({4, 5, 1}, 12) + counting<float>({5, 6}, 8), false);
    check_rows<float>(a - counting<float>({1, 1}, 13), false);
    const index_t long_row = fusor::broadcast_block + 1;
    check_rows<float>(counting<float>({3, long_row}, 14) - counting<float>({3, 1}, 15), false);
}

TEST_CASE("a column that overlaps the destination is left to the walk's overlap rule") {
    fusor::tensor<float> x = counting<float>({8, 8}, 1);
    const auto c0 = fusor::view(fusor::view(x, 0), fusor::all, fusor::newaxis); // x's row 0, (8, 1)
    CHECK_FALSE(fusor::make_plan(x - c0, fusor::detail::layout_of(x.view())).flat_rows);
    const fusor::tensor<float> expected = fusor::eval(x - c0);
    x = x - c0;
    CHECK(same_bits(x, expected));
}

TEST_CASE("explain names a flat column's splat, and the loop that runs is the one it names") {
    const auto a = counting<float>({64, 49}, 1), m = counting<float>({64, 1}, 2);
    fusor::tensor<float> out(shape_t{64, 49});
    const auto e = fusor::explain(out, a - m);
    CHECK(explain_text::one_line(e.text()).find(
              "kernel:  broadcast (stride 0: t1, splatted per row; flat rows and "
              "columns)")
          != std::string::npos);
    CHECK(e.json().find("\"flat_rows\":true") != std::string::npos);
    const auto p = fusor::make_plan(a - m, fusor::detail::layout_of(out.view()));
    CHECK(p.kernel == fusor::inner_kernel::broadcast);
    CHECK(p.held_operand == -1);
    {
        general_walk_only walk; // the walk alone holds the one still operand
        CHECK(fusor::make_plan(a - m, fusor::detail::layout_of(out.view())).held_operand >= 0);
    }
}

TEST_CASE("a row broadcast that overlaps the destination is left to the walk's overlap rule") {
    fusor::tensor<float> x = counting<float>({8, 8}, 1);
    const auto r0 = fusor::view(x, 0); // row 0 of x, overwritten by the first row of the loop
    CHECK_FALSE(fusor::make_plan(x * r0, fusor::detail::layout_of(x.view())).flat_rows);
    const fusor::tensor<float> expected = fusor::eval(x * r0);
    x = x * r0;
    CHECK(same_bits(x, expected));
}

TEST_CASE("explain marks flat rows in its text and JSON, and never reports them cached") {
    const auto a = counting<float>({64, 49}, 1), row = counting<float>({49}, 2);
    fusor::tensor<float> out(shape_t{64, 49});
    out = a * row;
    const auto e = fusor::explain(out, a * row);
    CHECK(explain_text::one_line(e.text()).find(
              "kernel:  contiguous (flat rows: each tensor the output's shape, or a row)")
          != std::string::npos);
    CHECK(e.json().find("\"flat_rows\":true") != std::string::npos);
    CHECK_FALSE(e.cached);
}

namespace {
// `dest` = r as the flat reduction (or not, as `flat` says) and by the general walk: the same
// bits, and the flat plan decides what the walk's plan decides (one contiguous level, the same
// register accumulation).
template <class E>
void check_reduction(const E& r, bool flat, bool columns = false) {
    using D = fusor::value_type_t<E>;
    fusor::tensor<D> quick(r.shape(), fusor::uninitialized);
    fusor::tensor<D> walked(r.shape(), fusor::uninitialized);
    const auto layout = fusor::detail::layout_of(quick.view());
    const fusor::destination_ref d{
        layout.shape, layout.strides, layout.address, layout.dtype, layout.itemsize};
    fusor::flat_plan f;
    REQUIRE(fusor::planning::is_flat_reduction(r, d, f) == flat);
    CHECK(fusor::make_plan(r, layout).flat_reduction == flat);
    quick.view() = r;
    {
        general_walk_only walk;
        const auto p = fusor::make_plan(r, layout);
        CHECK_FALSE(p.flat_reduction);
        if (flat) {
            CHECK(p.levels() == (f.rows > 1 ? 2 : 1));
            CHECK(p.extents[0] == (f.rows > 1 ? f.rows : f.cols));
            CHECK(p.extents.back() == f.cols);
            // Columns stand still in the inner loop: the walk's broadcast kernel.
            CHECK(p.kernel
                  == (columns ? fusor::inner_kernel::broadcast : fusor::inner_kernel::contiguous));
            CHECK((f.column != 0) == columns);
            // With columns the flat reduction takes its runs 8 per pass (pairwise_rows, each
            // pass's columns splatted run after run) where the walk's broadcast kernel takes
            // them one at a time: the same lanes per run, so the same bits (checked below).
            if (columns
                && (f.reduction == fusor::reduce_kernel::pairwise_rows
                    || f.reduction == fusor::reduce_kernel::pairwise_rows_simd))
                CHECK(p.reduction == fusor::reduce_kernel::pairwise);
            else
                CHECK(p.reduction == f.reduction);
            CHECK(p.threads == 1);
        }
        walked.view() = r;
    }
    CHECK(same_bits(quick, walked));
}
} // namespace

TEST_CASE("a reduction of a flat operand to one element is one run, with the general walk's bits") {
    const auto a = counting<float>({64, 49}, 1), b = counting<float>({64, 49}, 2);
    check_reduction(fusor::sum(a * b), true);                      // pairwise
    check_reduction(fusor::sum(counting<double>({100}, 3)), true); // compensated
    check_reduction(fusor::mean(a * 2.0f - b), true);              // finalize: / n
    check_reduction(fusor::max(a - b), true);                      // minmax_simd
    check_reduction(fusor::min(counting<float>({40}, 4)), true);   // under 64: lanes
    check_reduction(fusor::argmax(a * b), true);                   // flat index, minmax_simd
    check_reduction(fusor::argmin(counting<float>({7}, 5)), true); // sequential
    check_reduction(fusor::prod(counting<float>({20}, 6)), true);  // lanes
    check_reduction(fusor::all(a > b), true);
    check_reduction(fusor::sum(counting<std::int32_t>({5, 7}, 7)), true);
    check_reduction(fusor::sum(a, fusor::keepdims), true);                 // into (1, 1)
    check_reduction(fusor::sum(fusor::view(a, fusor::slice(3, 9))), true); // a contiguous view
    // The last axes: a run per result element.
    check_reduction(fusor::sum(a, 1), true);                             // 64 pairwise runs of 49
    check_reduction(fusor::sum(a * b, -1, fusor::keepdims), true);       // into (64, 1)
    check_reduction(fusor::max(counting<float>({4, 100}, 11), 1), true); // minmax_simd rows
    check_reduction(fusor::argmax(a - b, 1), true);                      // an index per row
    check_reduction(fusor::mean(counting<double>({3, 4, 5}, 12), {1, 2}), true);
    check_reduction(fusor::any(counting<std::int32_t>({6, 7}, 13) > 3, 1), true);
    // Not flat: a leading axis, a broadcast operand, a strided operand, one element per
    // result, one element, above the parallel threshold.
    check_reduction(fusor::sum(a, 0), false);
    check_reduction(fusor::sum(counting<double>({3, 4, 5}, 12), {0, 2}), false);
    check_reduction(fusor::sum(counting<float>({6, 1}, 14), 1), false);
    check_reduction(fusor::sum(a * counting<float>({49}, 8)), false);
    check_reduction(fusor::sum(fusor::transpose(a)), false);
    check_reduction(fusor::sum(counting<float>({1}, 9)), false);
    const index_t n = fusor::parallel_threshold;
    check_reduction(fusor::sum(counting<float>({n}, 10)), false);
}

// A column (one element per run, extent 1 on the reduced axes) in a sum or mean: splatted per
// run, each run summed alone, as the walk's blocked sums take it (the variance's
// `sum((x - m) * (x - m), 1)`).
TEST_CASE("a sum whose operand reads columns is a run per result, with the general walk's bits") {
    const auto a = counting<float>({64, 49}, 1), row = counting<float>({49}, 2);
    const auto m = counting<float>({64, 1}, 3), s = counting<float>({64, 1}, 4);
    check_reduction(fusor::sum(a - m, 1), true, true);                              // pairwise
    check_reduction(fusor::sum((a - m) * (a - m), 1, fusor::keepdims), true, true); // into (64, 1)
    check_reduction(fusor::mean((a - m) * s, -1), true, true);                      // two columns
    check_reduction(fusor::sum(a * m), false); // every axis: m is no column of one run
    const auto x = counting<double>({8, 20}, 5);
    check_reduction(fusor::sum(x - counting<double>({8, 1}, 6), 1), true, true); // compensated
    const auto a3 = counting<float>({4, 5, 6}, 7);
    check_reduction(fusor::sum(a3 * counting<float>({4, 1, 1}, 8), {1, 2}), true, true);
    check_reduction(fusor::sum(a3 - counting<float>({4, 5, 1}, 9), 2), true, true);
    const auto run = counting<float>({64}, 10);
    check_reduction(fusor::sum(a - fusor::view(run, fusor::all, fusor::newaxis), 1), true, true);
    const auto wide = counting<float>({64, 3}, 11);
    check_reduction(fusor::sum(a - fusor::view(wide, fusor::all, fusor::slice(1, 2)), 1), false);
    // Not flat: not an additive reducer, a (1, 1), a row, columns of other axes, runs longer
    // than a broadcast block, vector math (SLEEF in the walk's blocks).
    check_reduction(fusor::max(a - m, 1), false);
    check_reduction(fusor::sum(a - counting<float>({1, 1}, 12), 1), false);
    check_reduction(fusor::sum(a * row - m, 1), false);
    check_reduction(fusor::sum(a3 - counting<float>({4, 1, 1}, 8), 2), false);
    const index_t long_run = fusor::broadcast_block + 1;
    check_reduction(fusor::sum(counting<float>({3, long_run}, 13) - counting<float>({3, 1}, 14), 1),
                    false);
    if (FUSOR_VECTOR_MATH != 0)
        check_reduction(fusor::sum(fusor::exp(a - m), 1), false);
}

TEST_CASE("explain names a flat reduction's column splat (explain.executed runs it)") {
    const auto a = counting<float>({64, 49}, 1), m = counting<float>({64, 1}, 2);
    fusor::tensor<float> out(shape_t{64});
    const auto e = fusor::explain(out, fusor::sum((a - m) * (a - m), 1));
    CHECK(explain_text::one_line(e.text()).find(
              "kernel:  broadcast (stride 0: t1, t1', splatted per run; flat runs and "
              "columns)")
          != std::string::npos);
    CHECK(e.json().find("\"flat_reduction\":true") != std::string::npos);
}

TEST_CASE("a temporary that is a flat reduction runs as one, with the general walk's bits") {
    const auto x = counting<float>({8, 16}, 11);
    const auto m = counting<float>({8, 1}, 12);
    using fusor::keepdims;
    // A row softmax's max (and the sum it feeds, whose operand calls exp: not flat); a mean
    // whose operand reads a column (m, one element per row).
    const auto softmax = fusor::exp(x - fusor::max(x, 1, keepdims))
                         / fusor::sum(fusor::exp(x - fusor::max(x, 1, keepdims)), 1, keepdims);
    const auto centred = x - fusor::mean(x * 2.0f - m, 1, keepdims);
    const auto run = [](const auto& e, bool flat, bool columns) {
        fusor::tensor<float> out(e.shape(), fusor::uninitialized);
        const fusor::loop_plan p = fusor::make_plan(e, fusor::detail::layout_of(out.view()));
        REQUIRE(!p.boundaries.empty());
        const fusor::loop_plan& first = *p.boundaries.front().plan;
        CHECK(first.flat_reduction == flat);
        if (flat) {
            CHECK(first.flat_runs.rows == 8);
            CHECK(first.flat_runs.cols == 16);
            CHECK((first.flat_runs.column != 0) == columns);
        }
        out = e;
        return out;
    };
    for (int repeat = 0; repeat < 2; ++repeat) { // the second time from the plan cache
        const fusor::tensor<float> a = run(softmax, true, false);
        const fusor::tensor<float> c = run(centred, true, true);
        general_walk_only walk; // its plans are not the cached ones (the key holds the hook)
        CHECK(same_bits(a, run(softmax, false, false)));
        CHECK(same_bits(c, run(centred, false, true)));
    }
}

TEST_CASE("a row reduction into the operand's own memory is left to the walk, which reads first") {
    // Each result element is written as soon as its run is reduced, so a destination that
    // overlaps the operand takes the general walk (every accumulator finalized after the loop).
    fusor::tensor<float> x = counting<float>({8, 8}, 1);
    const fusor::tensor<float> expected = fusor::eval(fusor::sum(x, 1));
    auto row0 = fusor::view(x, 0);
    const auto layout = fusor::detail::layout_of(row0);
    CHECK_FALSE(fusor::make_plan(fusor::sum(x, 1), layout).flat_reduction);
    row0 = fusor::sum(x, 1);
    CHECK(same_bits(fusor::eval(row0), expected));
    // A destination the result broadcasts into is not the result's shape: the walk, too.
    fusor::tensor<float> wide(shape_t{3, 8});
    const auto s = fusor::sum(x, 1);
    CHECK_FALSE(fusor::make_plan(s, fusor::detail::layout_of(wide.view())).flat_reduction);
}

TEST_CASE("explain marks the flat reduction, and item() of a reduction allocates nothing") {
    const auto a = counting<float>({64, 49}, 1), b = counting<float>({64, 49}, 2);
    fusor::tensor<float> s(shape_t{});
    s = fusor::sum(a * b);
    const auto e = fusor::explain(s, fusor::sum(a * b));
    CHECK(explain_text::one_line(e.text()).find(
              "kernel:  contiguous (flat runs: every tensor of the operand's shape)")
          != std::string::npos);
    CHECK(e.json().find("\"flat_reduction\":true") != std::string::npos);
    CHECK_FALSE(e.cached);
    const float expected = fusor::eval(fusor::sum(a * b)).item();
    const long before = allocations.load();
    const float got = fusor::sum(a * b).item();
    const double as_double = static_cast<double>(fusor::max(a - b));
    CHECK(allocations.load() - before == 0);
    CHECK(got == expected);
    CHECK(as_double == static_cast<double>(fusor::eval(fusor::max(a - b)).item()));
}

// A result of up to 32 bytes lives inside its tensor (tensor::inline_capacity): a 0-d one from
// eval, the float32 (8, 1) reductions below. Checked mode adds a storage token per tensor.
TEST_CASE("eval of a full reduction allocates nothing" * doctest::skip(FUSOR_CHECKED != 0)) {
    const auto a = counting<float>({64, 49}, 1), b = counting<float>({64, 49}, 2);
    const auto top = counting<float>({8, 49}, 3);
    const float expected = fusor::sum(a * b).item();
    const long before = allocations.load();
    const fusor::tensor<float> s = fusor::eval(fusor::sum(a * b));
    const fusor::tensor<float> col = fusor::eval(fusor::max(top, 1, fusor::keepdims));
    CHECK(allocations.load() - before == 0);
    CHECK(s.item() == expected);
    CHECK(col.shape() == shape_t{8, 1});
}

// A row softmax at a size below the row blocks' threshold runs the ordinary plan: each of its two
// reductions (the max, computed once and read twice, and the sum) is a temporary the evaluator
// reads through a shared owner. The first evaluation allocates the two owners (the (8, 1)
// float32 results themselves, 32 bytes, live inside their tensors); evaluated again, it takes
// them from this thread's pool (exec/temporary_pool.hpp), and the list of them lives in place
// (exec::temporary_cache): nothing is allocated. Checked mode adds a storage token per tensor:
// skipped there.
TEST_CASE("a row softmax evaluated again allocates nothing" * doctest::skip(FUSOR_CHECKED != 0)) {
    // (256, 4): 256 row statistics, whose sum's accumulators (more than the 64 on the stack)
    // come from the scratch pool.
    for (const shape_t& shape : {shape_t{8, 16}, shape_t{256, 4}}) {
        CAPTURE(shape[0]);
        const auto x = counting<float>(shape, 10);
        fusor::tensor<float> out(shape);
        const auto softmax = [&] {
            out =
                fusor::exp(x - fusor::max(x, 1, fusor::keepdims))
                / fusor::sum(fusor::exp(x - fusor::max(x, 1, fusor::keepdims)), 1, fusor::keepdims);
        };
        softmax(); // plans, caches the plan and pools the temporaries
        const fusor::tensor<float> first = out;
        const long before = allocations.load();
        softmax();
        CHECK(allocations.load() - before == 0);
        CHECK(same_bits(out, first));
    }
}

// Every temporary this thread's pool keeps, its elements overwritten with NaN: an evaluation
// that took one and read an element before writing it would show it.
template <class T>
void poison_pooled_temporaries() {
    for (auto& kept : fusor::exec::detail::thread_temporary_pool<T>().kept)
        if (kept)
            std::fill(
                kept->data(), kept->data() + kept->size(), std::numeric_limits<T>::quiet_NaN());
}

// Softmax of `x` (rows, cols) along `axis`, in double, one element at `(i, j)`.
double softmax_at(const fusor::tensor<float>& x, int axis, index_t i, index_t j) {
    const index_t n = x.shape()[static_cast<std::size_t>(axis)];
    const auto at = [&](index_t k) {
        return static_cast<double>(axis == 1 ? x(i, k) : x(k, j));
    };
    double m = at(0), s = 0;
    for (index_t k = 1; k < n; ++k)
        m = std::max(m, at(k));
    for (index_t k = 0; k < n; ++k)
        s += std::exp(at(k) - m);
    return std::exp(static_cast<double>(x(i, j)) - m) / s;
}
// Every element of `got` within 1e-6 (float32 exp, a sum of 16, a division: a few float32 ulps
// of values in (0, 1]) of softmax_at.
void check_softmax(const fusor::tensor<float>& got, const fusor::tensor<float>& x, int axis) {
    for (index_t i = 0; i < x.shape()[0]; ++i)
        for (index_t j = 0; j < x.shape()[1]; ++j)
            CHECK(std::abs(static_cast<double>(got(i, j)) - softmax_at(x, axis, i, j)) < 1e-6);
}

// Pooled temporaries change no result: two softmaxes whose temporaries have as many elements in
// other shapes ((8, 1) and (1, 8)), evaluated in turn, each taking the other's, are right and
// give the first evaluations' bits, the pool poisoned before each; so is a tree with more small
// temporaries than the pool keeps.
TEST_CASE("pooled temporaries give the bits of fresh ones") {
    const auto x = counting<float>({8, 16}, 10), y = counting<float>({16, 8}, 11);
    fusor::tensor<float> ox(shape_t{8, 16}), oy(shape_t{16, 8});
    const auto by_rows = [&] {
        ox = fusor::exp(x - fusor::max(x, 1, fusor::keepdims))
             / fusor::sum(fusor::exp(x - fusor::max(x, 1, fusor::keepdims)), 1, fusor::keepdims);
    };
    const auto by_columns = [&] {
        oy = fusor::exp(y - fusor::max(y, 0, fusor::keepdims))
             / fusor::sum(fusor::exp(y - fusor::max(y, 0, fusor::keepdims)), 0, fusor::keepdims);
    };
    by_rows();
    by_columns();
    check_softmax(ox, x, 1);
    check_softmax(oy, y, 0);
    const fusor::tensor<float> fx = ox, fy = oy;
    for (int k = 0; k < 3; ++k) {
        ox = 0.0f;
        oy = 0.0f;
        poison_pooled_temporaries<float>();
        by_columns();
        poison_pooled_temporaries<float>();
        by_rows();
        CHECK(same_bits(ox, fx));
        CHECK(same_bits(oy, fy));
    }
    // Ten reductions of four elements each: ten small temporaries in one evaluation.
    const auto z = counting<double>({4, 10}, 12);
    fusor::tensor<double> sums(shape_t{4});
    const auto many = [&] {
        sums = fusor::sum(z, 1) + fusor::max(z, 1) + fusor::min(z, 1) + fusor::mean(z, 1)
               + fusor::prod(z, 1) + fusor::sum(z * 2.0, 1) + fusor::max(z * 3.0, 1)
               + fusor::min(z - 1.0, 1) + fusor::mean(z + 1.0, 1) + fusor::sum(z * z, 1);
    };
    many();
    for (index_t i = 0; i < 4; ++i) { // integers but the means: exact, or within 1e-12
        double sum = 0, top = z(i, 0), bottom = z(i, 0), prod = 1, sum_sq = 0, top3 = 3 * z(i, 0);
        for (index_t j = 0; j < 10; ++j) {
            const double v = z(i, j);
            sum += v;
            top = std::max(top, v);
            bottom = std::min(bottom, v);
            prod *= v;
            sum_sq += v * v;
            top3 = std::max(top3, 3 * v);
        }
        const double want = sum + top + bottom + sum / 10 + prod + 2 * sum + top3 + (bottom - 1)
                            + (sum / 10 + 1) + sum_sq;
        CHECK(std::abs(sums(i) - want) <= 1e-12 * std::abs(want));
    }
    const fusor::tensor<double> first = sums;
    for (int k = 0; k < 2; ++k) {
        sums = 0.0;
        poison_pooled_temporaries<double>();
        many();
        CHECK(same_bits(sums, first));
    }
}

TEST_CASE("an element-wise assignment into an existing tensor allocates nothing, up to rank 6") {
    const auto a = counting<float>({64, 49}, 1), b = counting<float>({64, 49}, 2);
    const auto row = counting<float>({49}, 3);
    fusor::tensor<float> out(shape_t{64, 49});
    const auto a6 = counting<float>({2, 3, 2, 3, 2, 3}, 4), b6 = counting<float>({3}, 5);
    fusor::tensor<float> out6(shape_t{2, 3, 2, 3, 2, 3});
    const auto t = counting<float>({49, 64}, 6);
    const auto tt = fusor::transpose(t); // building a view allocates (its index map): not counted
    long before = allocations.load();
    out = a * b + 1.0f; // flat
    CHECK(allocations.load() - before == 0);
    before = allocations.load();
    out = a * row - b; // a row broadcast: the flat loop per row
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
    const auto p = fusor::make_plan(a * col - b, fusor::detail::layout_of(out.view()));
    CHECK(allocations.load() - before == 0);
    CHECK_FALSE(p.flat);
    CHECK(p.flat_rows); // a column: the flat loop per row, its splat from the pool
    for (int pass = 0; pass < 2; ++pass) {
        before = allocations.load();
        out = a * col - b;
        if (pass == 1)
            CHECK(allocations.load() - before == 0);
    }
}
