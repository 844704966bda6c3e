// The plan explain prints is the plan that runs: with the inner-loop trace on, every case of
// cases.hpp is evaluated, and the inner loops the evaluator actually ran (in order: operand
// offsets at each loop's start, and its extent) must be exactly the ones an odometer over
// explain's JSON `loops` (extents and per-level strides, in the printed order) generates.
// clang-format off: the trace hooks must be defined before fusor is included
#include "trace.hpp"
// clang-format on
#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"
#include "cases.hpp"

TEST_CASE("every inner loop that runs is one explain printed, in the printed order") {
    for (const auto& c : explain_cases::all_cases()) {
        CAPTURE(c.name);
        const fusor::explanation e = c.explain(); // before the run: aliasing changes nothing
        const auto doc = nlohmann::json::parse(e.json());
        const auto expected = trace::loops_from_json(doc);
        trace::clear();
        c.run();
        const auto ran = trace::seen;
        REQUIRE(ran.size() == expected.size());
        // Cells and row blocks run one evaluation each, whose plans may share an address: the
        // loop numbers of such a case are not comparable, its offsets and extents are.
        const bool cells = doc.contains("segments") || doc.contains("row_blocks");
        for (std::size_t k = 0; k < ran.size(); ++k) {
            CAPTURE(k);
            if (!cells)
                CHECK(ran[k].loop == expected[k].loop);
            CHECK(ran[k].n == expected[k].n);
            CHECK(ran[k].offsets == expected[k].offsets);
        }
        // The text shows the same extents as the JSON: each level's `for iL in [0, E):`.
        const std::string text = explain_text::one_line(e.text());
        std::vector<nlohmann::json> plans;
        if (doc.contains("row_blocks")) {
            plans.push_back(doc.at("row_blocks").at("store"));
            plans.push_back(doc.at("row_blocks").at("block"));
        } else if (cells) {
            for (const auto& cell : doc.at("segments").at("cells"))
                plans.push_back(cell.at("plan"));
        } else
            plans.push_back(doc);
        for (const auto& plan : plans)
            for (const auto& loop : plan.at("loops")) {
                std::size_t L = 0;
                for (const auto& level : loop.at("levels")) {
                    const std::string head = "for i" + std::to_string(L++) + " in [0, "
                                             + std::to_string(level.at("extent").get<long>())
                                             + "):";
                    CHECK_MESSAGE(text.find(head) != std::string::npos, head);
                }
            }
    }
}

TEST_CASE("the cost part counts what the fused and eager runs allocate") {
    // softmax: fused materialises max once (reused) and the sum: 2 temporaries of (4, 1);
    // eager computes every operation into a temporary: max twice, subtract twice, exp twice,
    // the sum; the final divide writes the result.
    const auto cases = explain_cases::all_cases();
    const auto& c = cases[11];
    REQUIRE(c.name == "softmax");
    const fusor::cost_estimate cost = c.explain().cost();
    CHECK(cost.fused.temporaries == 2);
    CHECK(cost.fused.temporary_bytes == 2 * 4 * 4);
    CHECK(cost.fused.loops == 3);
    CHECK(cost.eager.temporaries == 7);
    CHECK(cost.eager.loops == 8);
    // fused: loop 1 reads x (128 B), writes tmp0 (16); loop 2 reads x and tmp0, writes tmp1;
    // loop 3 reads x, tmp0, tmp1 and writes out (128).
    CHECK(cost.fused.bytes_read == 128 + (128 + 16) + (128 + 16 + 16));
    CHECK(cost.fused.bytes_written == 16 + 16 + 128);
    // Work: each loop's operations once per element of its space (32), at the measured cost:
    // exp and subtract twice (in the sum's loop and in the last one); eager computes max twice.
    auto ns = [](std::string_view name, bool wide) {
        for (const fusor::op_cost& k : fusor::measured_op_costs)
            if (k.name == name)
                return wide ? k.ns_float64 : k.ns_float32;
        FAIL("not measured: " << name);
        return 0.0;
    };
    const double fused = 32
                         * (ns("max", false) + ns("sum", false) + 2 * ns("exp", false)
                            + 2 * ns("subtract", false) + ns("divide", false));
    CHECK(cost.fused.compute_ns == doctest::Approx(fused));
    CHECK(cost.eager.compute_ns == doctest::Approx(fused + 32 * ns("max", false)));
    CHECK(cost.fused.estimated_ns()
          == doctest::Approx(fused + (432 + 160) / fusor::measured_stream_bytes_per_ns));
    // The z-score: std's sqrt(var / n) is hoisted, so it counts once per column (4), not once
    // per element of the (6, 4) output as it would inside the last loop.
    const auto& z =
        *std::find_if(cases.begin(), cases.end(), [](const auto& k) { return k.name == "zscore"; });
    const double per_element = ns("mean", true) + ns("sum", true) + ns("square", true)
                               + 2 * ns("subtract", true) + ns("divide", true);
    CHECK(z.explain().cost().fused.compute_ns
          == doctest::Approx(24 * per_element + 4 * (ns("sqrt", true) + ns("divide", true))));
}

