// The single-element operand (exec/single_element.hpp): a broadcast loop whose one still
// operand is held in a register writes what a hand-written loop writes, for each position of
// the still operand among up to three tensors, across dtypes, in place, and split across
// threads; two still operands, or more than three tensors, keep the splat buffer. explain says
// which path runs.
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"
#include "support.hpp"

using fusor::index_t;
using fusor::shape_t;

namespace {

using exec_test::counting;

std::string kernel_line(const auto& e) {
    return exec_test::explain_line(e, "kernel: ");
}

bool held(const std::string& line) {
    return line.find("held in a register") != std::string::npos;
}

} // namespace

TEST_CASE("one still operand among moving ones: held in a register, same values") {
    const index_t m = 37, n = 1500;
    const auto col = counting<float>({m, 1}, 1), row = counting<float>({1, n}, 2);
    const auto full = counting<float>({m, n}, 3), full2 = counting<float>({m, n}, 4);

    // W5's outer product: the still operand first.
    CHECK(held(kernel_line(col * row)));
    const fusor::tensor<float> outer = fusor::eval(col * row);
    // W4's column broadcast: the still operand second.
    CHECK(held(kernel_line(full + col)));
    const fusor::tensor<float> column = fusor::eval(full + col);
    // Three tensors, the still one last, with a scalar.
    CHECK(held(kernel_line(full * full2 - col * 2.f)));
    const fusor::tensor<float> three = fusor::eval(full * full2 - col * 2.f);
    // The still one in the middle.
    CHECK(held(kernel_line(full - col * full2)));
    const fusor::tensor<float> middle = fusor::eval(full - col * full2);
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) {
            const float c = col.data()[i], r = row.data()[j];
            const float f = full.data()[i * n + j], f2 = full2.data()[i * n + j];
            REQUIRE(outer.data()[i * n + j] == c * r);
            REQUIRE(column.data()[i * n + j] == f + c);
            REQUIRE(three.data()[i * n + j] == f * f2 - c * 2.f);
            REQUIRE(middle.data()[i * n + j] == f - c * f2);
        }
}

TEST_CASE("the seeds' 3-D case, mixed dtypes, in place") {
    // Rows of 1,200 (over a broadcast block: not the flat-rows case, whose columns splat).
    const auto cube = counting<std::int32_t>({3, 20, 60}, 5);
    const auto per = counting<double>({3, 1, 1}, 6);
    CHECK(held(kernel_line(cube + per)));
    const auto sum = fusor::eval(cube + per);
    static_assert(std::is_same_v<decltype(sum), const fusor::tensor<double>>);
    for (index_t b = 0; b < 3; ++b)
        for (index_t k = 0; k < 1200; ++k)
            REQUIRE(sum.data()[b * 1200 + k]
                    == static_cast<double>(cube.data()[b * 1200 + k]) + per.data()[b]);
    // In place: the destination is the moving operand, read and written at the same element.
    auto a = counting<float>({40, 300}, 7);
    const auto before = a;
    const auto c = counting<float>({40, 1}, 8);
    a = a * c;
    for (index_t i = 0; i < 40; ++i)
        for (index_t j = 0; j < 300; ++j)
            REQUIRE(a.data()[i * 300 + j] == before.data()[i * 300 + j] * c.data()[i]);
}

TEST_CASE("two still operands or four tensors keep the splat buffer") {
    const auto x = counting<float>({40, 1}, 9), y = counting<float>({40, 1}, 10);
    const auto z = counting<float>({40, 300}, 11), w = counting<float>({40, 300}, 12);
    const std::string two = kernel_line(x + y + z);
    CHECK(two.find("splatted") != std::string::npos);
    CHECK_FALSE(held(two));
    const fusor::tensor<float> r = fusor::eval(x + y + z);
    const std::string four = kernel_line(z * w + z * x - w);
    CHECK(four.find("splatted") != std::string::npos);
    const fusor::tensor<float> q = fusor::eval(z * w + z * x - w);
    for (index_t i = 0; i < 40; ++i)
        for (index_t j = 0; j < 300; ++j) {
            const float zz = z.data()[i * 300 + j], ww = w.data()[i * 300 + j];
            REQUIRE(r.data()[i * 300 + j] == x.data()[i] + y.data()[i] + zz);
            REQUIRE(q.data()[i * 300 + j] == zz * ww + zz * x.data()[i] - ww);
        }
}

TEST_CASE("split across threads: the same bits for 1 and 2 threads") {
    const auto col = counting<float>({300, 1}, 13), row = counting<float>({1, 400}, 14);
    fusor::set_num_threads(1);
    const fusor::tensor<float> one = fusor::eval(col * row - 1.f);
    fusor::set_num_threads(2);
    if (fusor::threads_enabled)
        CHECK(explain_text::one_line(fusor::explain(col * row - 1.f).text()).find("threads: 2")
              != std::string::npos);
    const fusor::tensor<float> two = fusor::eval(col * row - 1.f);
    for (index_t i = 0; i < 300 * 400; ++i) {
        REQUIRE(one.data()[i] == col.data()[i / 400] * row.data()[i % 400] - 1.f);
        REQUIRE(two.data()[i] == one.data()[i]);
    }
}

// The broadcast, held and blocked-reduction kernels step the rows of a two-level block inside
// one call (exec/execute.hpp, blocked_rows and contiguous_rows): every row gets its own still
// values, over short rows, three levels (the outer one the driver's odometer) and one-row
// blocks, and a sum over each row adds that row's terms.
TEST_CASE("short rows, several levels: every row reads its own still values") {
    // The general plan's kernels (flat plans off), and the flat-rows case's splat per row.
    for (const bool flat : {false, true})
        for (const shape_t& s :
             {shape_t{9, 3}, shape_t{8, 16}, shape_t{5, 7, 16}, shape_t{1, 33}}) {
            fusor::planning::flat_plans_enabled = flat;
            shape_t col = s;
            col.back() = 1;
            const auto x = counting<float>(s, 15), m = counting<float>(col, 16);
            const auto c = counting<float>(col, 17);
            const fusor::tensor<float> d = c * c + 1.f; // no zero divisors
            const index_t cols = s.back(), rows = fusor::shape_size(s) / cols;
            const fusor::tensor<float> held_one = fusor::eval(x - m);  // one still operand: held
            const fusor::tensor<float> two = fusor::eval((x - m) / d); // two: splatted
            const fusor::tensor<float> sums = fusor::eval(fusor::sum(x - m, -1, fusor::keepdims));
            for (index_t r = 0; r < rows; ++r) {
                const float mr = m.data()[r], dr = d.data()[r];
                double sum = 0;
                for (index_t j = 0; j < cols; ++j) {
                    const float xv = x.data()[r * cols + j];
                    REQUIRE(held_one.data()[r * cols + j] == xv - mr);
                    REQUIRE(two.data()[r * cols + j] == (xv - mr) / dr);
                    sum += static_cast<double>(xv - mr);
                }
                // Float32 terms summed in double (NumPy-or-better): exact for these small integers.
                REQUIRE(sums.data()[r] == static_cast<float>(sum));
            }
        }
    fusor::planning::flat_plans_enabled = true;
}
