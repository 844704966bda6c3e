// Assignment: `=`, `+= -= *= /=`, views as destinations, the in-place rule, NumPy's overlap
// rule, and "no store before every check".
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

using fusor::shape_t;

namespace {
template <class T>
std::vector<T> values(const fusor::tensor<T>& t) {
    return {t.begin(), t.end()};
}
} // namespace

// Building `a * b + c` copies each leaf into its parent; over an lvalue tensor a leaf is its
// data, shape and strides pointers alone (issue "One plan, one loop": no state a small-size
// evaluation does not read), and still answers owner / is_view / base as a view's leaf does.
// Checked mode adds a lifetime stamp to every leaf: the size is checked outside it only.
TEST_CASE("a leaf over an lvalue tensor is three pointers" * doctest::skip(FUSOR_CHECKED != 0)) {
    fusor::tensor<float> a = {1.f, 2.f, 3.f};
    CHECK(sizeof(fusor::as_node(a)) == 3 * sizeof(void*));
}

TEST_CASE("a leaf over an lvalue tensor reads as no owner, no view, no base; others keep theirs") {
    fusor::tensor<float> a = {1.f, 2.f, 3.f};
    const auto borrowed = fusor::as_node(a);
    CHECK(borrowed.data == a.data());
    CHECK(&borrowed.shape() == &a.shape());
    CHECK_FALSE(borrowed.owner);
    CHECK_FALSE(borrowed.is_view);
    CHECK(static_cast<const float*>(borrowed.base) == nullptr);
    const std::shared_ptr<const void> no_owner = borrowed.owner;
    CHECK(no_owner == nullptr);

    const auto view = fusor::as_node(fusor::view(a, fusor::slice(1, 3)));
    CHECK(view.is_view);
    CHECK(view.base == a.data());
    CHECK(view.data == a.data() + 1);
    const auto moved = fusor::as_node(fusor::tensor<float>{4.f, 5.f});
    CHECK(moved.owner != nullptr);
    CHECK_FALSE(moved.is_view);
    CHECK(sizeof(moved) > sizeof(borrowed));

    fusor::tensor<float> c(shape_t{3});
    c = a * a + a;
    CHECK(values(c) == std::vector<float>{2.f, 6.f, 12.f});
}

TEST_CASE("c = e takes e's shape; compound assignment keeps c's") {
    fusor::tensor<double> c = {1, 2, 3};
    fusor::tensor<double> m = {{1, 2, 3}, {4, 5, 6}};
    c = m * 2.0;
    CHECK(c.shape() == shape_t{2, 3});
    CHECK(values(c) == std::vector<double>{2, 4, 6, 8, 10, 12});
    c += fusor::tensor<double>{1, 1, 1}; // (3,) broadcasts to (2, 3)
    c -= 1.0;
    c *= m;
    c /= 2;
    CHECK(values(c) == std::vector<double>{1, 4, 9, 16, 25, 36});
}

TEST_CASE("assignment casts to the destination's type as NumPy's c[...] = e") {
    fusor::tensor<std::int32_t> c = {0, 0};
    fusor::tensor<double> d = {1.75, -2.5};
    c = d; // not an expression of c's type: evaluated and cast (truncation toward zero)
    CHECK(values(c) == std::vector<std::int32_t>{1, -2});
    fusor::tensor<float> f = {1, 2};
    f += d; // float32 += float64: same kind, allowed
    CHECK(f(0) == 2.75f);
}

TEST_CASE("in place, the right side must broadcast TO the destination; else c is untouched") {
    // x = np.ones(3); x += np.ones((2,3)) -> ValueError: non-broadcastable output operand ...
    fusor::tensor<double> x = {1, 1, 1};
    const fusor::tensor<double> big = fusor::ones<double>({2, 3});
    CHECK_THROWS_WITH_AS(x += big,
                         "non-broadcastable output operand with shape (3,) doesn't match the "
                         "broadcast shape (2,3)",
                         fusor::broadcast_error);
    CHECK(values(x) == std::vector<double>{1, 1, 1});
    // No new axes in place, not even of extent 1 (NumPy refuses them too).
    CHECK_THROWS_AS(x += fusor::ones<double>({1, 3}), fusor::broadcast_error);
    CHECK_THROWS_AS(x *= fusor::ones<double>({2}), fusor::broadcast_error);
    CHECK(values(x) == std::vector<double>{1, 1, 1});
}

