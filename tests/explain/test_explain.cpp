// explain: golden text, and proof that the plan explain prints is the plan that runs.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace {
std::vector<std::string> executed; // texts of the plans the evaluator ran
void record(const fusor::loop_plan& p) {
    executed.push_back(fusor::explanation{p}.text());
}
} // namespace

TEST_CASE("golden: a row-broadcast fused expression") {
    fusor::tensor<double> a = fusor::ones<double>({2, 3});
    fusor::tensor<double> b = fusor::ones<double>({3});
    const std::string expected = R"(fusor::explain: 1 fused loop(s), 0 materialised temporaries
tree:
  add                                          float64  (2, 3)
    multiply                                   float64  (2, 3)
      t0 = tensor                              float64  (2, 3)            strides (3, 1) offset 0
      t1 = tensor                              float64  (3,)              strides (0, 1) offset 0
    scalar 2                                   float64  ()
loops over (2, 3)
  for i0 in [0, 2):    out+=3     t0+=3      t1+=0      # axes (0,), t1 broadcast
    for i1 in [0, 3):  out+=1     t0+=1      t1+=1      # axes (1,); inner kernel: contiguous
      *out = (*t0 * *t1) + 2
)";
    CHECK(fusor::explain(a * b + 2.0).text() == expected);
}

TEST_CASE("golden: a reduction boundary inside softmax") {
    fusor::tensor<float> x = fusor::ones<float>({4, 8});
    const std::string text =
        fusor::explain(fusor::exp(x - fusor::max(x, 1, fusor::keepdims))).text();
    CHECK(text.find("materialise tmp0: float32 (4, 1), 16 bytes (reduction result)")
          != std::string::npos);
    CHECK(text.find("*tmp0 = max_step(*tmp0, *t0)") != std::string::npos);
    CHECK(text.find("register accumulator") != std::string::npos);
    CHECK(text.find("*out = exp((*t0 - *tmp0))") != std::string::npos);
    CHECK(text.find("tmp0+=1    # axes (0,)") != std::string::npos);
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
    CHECK(executed[0] == fusor::explain(dist).text());
    CHECK(d(0, 0) == 0.0);
    CHECK(d(0, 1) == doctest::Approx(std::sqrt(1.0 + 4 + 4 + 9)));
    // The distance loop never stores the (3, 3, 4) difference: its only temporary is (3, 3).
    const auto plan = fusor::explain(dist).plan;
    REQUIRE(plan.boundaries.size() == 1);
    CHECK(plan.boundaries[0].shape == fusor::shape_t{3, 3});
    CHECK(plan.boundaries[0].plan->iter_shape == fusor::shape_t{3, 3, 4});
}
