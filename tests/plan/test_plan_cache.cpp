// The plan cache (plan/plan_cache.hpp): an expression evaluated again over the same operands
// into the same destination layout reuses this thread's last plan for its type. It must be
// invisible in results: every change the planner would see (an operand's shape, strides or
// address, a scalar's value, a view's map, the destination's layout or overlap, the thread cap)
// makes a new plan, and the reused plan equals the one make_plan would build now. explain
// says when the plan would come from the cache.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../exec/support.hpp"
#include "../explain_text.hpp"

using exec_test::counting;
using fusor::shape_t;

using exec_test::observing;
using exec_test::ran;

namespace {
template <class T>
bool equal(const fusor::tensor<T>& a, const fusor::tensor<T>& b) {
    return fusor::array_equal(a, b);
}
} // namespace

// A (1, 1) operand broadcast: the row-broadcast case (`a * row`, `a * col` with col (8, 1))
// runs without a cached plan; a one-element tensor is neither a row nor a column.
TEST_CASE("a second evaluation reuses the plan, and explain says so") {
    const auto a = counting<float>({8, 8}, 1), col = counting<float>({1, 1}, 2);
    fusor::tensor<float> out(shape_t{8, 8});
    auto e = a * col + 1.0f;
    CHECK_FALSE(fusor::explain(out, e).cached);
    out = e;
    const auto x = fusor::explain(out, e);
    CHECK(x.cached);
    CHECK(explain_text::one_line(x.text()).find("plan cache:") != std::string::npos);
    CHECK(x.json().find("\"cached\":true") != std::string::npos);
    observing watch;
    out = e;
    REQUIRE(ran.size() == 1);
    CHECK(ran[0] == x.plan); // the reused plan is the one explain printed
    CHECK(equal(out, fusor::eval_eager(e)));
}

TEST_CASE("every input of the plan is part of the key: results stay exact") {
    auto a = counting<float>({8, 8}, 1);
    const auto row = counting<float>({8}, 2), col = counting<float>({8, 1}, 3);
    fusor::tensor<float> out(shape_t{8, 8});
    // The same expression type over other operands, shapes and strides.
    auto plus = [](const auto& x, const auto& y) {
        return x * y + 2.0f;
    };
    out = plus(a, row);
    CHECK(equal(out, fusor::eval_eager(plus(a, row))));
    out = plus(a, col); // another shape: (8, 1) broadcasts the other way
    CHECK(equal(out, fusor::eval_eager(plus(a, col))));
    const auto b = counting<float>({8, 8}, 4);
    out = plus(b, row); // another address
    CHECK(equal(out, fusor::eval_eager(plus(b, row))));
    out = plus(fusor::transpose(a), row); // the same types' view, transposed strides
    CHECK(equal(out, fusor::eval_eager(plus(fusor::transpose(a), row))));
    // A scalar's value: two sums of one tensor scaled differently are not one reused sum.
    const auto v = counting<float>({16}, 5);
    for (float s : {1.0f, 2.0f, 3.0f}) {
        auto e = fusor::sum(v * s) + fusor::sum(v * 2.0f);
        fusor::tensor<float> r(shape_t{});
        r = e;
        CHECK(r.item() == fusor::eval_eager(e).item());
    }
    // The destination's layout: a transposed view of the destination, then a plain one.
    fusor::tensor<float> t(shape_t{8, 8});
    fusor::transpose(t) = plus(a, row);
    CHECK(equal(fusor::eval(fusor::transpose(t)), fusor::eval_eager(plus(a, row))));
    t = plus(a, row);
    CHECK(equal(t, fusor::eval_eager(plus(a, row))));
    // The shape of an operand changed under the same expression object.
    auto shifted = a - fusor::max(a, 1, fusor::keepdims);
    out = shifted;
    CHECK(equal(out, fusor::eval_eager(shifted)));
    for (fusor::index_t i = 0; i < a.size(); ++i) // new values in place: the same plan, new results
        a.data()[i] = static_cast<float>((i * 5) % 7);
    out = shifted;
    CHECK(equal(out, fusor::eval_eager(shifted)));
}

TEST_CASE("another destination of the same layout reuses the plan, pointed at it") {
    const auto a = counting<float>({8, 8}, 1), col = counting<float>({1, 1}, 2); // not flat
    fusor::tensor<float> first(shape_t{8, 8}), second(shape_t{8, 8});
    auto e = a - col;
    first = e;
    observing watch;
    second = e;
    REQUIRE(ran.size() == 1);
    CHECK(ran[0].operands[0].address == second.data());
    CHECK(ran[0] == fusor::explain(second, e).plan);
    CHECK(equal(second, fusor::eval_eager(e)));
}