TEST_CASE("writing through views: slices, diagonal, transposes") {
    fusor::tensor<double> a = fusor::zeros<double>({3, 3});
    fusor::diagonal(a) = 7.0;
    CHECK(values(a) == std::vector<double>{7, 0, 0, 0, 7, 0, 0, 0, 7});
    fusor::view(a, fusor::slice(0, 2)) = fusor::tensor<double>{1, 2, 3}; // rows 0 and 1
    CHECK(values(a) == std::vector<double>{1, 2, 3, 1, 2, 3, 0, 0, 7});
    fusor::transpose(a) = fusor::tensor<double>{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    CHECK(values(a) == std::vector<double>{1, 4, 7, 2, 5, 8, 3, 6, 9});
    fusor::view(a, 1) += 10.0;
    CHECK(a(1, 0) == 12);
    // Extra leading extent-1 axes are dropped in plain assignment (as NumPy).
    fusor::view(a, 2) = fusor::tensor<double>{{0, 0, 0}};
    CHECK(a(2, 2) == 0);
    // A wrong shape throws before anything is written.
    CHECK_THROWS_WITH_AS((fusor::view(a, 0) = fusor::tensor<double>{1, 2}),
                         "could not broadcast input array from shape (2,) into shape (3,)",
                         fusor::broadcast_error);
    CHECK(a(0, 0) == 1);
}

// A reduction writes exactly its own shape: into a view it must broadcast to, it is computed
// into a temporary and copied (its loops once wrote part of the view and left the rest, and at
// (400, 400) read past their result). Expected values: NumPy's `w[...] = e`.
TEST_CASE("a reduction or product that broadcasts into a view fills all of it") {
    using namespace fusor;
    const tensor<double> a = {{0, 1}, {2, 3}};
    tensor<double> w = full<double>({2, 2}, -1.0);
    view(w, all) = sum(a); // w[...] = a.sum()
    CHECK(values(w) == std::vector<double>{6, 6, 6, 6});
    view(w, slice(none, none, -1)) = sum(a, 1, keepdims); // w[::-1] = a.sum(1, keepdims=True)
    CHECK(values(w) == std::vector<double>{5, 5, 1, 1});
    tensor<double> z = full<double>({2, 2, 2}, -1.0);
    view(z, all) = matmul(a, a); // z[...] = a @ a
    CHECK(values(z) == std::vector<double>{2, 3, 6, 11, 2, 3, 6, 11});
    tensor<std::int64_t> zi = full<std::int64_t>({3, 2}, -1);
    view(zi, all) = einsum("ij->j", tensor<std::int64_t>{{1, 2}, {3, 4}}); // zi[...] = [4, 6]
    CHECK(values(zi) == std::vector<std::int64_t>{4, 6, 4, 6, 4, 6});
    // c.T[...] = c.max(0, keepdims=True): reads what it writes.
    tensor<double> c = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}};
    transpose(c) = max(c, 0, keepdims);
    CHECK(values(c) == std::vector<double>{6, 6, 6, 7, 7, 7, 8, 8, 8});
    // Large enough for threads, reading what it writes: big[...] = big.sum(0), big = arange
    // over (400, 400), so column j sums to 400 * 79,800 + 400 j (exact in float64).
    tensor<double> big = arange<double>(160000);
    big.reshape({400, 400});
    view(big, all) = sum(big, 0);
    index_t wrong = 0;
    for (index_t i = 0; i < 400; ++i)
        for (index_t j = 0; j < 400; ++j)
            wrong += big(i, j) != 31'920'000.0 + 400.0 * static_cast<double>(j);
    CHECK(wrong == 0);
    // explain names the two steps the evaluation takes.
    const std::string text = explain_text::one_line(explain(view(w, all), sum(a)).text());
    CHECK(text.find("reduction result, broadcast into out") != std::string::npos);
    CHECK(explain(view(w, all), sum(a)).plan.alias_copy);
}

