// explain_histogram prints what histogram runs: with the inner-loop trace on, every inner loop
// a histogram call runs must be, in order, one that explain_histogram's JSON describes (its
// passes expanded in running order: the passes before the chunks once each, then the chunk
// walk, a chunk's data before its weights, then the densities' total), and its result must equal
// the histogram of the same values evaluated first.
// clang-format off: the trace hooks must be defined before fusor is included
#include "trace.hpp"
// clang-format on
#include <functional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace {

using namespace fusor;

// The inner loops the explanation's JSON says a run makes, in running order.
std::vector<trace::inner_loop> expected_loops(const nlohmann::json& doc) {
    std::vector<trace::inner_loop> out;
    const auto append = [&](const nlohmann::json& pass) {
        const auto loops = trace::loops_from_json(pass.at("plan"));
        out.insert(out.end(), loops.begin(), loops.end());
    };
    const auto find = [&](const char* what) -> const nlohmann::json* {
        for (const auto& pass : doc.at("passes"))
            if (pass.at("what") == what)
                return &pass;
        return nullptr;
    };
    for (const auto& pass : doc.at("passes")) {
        const std::string what = pass.at("what");
        if (what.find("chunk") == std::string::npos && what != "density_total") {
            CHECK(pass.at("times") == 1);
            append(pass);
        }
    }
    const auto& c = doc.at("chunks");
    const auto chunk = [&](const char* data, const char* weights) {
        if (const auto* p = find(data))
            append(*p);
        if (const auto* p = find(weights))
            append(*p);
    };
    if (c.at("axis") == -1) {
        chunk("data_chunk", "weights_chunk");
    } else {
        for (long o = 0; o < c.at("outer").get<long>(); ++o) {
            for (long f = 0; f < c.at("full").get<long>(); ++f)
                chunk("data_chunk", "weights_chunk");
            if (c.at("rest").get<long>() > 0)
                chunk("data_short_chunk", "weights_short_chunk");
        }
    }
    if (const auto* p = find("density_total"))
        append(*p);
    return out;
}

// Loop numbers restart with every plan object the trace sees; compare offsets and lengths.
void check_same_loops(const std::vector<trace::inner_loop>& ran,
                      const std::vector<trace::inner_loop>& expected) {
    REQUIRE(ran.size() == expected.size());
    for (std::size_t k = 0; k < ran.size(); ++k) {
        CAPTURE(k);
        CHECK(ran[k].n == expected[k].n);
        CHECK(ran[k].offsets == expected[k].offsets);
    }
}

struct histogram_case {
    std::string name;
    std::function<histogram_explanation()> explain;
    std::function<void()> run;   // the histogram, traced
    std::function<void()> check; // its result against the histogram of evaluated operands
};

template <class R>
void check_equal(const R& got, const R& want) {
    CHECK(got.hist.shape() == want.hist.shape());
    CHECK(got.edges.shape() == want.edges.shape());
    for (index_t i = 0; i < got.hist.size(); ++i)
        CHECK(got.hist.data()[i] == want.hist.data()[i]);
    for (index_t i = 0; i < got.edges.size(); ++i)
        CHECK(got.edges.data()[i] == want.edges.data()[i]);
}

} // namespace

