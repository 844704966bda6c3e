// explain: golden text, and proof that the plan explain prints is the plan that runs.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

namespace {
std::vector<fusor::loop_plan> executed; // the plans the evaluator ran
void record(const fusor::loop_plan& p) {
    executed.push_back(p);
}
} // namespace

TEST_CASE("a reduction boundary inside softmax: its loop, its temporary, its reuse") {
    fusor::tensor<float> x = fusor::ones<float>({4, 8});
    auto shifted = x - fusor::max(x, 1, fusor::keepdims);
    const std::string text = explain_text::one_line(
        fusor::explain(fusor::exp(shifted) / fusor::sum(fusor::exp(shifted), 1, fusor::keepdims))
            .text());
    CAPTURE(text);
    CHECK(text.rfind("fusor::explain: 3 loops, 2 materialised temporaries (32 bytes)\n", 0) == 0);
    CHECK(text.find("loop 1 of 3 -> tmp0: float32 (4, 1), 16 bytes, reduction result")
          != std::string::npos);
    CHECK(text.find("*tmp0 = max_step(*tmp0, *t0)") != std::string::npos);
    CHECK(text.find("register accumulator") != std::string::npos);
    CHECK(text.find("reads tmp0 again (loop 1 computed it; not recomputed)") != std::string::npos);
    CHECK(text.find("*out = exp((*t0 - *tmp0)) / *tmp1") != std::string::npos);
}

TEST_CASE("explain's JSON escapes what it quotes and is one line") {
    CHECK(fusor::detail::json_string("a\"b\\c\n") == "\"a\\\"b\\\\c\\u000a\"");
    fusor::tensor<double> a = fusor::ones<double>({2, 3});
    const std::string j = fusor::explain(a + 1.0, fusor::explain_format::json).json();
    CHECK(j.rfind("{\"format\":\"fusor.explain/1\",\"tree\":", 0) == 0);
    CHECK(j.find('\n') == j.size() - 1);
}

TEST_CASE("the plan explain prints is the plan the evaluator executes") {
    fusor::tensor<double> z = {{1, 2, 3, 4}, {2, 0, 1, 1}, {5, 5, 5, 5}};
    auto dist = fusor::sqrt(
        fusor::sum(fusor::square(fusor::view(z, fusor::all, fusor::newaxis, fusor::all)
                                 - fusor::view(z, fusor::newaxis, fusor::all, fusor::all)),
                   2));
    executed.clear();
    fusor::detail::plan_observer = &record;
    fusor::tensor<double> d = dist;
    fusor::detail::plan_observer = nullptr;
    REQUIRE(executed.size() == 1);
    // Every decision, boundaries included; explain(d, dist) knows where the loop wrote.
    CHECK(executed[0] == fusor::explain(d, dist).plan);
    CHECK(d(0, 0) == 0.0);
    CHECK(d(0, 1) == doctest::Approx(std::sqrt(1.0 + 4 + 4 + 9)));
    // The distance loop never stores the (3, 3, 4) difference: its only temporary is (3, 3).
    const auto plan = fusor::explain(dist).plan;
    REQUIRE(plan.boundaries.size() == 1);
    CHECK(plan.boundaries[0].shape == fusor::shape_t{3, 3});
    CHECK(plan.boundaries[0].plan->iter_shape == fusor::shape_t{3, 3, 4});
}