TEST_CASE("overlap: the result is as if the right side were evaluated first") {
    // b = np.arange(9.).reshape(3,3); b += b.T -> [[0,4,8],[4,8,12],[8,12,16]]
    fusor::tensor<double> b = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}};
    b += fusor::transpose(b);
    CHECK(values(b) == std::vector<double>{0, 4, 8, 4, 8, 12, 8, 12, 16});
    // a = transpose(a) + a
    fusor::tensor<double> a = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}};
    a = fusor::transpose(a) + a;
    CHECK(values(a) == std::vector<double>{0, 4, 8, 4, 8, 12, 8, 12, 16});
    // d = np.arange(5); d[1:] += d[:-1] -> [0, 1, 3, 5, 7]
    fusor::tensor<std::int64_t> d = fusor::arange<std::int64_t>(5);
    fusor::view(d, fusor::slice(1, fusor::none)) += fusor::view(d, fusor::slice(fusor::none, -1));
    CHECK(values(d) == std::vector<std::int64_t>{0, 1, 3, 5, 7});
    // The planner says when it copies.
    fusor::tensor<double> c = {{1, 2}, {3, 4}};
    CHECK(fusor::make_plan(fusor::as_node(fusor::transpose(c) + c),
                           fusor::detail::layout_of(c.view()))
              .alias_copy);
    CHECK_FALSE(
        fusor::make_plan(fusor::as_node(c + 1.0), fusor::detail::layout_of(c.view())).alias_copy);
    // ... and explain(dest, e) shows it, only when needed.
    const std::string with_copy =
        explain_text::one_line(fusor::explain(c, fusor::transpose(c) + c).text());
    CHECK(with_copy.find("-> tmp0: float64 (2, 2), 32 bytes, aliasing copy: out overlaps t0")
          != std::string::npos);
    CHECK(with_copy.find("*out = *tmp0") != std::string::npos);
    CHECK(explain_text::one_line(fusor::explain(c, c + 1.0).text()).find("aliasing copy")
          == std::string::npos);
    CHECK_THROWS_AS(fusor::explain(c, fusor::ones<double>({3})), fusor::broadcast_error);
}

TEST_CASE("a broadcast leaf is read with stride 0; a 0-d tensor broadcasts with anything") {
    fusor::tensor<double> z = fusor::full({}, 2.0);
    fusor::tensor<double> m = {{1, 2}, {3, 4}};
    fusor::tensor<double> r = m * z;
    CHECK(values(r) == std::vector<double>{2, 4, 6, 8});
    fusor::tensor<double> zz = z + z;
    CHECK(zz.rank() == 0);
    CHECK(zz.item() == 4.0);
}

TEST_CASE("extent-0 axes: loops that do nothing") {
    fusor::tensor<double> e = fusor::zeros<double>({0, 3});
    fusor::tensor<double> r = e + fusor::ones<double>({1, 3});
    CHECK(r.shape() == shape_t{0, 3});
    CHECK(fusor::eval(fusor::sum(e, 0)).shape() == shape_t{3});
}