TEST_CASE("the cost part counts a tensor read twice the same way as one stream") {
    using namespace fusor;
    const tensor<float> a = zeros<float>({16}), b = zeros<float>({16});
    const tensor<float> m = zeros<float>({4, 8});
    // W25: t0, t0', t1, t1' are two streams of 64 bytes; the result 64 bytes.
    const cost_estimate both = explain(sqrt(a * a + b * b)).cost();
    CHECK(both.fused.bytes_read == 2 * 64);
    CHECK(both.fused.bytes_written == 64);
    // Two views of one tensor a step apart are two streams (60 bytes each); `head` read again
    // adds none.
    const auto head = view(a, slice(none, -1)), tail = view(a, slice(1, none));
    CHECK(explain(head * tail + head * head).cost().fused.bytes_read == 2 * 60);
    // The same tensor read along other strides (transposed) is a second stream.
    const tensor<float> s = zeros<float>({8, 8});
    CHECK(explain(s + transpose(s)).cost().fused.bytes_read == 2 * 256);
    // A row broadcast against itself: one row of 32 bytes.
    const tensor<float> row = zeros<float>({8});
    CHECK(explain(m * row + row).cost().fused.bytes_read == 128 + 32);
}

namespace {
// Every kernel the evaluator has; a kernel missing here, or one that runs without explain
// naming it, fails the test below.
const std::set<std::string> every_kernel = {"contiguous",
                                            "blocked",
                                            "registers",
                                            "broadcast",
                                            "held",
                                            "tiled",
                                            "collapsed",
                                            "strided",
                                            "pairwise",
                                            "pairwise_rows",
                                            "pairwise_rows_simd",
                                            "float_lanes",
                                            "float_lanes_simd",
                                            "pairwise_simd",
                                            "compensated",
                                            "lanes",
                                            "sequential",
                                            "minmax_simd",
                                            "rescaled_blocks",
                                            "row",
                                            "two_rows",
                                            "four_rows",
                                            "eight_rows",
                                            "arg_rows",
                                            "arg_eight_rows",
                                            "rescaled_rows",
                                            "gemm",
                                            "small_gemm",
                                            "registers_stride2",
                                            "row_registers",
                                            "contiguous_streamed"};
} // namespace

