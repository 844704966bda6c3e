// The planner: loop order, coalescing, per-operand strides (0 on broadcast axes), kernels.
#include <algorithm>
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

using fusor::shape_t;

namespace {
template <class E>
fusor::loop_plan plan_of(const E& e) {
    return fusor::explain(e).plan;
}
} // namespace

TEST_CASE("same-shape contiguous operands coalesce into one flat loop") {
    auto a = fusor::ones<float>({64, 32}), b = fusor::ones<float>({64, 32});
    auto p = plan_of(a * b + 1.0f);
    CHECK(p.extents == shape_t{2048});
    CHECK(p.kernel == fusor::inner_kernel::contiguous);
    CHECK(p.operands.size() == 4); // out, a, b, scalar
    CHECK(p.operands[1].strides == shape_t{1});
}

TEST_CASE("row broadcast (N, M) + (M,) keeps two loops, stride 0 on the outer one") {
    auto a = fusor::ones<float>({8, 16}), r = fusor::ones<float>({16});
    auto p = plan_of(a + r);
    CHECK(p.extents == shape_t{8, 16});
    CHECK(p.operands[2].iter_strides == shape_t{0, 1});
    CHECK(p.operands[2].strides == shape_t{0, 1});
    CHECK(p.kernel == fusor::inner_kernel::contiguous);
}

TEST_CASE("column broadcast (N, M) + (N, 1): stride 0 innermost, broadcast kernel") {
    auto a = fusor::ones<float>({8, 16}), c = fusor::ones<float>({8, 1});
    auto p = plan_of(a + c);
    CHECK(p.extents == shape_t{8, 16});
    CHECK(p.operands[2].strides == shape_t{1, 0});
    CHECK(p.kernel == fusor::inner_kernel::broadcast);
    // A transposed operand beside the stride-0 one: packed tiles (rows of 4 to 64 elements, at
    // least 4 rows), both operands staged; with 3 rows, the strided kernel.
    auto t = fusor::ones<float>({16, 8});
    const auto tiles = plan_of(fusor::transpose(t) + c);
    CHECK(tiles.kernel == fusor::inner_kernel::tiled);
    CHECK(tiles.tile_packed);
    auto t3 = fusor::ones<float>({16, 3}), c3 = fusor::ones<float>({3, 1});
    const auto three = plan_of(fusor::transpose(t3) + c3);
    CHECK(three.kernel == fusor::inner_kernel::strided);
    CHECK_FALSE(three.tile_packed);
    // A sum's register accumulation reads such a run in blocks, the stride-0 operand splatted
    // (kernel_choice.hpp); max/min keep the strided kernel.
    CHECK(plan_of(fusor::sum(a + c, 1)).kernel == fusor::inner_kernel::broadcast);
    CHECK(plan_of(fusor::max(a + c, 1)).kernel == fusor::inner_kernel::strided);
}

TEST_CASE("a (3,4,8) + (1,4,8) case of the seeds: the broadcast operand repeats per outer index") {
    auto a = fusor::ones<float>({3, 4, 8}), b = fusor::ones<float>({1, 4, 8});
    auto p = plan_of(a + b);
    CHECK(p.extents == shape_t{3, 32}); // axes 1 and 2 merge for every operand
    CHECK(p.operands[2].strides == shape_t{0, 1});
    auto q = plan_of(a + fusor::ones<float>({3, 1, 1}));
    CHECK(q.extents == shape_t{3, 32});
    CHECK(q.operands[2].strides == shape_t{1, 0});
}

TEST_CASE("views compose into leaf strides: transpose(a + b) reads a and b transposed") {
    auto a = fusor::ones<double>({4, 6}), b = fusor::ones<double>({4, 6});
    auto p = plan_of(fusor::transpose(a + b));
    CHECK(p.iter_shape == shape_t{6, 4});
    CHECK(p.operands[1].iter_strides == shape_t{1, 6});
    CHECK(p.operands[2].iter_strides == shape_t{1, 6});
    CHECK(p.boundaries.empty()); // no copy
}

