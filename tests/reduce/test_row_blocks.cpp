// Row blocks (plan/row_blocks.hpp, compute_at over rows): a sub-expression read inside a
// reduction and outside it (the README's softmax reads `exp(x - max(x))` in the row sum and in
// the division) is stored once per block of rows and read from the buffer. The results must
// be those of storing it first (the two-statement form, bit for bit: the same loops compute
// the same elements in the same order), the plans that run must be the plans explain prints,
// and every tree the blocks cannot cut must take the ordinary plan.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../exec/support.hpp"
#include "../explain_text.hpp"

using exec_test::observing;
using exec_test::ran;
using fusor::index_t;
using fusor::keepdims;
using fusor::shape_t;

namespace {

// Values in [-6, 6) that are not small integers, so every exp is rounded.
template <class T>
fusor::tensor<T> spread(const shape_t& s, int salt) {
    fusor::tensor<T> t(s, fusor::uninitialized);
    for (index_t i = 0; i < t.size(); ++i)
        t.data()[i] = static_cast<T>(((i * 7919 + salt * 104729) % 12007) / 1000.5 - 6.0);
    return t;
}

template <class X>
auto softmax(const X& x, int axis = -1) {
    auto p = fusor::exp(x - fusor::max(x, axis, keepdims));
    return p / fusor::sum(p, axis, keepdims);
}

// The two-statement form: exp stored first, then divided by its sums.
template <class T>
fusor::tensor<T> softmax_stored(const fusor::tensor<T>& x, int axis = -1) {
    fusor::tensor<T> e = fusor::exp(x - fusor::max(x, axis, keepdims));
    return e / fusor::sum(e, axis, keepdims);
}

// Softmax along the last axis in long double, row by row (independent of fusor).
template <class T>
std::vector<long double> softmax_reference(const fusor::tensor<T>& x) {
    const index_t cols = x.shape()[x.rank() - 1], rows = x.size() / cols;
    std::vector<long double> r(static_cast<std::size_t>(x.size()));
    for (index_t i = 0; i < rows; ++i) {
        const T* row = x.data() + i * cols;
        long double m = row[0], s = 0;
        for (index_t j = 0; j < cols; ++j)
            m = std::max<long double>(m, row[j]);
        for (index_t j = 0; j < cols; ++j)
            s += std::exp(static_cast<long double>(row[j]) - m);
        for (index_t j = 0; j < cols; ++j)
            r[static_cast<std::size_t>(i * cols + j)] =
                std::exp(static_cast<long double>(row[j]) - m) / s;
    }
    return r;
}

struct one_thread {
    one_thread() { fusor::set_num_threads(1); }
    ~one_thread() { fusor::set_num_threads(fusor::threads_enabled ? 2 : 1); }
};

} // namespace

TEST_CASE_TEMPLATE("softmax by row blocks equals exp stored first, bit for bit", T, float, double) {
    one_thread serial;
    // Rows dividing into blocks, with a shorter last block, one block only, short rows, 3-D.
    for (const shape_t& s : {shape_t{1000, 1000},
                             shape_t{64, 1024},
                             shape_t{300, 100},
                             shape_t{5000, 7},
                             shape_t{8, 600, 10}}) {
        CAPTURE(fusor::to_string(s));
        const auto x = spread<T>(s, 3);
        const auto e = softmax(x);
        const auto plan = fusor::explain(e);
        REQUIRE(plan.rows.applies);
        CHECK(plan.rows.rows == s[0]);
        CHECK(plan.rows.blocks == (s[0] + plan.rows.block_rows - 1) / plan.rows.block_rows);
        CHECK(plan.rows.stored_inside == 1);
        CHECK(plan.rows.stored_outside == 1);
        const fusor::tensor<T> got = e;
        CHECK(got.shape() == s);
        CHECK(fusor::array_equal(got, softmax_stored(x)));
        // Within float rounding of the exact softmax: a few ulp of the result for exp's
        // 1-ulp error, the division and the sum's O(eps log n).
        const auto want = softmax_reference(x);
        const long double tol = std::is_same_v<T, float> ? 4e-6L : 1e-14L;
        long double worst = 0;
        for (index_t i = 0; i < got.size(); ++i) {
            const long double w = want[static_cast<std::size_t>(i)];
            worst = std::max(worst, std::fabs(got.data()[i] - w) / w);
        }
        CHECK(worst < tol);
    }
}

TEST_CASE("the plans that run are the plans explain prints, in its order") {
    one_thread serial;
    const auto x = spread<float>({1000, 1000}, 5);
    fusor::tensor<float> out(shape_t{1000, 1000});
    const auto e = softmax(x);
    const auto plan = fusor::explain(out, e);
    REQUIRE(plan.rows.applies);
    REQUIRE(plan.rows.tail_rows() > 0);
    {
        observing watch;
        out = e;
    }
    const index_t full = plan.rows.rows / plan.rows.block_rows;
    REQUIRE(ran.size() == static_cast<std::size_t>(2 * plan.rows.blocks));
    for (index_t k = 0; k < plan.rows.blocks; ++k) {
        const bool tail = k == full;
        CHECK(ran[static_cast<std::size_t>(2 * k)]
              == (tail ? plan.rows.store_tail : plan.rows.store));
        CHECK(ran[static_cast<std::size_t>(2 * k + 1)]
              == (tail ? plan.rows.block_tail : plan.rows.block));
    }
    // The store computes exp once per element; the expression reads the buffer (no exp).
    CHECK(plan.rows.store.vector_functions.size() + (plan.rows.store.scalar_math ? 1 : 0) == 1);
    CHECK(plan.rows.block.boundaries.size() == 1);
    const std::string text = explain_text::one_line(plan.text());
    CHECK(text.starts_with("fusor::explain: by row blocks (compute_at), on 1 thread\n  rows: "
                           "1000 in "));
    CHECK(text.find("each block stores exp (" + std::to_string(plan.rows.block_rows)
                    + ", 1000) float32 once in a buffer")
          != std::string::npos);
    CHECK(plan.json().find("\"row_blocks\":{\"rows\":1000,") != std::string::npos);
    // Cost: every block's loops.
    CHECK(plan.cost().fused.loops == 4 * plan.rows.blocks);
}