TEST_CASE("every kernel runs where explain says it does, at sizes that reach it") {
    using namespace fusor;
    using exec_case = std::pair<std::function<explanation()>, std::function<void()>>;
    const auto big =
        explain_cases::shaped(arange<float>(256 * 300), {256, 300}); // > the thread threshold
    const tensor<float> a = explain_cases::shaped(arange<float>(32 * 128), {32, 128});
    const tensor<float> at = explain_cases::shaped(arange<float>(128 * 32), {128, 32});
    const tensor<float> col = explain_cases::shaped(arange<float>(32), {32, 1});
    const tensor<float> one = full<float>({1, 1}, 2.0f);
    // Rows longer than a broadcast block: a column is not the flat-rows case, and the general
    // plan holds it in a register (the held kernel); `a + col` is the flat case's splat.
    const tensor<float> wide = explain_cases::shaped(arange<float>(4 * 1100), {4, 1100});
    const tensor<float> col4 = explain_cases::shaped(arange<float>(4), {4, 1});
    const tensor<double> d = explain_cases::shaped(arange<double>(32 * 128), {32, 128});
    const tensor<int32_t> small = explain_cases::shaped(arange<int32_t>(32 * 8), {32, 8});
    // Rows of 8 and a row operand: the collapsed kernel, through the general plan (8192 rows,
    // at the thread threshold) and the flat-rows path (512 rows).
    const tensor<float> tall = explain_cases::shaped(arange<float>(8192 * 8), {8192, 8});
    const tensor<float> mid = explain_cases::shaped(arange<float>(512 * 8), {512, 8});
    const tensor<float> row8 = arange<float>(8);
    // And a column (one element per row): collapsed too, each element repeated over its row.
    const tensor<float> col8192 = explain_cases::shaped(arange<float>(8192), {8192, 1});
    const tensor<float> col512 = explain_cases::shaped(arange<float>(512), {512, 1});
    tensor<float> out, out2;
    tensor<double> outd;
    tensor<int64_t> outi;
    tensor<int32_t> outs;
    std::vector<exec_case> cases = {
        {[&] { return explain(a * a + 1.0f); },
         [&] {
             out = a * a + 1.0f;
         }},
        {[&] { return explain(a + col); },
         [&] {
             out = a + col;
         }},
        {[&] { return explain(wide + col4); },
         [&] {
             out = wide + col4;
         }},
        {[&] { return explain(a + col * one); },
         [&] {
             out = a + col * one;
         }},
        {[&] { return explain(a + transpose(at)); },
         [&] {
             out = a + transpose(at);
         }},
        {[&] { return explain(view(a, all, slice(0, 128, 2)) * 2.0f); },
         [&] {
             out = view(a, all, slice(0, 128, 2)) * 2.0f;
         }},
        {[&] { return explain(sum(a, 1)); }, // 32 runs of 128: pairwise_rows
         [&] {
             out = sum(a, 1);
         }},
        {[&] { return explain(sum(a)); }, // one run of 4,096: float_lanes
         [&] {
             out = sum(a);
         }},
        {[&] { return explain(sum(view(a, 0))); }, // one run of 128: pairwise
         [&] {
             out = sum(view(a, 0));
         }},
        {[&] { return explain(sum((a - col) * (a - col), 1)); }, // flat runs and a column
         [&] {
             out = sum((a - col) * (a - col), 1);
         }},
        {[&] { return explain(sum(wide - col4, 1)); }, // runs of 1100: the general blocked sums
         [&] {
             out = sum(wide - col4, 1);
         }},
        {[&] { return explain(sum(d, 1)); },
         [&] {
             outd = sum(d, 1);
         }},
        {[&] { return explain(sum(small, 1)); },
         [&] {
             outi = sum(small, 1);
         }},
        {[&] { return explain(prod(a, 1)); },
         [&] {
             out = prod(a, 1);
         }},
        {[&] { return explain(prod(small, 1)); },
         [&] {
             outi = prod(small, 1);
         }},
        {[&] { return explain(max(a, 1)); },
         [&] {
             out = max(a, 1);
         }},
        {[&] { return explain(argmax(a, 0)); },
         [&] {
             outi = argmax(a, 0);
         }},
        {[&] { return explain(argmax(a + a, 0)); },
         [&] {
             outi = argmax(a + a, 0);
         }},
        {[&] { return explain(argmax(a, 1)); },
         [&] {
             outi = argmax(a, 1);
         }},
        {[&] { return explain(logsumexp(a, 1)); },
         [&] {
             out = logsumexp(a, 1);
         }},
        {[&] { return explain(logsumexp(a, 0)); },
         [&] {
             out = logsumexp(a, 0);
         }},
        {[&] { return explain(max(small, 1)); },
         [&] {
             outs = max(small, 1);
         }},
        {[&] { return explain(sum(a, 0)); },
         [&] {
             out = sum(a, 0);
         }},
        // Rows per pass by the child's tensor leaves: one eight, two four, three two.
        {[&] { return explain(sum(a * a, 0)); },
         [&] {
             out = sum(a * a, 0);
         }},
        {[&] { return explain(sum(a * a + a, 0)); },
         [&] {
             out = sum(a * a + a, 0);
         }},
        {[&] { return explain(max(transpose(a), 1)); },
         [&] {
             out = max(transpose(a), 1);
         }},
        {[&] { return explain(sum(transpose(a), 0)); },
         [&] {
             out = sum(transpose(a), 0);
         }},
        {[&] { return explain(sum(big, 0)); },
         [&] {
             out2 = sum(big, 0);
         }},
        {[&] { return explain(big * 2.0f + big); },
         [&] {
             out2 = big * 2.0f + big;
         }},
        {[&] { return explain(tall * row8 + 1.0f); },
         [&] {
             out2 = tall * row8 + 1.0f;
         }},
        {[&] { return explain(mid * row8 + 1.0f); },
         [&] {
             out = mid * row8 + 1.0f;
         }},
        {[&] { return explain(tall - col8192); },
         [&] {
             out2 = tall - col8192;
         }},
        {[&] { return explain(mid - col512); },
         [&] {
             out = mid - col512;
         }},
        {[&] { return explain(matmul(a, at)); },
         [&] {
             out = matmul(a, at);
         }},
        {[&] { return explain(matmul(transpose(at), transpose(a)) * 2.0f); },
         [&] {
             out = matmul(transpose(at), transpose(a)) * 2.0f;
         }},
        // Row dots of 128 float32 terms (no BLAS call: not a matrix product): float_lanes.
        {[&] { return explain(einsum("ij,ij->i", a, a)); },
         [&] {
             out = einsum("ij,ij->i", a, a);
         }},
        // A product too small for the BLAS (8 x 8 x 32): fusor's own, with or without a BLAS.
        {[&] {
             return explain(
                 matmul(view(a, slice(0, 8), slice(0, 32)), view(at, slice(0, 32), slice(0, 8))));
         },
         [&] {
             out = matmul(view(a, slice(0, 8), slice(0, 32)), view(at, slice(0, 32), slice(0, 8)));
         }},
    };
    std::set<std::string> ran_somewhere;
    for (std::size_t c = 0; c < cases.size(); ++c) {
        CAPTURE(c);
        const auto doc = nlohmann::json::parse(cases[c].first().json());
        const auto expected = trace::kernels_from_json(doc);
        trace::clear();
        cases[c].second();
        CHECK(trace::kernels == expected);
        for (const std::string& k : trace::kernels) {
            CHECK_MESSAGE(every_kernel.count(k) == 1, "a kernel the test does not know: " << k);
            ran_somewhere.insert(k);
        }
    }
    for (const std::string& k : every_kernel)
        if (k != "blocked"               // needs SLEEF: its own test case below, skipped without it
            && k != "registers"          // needs AVX: tests/exec/test_math_in_registers.cpp
            && k != "registers_stride2"  // needs AVX2: the same file
            && k != "row_registers"      // needs AVX: the same file
            && k != "pairwise_simd"      // needs AVX-512: the same file, its AVX-512 build
            && k != "pairwise_rows_simd" // the same
            && k != "float_lanes_simd"   // the same
            && k != "gemm" // needs a BLAS: its own test case below, skipped without it
            && k != "contiguous_streamed") // needs 16 MiB: tests/exec/test_stream_stores.cpp
            CHECK_MESSAGE(ran_somewhere.count(k) == 1, "no case runs the kernel " << k);
}