TEST_CASE("the broadcast kernel: blocks past broadcast_block, a splat refilled per row") {
    // (3, 2500) + (3, 1): inner loops of 2500 = two full blocks of 1024 and a partial one; the
    // stride-0 column changes value from row to row.
    const fusor::index_t n = 2500;
    fusor::tensor<double> a(fusor::shape_t{3, n});
    for (fusor::index_t i = 0; i < 3; ++i)
        for (fusor::index_t j = 0; j < n; ++j)
            a(i, j) = static_cast<double>(j);
    fusor::tensor<double> col(fusor::shape_t{3, 1});
    for (fusor::index_t i = 0; i < 3; ++i)
        col(i, 0) = 1000.0 * static_cast<double>(i + 1);
    REQUIRE(fusor::explain(a + col).plan.kernel == fusor::inner_kernel::broadcast);
    const fusor::tensor<double> r = a + col;
    bool all = true;
    for (fusor::index_t i = 0; i < 3; ++i)
        for (fusor::index_t j = 0; j < n; ++j)
            all = all && r(i, j) == static_cast<double>(j) + 1000.0 * static_cast<double>(i + 1);
    CHECK(all);
    // bool operands (whose splat cannot be a std::vector<bool>), both sides broadcast.
    fusor::tensor<bool> row(fusor::shape_t{n});
    for (fusor::index_t j = 0; j < n; ++j)
        row(j) = j % 3 == 0;
    fusor::tensor<bool> flags(fusor::shape_t{2, 1});
    flags(0, 0) = true;
    REQUIRE(fusor::explain(flags && row).plan.kernel == fusor::inner_kernel::broadcast);
    const fusor::tensor<bool> both = flags && row;
    CHECK(both.shape() == fusor::shape_t{2, n});
    fusor::index_t count = 0;
    for (const bool b : both)
        count += b;
    CHECK(count == (n + 2) / 3);
    CHECK(both(0, 2499) == true);
    CHECK(both(1, 2499) == false);
}

TEST_CASE("a one-operand expression held in a variable is an operand, not a node to copy") {
    // `auto v = -x;` then `v + 1.0`: v is a non-const elementwise&, and the node's variadic
    // constructor once took it as a child (a leaf built from it through its base), which read
    // freed or wrong memory. It must be copied as a node.
    fusor::tensor<double> x = {1.0, 2.0, 3.0};
    auto v = -x;
    fusor::tensor<double> r = v + 1.0;
    CHECK(fusor::array_equal(r, fusor::tensor<double>{0.0, -1.0, -2.0}));
    fusor::tensor<double> t = fusor::transpose(v);
    CHECK(fusor::array_equal(t, fusor::tensor<double>{-1.0, -2.0, -3.0}));
    auto w = fusor::exp(x);
    auto copy = w; // the copy constructor, not a node over w
    fusor::tensor<double> e = copy * 1.0;
    CHECK(fusor::array_equal(e, fusor::eval(fusor::exp(x))));
}

TEST_CASE("a node whose shape is its view leaf's stays whole when copied, moved and assigned") {
    // `x[1:] - x[:-1]`: the leaves of the two rvalue views hold their shapes, made in the node,
    // and the node's shape is its first leaf's (elementwise::shape_child), re-pointed at the
    // copy's own leaf on every copy, move and assignment: the original going away must not
    // take the copy's shape with it.
    fusor::tensor<double> x = {1.0, 4.0, 9.0, 16.0};
    const fusor::tensor<double> want = {3.0, 5.0, 7.0};
    auto make = [&x] {
        return fusor::view(x, fusor::slice(1, fusor::none))
               - fusor::view(x, fusor::slice(fusor::none, -1));
    };
    using node = decltype(make());
    auto inside = [](const node& n) {
        const char* p = reinterpret_cast<const char*>(&n.shape());
        return p >= reinterpret_cast<const char*>(&n) && p < reinterpret_cast<const char*>(&n + 1);
    };
    std::optional<node> first(make());
    CHECK(first->shape() == shape_t{3});
    CHECK(inside(*first));
    node copied(*first);
    node moved(std::move(*first));
    first.reset(); // the original's storage is gone
    CHECK(inside(copied));
    CHECK(inside(moved));
    CHECK(copied.shape() == shape_t{3});
    CHECK(fusor::array_equal(fusor::eval(copied), want));
    CHECK(fusor::array_equal(fusor::eval(moved), want));
    {
        node assigned(make());
        node source(make());
        assigned = source;
        CHECK(inside(assigned));
        assigned = std::move(source);
        CHECK(inside(assigned));
        fusor::tensor<double> r = assigned * 2.0; // the node moved into a parent
        CHECK(fusor::array_equal(r, fusor::eval(want * 2.0)));
    }
    // Nested: the parent's shape is its child node's, which holds it in its leaf.
    auto outer = fusor::exp(make()) + 1.0;
    auto outer_copy = outer;
    CHECK(outer_copy.shape() == shape_t{3});
    fusor::tensor<double> r = outer_copy;
    CHECK(fusor::allclose(r, fusor::eval(fusor::exp(want) + 1.0)));
}

