// Fusion, proven by counting allocations: a reduction consumes its element-wise operand inside
// its own loop and never stores it; eager evaluation does store it (which proves the counter).
#include <algorithm>
#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../counting_new.hpp"
#include "../explain_text.hpp"

namespace {
std::size_t largest_allocation = 0;
std::size_t total_allocated = 0;
std::vector<std::size_t>* sizes = nullptr; // every allocation's size, when set
bool counting = false;

void start_counting() {
    largest_allocation = total_allocated = 0;
    counting = true;
}
std::size_t count_of_size(const std::vector<std::size_t>& v, std::size_t n) {
    return static_cast<std::size_t>(std::count(v.begin(), v.end(), n));
}
// What a tensor of `bytes` of elements allocates: they and the zeroed slack after them
// (core/tail_slack.hpp). Raw buffers (a reduction's accumulators) have no slack.
std::size_t tensor_allocation(std::size_t bytes) {
    return bytes + fusor::detail::tail_slack_bytes;
}
} // namespace

void record_allocation(std::size_t n) {
    if (counting) {
        if (sizes) {
            counting = false; // the vector's own growth is not counted
            sizes->push_back(n);
            counting = true;
        }
        total_allocated += n;
        largest_allocation = n > largest_allocation ? n : largest_allocation;
    }
}

TEST_CASE("sum(a * b, 1) allocates its result and accumulators, never a * b") {
    const fusor::index_t n = 512, m = 256;
    const auto a = fusor::ones<double>({n, m});
    const auto b = fusor::full<double>({n, m}, 2.0);
    const std::size_t product_bytes = static_cast<std::size_t>(n * m) * sizeof(double);

    start_counting();
    fusor::tensor<double> s = fusor::sum(a * b, 1);
    counting = false;
    CHECK(s(0) == 512.0);
    CHECK(largest_allocation < product_bytes / 16);
    CHECK(total_allocated < product_bytes / 8);

    start_counting();
    fusor::tensor<double> e = fusor::eval_eager(fusor::sum(a * b, 1));
    counting = false;
    CHECK(e(0) == 512.0);
    CHECK(largest_allocation >= product_bytes); // eager stores a * b
}