TEST_CASE("a contraction that sums nothing writes each product where explain says it does") {
    using namespace fusor;
    const tensor<float> v = arange<float>(40);
    const tensor<float> w = arange<float>(1100) * 0.5f; // rows longer than a broadcast block
    const tensor<double> a = explain_cases::shaped(arange<double>(24 * 36), {24, 36});
    tensor<float> out;
    tensor<double> outd;
    const auto check = [](const explanation& e, const std::function<void()>& run) {
        const auto doc = nlohmann::json::parse(e.json());
        const auto expected = trace::loops_from_json(doc);
        trace::clear();
        run();
        CHECK(trace::kernels == trace::kernels_from_json(doc));
        CHECK(doc.at("loops").at(0).at("reducer").is_null());
        REQUIRE(trace::seen.size() == expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
            CHECK(trace::seen[k].n == expected[k].n);
            CHECK(trace::seen[k].offsets == expected[k].offsets);
        }
        CHECK(e.plan.reduction == reduce_kernel::single_term);
        CHECK(explain_text::one_line(e.text()).find("a contraction summing nothing")
              != std::string::npos);
        CHECK(explain_text::one_line(e.text()).find("_finalize") == std::string::npos);
    };
    check(explain(einsum("i,j->ij", v, w)), [&] { out = einsum("i,j->ij", v, w); });
    REQUIRE(out.shape() == shape_t{40, 1100});
    for (index_t i = 0; i < 40; ++i)
        for (index_t j = 0; j < 1100; ++j)
            REQUIRE(out(i, j) == v(i) * w(j));
    check(explain(einsum("ij->ji", a)), [&] { outd = einsum("ij->ji", a); });
    REQUIRE(outd.shape() == shape_t{36, 24});
    for (index_t i = 0; i < 36; ++i)
        for (index_t j = 0; j < 24; ++j)
            REQUIRE(outd(i, j) == a(j, i));
    // Writing over what it reads: the element-wise loop's aliasing copy, as `a = transpose(a)`.
    tensor<double> sq = explain_cases::shaped(arange<double>(36), {6, 6});
    const tensor<double> before = sq;
    CHECK(explain(sq, einsum("ij->ji", sq)).plan.alias_copy);
    sq = einsum("ij->ji", sq);
    for (index_t i = 0; i < 6; ++i)
        for (index_t j = 0; j < 6; ++j)
            REQUIRE(sq(i, j) == before(j, i));
}