TEST_CASE(
    "a node that holds its own broadcast shape keeps it through copies, moves and assignment") {
    // (3, 1) + (1, 4): the shape (3, 4) is no child's, so the node holds it (elementwise's
    // own_shape, alive only then); a node that points at a child's shape holds none. Copies,
    // moves and assignments between the two kinds start and end that shape's life.
    fusor::tensor<double> col = {{1.0}, {2.0}, {3.0}};
    fusor::tensor<double> row = {{10.0, 20.0, 30.0, 40.0}};
    fusor::tensor<double> other = {{5.0, 6.0, 7.0, 8.0}};
    const fusor::tensor<double> want = {
        {11.0, 21.0, 31.0, 41.0}, {12.0, 22.0, 32.0, 42.0}, {13.0, 23.0, 33.0, 43.0}};
    auto owning = col + row;
    using node = decltype(owning);
    CHECK(owning.shape() == shape_t{3, 4});
    node copied(owning);
    node moved(std::move(copied));
    CHECK(moved.shape() == shape_t{3, 4});
    CHECK(fusor::array_equal(fusor::eval(moved), want));
    node pointing = row + other; // (1, 4): row's shape, held by the tensor, not the node
    CHECK(&pointing.shape() == &row.shape());
    pointing = owning; // a node that held none now holds (3, 4)
    CHECK(pointing.shape() == shape_t{3, 4});
    CHECK(fusor::array_equal(fusor::eval(pointing), want));
    node back = row + other;
    owning = back; // and the other way: the held shape ends, the node points at row's
    CHECK(&owning.shape() == &row.shape());
    CHECK(fusor::array_equal(fusor::eval(owning), fusor::eval(row + other)));
    const node& self = pointing;
    pointing = self; // self-assignment keeps the shape
    CHECK(pointing.shape() == shape_t{3, 4});
    pointing = std::move(moved);
    CHECK(fusor::array_equal(fusor::eval(pointing * 2.0), fusor::eval(want * 2.0)));
}

// `t = e` with e of another shape: the same number of elements keeps t's buffer and reads the
// new layout over it (aliasing included: `t = transpose(t)` is numpy's `t = t.T.copy()`);
// another number gives t a fresh buffer. Either way t takes e's shape.
TEST_CASE("assigning an expression of another shape reshapes or replaces the tensor") {
    fusor::tensor<float> t = {{0.f, 1.f, 2.f}, {3.f, 4.f, 5.f}};
    const float* buffer = t.data();
    t = fusor::transpose(t) * 2.0f; // (2, 3) -> (3, 2), read while written
    CHECK(t.shape() == shape_t{3, 2});
    CHECK(t.data() == buffer);
    CHECK(values(t) == std::vector<float>{0.f, 6.f, 2.f, 8.f, 4.f, 10.f});
    const fusor::tensor<float> row = {1.f, 2.f};
    t = t + fusor::reshape(row, shape_t{1, 1, 2}); // (3, 2) -> (1, 3, 2): same count
    CHECK(t.shape() == shape_t{1, 3, 2});
    CHECK(t.data() == buffer);
    CHECK(values(t) == std::vector<float>{1.f, 8.f, 3.f, 10.f, 5.f, 12.f});
    t = fusor::reshape(t, shape_t{3, 2, 1}) + row; // (1, 3, 2) -> (3, 2, 2): a fresh buffer
    CHECK(t.shape() == shape_t{3, 2, 2});
    CHECK(values(t)
          == std::vector<float>{2.f, 3.f, 9.f, 10.f, 4.f, 5.f, 11.f, 12.f, 6.f, 7.f, 13.f, 14.f});
    fusor::tensor<float> fresh; // 0-d, as `tensor<float> r = e` starts
    fresh = t * t;
    CHECK(fresh.shape() == shape_t{3, 2, 2});
    CHECK(fresh.data() != t.data());
    CHECK(fresh.at(2, 1, 1) == 196.f);
}