TEST_CASE("loops follow the destination's memory order") {
    fusor::tensor<double> c = fusor::zeros<double>({4, 6});
    auto a = fusor::ones<double>({6, 4});
    // Writing a transposed view of c: the destination's strides are (1, 6), so the loop over
    // its axis 1 (stride 6) goes outside.
    auto p = fusor::make_plan(fusor::as_node(a), fusor::detail::layout_of(fusor::transpose(c)));
    CHECK(p.loop_axes.front() == shape_t{1});
    CHECK(p.operands[0].strides == shape_t{6, 1});
}

TEST_CASE("reductions: accumulator stride 0 on reduced axes, index operand for arg") {
    auto a = fusor::ones<float>({8, 16});
    auto rows = plan_of(fusor::sum(a, 1));
    CHECK(rows.reducer == "sum");
    CHECK(rows.extents == shape_t{8, 16});
    CHECK(rows.operands[0].strides == shape_t{1, 0}); // register accumulator innermost
    auto cols = plan_of(fusor::sum(a, 0));
    CHECK(cols.operands[0].strides == shape_t{0, 1}); // a row of accumulators
    auto all = plan_of(fusor::sum(a));
    CHECK(all.extents == shape_t{128});
    auto am = plan_of(fusor::argmax(a, 1));
    CHECK(am.operands.back().kind == fusor::operand_plan::role::index);
    CHECK(am.operands.back().strides == shape_t{0, 1});
    auto flat = plan_of(fusor::argmax(a));
    CHECK(flat.extents == shape_t{128});
    CHECK(flat.operands.back().strides == shape_t{1});
}

TEST_CASE("a reduction inside an expression is a materialisation boundary of its own shape") {
    auto x = fusor::ones<double>({5, 7});
    auto p = plan_of(fusor::exp(x - fusor::max(x, 1, fusor::keepdims)));
    REQUIRE(p.boundaries.size() == 1);
    CHECK(p.boundaries[0].shape == shape_t{5, 1});
    CHECK(p.boundaries[0].bytes == 5 * 8);
    CHECK(p.boundaries[0].plan->reducer == "max");
    CHECK(p.operands[2].kind == fusor::operand_plan::role::temporary);
    CHECK(p.operands[2].strides == shape_t{1, 0});
}

TEST_CASE("extent 0 marks the plan empty; 0-d has no loops") {
    CHECK(plan_of(fusor::zeros<double>({0, 3}) + 1.0).empty);
    auto p = plan_of(fusor::full({}, 1.0) + 1.0);
    CHECK(p.extents.empty());
    CHECK_FALSE(p.empty);
}

namespace {
// A value per element that is not a round number, so every division rounds.
fusor::tensor<double> wavy(const shape_t& s, double phase) {
    fusor::tensor<double> t(s);
    for (fusor::index_t i = 0; i < t.size(); ++i)
        t.data()[i] = std::sin(0.7 * static_cast<double>(i) + phase) * 3.0 + phase;
    return t;
}
// Row lengths for the collapsed kernel's tests: short ones, the first past the old limit of 16,
// the longest that collapses, and one more.
constexpr fusor::index_t collapse_widths[] = {
    2, 3, 8, 17, fusor::collapse_max_cols, fusor::collapse_max_cols + 1};
} // namespace