TEST_CASE("a float matrix product runs the BLAS where explain says it does"
          * doctest::skip(!FUSOR_BLAS_GEMM)) {
    using namespace fusor;
    const tensor<float> a = explain_cases::shaped(arange<float>(32 * 128), {32, 128});
    const tensor<double> b = explain_cases::shaped(arange<double>(128 * 24), {128, 24});
    const tensor<double> a64 = cast<double>(a);
    tensor<float> out;
    tensor<double> outd;
    trace::clear();
    out = matmul(a, transpose(a)); // the transpose is a flag, not a copy
    CHECK(trace::kernels == std::vector<std::string>{"gemm"});
    CHECK(explain_text::one_line(explain(matmul(a, transpose(a))).text())
              .find("BLAS sgemm 32 x 32 x 128")
          != std::string::npos);
    trace::clear();
    outd = einsum("ij,jk->ik", a64, b) + 1.0; // a boundary, then the element-wise loop
    CHECK(trace::kernels == std::vector<std::string>{"gemm", "contiguous"});
    // An element-wise factor: its loop first (a temporary the BLAS reads), then the product.
    const auto doc = nlohmann::json::parse(explain(matmul(a * 2.0f, transpose(a))).json());
    trace::clear();
    out = matmul(a * 2.0f, transpose(a));
    CHECK(trace::kernels == trace::kernels_from_json(doc));
    CHECK(trace::kernels == std::vector<std::string>{"contiguous", "gemm"});
    // Integer products never reach the BLAS.
    const tensor<int32_t> i = explain_cases::shaped(arange<int32_t>(32 * 128), {32, 128});
    tensor<int32_t> outi;
    trace::clear();
    outi = matmul(i, transpose(i));
    CHECK(std::count(trace::kernels.begin(), trace::kernels.end(), "gemm") == 0);
}

TEST_CASE("the blocked vector-math kernel runs where explain says it does"
          * doctest::skip(!FUSOR_VECTOR_MATH)) {
    using namespace fusor;
    const tensor<float> a = explain_cases::shaped(arange<float>(32 * 128), {32, 128});
    const tensor<float> col = explain_cases::shaped(arange<float>(32), {32, 1});
    tensor<float> out;
    for (int c = 0; c < 2; ++c) { // flat, and with a broadcast operand
        const auto doc = nlohmann::json::parse(c == 0 ? explain(exp(a) * 0.5f).json()
                                                      : explain(exp(a) * col).json());
        trace::clear();
        if (c == 0)
            out = exp(a) * 0.5f;
        else
            out = exp(a) * col;
        CHECK(trace::kernels == trace::kernels_from_json(doc));
        CHECK(trace::kernels == std::vector<std::string>{"blocked"});
    }
}
