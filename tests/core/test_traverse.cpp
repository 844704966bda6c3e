// The one traversal of an expression tree (core/traverse.hpp): every node kind reaches its
// visitor member, children in order, and the element-wise node's `dense` (found when the node
// is built, read by the flat case instead of comparing every leaf's shape again).
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace {
// Writes the kinds of a tree depth-first, children in parentheses.
struct kind_printer {
    std::string out;
    template <class N>
    void on_leaf(const N& n) {
        out += n.is_view ? "view" : "tensor";
    }
    template <class N>
    void on_scalar(const N&) {
        out += "scalar";
    }
    template <class N>
    void on_elementwise(const N& n) {
        out += std::string(N::op_type::name);
        children(n);
    }
    template <class N>
    void on_remap(const N& n) {
        out += "remap";
        children(n);
    }
    template <class N>
    void on_reshaped(const N& n) {
        out += "reshaped";
        children(n);
    }
    template <class N>
    void on_reduction(const N& n) {
        out += std::string(N::reducer_type::name);
        children(n);
    }
    template <class N>
    void children(const N& n) {
        out += "(";
        bool first = true;
        fusor::for_each_child(n, [&](const auto& c) {
            out += first ? "" : ", ";
            first = false;
            fusor::traverse(c, *this);
        });
        out += ")";
    }
};

template <class E>
std::string kinds(const E& e) {
    kind_printer p;
    fusor::traverse(fusor::as_node(e), p);
    return p.out;
}
} // namespace

TEST_CASE("traverse reaches every node kind, children left to right") {
    fusor::tensor<float> a = fusor::ones<float>({2, 3}), b = fusor::ones<float>({3});
    CHECK(kinds(a * b + 1.0f) == "add(multiply(tensor, tensor), scalar)");
    CHECK(kinds(fusor::sum(fusor::exp(a), 1)) == "sum(exp(tensor))");
    CHECK(kinds(fusor::transpose(a + 1.0f)) == "remap(add(tensor, scalar))");
    CHECK(kinds(fusor::reshape(a * 2.0f, {3, 2})) == "reshaped(multiply(tensor, scalar))");
    CHECK(kinds(fusor::transpose(a) - 1.0f) == "subtract(view, scalar)");
}

TEST_CASE("child_count and child") {
    fusor::tensor<float> a = fusor::ones<float>({2, 3});
    const auto e = a * a + 1.0f;
    using E = std::remove_cvref_t<decltype(e)>;
    static_assert(fusor::child_count<E> == 2);
    static_assert(fusor::child_count<decltype(fusor::child<1>(e))> == 0);
    const auto r = fusor::sum(e, 0);
    static_assert(fusor::child_count<std::remove_cvref_t<decltype(r)>> == 1);
    CHECK(&fusor::child<0>(r) == &r.child);
    bool all = fusor::all_children(e, [](const auto&) { return true; });
    CHECK(all);
    int asked = 0;
    all = fusor::all_children(e, [&](const auto&) { return ++asked > 1; });
    CHECK(!all);
    CHECK(asked == 1); // stops at the first false
}

TEST_CASE("elementwise::dense: every tensor below of the node's shape, row-major") {
    fusor::tensor<float> a = fusor::ones<float>({2, 3}), b = fusor::ones<float>({2, 3});
    fusor::tensor<float> row = fusor::ones<float>({3}), sq = fusor::ones<float>({3, 3});
    CHECK((a * b + 1.0f).dense);
    CHECK((a * b + b).dense);
    CHECK_FALSE((a * row).dense);                   // a row: broadcast
    CHECK_FALSE(((a * row) + a).dense);             // a broadcast child below
    CHECK_FALSE((fusor::transpose(sq) + sq).dense); // a view off row-major strides
    auto first_rows = fusor::view(sq, fusor::slice(0, 2));
    CHECK((first_rows * 2.0f).dense); // a row-major view of the same shape
    fusor::tensor<float> zero_d = fusor::full<float>(fusor::shape_t{}, 2.0f);
    CHECK_FALSE((zero_d + a).dense); // a 0-d tensor is not a scalar
}

TEST_CASE("an element-wise node's shape: the operand's own where one operand's shape is it") {
    // Two children of one shape, or a child and a scalar (the binary node's short way), and
    // broadcasts (the general one): the node points at a tensor's shape instead of copying it
    // wherever that tensor's shape is the result's, and `dense` is as for the general walk.
    fusor::tensor<float> a = fusor::ones<float>({2, 3}), b = fusor::ones<float>({2, 3});
    fusor::tensor<float> row = fusor::ones<float>({3}), col = fusor::ones<float>({2, 1});
    const auto ab = a * b;
    CHECK(&ab.shape() == &a.shape());
    const auto twice = 2.0f * b;
    CHECK(&twice.shape() == &b.shape());
    const auto plus_one = a + 1.0f;
    CHECK(&plus_one.shape() == &a.shape());
    const auto nested = a * b + b; // the child's shape is a's: the node points at a's too
    CHECK(&nested.shape() == &a.shape());
    CHECK((ab.dense && twice.dense && plus_one.dense && nested.dense));
    const auto stretched = row * a; // the higher rank is the result's
    CHECK(&stretched.shape() == &a.shape());
    CHECK_FALSE(stretched.dense);
    const auto outer = col * row; // neither operand's shape: the node's own (2, 3)
    CHECK(outer.shape() == fusor::shape_t{2, 3});
    CHECK(&outer.shape() != &col.shape());
    CHECK(&outer.shape() != &row.shape());
    // A view made for the expression owns its shape, which the node copies: the same value.
    const auto of_view = fusor::view(a, fusor::slice(0, 2)) + b;
    CHECK(of_view.shape() == a.shape());
    CHECK(of_view.dense);
    // Equal ranks, other extents: the general walk's error.
    fusor::tensor<float> other = fusor::ones<float>({2, 4});
    CHECK_THROWS_AS(a + other, fusor::broadcast_error);
    // 0-d: a 0-d tensor with a scalar, either side.
    fusor::tensor<float> zero_d = fusor::full<float>(fusor::shape_t{}, 2.0f);
    CHECK((zero_d * 3.0f).shape() == fusor::shape_t{});
    CHECK((3.0f * zero_d).dense);
}

TEST_CASE("a dense expression and a broadcast one agree with the general walk") {
    // The flat case reads `dense`; with flat plans off the general walk plans the same loop.
    fusor::tensor<float> a{{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}},
        b{{0.5f, 1.5f, 2.5f}, {3.f, 2.f, 1.f}};
    fusor::tensor<float> row{10.f, 20.f, 30.f};
    const fusor::tensor<float> flat = a * b + 1.0f, rows = a * row + b;
    fusor::planning::flat_plans_enabled = false;
    const fusor::tensor<float> flat_general = a * b + 1.0f, rows_general = a * row + b;
    fusor::planning::flat_plans_enabled = true;
    CHECK(fusor::array_equal(flat, flat_general));
    CHECK(fusor::array_equal(rows, rows_general));
    CHECK(flat(1, 2) == 7.0f);
    CHECK(rows(0, 1) == 41.5f);
}
