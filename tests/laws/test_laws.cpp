// Laws written once, run for every node kind (TEST_CASE_TEMPLATE): the shape is known before
// evaluation; the fused result equals eval_eager's and NumPy's (laws_reference.py computes
// NumPy's from the same inputs, as a ctest fixture); the loops and kernels explain prints for
// the assignment are the ones that run (the trace of tests/explain/trace.hpp), and the
// assignment leaves NumPy's values in the destination. Values are small integers (and halves),
// exact in float64, so every comparison is exact.
// clang-format off: the trace hooks must be defined before fusor is included
#include "../explain/trace.hpp"
// clang-format on
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../exec/support.hpp"

namespace {

using exec_test::counting;
using fusor::shape_t;
using fusor::tensor;

struct expected_result {
    shape_t shape;
    std::vector<double> values;
};

// NumPy's results, by case name, from the file laws_reference.py wrote.
const std::map<std::string, expected_result>& reference() {
    static const std::map<std::string, expected_result> cases = [] {
        std::map<std::string, expected_result> m;
        std::ifstream in(std::string(FUSOR_BINARY_DIR) + "/tests/laws/expected.txt");
        REQUIRE_MESSAGE(in.good(), "run laws_reference.py first (the laws.reference test)");
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream s(line);
            std::string name;
            std::size_t ndim = 0;
            s >> name >> ndim;
            expected_result r;
            for (std::size_t k = 0; k < ndim; ++k) {
                fusor::index_t e = 0;
                s >> e;
                r.shape.push_back(e);
            }
            double v = 0;
            while (s >> v)
                r.values.push_back(v);
            m[name] = r;
        }
        return m;
    }();
    return cases;
}

// The inputs every case reads (laws_reference.py builds the same ones).
struct inputs {
    tensor<double> a = counting<double>({3, 4}, 1);
    tensor<double> b = counting<double>({3, 4}, 2);
    tensor<double> row = counting<double>({4}, 3);
    tensor<double> col = counting<double>({3, 1}, 4);
    tensor<double> sq = counting<double>({4, 4}, 5);
    tensor<double> out;
};

template <class T>
std::vector<double> values_of(const tensor<T>& t) {
    std::vector<double> v;
    for (fusor::index_t i = 0; i < t.size(); ++i)
        v.push_back(static_cast<double>(t.data()[i]));
    return v;
}

// One case per node kind. `expr(in)` is the expression; `destination(in)` where the assignment
// law writes it (a fresh tensor of its shape, or for the aliasing case the operand itself).
struct fresh_destination {
    template <class E>
    static auto& destination(inputs& in, const E& e) {
        in.out = tensor<double>(e.shape());
        return in.out;
    }
};
struct leaf_case : fresh_destination {
    static constexpr const char* name = "leaf";
    static const tensor<double>& expr(inputs& in) { return in.a; }
};
struct view_leaf_case : fresh_destination {
    static constexpr const char* name = "view_leaf";
    static auto expr(inputs& in) { return fusor::transpose(in.a); }
};
struct scalar_case : fresh_destination {
    static constexpr const char* name = "scalar";
    static auto expr(inputs& in) { return in.a * 2.5; }
};
struct elementwise_case : fresh_destination {
    static constexpr const char* name = "elementwise";
    static auto expr(inputs& in) { return in.a * in.b + in.row; }
};
struct remap_case : fresh_destination {
    static constexpr const char* name = "remap";
    static auto expr(inputs& in) { return fusor::transpose(in.a + in.b); }
};
struct reshape_split_case : fresh_destination {
    static constexpr const char* name = "reshape_split";
    static auto expr(inputs& in) { return fusor::reshape(in.a - in.b, {3, 2, 2}); }
};
struct reshape_copy_case : fresh_destination {
    static constexpr const char* name = "reshape_copy";
    static auto expr(inputs& in) { return fusor::reshape(fusor::transpose(in.a) + 1.0, {-1}); }
};
struct reduction_case : fresh_destination {
    static constexpr const char* name = "reduction";
    static auto expr(inputs& in) { return fusor::sum(in.a * in.b, 1); }
};
struct reduction_inside_case : fresh_destination {
    static constexpr const char* name = "reduction_inside";
    static auto expr(inputs& in) { return in.a - fusor::max(in.a, 1, fusor::keepdims); }
};
struct broadcast_held_case : fresh_destination {
    static constexpr const char* name = "broadcast_held";
    static auto expr(inputs& in) { return in.a * in.col - 1.0; }
};
struct arg_reduction_case : fresh_destination {
    static constexpr const char* name = "arg_reduction";
    static auto expr(inputs& in) { return fusor::argmax(in.a + in.row, 0); }
};
struct alias_case {
    static constexpr const char* name = "alias";
    static auto expr(inputs& in) { return fusor::transpose(in.sq) + in.sq; }
    template <class E>
    static tensor<double>& destination(inputs& in, const E&) {
        return in.sq; // the expression reads what the assignment writes: NumPy's overlap rule
    }
};

} // namespace

TEST_CASE_TEMPLATE("laws of every node kind",
                   C,
                   leaf_case,
                   view_leaf_case,
                   scalar_case,
                   elementwise_case,
                   remap_case,
                   reshape_split_case,
                   reshape_copy_case,
                   reduction_case,
                   reduction_inside_case,
                   broadcast_held_case,
                   arg_reduction_case,
                   alias_case) {
    CAPTURE(C::name);
    inputs in;
    const auto found = reference().find(C::name);
    REQUIRE(found != reference().end());
    const expected_result& numpy = found->second;
    const auto& e = C::expr(in);

    // The shape is known before anything is evaluated.
    CHECK(e.shape() == numpy.shape);

    // fused == eval_eager == NumPy.
    const auto fused = fusor::eval(e);
    const auto eager = fusor::eval_eager(e);
    CHECK(fused.shape() == numpy.shape);
    CHECK(values_of(fused) == numpy.values);
    CHECK(values_of(eager) == numpy.values);

    // The loops and kernels explain prints for the assignment are the ones that run.
    auto& dest = C::destination(in, e);
    const auto doc = nlohmann::json::parse(fusor::explain(dest, e).json());
    trace::clear();
    dest.view() = e;
    const auto expected_loops = trace::loops_from_json(doc);
    REQUIRE(trace::seen.size() == expected_loops.size());
    for (std::size_t k = 0; k < expected_loops.size(); ++k) {
        CAPTURE(k);
        CHECK(trace::seen[k].loop == expected_loops[k].loop);
        CHECK(trace::seen[k].n == expected_loops[k].n);
        CHECK(trace::seen[k].offsets == expected_loops[k].offsets);
    }
    CHECK(trace::kernels == trace::kernels_from_json(doc));
    CHECK(values_of(dest) == numpy.values);
}
