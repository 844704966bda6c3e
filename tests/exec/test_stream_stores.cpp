// Streaming stores (loop_plan::stream_block; planning::choose_stream_stores,
// exec/stream_stores.hpp): where the planner takes them (an element-wise contiguous loop of
// 16 MiB or more into a destination that existed before the evaluation, rows of at least one
// block: 1 KiB, 4 KiB for a copy), that explain names them and the block and that they are what
// runs, and that every element is the one ordinary stores give (heads and tails off a 64-byte
// boundary, a two-level nest, float64, two threads). Without them (not x86-64) every case
// reports a skip.
// clang-format off: the trace hooks must be defined before fusor is included
#include "../explain/trace.hpp"
// clang-format on
#include <cstring>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

using namespace fusor;

namespace {

const bool skip_here = !FUSOR_STREAM_STORES;

// 16 MiB of float32 and 37 elements more: at the planner's threshold, with a tail.
constexpr index_t n_large = (index_t{1} << 22) + 37;

template <class T>
tensor<T> values(index_t n, int seed) {
    tensor<T> t(shape_t{n}, uninitialized);
    for (index_t i = 0; i < n; ++i)
        t.data()[i] = static_cast<T>(static_cast<double>((i * 37 + seed) % 1009) / 17.0 - 29.0);
    return t;
}

template <class T>
bool same_bits(const tensor<T>& a, const tensor<T>& b) {
    return a.shape() == b.shape()
           && std::memcmp(a.data(), b.data(), sizeof(T) * static_cast<std::size_t>(a.size())) == 0;
}

// The kernels explain's JSON names for the assignment of `e` into `dest`.
template <class D, class E>
std::vector<std::string> planned(D&& dest, const E& e) {
    return trace::kernels_from_json(
        nlohmann::json::parse(explain(dest, e, explain_format::json).json()));
}

// Runs `assign` with streaming stores allowed and then not (the test hook), and checks that
// the first run traced `streamed` as its last kernel and the second the ordinary kernel, and
// that `out` holds the same bits both times.
template <class T, class Assign>
void check_against_ordinary(tensor<T>& out, Assign assign, const char* streamed) {
    trace::clear();
    assign();
    CHECK(trace::kernels.back() == streamed);
    const tensor<T> with_streaming = out;
    planning::stream_stores_enabled = false;
    std::memset(out.data(), 0, sizeof(T) * static_cast<std::size_t>(out.size()));
    trace::clear();
    assign();
    planning::stream_stores_enabled = true;
    CHECK(trace::kernels.back() == "contiguous");
    CHECK(same_bits(out, with_streaming));
}

} // namespace

TEST_CASE("a 16 MiB element-wise loop into an existing tensor streams its stores, as explain "
          "says"
          * doctest::skip(skip_here)) {
    const auto a = values<float>(n_large, 1), b = values<float>(n_large, 2),
               d = values<float>(n_large, 3);
    tensor<float> c = zeros<float>({n_large}); // its pages touched: an existing destination
    const std::string text = explain_text::one_line(explain(c, a * b + d).text());
    CHECK(text.find("kernel:  contiguous (flat: every tensor of the output's shape and layout); "
                    "streaming stores (each 1 KiB block computed into a buffer, then stored past "
                    "the caches: no read of the destination's lines)")
          != std::string::npos);
    const auto json = planned(c, a * b + d);
    REQUIRE(json.size() == 1);
    CHECK(json[0] == "contiguous_streamed");
    trace::clear();
    c = a * b + d;
    CHECK(trace::kernels == json);
    check_against_ordinary(
        c, [&] { c = a * b + d; }, "contiguous_streamed");
    for (index_t i : {index_t{0}, index_t{1}, n_large / 2, n_large - 1})
        CHECK(c.data()[i] == a.data()[i] * b.data()[i] + d.data()[i]);
}

TEST_CASE("a streamed copy (two operands) stores blocks of 4 KiB, more operands blocks of 1 KiB, "
          "as explain says"
          * doctest::skip(skip_here)) {
    static_assert(stream_block_bytes == 1024);
    static_assert(stream_block_bytes_one_operand == 4096);
    const auto a = values<float>(n_large, 13);
    tensor<float> c = zeros<float>({n_large});
    const std::string copy = explain_text::one_line(explain(c.view(), a).text());
    CHECK(copy.find("streaming stores (each 4 KiB block") != std::string::npos);
    check_against_ordinary(
        c, [&] { c.view() = a; }, "contiguous_streamed");
    CHECK(same_bits(c, a));
    const std::string two = explain_text::one_line(explain(c, a * a).text());
    CHECK(two.find("streaming stores (each 1 KiB block") != std::string::npos);
    SUBCASE("rows of 2 KiB stream a sum of two tensors, not a copy (shorter than its block)") {
        const index_t rows = 8192, cols = 512; // 16 MiB of float32 in rows of 2 KiB
        const auto m = reshape(values<float>(rows * cols, 14), {rows, cols});
        const auto q = reshape(values<float>(rows * cols, 15), {rows, cols});
        tensor<float> o = zeros<float>({rows, cols + 16});
        auto v = view(o, all, slice(0, cols));
        CHECK(planned(v, m + q) == std::vector<std::string>{"contiguous_streamed"});
        CHECK(planned(v, m) == std::vector<std::string>{"contiguous"});
        check_against_ordinary(
            o, [&] { v = m + q; }, "contiguous_streamed");
        CHECK(o(rows - 1, cols - 1) == m(rows - 1, cols - 1) + q(rows - 1, cols - 1));
        CHECK(o(rows - 1, cols) == 0.0f); // past the view: untouched
    }
}