TEST_CASE("the destination's element type is part of the key") {
    const auto a = counting<float>({8, 8}, 1), col = counting<float>({1, 1}, 2); // not flat
    fusor::tensor<float> f(shape_t{8, 8});
    fusor::tensor<double> d(shape_t{8, 8});
    auto e = a * col;
    f = e;
    CHECK_FALSE(fusor::explain(d, e).cached);
    observing watch;
    d = e;
    REQUIRE(ran.size() == 1);
    CHECK(ran[0] == fusor::explain(d, e).plan);
    CHECK(ran[0].operands[0].itemsize == 8);
    CHECK(fusor::array_equal(d, fusor::cast<double>(fusor::eval(e))));
}

TEST_CASE("overlap with the destination is part of the key") {
    fusor::tensor<double> sq = exec_test::counting<double>({6, 6}, 1);
    fusor::tensor<double> other = exec_test::counting<double>({6, 6}, 2);
    const fusor::tensor<double> expected1 = fusor::eval(fusor::transpose(sq) + sq);
    sq = fusor::transpose(sq) + sq; // aliasing copy
    CHECK(equal(sq, expected1));
    const fusor::tensor<double> expected2 = fusor::eval(fusor::transpose(sq) + sq);
    sq = fusor::transpose(sq) + sq; // again: the cached alias-copy plan
    CHECK(equal(sq, expected2));
    fusor::tensor<double> out(shape_t{6, 6});
    out = fusor::transpose(other) + other; // same type, no overlap: a plan without the copy
    CHECK(equal(out, fusor::eval(fusor::transpose(other) + other)));
    CHECK_FALSE(fusor::explain(out, fusor::transpose(other) + other).plan.alias_copy);
}

TEST_CASE("the thread cap is part of the key") {
    const fusor::index_t n = fusor::parallel_threshold;
    const auto a = counting<float>({n / 64, 64}, 1), row = counting<float>({64}, 2);
    fusor::tensor<float> out(shape_t{n / 64, 64});
    fusor::set_num_threads(1);
    out = a * row;
    fusor::set_num_threads(2);
    CHECK_FALSE(fusor::explain(out, a * row).cached);
    observing watch;
    out = a * row;
    REQUIRE(ran.size() == 1);
    CHECK(ran[0].threads == (fusor::num_threads() > 1 ? 2 : 1));
    CHECK(equal(out, fusor::eval_eager(a * row)));
}

TEST_CASE("the key of a layer norm with weight and bias is held inline: the look-up allocates "
          "nothing") {
    // 78 words: six leaves of rank 1 or 2, three reductions, the destination. With 64 inline
    // words the rest went to a std::vector grown one word at a time, five allocations on every
    // evaluation.
    const fusor::tensor<float> x = fusor::ones<float>({16, 8});
    const fusor::tensor<float> gamma = fusor::ones<float>({8}), beta = fusor::zeros<float>({8});
    fusor::tensor<float> out(shape_t{16, 8});
    const auto e = (x - fusor::mean(x, 1, fusor::keepdims))
                       / fusor::sqrt(fusor::var(x, 1, fusor::keepdims) + 1e-5f) * gamma
                   + beta;
    const auto& n = fusor::detail::operand_for<float>(e);
    const fusor::destination_ref d{
        out.shape(), out.strides(), out.data(), fusor::dtype_name<float>(), sizeof(float)};
    const fusor::planning::plan_key key = fusor::planning::key_of(n, d);
    CHECK(key.count > 64);
    CHECK(key.count <= fusor::planning::plan_key::inline_words);
    CHECK(key.spill.empty());
    out = e;
    CHECK(fusor::explain(out, e).cached);
}

namespace {
// is_key_of (a key compared with a kept one as it is made) must answer as making the key and
// comparing the two: checked both ways, and the answer returned.
template <class N>
bool matches_made_key(const fusor::planning::plan_key& kept,
                      const N& n,
                      const fusor::destination_ref& d) {
    const bool matched = fusor::planning::is_key_of(kept, n, d);
    CHECK(matched == (fusor::planning::key_of(n, d) == kept));
    return matched;
}
} // namespace