TEST_CASE("every inner loop histogram runs is one explain_histogram printed, in order") {
    // (3, 40000): chunks cut axis 1 at 32768, so every run has a full and a short chunk.
    const tensor<float> a = sin(reshape(arange<float>(3 * 40000), {3, 40000}));
    const tensor<float> b = cos(reshape(arange<float>(3 * 40000), {3, 40000}));
    const tensor<double> x = sin(arange<double>(50000)) * 3.0;
    const tensor<double> edges = {-2.0, -0.5, 0.0, 0.25, 1.0, 2.5};
    const tensor<float> wide = reshape(arange<float>(40 * 3000), {40, 3000}); // axis 0 chunks
    const tensor<double> small = {0.5, 1.5, 2.5, 0.25, 2.0};
    std::vector<histogram_case> cases;
    histogram_result<std::int64_t, double> r;
    histogram_result<double, double> rw;
    histogram_result<float, double> rf;
    cases.push_back({"element-wise data in chunks, given range",
                     [&] {
                         return explain_histogram(a * b + 0.5f, 20, range{-1, 2});
                     },
                     [&] {
                         r = histogram(a * b + 0.5f, 20, range{-1, 2});
                     },
                     [&] {
                         check_equal(r, histogram(tensor<float>(a * b + 0.5f), 20, range{-1, 2}));
                     }});
    cases.push_back({"element-wise data, range from the data",
                     [&] { return explain_histogram(a - b, 7); },
                     [&] { r = histogram(a - b, 7); },
                     [&] {
                         check_equal(r, histogram(tensor<float>(a - b), 7));
                     }});
    cases.push_back({"uniform densities, weights in chunks",
                     [&] { return explain_histogram(a, 6, weights(b * b), density); },
                     [&] { rw = histogram(a, 6, weights(b * b), density); },
                     [&] {
                         check_equal(rw, histogram(a, 6, weights(tensor<float>(b * b)), density));
                     }});
    cases.push_back(
        {"data and weights in chunks, explicit edges",
         [&] { return explain_histogram(a - b, edges, weights(a * b * a)); },
         [&] { rf = histogram(a - b, edges, weights(a * b * a)); },
         [&] {
             check_equal(rf,
                         histogram(tensor<float>(a - b), edges, weights(tensor<float>(a * b * a))));
         }});
    cases.push_back({"data holding a reduction: evaluated whole first",
                     [&] { return explain_histogram(x - mean(x), 9); },
                     [&] { r = histogram(x - mean(x), 9); },
                     [&] {
                         check_equal(r, histogram(tensor<double>(x - mean(x)), 9));
                     }});
    cases.push_back(
        {"a strided view, chunks of axis 0",
         [&] { return explain_histogram(transpose(wide), 5, weights(transpose(wide))); },
         [&] { rf = histogram(transpose(wide), 5, weights(transpose(wide))); },
         [&] {
             check_equal(rf,
                         histogram(tensor<float>(transpose(wide)),
                                   5,
                                   weights(tensor<float>(transpose(wide)))));
         }});
    cases.push_back({"data in place, weights in chunks, explicit edges",
                     [&] { return explain_histogram(x, edges, weights(x * x + 1.0)); },
                     [&] { rw = histogram(x, edges, weights(x * x + 1.0)); },
                     [&] {
                         check_equal(rw, histogram(x, edges, weights(tensor<double>(x * x + 1.0))));
                     }});
    cases.push_back(
        {"edges given as an expression, weights holding a reduction",
         [&] { return explain_histogram(x, edges * 2.0, weights(x - mean(x)), density); },
         [&] { rw = histogram(x, edges * 2.0, weights(x - mean(x)), density); },
         [&] {
             check_equal(rw,
                         histogram(x,
                                   tensor<double>(edges * 2.0),
                                   weights(tensor<double>(x - mean(x))),
                                   density));
         }});
    cases.push_back({"a small expression: one chunk, the whole operand",
                     [&] { return explain_histogram(small * 2.0, 4); },
                     [&] { r = histogram(small * 2.0, 4); },
                     [&] {
                         check_equal(r, histogram(tensor<double>(small * 2.0), 4));
                     }});
    cases.push_back({"a tensor read in place, given range: no loop at all",
                     [&] {
                         return explain_histogram(a, 3, range{0, 1});
                     },
                     [&] {
                         r = histogram(a, 3, range{0, 1});
                     },
                     [&] {
                         CHECK(r.hist.size() == 3);
                     }});
    for (const auto& c : cases) {
        CAPTURE(c.name);
        const histogram_explanation e = c.explain();
        const auto doc = nlohmann::json::parse(e.json());
        const auto expected = expected_loops(doc);
        trace::clear();
        c.run();
        const auto ran = trace::seen;
        check_same_loops(ran, expected);
        c.check();
    }
}

TEST_CASE("explain_histogram's plan and text name how the data is read") {
    const tensor<float> a = ones<float>({3, 40000});
    const histogram_explanation e = explain_histogram(a * a + 1.0f, 10, range{0, 4});
    CHECK(e.plan.data.mode == read_mode::chunks);
    CHECK(e.plan.data.chunks.axis == 1);
    CHECK(e.plan.data.chunks.rows == 32768);
    CHECK(e.plan.data.chunks.count() == 6);
    CHECK(e.plan.range == histogram_range::given);
    REQUIRE(e.passes.size() == 2);
    CHECK(e.passes[0].what == histogram_pass::role::data_chunk);
    CHECK(e.passes[0].times == 3);
    CHECK(e.passes[1].what == histogram_pass::role::data_short_chunk);
    CHECK(e.passes[1].times == 3);
    const std::string text = e.text();
    CHECK(text.find("in 6 chunks of (32768,)") != std::string::npos);
    CHECK(text.find("never stored whole") != std::string::npos);
    CHECK(text.find("range: given, [0, 4]") != std::string::npos);
    CHECK(text.find("pass 1: a chunk of the data into the chunk buffer, 3 times")
          != std::string::npos);
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        CHECK_MESSAGE(end - start <= 100, text.substr(start, end - start));
        start = end + 1;
    }
    const tensor<double> x = {1.0, 2.0};
    const histogram_explanation in_place = explain_histogram(x, 2);
    CHECK(in_place.plan.data.mode == read_mode::in_place);
    CHECK(in_place.plan.range == histogram_range::data);
    CHECK(in_place.passes.size() == 2); // the range's min and max; the bins read x in place
    const histogram_explanation empty = explain_histogram(tensor<double>(shape_t{0}), 2);
    CHECK(empty.plan.range == histogram_range::unit);
    CHECK(empty.passes.empty());
}
