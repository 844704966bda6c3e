// The planner: loop order, coalescing, per-operand strides (0 on broadcast axes), kernels.
#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

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
    // A strided operand beside the stride-0 one: the strided kernel.
    auto t = fusor::ones<float>({16, 8});
    CHECK(plan_of(fusor::transpose(t) + c).kernel == fusor::inner_kernel::strided);
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