TEST_CASE("a key compared as it is made answers as two made keys compared, spilled words "
          "included") {
    // Fifteen rank-2 leaves: 150 words of tree and 11 of destination, so the last leaves and the
    // destination are in the key's spill, past its 128 inline words.
    const auto a = counting<float>({2, 3}, 1), b = counting<float>({2, 3}, 2),
               c = counting<float>({2, 3}, 3);
    const auto at = fusor::transpose(counting<float>({3, 2}, 4)); // (2, 3) at strides (1, 2)
    auto chain = [](const auto& x, const auto& y, const auto& last) {
        return x + y + x + y + x + y + x + y + x + y + x + y + x + y + last;
    };
    fusor::tensor<float> out(shape_t{2, 3}), other(shape_t{2, 3}), wide(shape_t{3, 2});
    auto dest = [](const fusor::tensor<float>& t) {
        return fusor::destination_ref{
            t.shape(), t.strides(), t.data(), fusor::dtype_name<float>(), sizeof(float)};
    };
    const auto e = chain(a, b, c);
    const auto& n = fusor::detail::operand_for<float>(e);
    const fusor::planning::plan_key kept = fusor::planning::key_of(n, dest(out));
    REQUIRE(kept.count > fusor::planning::plan_key::inline_words + 11);
    REQUIRE_FALSE(kept.spill.empty());

    CHECK(matches_made_key(kept, n, dest(out)));
    // The same expression type: another operand in the inline words, in the spill, or the last
    // leaf's strides only (a transposed view of the same shape).
    const auto inline_change = chain(a, a, c), spill_change = chain(a, b, b);
    CHECK_FALSE(
        matches_made_key(kept, fusor::detail::operand_for<float>(inline_change), dest(out)));
    CHECK_FALSE(matches_made_key(kept, fusor::detail::operand_for<float>(spill_change), dest(out)));
    const auto strides_change = chain(a, b, at);
    const auto& sn = fusor::detail::operand_for<float>(strides_change);
    const fusor::planning::plan_key kept_view = fusor::planning::key_of(sn, dest(out));
    CHECK(matches_made_key(kept_view, sn, dest(out)));
    CHECK_FALSE(matches_made_key(kept, sn, dest(out)));
    // The destination (its words are last, in the spill): another address of the same layout
    // is the same key (it overlaps nothing); another shape is not.
    CHECK(matches_made_key(kept, n, dest(other)));
    CHECK_FALSE(matches_made_key(kept, n, dest(wide)));
    // Keys of other lengths: a shorter expression's key against the long tree and back, and a
    // short key matched inline.
    const auto short_e = a + b;
    const auto& short_n = fusor::detail::operand_for<float>(short_e);
    const fusor::planning::plan_key short_kept = fusor::planning::key_of(short_n, dest(out));
    CHECK(short_kept.spill.empty());
    CHECK(matches_made_key(short_kept, short_n, dest(other)));
    CHECK_FALSE(matches_made_key(short_kept, n, dest(out)));
    CHECK_FALSE(matches_made_key(kept, short_n, dest(out)));
    CHECK_FALSE(matches_made_key(short_kept, short_n, dest(wide)));
}

TEST_CASE("a compared key takes the kept overlap answer only at the kept destination's address") {
    // A key_match whose tree words all equal the kept key's, into the address the kept key was
    // made for, takes the kept key's overlap answer instead of finding it again
    // (plan_cache.hpp, destination_overlaps); anywhere else it finds it. Either way it answers
    // as the two made keys compared.
    fusor::tensor<double> sq = exec_test::counting<double>({6, 6}, 1);
    fusor::tensor<double> other = exec_test::counting<double>({6, 6}, 2), out(shape_t{6, 6});
    auto dest = [](const auto& t) {
        return fusor::destination_ref{
            t.shape(), t.strides(), t.data(), fusor::dtype_name<double>(), sizeof(double)};
    };
    const auto e = fusor::transpose(sq) + sq;
    const auto& n = fusor::detail::operand_for<double>(e);
    const fusor::planning::plan_key into_itself = fusor::planning::key_of(n, dest(sq));
    CHECK(into_itself.made_for == sq.data());
    CHECK(into_itself.overlapped);
    CHECK(matches_made_key(into_itself, n, dest(sq)));          // the kept answer
    CHECK_FALSE(matches_made_key(into_itself, n, dest(other))); // found again: no overlap
    const fusor::planning::plan_key into_out = fusor::planning::key_of(n, dest(out));
    CHECK(into_out.made_for == out.data());
    CHECK_FALSE(into_out.overlapped);
    CHECK(matches_made_key(into_out, n, dest(out)));
    CHECK(matches_made_key(into_out, n, dest(other)));    // found again: no overlap either
    CHECK_FALSE(matches_made_key(into_out, n, dest(sq))); // found again: an overlap
    // The kept address with other tree words (another operand) or another layout there (the
    // same bytes seen as one row): no match, whatever the overlap answer.
    const auto f = fusor::transpose(other) + other;
    CHECK_FALSE(matches_made_key(into_itself, fusor::detail::operand_for<double>(f), dest(sq)));
    const shape_t row{36}, unit{1};
    const fusor::destination_ref as_row{row, unit, sq.data(), fusor::dtype_name<double>(), 8};
    CHECK_FALSE(matches_made_key(into_itself, n, as_row));
}