TEST_CASE("fresh results, smaller destinations, math functions, reductions and copies onto an "
          "overlapping destination keep ordinary stores"
          * doctest::skip(skip_here)) {
    const auto a = values<float>(n_large, 1), b = values<float>(n_large, 2);
    // A fresh result: eval, a new tensor, an assignment that reallocates.
    trace::clear();
    const tensor<float> fresh = eval(a * b);
    CHECK(trace::kernels.back() == "contiguous");
    CHECK(explain_text::one_line(explain(a * b).text()).find("streaming") == std::string::npos);
    trace::clear();
    tensor<float> constructed = a - b;
    CHECK(trace::kernels.back() == "contiguous");
    tensor<float> small = zeros<float>({8});
    trace::clear();
    small = a + b; // another number of elements: a new buffer
    CHECK(trace::kernels.back() == "contiguous");
    CHECK(small.size() == n_large);
    // Under 16 MiB.
    const index_t half = n_large / 2;
    const auto ha = values<float>(half, 4);
    tensor<float> h = zeros<float>({half});
    CHECK(planned(h, ha * 2.0f) == std::vector<std::string>{"contiguous"});
    // A math function: its loop is bound by the arithmetic.
    tensor<float> e = zeros<float>({n_large});
    for (const std::string& k : planned(e, exp(a)))
        CHECK(k != "contiguous_streamed");
    // A reduction's loop.
    tensor<float> s = zeros<float>({1});
    for (const std::string& k : planned(s, sum(a, 0, keepdims)))
        CHECK(k != "contiguous_streamed");
    // The destination read shifted by one element: computed into a temporary, then copied.
    tensor<float> x = values<float>(n_large, 5);
    const auto shifted = planned(view(x, slice(1, n_large)), view(x, slice(0, n_large - 1)) + 1.0f);
    CHECK(shifted.back() != "contiguous_streamed");
}

TEST_CASE("streamed rows off a 64-byte boundary, a two-level nest, float64 and two threads give "
          "the ordinary stores' elements"
          * doctest::skip(skip_here)) {
    SUBCASE("a view from element 3 (a head of 13 elements, then blocks, then a tail)") {
        const auto a = values<float>(n_large, 6), b = values<float>(n_large, 7);
        tensor<float> c = zeros<float>({n_large + 3});
        auto v = view(c, slice(3, n_large + 3));
        check_against_ordinary(
            c, [&] { v = a * b - 0.5f; }, "contiguous_streamed");
        CHECK(c.data()[0] == 0.0f);
        CHECK(c.data()[3] == a.data()[0] * b.data()[0] - 0.5f);
        CHECK(c.data()[n_large + 2] == a.data()[n_large - 1] * b.data()[n_large - 1] - 0.5f);
    }
    SUBCASE("rows of 2049 of a (2048, 2064) tensor: two loop levels, each row streamed") {
        const index_t rows = 2048, cols = 2049, pitch = 2064;
        tensor<float> a = reshape(values<float>(rows * cols, 8), {rows, cols});
        tensor<float> c = zeros<float>({rows, pitch});
        auto v = view(c, all, slice(0, cols));
        check_against_ordinary(
            c, [&] { v = a * 3.0f + 1.0f; }, "contiguous_streamed");
        CHECK(c(1, 0) == a(1, 0) * 3.0f + 1.0f);
        CHECK(c(rows - 1, cols - 1) == a(rows - 1, cols - 1) * 3.0f + 1.0f);
        CHECK(c(rows - 1, cols) == 0.0f); // past the view: untouched
    }
    SUBCASE("float64") {
        const index_t m = (index_t{1} << 21) + 5; // 16 MiB of float64 and 5 more
        const auto a = values<double>(m, 9), b = values<double>(m, 10);
        tensor<double> c = zeros<double>({m});
        check_against_ordinary(
            c, [&] { c = a / b + a; }, "contiguous_streamed");
    }
    SUBCASE("two threads") {
        if (!threads_enabled)
            return;
        set_num_threads(2); // (ctest's OMP_NUM_THREADS=2 gives every case two already)
        const auto a = values<float>(n_large, 11), b = values<float>(n_large, 12);
        tensor<float> c = zeros<float>({n_large});
        CHECK(explain(c, a * b + a).text().find("threads: 2") != std::string::npos);
        check_against_ordinary(
            c, [&] { c = a * b + a; }, "contiguous_streamed");
    }
}