TEST_CASE("trees the row blocks cannot cut take the ordinary plan, with the same values") {
    one_thread serial;
    const auto x = spread<float>({600, 100}, 7);
    const auto y = spread<float>({600, 100}, 8);
    // The same expression type over two different tensors: nothing is shared.
    {
        auto px = fusor::exp(x - fusor::max(x, 1, keepdims));
        auto py = fusor::exp(y - fusor::max(y, 1, keepdims));
        const auto e = px / fusor::sum(py, 1, keepdims);
        CHECK_FALSE(fusor::explain(e).rows.applies);
        const fusor::tensor<float> got = e;
        CHECK(fusor::array_equal(got, fusor::eval_eager(e)));
    }
    // Along the rows (axis 0): a block would see part of each column.
    {
        const auto e = softmax(x, 0);
        CHECK_FALSE(fusor::explain(e).rows.applies);
        const fusor::tensor<float> got = e;
        // The fused column sums accumulate in another order than a sum over a stored array.
        CHECK(fusor::allclose(got, softmax_stored(x, 0), 1e-6, 0.0));
    }
    // Too small: planning the blocks would cost more than the exp they save.
    {
        const auto s = spread<float>({64, 64}, 9);
        CHECK_FALSE(fusor::explain(softmax(s)).rows.applies);
    }
    // The sub-expression only inside the reduction (logsumexp): nothing to share.
    {
        auto m = fusor::max(x, 1, keepdims);
        const auto e = m + fusor::log(fusor::sum(fusor::exp(x - m), 1, keepdims));
        CHECK_FALSE(fusor::explain(e).rows.applies);
    }
    // In place: the destination is what the blocks read.
    {
        auto z = x;
        const auto before = softmax_stored(z);
        CHECK_FALSE(fusor::explain(z, softmax(z)).rows.applies);
        z = softmax(z);
        CHECK(fusor::array_equal(z, before));
    }
}

TEST_CASE("into a strided view of a larger tensor, by row blocks") {
    one_thread serial;
    const auto x = spread<double>({700, 90}, 11);
    fusor::tensor<double> big(shape_t{700, 200});
    big = 7.0;
    auto dest = fusor::view(big, fusor::all, fusor::slice(10, 190, 2));
    const auto plan = fusor::explain(dest, softmax(x));
    REQUIRE(plan.rows.applies);
    dest = softmax(x);
    CHECK(fusor::array_equal(fusor::tensor<double>(dest), softmax_stored(x)));
    // Untouched around the view.
    CHECK(big(0, 0) == 7.0);
    CHECK(big(699, 11) == 7.0);
    CHECK(big(699, 199) == 7.0);
}

TEST_CASE("whole blocks split across threads give the one-thread bits"
          * doctest::skip(!fusor::threads_enabled)) {
    const auto x = spread<float>({4096, 64}, 13);
    fusor::set_num_threads(1);
    const fusor::tensor<float> one = softmax(x);
    fusor::set_num_threads(2);
    const auto plan = fusor::explain(softmax(x));
    REQUIRE(plan.rows.applies);
    const fusor::tensor<float> two = softmax(x);
    fusor::set_num_threads(fusor::threads_enabled ? 2 : 1);
    CHECK(fusor::array_equal(one, two));
    CHECK(plan.rows.threads == 2);
    CHECK(explain_text::one_line(plan.text())
              .starts_with("fusor::explain: by row blocks (compute_at), on 2 threads\n"));
}

TEST_CASE("a repeated assignment reuses the row blocks and their plans, and explain says so") {
    one_thread serial;
    const auto x = spread<float>({300, 100}, 17);
    const auto y = spread<float>({300, 100}, 19);
    fusor::tensor<float> out(shape_t{300, 100}), other(shape_t{300, 100});
    const auto e = softmax(x);
    CHECK_FALSE(fusor::explain(out, e).cached); // this thread has not evaluated it yet
    out = e;
    const auto plan = fusor::explain(out, e);
    REQUIRE(plan.rows.applies);
    CHECK(plan.cached);
    CHECK(explain_text::one_line(plan.text())
              .find("\nplan cache: the last evaluation of this expression on this thread")
          != std::string::npos);
    CHECK(plan.json().find("\"threads\":1,\"cached\":true,") != std::string::npos);
    // Another destination of the same layout: the kept decision runs, its plans pointed at it,
    // equal to what explain plans afresh for that destination.
    {
        observing watch;
        other = e;
    }
    const auto for_other = fusor::explain(other, e);
    REQUIRE(ran.size() == static_cast<std::size_t>(2 * for_other.rows.blocks));
    CHECK(ran[0] == for_other.rows.store);
    CHECK(ran[1] == for_other.rows.block);
    CHECK(fusor::array_equal(other, out));
    CHECK(fusor::array_equal(out, softmax_stored(x)));
    // The same expression type over other operands: decided again, then kept for those.
    const auto f = softmax(y);
    CHECK_FALSE(fusor::explain(out, f).cached);
    out = f;
    CHECK(fusor::explain(out, f).cached);
    CHECK_FALSE(fusor::explain(out, e).cached);
    CHECK(fusor::array_equal(out, softmax_stored(y)));
}