TEST_CASE("standardisation materialises exactly the two small reductions") {
    const fusor::index_t n = 1000, d = 8;
    auto x = fusor::ones<double>({n, d});
    for (fusor::index_t i = 0; i < n; ++i)
        for (fusor::index_t j = 0; j < d; ++j)
            x(i, j) = static_cast<double>((i * 7 + j * 3) % 11);
    const std::size_t full_bytes = static_cast<std::size_t>(n * d) * sizeof(double);
    start_counting();
    fusor::tensor<double> z = (x - fusor::mean(x, 0)) / fusor::std(x, 0);
    counting = false;
    // Output (full_bytes) plus small (d,)-sized temporaries, plans and block buffers (the last
    // loop's rows of 8 run collapsed: tmp0 and tmp2 repeated in a buffer of 1024 elements
    // each): nothing else of size n*d, not even in pieces.
    CHECK(largest_allocation == tensor_allocation(full_bytes));
    CHECK(total_allocated < 2 * full_bytes);
    CHECK(fusor::eval(fusor::mean(z, 0))(3) == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(fusor::eval(fusor::std(z, 0))(3) == doctest::Approx(1.0));
}

TEST_CASE("max(abs(a - b)) allocates its 0-d result, never a - b or abs(a - b)") {
    const fusor::index_t n = 512, m = 256;
    auto a = fusor::ones<float>({n, m});
    const auto b = fusor::full<float>({n, m}, 2.0f);
    a(7, 9) = -4.0f;
    const std::size_t full_bytes = static_cast<std::size_t>(n * m) * sizeof(float);
    start_counting();
    const fusor::tensor<float> d = fusor::max(fusor::abs(a - b));
    counting = false;
    CHECK(d.item() == 6.0f);
    CHECK(largest_allocation < full_bytes / 64);
    CHECK(total_allocated < full_bytes / 16);
}

TEST_CASE("mean(square(x - mean(x, 0)), 0) stores only the two (d,) results") {
    // d = 37: allocations are counted by size, and 37 doubles is a size no plan vector has
    // (with d = 40, four 80-byte tree lines made a 320-byte vector too).
    const fusor::index_t n = 4096, d = 37;
    fusor::tensor<double> x(fusor::shape_t{n, d});
    for (fusor::index_t i = 0; i < n; ++i)
        for (fusor::index_t j = 0; j < d; ++j)
            x(i, j) = static_cast<double>((i * 5 + j) % 7);
    const std::size_t full_bytes = static_cast<std::size_t>(n * d) * sizeof(double);
    const std::size_t row_bytes = static_cast<std::size_t>(d) * sizeof(double);
    std::vector<std::size_t> seen;
    seen.reserve(256);
    sizes = &seen;
    start_counting();
    const fusor::tensor<double> v = fusor::mean(fusor::square(x - fusor::mean(x, 0)), 0);
    counting = false;
    sizes = nullptr;
    CHECK(v(0) == doctest::Approx(fusor::eval(fusor::var(x, 0))(0)).epsilon(1e-14));
    CHECK(largest_allocation < full_bytes / 64); // nothing of the operand's size
    // Each of the two means: a result of (d,) doubles. (Their accumulators are
    // compensated sums, two doubles each: 2 * row_bytes.)
    CHECK(count_of_size(seen, tensor_allocation(row_bytes)) == 2);
}

namespace {
// Softmax's input: small multiples of 0.25, (n, d) float32.
fusor::tensor<float> softmax_input(fusor::index_t n, fusor::index_t d) {
    fusor::tensor<float> x(fusor::shape_t{n, d});
    for (fusor::index_t i = 0; i < n; ++i)
        for (fusor::index_t j = 0; j < d; ++j)
            x(i, j) = static_cast<float>((i * 13 + j * 7) % 29) * 0.25f;
    return x;
}
} // namespace

TEST_CASE("softmax materialises max and sum once each, and nothing of the input's size") {
    // Below row_block_min_elements: the ordinary plan (the row blocks are the next case).
    const fusor::index_t n = 80, d = 100; // 8,000 elements
    const fusor::tensor<float> x = softmax_input(n, d);
    auto p = fusor::exp(x - fusor::max(x, 1, fusor::keepdims));
    auto softmax = p / fusor::sum(p, 1, fusor::keepdims);

    // The plan: tmp0 = max (materialised once), tmp1 = sum, whose own loop reuses tmp0.
    const fusor::loop_plan plan = fusor::explain(softmax).plan;
    REQUIRE(plan.boundaries.size() == 2);
    CHECK(plan.boundaries[0].temporary == 0); // tmp0
    CHECK(plan.boundaries[1].temporary == 1); // tmp1
    REQUIRE(plan.boundaries[1].plan->boundaries.size() == 1);
    CHECK(plan.boundaries[1].plan->boundaries[0].reused);
    CHECK(plan.boundaries[1].plan->boundaries[0].temporary == 0);

    const std::size_t full_bytes = static_cast<std::size_t>(n * d) * sizeof(float);
    const std::size_t row_bytes = static_cast<std::size_t>(n) * sizeof(float);
    std::vector<std::size_t> seen;
    seen.reserve(256);
    sizes = &seen;
    start_counting();
    const fusor::tensor<float> s = softmax;
    counting = false;
    sizes = nullptr;
    // The output, then (n,)-sized pieces only: max's result (max runs as a flat reduction, a
    // register per row: no accumulator buffer) and the sum's result (its accumulators are
    // doubles: 2 * row_bytes). Computing max twice would add one more.
    CHECK(largest_allocation == tensor_allocation(full_bytes));
    CHECK(count_of_size(seen, tensor_allocation(full_bytes)) == 1);
    CHECK(count_of_size(seen, row_bytes) == 0);
    CHECK(count_of_size(seen, tensor_allocation(row_bytes)) == 2);
    CHECK(plan.boundaries[0].plan->flat_reduction);
    const auto rows = fusor::eval(fusor::sum(s, 1));
    for (fusor::index_t i = 0; i < n; ++i)
        CHECK(rows(i) == doctest::Approx(1.0).epsilon(1e-6));
}

// The block's buffer comes from the thread's scratch pool (exec/scratch.hpp), which grows by one
// block of it (aligned, with its slack) when it has none that large yet; the (n, 1) temporaries
// from the temporary pool (exec/temporary_pool.hpp). So evaluated again into the same existing
// tensor, the softmax allocates nothing.
TEST_CASE("softmax by row blocks allocates the output and at most one block's buffer of the "
          "input, and nothing when evaluated again") {
    const fusor::index_t n = 512, d = 256;
    const fusor::tensor<float> x = softmax_input(n, d);
    auto p = fusor::exp(x - fusor::max(x, 1, fusor::keepdims));
    auto softmax = p / fusor::sum(p, 1, fusor::keepdims);
    fusor::set_num_threads(1); // one buffer: each thread has its own
    const fusor::row_blocks blocks = fusor::explain(softmax).rows;
    REQUIRE(blocks.applies);
    const std::size_t full_bytes = static_cast<std::size_t>(n * d) * sizeof(float);
    const std::size_t buffer_bytes =
        static_cast<std::size_t>(blocks.block_rows * d) * sizeof(float);
    const std::size_t scratch_block =
        buffer_bytes + fusor::exec::scratch_alignment - 1 + fusor::detail::tail_slack_bytes;
    std::vector<std::size_t> seen;
    seen.reserve(4096);
    sizes = &seen;
    start_counting();
    fusor::tensor<float> s = softmax;
    counting = false;
    CHECK(largest_allocation == tensor_allocation(full_bytes));
    CHECK(count_of_size(seen, tensor_allocation(full_bytes)) == 1);
    CHECK(count_of_size(seen, scratch_block) <= 1);
    for (const std::size_t bytes : seen) // nothing else of a block's size
        CHECK((bytes < buffer_bytes || bytes == scratch_block || bytes == largest_allocation));
    // Into the existing tensor: planned again once (a fresh destination's plans are not an
    // existing one's: loop_plan::stream_block), then nothing.
    s = softmax;
    seen.clear();
    start_counting();
    s = softmax;
    counting = false;
    sizes = nullptr;
    fusor::set_num_threads(fusor::threads_enabled ? 2 : 1);
    CHECK(seen.empty());
    const auto rows = fusor::eval(fusor::sum(s, 1));
    for (fusor::index_t i = 0; i < n; ++i)
        CHECK(rows(i) == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("x - logsumexp(x, 1, keepdims) materialises one (n, 1) temporary") {
    const fusor::index_t n = 256, d = 128;
    fusor::tensor<double> x(fusor::shape_t{n, d});
    for (fusor::index_t i = 0; i < n; ++i)
        for (fusor::index_t j = 0; j < d; ++j)
            x(i, j) = static_cast<double>((i + j * 3) % 17) - 8.0;
    const std::size_t full_bytes = static_cast<std::size_t>(n * d) * sizeof(double);
    // One thread: each extra thread copies the evaluator with its own 8 KiB splat buffer,
    // which is not what this test counts.
    fusor::set_num_threads(1);
    start_counting();
    const fusor::tensor<double> logp = x - fusor::logsumexp(x, 1, fusor::keepdims);
    counting = false;
    fusor::set_num_threads(fusor::threads_enabled ? 2 : 1);
    CHECK(largest_allocation == tensor_allocation(full_bytes));
    CHECK(total_allocated < full_bytes + full_bytes / 8);
    const auto total = fusor::eval(fusor::sum(fusor::exp(logp), 1));
    CHECK(total(0) == doctest::Approx(1.0).epsilon(1e-12));
}

// Hoisting (plan/hoisting.hpp): element-wise work over reductions only runs once per result
// element, in a loop of its own, and gives the bits eager evaluation gives.
TEST_CASE("z-score computes std's sqrt(var / n) once per column, with eager's bits") {
    const fusor::index_t n = 1000, d = 8;
    fusor::tensor<double> x(fusor::shape_t{n, d});
    for (fusor::index_t i = 0; i < n; ++i)
        for (fusor::index_t j = 0; j < d; ++j)
            x(i, j) = static_cast<double>((i * 7 + j * 3) % 11) / 3.0;
    fusor::tensor<double> z(x.shape());
    const auto e = (x - fusor::mean(x, 0)) / fusor::std(x, 0);
    const fusor::explanation ex = fusor::explain(z, e);
    const auto& boundaries = ex.plan.boundaries;
    REQUIRE(boundaries.size() == 2); // mean(x, 0), then sqrt(sum(...) / n)
    CHECK(boundaries[0].why == fusor::boundary_plan::reason::reduction);
    CHECK(boundaries[1].why == fusor::boundary_plan::reason::hoisted);
    CHECK(boundaries[1].shape == fusor::shape_t{d});
    // The hoisted loop runs over (d,) and materialises the sum below it.
    CHECK(boundaries[1].plan->iter_shape == fusor::shape_t{d});
    REQUIRE(boundaries[1].plan->boundaries.size() == 1);
    CHECK(boundaries[1].plan->boundaries[0].why == fusor::boundary_plan::reason::reduction);
    const std::string text = explain_text::one_line(ex.text());
    CHECK(text.find("*out = (*t0 - *tmp0) / *tmp2") != std::string::npos);
    CHECK(text.find("*tmp2 = sqrt((*tmp1 / 1000))") != std::string::npos);
    z = e;
    CHECK(fusor::array_equal(z, fusor::eval_eager(e)));
}

TEST_CASE(
    "only the outermost reduction-only subexpression is hoisted, a root only when broadcast") {
    fusor::tensor<double> x(fusor::shape_t{4, 5});
    for (fusor::index_t i = 0; i < x.size(); ++i)
        x.data()[i] = static_cast<double>(i % 7) - 2.5;
    fusor::tensor<double> r(fusor::shape_t{4, 1});
    // The root is reduction-only: one loop computes it, nothing is hoisted.
    const fusor::explanation root =
        fusor::explain(r, fusor::sqrt(fusor::sum(fusor::square(x), 1, fusor::keepdims) + 1.0));
    REQUIRE(root.plan.boundaries.size() == 1);
    CHECK(root.plan.boundaries[0].why == fusor::boundary_plan::reason::reduction);
    // exp(max(x, 1) - 1) * 2 is hoisted whole (one boundary), not each of its levels.
    const auto e = x * (fusor::exp(fusor::max(x, 1, fusor::keepdims) - 1.0) * 2.0);
    const fusor::explanation ex = fusor::explain(e);
    REQUIRE(ex.plan.boundaries.size() == 1);
    CHECK(ex.plan.boundaries[0].why == fusor::boundary_plan::reason::hoisted);
    CHECK(ex.plan.boundaries[0].plan->boundaries.size() == 1);
    const fusor::tensor<double> fused = e;
    CHECK(fusor::array_equal(fused, fusor::eval_eager(e)));
}

TEST_CASE("a reduction-only root broadcast into a larger destination is computed once per result") {
    fusor::tensor<double> x(fusor::shape_t{4, 5});
    for (fusor::index_t i = 0; i < x.size(); ++i)
        x.data()[i] = static_cast<double>(i % 7) - 2.5;
    const auto e = fusor::sqrt(fusor::sum(fusor::square(x), 1, fusor::keepdims) + 1.0);
    const fusor::tensor<double> want = fusor::eval_eager(e); // (4, 1)
    fusor::tensor<double> out = fusor::zeros<double>({64, 4, 5});
    // sqrt(... + 1) over (4, 1) into a temporary (the sum its own boundary below it), then a
    // copy into the (64, 4, 5) destination: 4 square roots, not 1,280.
    const fusor::explanation ex = fusor::explain(fusor::view(out, fusor::all), e);
    CHECK(ex.plan.alias_copy);
    // The copy holds the temporary, still along the inner axis, in a register (no splat).
    CHECK(ex.plan.kernel == fusor::inner_kernel::broadcast);
    CHECK(ex.plan.held_operand == 1);
    REQUIRE(ex.plan.boundaries.size() == 1);
    const fusor::boundary_plan& b = ex.plan.boundaries[0];
    CHECK(b.why == fusor::boundary_plan::reason::broadcast_result);
    CHECK(b.shape == fusor::shape_t{4, 1});
    CHECK(b.plan->iter_shape == fusor::shape_t{4, 1});
    REQUIRE(b.plan->boundaries.size() == 1);
    CHECK(b.plan->boundaries[0].why == fusor::boundary_plan::reason::reduction);
    const std::string text = explain_text::one_line(ex.text());
    CHECK(text.find("tmp1 = sqrt") != std::string::npos);
    CHECK(text.find("*out = *tmp1") != std::string::npos);
    CHECK(text.find("tmp1 held in a register") != std::string::npos);
    fusor::view(out, fusor::all) = e;
    for (fusor::index_t k = 0; k < 64; ++k)
        for (fusor::index_t i = 0; i < 4; ++i)
            for (fusor::index_t j = 0; j < 5; ++j)
                CHECK(out(k, i, j) == want(i, 0));
    // A destination of the root's own size, or with fewer than hoisted_root_min_repeats more
    // elements, keeps the root in the loop (nothing to repeat, or too little to pay a loop).
    static_assert(fusor::planning::hoisted_root_min_repeats == 1024);
    for (const fusor::shape_t& shape :
         {fusor::shape_t{1, 4, 1}, fusor::shape_t{3, 4, 5}, fusor::shape_t{1, 4, 256}}) {
        fusor::tensor<double> small = fusor::zeros<double>(shape);
        const fusor::explanation kept = fusor::explain(fusor::view(small, fusor::all), e);
        CHECK_FALSE(kept.plan.alias_copy);
        REQUIRE(kept.plan.boundaries.size() == 1);
        CHECK(kept.plan.boundaries[0].why == fusor::boundary_plan::reason::reduction);
        fusor::view(small, fusor::all) = e;
        CHECK(small(0, 1, 0) == want(1, 0));
    }
    // 1,024 more: hoisted.
    fusor::tensor<double> edge = fusor::zeros<double>({1, 4, 257});
    CHECK(fusor::explain(fusor::view(edge, fusor::all), e).plan.alias_copy);
    // Into the operand it reads (4 x 5: not hoisted) and into one 257 times its size (hoisted):
    // each temporary is complete before the copy writes the operand.
    fusor::tensor<double> wide = fusor::zeros<double>({4, 1285});
    for (fusor::index_t i = 0; i < 4; ++i)
        for (fusor::index_t j = 0; j < 5; ++j)
            wide(i, j) = x(i, j);
    fusor::tensor_view<double> left = fusor::view(wide, fusor::all, fusor::slice(0, 5));
    const auto f = fusor::sqrt(fusor::sum(fusor::square(left), 1, fusor::keepdims) + 1.0);
    CHECK(fusor::explain(fusor::view(wide, fusor::all), f).plan.alias_copy);
    fusor::view(wide, fusor::all) = f;
    fusor::view(x, fusor::all) = e;
    for (fusor::index_t i = 0; i < 4; ++i) {
        for (fusor::index_t j = 0; j < 5; ++j)
            CHECK(x(i, j) == want(i, 0));
        for (fusor::index_t j = 0; j < 1285; ++j)
            CHECK(wide(i, j) == want(i, 0));
    }
}

TEST_CASE("an element-wise root of tensors broadcast into a larger destination, once per element") {
    // exp(col * 0.5) over (40, 1), then copied into (40, 1000): 40 exponentials, not 40,000;
    // NumPy's `out[...] = np.exp(col * 0.5)` computes 40 too.
    fusor::tensor<float> col(fusor::shape_t{40, 1});
    for (fusor::index_t i = 0; i < 40; ++i)
        col.data()[i] = static_cast<float>(i) * 0.25f - 3.0f;
    const auto e = fusor::exp(col * 0.5f);
    const fusor::tensor<float> want = fusor::eval_eager(e);
    fusor::tensor<float> out = fusor::zeros<float>({40, 1000});
    const fusor::explanation ex = fusor::explain(fusor::view(out, fusor::all), e);
    CHECK(ex.plan.alias_copy);
    CHECK(ex.plan.held_operand == 1);
    REQUIRE(ex.plan.boundaries.size() == 1);
    CHECK(ex.plan.boundaries[0].why == fusor::boundary_plan::reason::broadcast_result);
    CHECK(ex.plan.boundaries[0].plan->iter_shape == fusor::shape_t{40, 1});
    const std::string text = explain_text::one_line(ex.text());
    CHECK(text.find("tmp0 = exp") != std::string::npos);
    CHECK(text.find("computed over its own shape, broadcast into out") != std::string::npos);
    fusor::view(out, fusor::all) = e;
    for (fusor::index_t i = 0; i < 40; ++i)
        for (fusor::index_t j = 0; j < 1000; ++j)
            REQUIRE(out(i, j) == want(i, 0));
    // A row: (1, 1000) into (40, 1000).
    fusor::tensor<float> row(fusor::shape_t{1, 1000});
    for (fusor::index_t j = 0; j < 1000; ++j)
        row.data()[j] = static_cast<float>(j % 17) * 0.125f;
    const auto r = fusor::sqrt(row + 1.0f);
    CHECK(fusor::explain(fusor::view(out, fusor::all), r).plan.alias_copy);
    fusor::view(out, fusor::all) = r;
    const fusor::tensor<float> want_row = fusor::eval_eager(r);
    for (fusor::index_t i = 0; i < 40; ++i)
        for (fusor::index_t j = 0; j < 1000; ++j)
            REQUIRE(out(i, j) == want_row(0, j));
    // Into a destination less than 1,024 elements larger: the one loop, as before.
    fusor::tensor<float> small = fusor::zeros<float>({40, 26});
    const fusor::explanation kept = fusor::explain(fusor::view(small, fusor::all), e);
    CHECK_FALSE(kept.plan.alias_copy);
    CHECK(kept.plan.boundaries.empty());
    fusor::view(small, fusor::all) = e;
    CHECK(small(39, 25) == want(39, 0));
}
