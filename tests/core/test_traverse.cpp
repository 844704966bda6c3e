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