TEST_CASE("short rows with a row operand run as one loop (collapsed), each element as before") {
    using fusor::index_t;
    // Above parallel_threshold (the general plan): rows of 2 to collapse_max_cols (48) elements
    // collapse, one more do not.
    for (const index_t cols : collapse_widths) {
        CAPTURE(cols);
        const index_t rows = fusor::parallel_threshold / cols + 3;
        const auto x = wavy({rows, cols}, 0.0);
        const auto m = wavy({cols}, 1.0), s = wavy({cols}, 9.0);
        const auto p = plan_of((x - m) / s);
        CHECK(p.kernel
              == (cols <= fusor::collapse_max_cols ? fusor::inner_kernel::collapsed
                                                   : fusor::inner_kernel::contiguous));
        for (const int threads : {1, 2}) {
            fusor::set_num_threads(threads);
            const fusor::tensor<double> z = (x - m) / s;
            bool same = true;
            for (index_t r = 0; r < rows; ++r)
                for (index_t c = 0; c < cols; ++c)
                    same = same
                           && z.data()[r * cols + c]
                                  == (x.data()[r * cols + c] - m.data()[c]) / s.data()[c];
            CHECK(same);
        }
        fusor::set_num_threads(fusor::threads_enabled ? 2 : 1);
        // A math function with a vectorised form: the blocked kernel over the collapsed rows
        // gives the bits of the same function over the same values stored first.
        const fusor::tensor<double> d = x - m;
        const fusor::tensor<double> e = fusor::exp(x - m), stored = fusor::exp(d);
        CHECK(std::equal(e.begin(), e.end(), stored.begin()));
    }
}

TEST_CASE("collapsed: a row per outer index, a still operand, and where rows do not collapse") {
    using fusor::index_t;
    // (3, 25000, 8) + (3, 1, 8): three levels, the row operand changes with the outer index
    // (its block buffer is refilled for each); c (1, 1, 1) stands still in both inner levels.
    const auto x = wavy({3, 25000, 8}, 0.0), w = wavy({3, 1, 8}, 2.0), c = wavy({1, 1, 1}, 5.0);
    const auto p = plan_of(x + w * c);
    CHECK(p.extents == shape_t{3, 25000, 8});
    CHECK(p.kernel == fusor::inner_kernel::collapsed);
    const fusor::tensor<double> y = x + w * c;
    bool same = true;
    for (index_t i = 0; i < 3; ++i)
        for (index_t r = 0; r < 25000; ++r)
            for (index_t k = 0; k < 8; ++k) {
                const index_t at = (i * 25000 + r) * 8 + k;
                same = same && y.data()[at] == x.data()[at] + w.data()[i * 8 + k] * c.data()[0];
            }
    CHECK(same);
    // A destination whose rows are apart (the left half of a wider tensor):
    // its rows do not continue from one to the next, so the loop keeps one loop per row.
    fusor::tensor<double> wide = fusor::zeros<double>({25000, 16});
    auto left = fusor::view(wide, fusor::all, fusor::slice(0, 8));
    const auto x2 = wavy({25000, 8}, 3.0), m = wavy({8}, 4.0);
    const auto q = fusor::make_plan(fusor::as_node(x2 - m), fusor::detail::layout_of(left));
    CHECK(q.kernel == fusor::inner_kernel::contiguous);
    left = x2 - m;
    CHECK(wide(24999, 7) == x2(24999, 7) - m(7));
    CHECK(wide(24999, 8) == 0.0);
}

TEST_CASE("short rows with a column operand run collapsed: each row's element repeated over it") {
    using fusor::index_t;
    for (const index_t cols : collapse_widths) {
        CAPTURE(cols);
        for (const index_t rows : {fusor::parallel_threshold / cols + 3, 1000 / cols + 1}) {
            // Above parallel_threshold the general plan; under it (at least 256 elements) the
            // flat rows case, whose loop runs the same kernel.
            CAPTURE(rows);
            const auto x = wavy({rows, cols}, 0.0), w = wavy({cols}, 7.0);
            const auto m = wavy({rows, 1}, 1.0), s = wavy({rows, 1}, 9.0);
            const auto p = plan_of((x - m) / s);
            // Under the thread threshold rows of 17 to 48 collapse by their bytes (collapses():
            // 17 float64 do, 48 do not).
            const bool collapsed = fusor::collapses(rows, cols, index_t{sizeof(double)});
            CHECK(collapsed
                  == (cols <= 17
                      || (cols <= fusor::collapse_max_cols
                          && rows * cols >= fusor::parallel_threshold)));
            CHECK((p.kernel == fusor::inner_kernel::collapsed) == collapsed);
            if (collapsed) {
                CHECK(explain_text::one_line(fusor::explain(x - m).text())
                          .find("an element per row, repeated over it: t1")
                      != std::string::npos);
                // A row and a column: both repeated.
                CHECK(explain_text::one_line(fusor::explain(x * w - m).text())
                          .find("a row repeated: t1; an element per row, repeated over it: t2")
                      != std::string::npos);
            }
            for (const int threads : {1, 2}) {
                fusor::set_num_threads(threads);
                const fusor::tensor<double> z = (x - m) / s, y = x * w - m;
                bool same = true;
                for (index_t r = 0; r < rows; ++r)
                    for (index_t c = 0; c < cols; ++c) {
                        const index_t at = r * cols + c;
                        same = same && z.data()[at] == (x.data()[at] - m.data()[r]) / s.data()[r]
                               && y.data()[at] == x.data()[at] * w.data()[c] - m.data()[r];
                    }
                CHECK(same);
            }
            fusor::set_num_threads(fusor::threads_enabled ? 2 : 1);
            // A math function with a vectorised form: the blocked kernel over the collapsed
            // rows gives the bits of the same function over the same values stored first.
            const fusor::tensor<double> d = (x - m) / s;
            const fusor::tensor<double> e = fusor::exp((x - m) / s), stored = fusor::exp(d);
            CHECK(std::equal(e.begin(), e.end(), stored.begin()));
        }
    }
}

TEST_CASE("collapsed columns: a strided column, a column per outer index, a float32 softmax") {
    using fusor::index_t;
    // (3, 25000, 8) + m (1, 25000, 1) * c (3, 1, 1): m is a column of the two inner levels, read
    // through a view whose rows are 3 apart; c stands still in both (splatted per outer index).
    const auto x = wavy({3, 25000, 8}, 0.0), c = wavy({3, 1, 1}, 5.0);
    const auto wide = wavy({1, 25000, 3}, 2.0);
    const auto m = fusor::view(wide, fusor::all, fusor::all, fusor::slice(1, 2));
    const auto p = plan_of(x + m * c);
    CHECK(p.extents == shape_t{3, 25000, 8});
    CHECK(p.kernel == fusor::inner_kernel::collapsed);
    const fusor::tensor<double> y = x + m * c;
    bool same = true;
    for (index_t i = 0; i < 3; ++i)
        for (index_t r = 0; r < 25000; ++r)
            for (index_t k = 0; k < 8; ++k) {
                const index_t at = (i * 25000 + r) * 8 + k;
                same = same && y.data()[at] == x.data()[at] + wide.data()[r * 3 + 1] * c.data()[i];
            }
    CHECK(same);
    // A row softmax over rows of 4 (the columns are its reductions' temporaries), float32:
    // every element as two statements compute it.
    fusor::tensor<float> xf(shape_t{20000, 4});
    for (index_t i = 0; i < xf.size(); ++i)
        xf.data()[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)) * 4.0);
    const fusor::tensor<float> fused =
        fusor::exp(xf - fusor::max(xf, 1, fusor::keepdims))
        / fusor::sum(fusor::exp(xf - fusor::max(xf, 1, fusor::keepdims)), 1, fusor::keepdims);
    const fusor::tensor<float> mx = fusor::max(xf, 1, fusor::keepdims);
    const fusor::tensor<float> ex = fusor::exp(xf - mx);
    const fusor::tensor<float> sm = fusor::sum(ex, 1, fusor::keepdims);
    const fusor::tensor<float> two = ex / sm;
    CHECK(std::equal(fused.begin(), fused.end(), two.begin()));
}
