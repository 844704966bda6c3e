// pad, roll, tile and repeat (algo/padding.hpp, algo/shifting.hpp) against NumPy 1.24, and the
// segments they are built from (algo/segments.hpp).
// tests/toolbox/shifting_reference.py (the ctest fixture toolbox.shifting_reference) draws the
// cases over every dtype, runs NumPy on them and writes inputs and answers (or the fusor
// exception NumPy's error maps to, with words its message must contain) to
// shifting_expected.txt; this test reads them as data. Each function is instantiated once per
// dtype and operand form (a tensor, its transpose, a[::-2], an expression), dispatched on the
// dtype names. Every result is compared exactly (floats too: NaN equals NaN).
//
// For every case that NumPy answers, the segments of the same call on the tensor operand are
// checked too: each box's source has the box's extents, the boxes cover every position of
// their space exactly once (counted position by position), and filling a tensor from them
// gives NumPy's answer.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../numpy_data.hpp"
#include "lazy_consumers.hpp"

using namespace fusor;

namespace {

using numpy_data::array_data;
using numpy_data::parse_value;
using numpy_data::to_tensor;

// ---- the data file ---------------------------------------------------------------------------

struct test_case {
    std::string func;
    int id = 0;
    std::map<std::string, std::vector<std::string>> params;
    std::optional<array_data> x;
    std::optional<array_data> out;
    std::string error;
    std::vector<std::string> needles;

    const std::vector<std::string>& tokens(const std::string& p) const {
        const auto it = params.find(p);
        REQUIRE_MESSAGE(it != params.end(), name(), ": no parameter ", p);
        return it->second;
    }
    const std::string& str(const std::string& p) const {
        REQUIRE_MESSAGE(!tokens(p).empty(), name(), ": parameter ", p, " is empty");
        return tokens(p).front();
    }
    // `s <v>` or `l <v>...` as a list, and whether it was a scalar.
    std::pair<shape_t, bool> list(const std::string& p) const {
        const auto& t = tokens(p);
        shape_t s;
        for (std::size_t i = 1; i < t.size(); ++i)
            s.push_back(std::stoll(t[i]));
        return {s, t.front() == "s"};
    }
    std::string name() const {
        std::string n = func + " case " + std::to_string(id);
        for (const auto& [p, v] : params) {
            n += " " + p + "=";
            for (const std::string& t : v)
                n += t + ",";
        }
        if (x)
            n += " x:" + x->dtype + to_string(x->shape);
        return n;
    }
};

// A case as the checks read it: the shared block (numpy_data::read_cases), with one operand (x)
// and at most one result.
test_case from_block(numpy_data::case_block&& b) {
    test_case c;
    c.func = std::move(b.func);
    c.id = b.id;
    c.params = std::move(b.params);
    if (!b.operands.empty())
        c.x = std::move(b.operands.back().second);
    if (!b.results.empty())
        c.out = std::move(b.results.back().second);
    c.error = std::move(b.error);
    c.needles = std::move(b.needles);
    return c;
}

const std::vector<test_case>& cases() {
    static const std::vector<test_case> all = [] {
        std::vector<test_case> out;
        std::ifstream in = numpy_data::open_cases("FUSOR_SHIFTING_EXPECTED",
                                                  "tests/toolbox/shifting_expected.txt",
                                                  "toolbox.shifting_reference");
        for (numpy_data::case_block& b : numpy_data::read_cases(in))
            out.push_back(from_block(std::move(b)));
        return out;
    }();
    return all;
}

// ---- checking ----------------------------------------------------------------------------------

int assertions = 0;

// Checks `got` against NumPy's result: dtype, shape and every value (NaN equals NaN).
template <class R>
void check_result(const test_case& c, const tensor<R>& got, const char* what) {
    INFO(what);
    REQUIRE(c.out.has_value());
    const array_data& want = *c.out;
    assertions += static_cast<int>(numpy_data::check_exact(got, want));
}

// Runs `f` and checks its outcome against NumPy's (numpy_data::check_outcome).
template <class F>
void run_case(const test_case& c, F&& f) {
    if (numpy_data::check_outcome(c.error, c.needles, std::forward<F>(f)))
        ++assertions;
}

// ---- dtype dispatch ----------------------------------------------------------------------------

using numpy_data::dispatch;
using numpy_data::with_dtype;

// Calls `f(x')` with the operand in the case's form: the tensor, its transpose (a view;
// NumPy's answer is for a.T), x[::-2] (a strided view with a negative step), or an expression
// of the same values.
template <class T, class F>
void with_form(const test_case& c, const tensor<T>& x, F&& f) {
    const std::string& form = c.str("form");
    if (form == "tensor") {
        f(x);
    } else if (form == "view") {
        f(transpose(x));
    } else if (form == "strided") {
        f(view(x, slice(none, none, -2)));
    } else if (form == "expr") {
        const auto e = cast<T>(x);
        f(e);
    } else {
        FAIL("unknown form ", form);
    }
}

// An array parameter written as `<rank> <dims>... <values>...` (pad's width and constants).
template <class V>
pad_pairs<V> pairs_of(const test_case& c, const std::string& p) {
    const auto& t = c.tokens(p);
    const auto rank = static_cast<std::size_t>(std::stoll(t.at(0)));
    shape_t shape;
    for (std::size_t k = 0; k < rank; ++k)
        shape.push_back(std::stoll(t.at(1 + k)));
    std::vector<V> values;
    for (std::size_t i = 1 + rank; i < t.size(); ++i)
        values.push_back(parse_value<V>(t[i]));
    if (rank == 0)
        return pad_pairs<V>(values.at(0));
    return pad_pairs<V>(shape, values);
}

// The call a pad, roll, tile or one-count repeat case makes, on any operand form: a lazy
// segmented node.
template <class T, class E>
segmented<T> lazy_call(const test_case& c, const E& x) {
    const std::string& f = c.func;
    if (f == "pad") {
        const pad_pairs<index_t> width = pairs_of<index_t>(c, "width");
        const pad_mode mode = pad_mode_from(c.str("mode"));
        if (c.str("constants") == "none")
            return c.str("mode") == "constant" ? pad(x, width) : pad(x, width, c.str("mode"));
        return pad(x, width, mode, pairs_of<T>(c, "constants"));
    }
    if (f == "tile") {
        const auto [reps, scalar] = c.list("reps");
        return scalar ? tile(x, reps[0]) : tile(x, reps);
    }
    if (f == "repeat") { // one count for every element
        const auto [reps, scalar] = c.list("repeats");
        REQUIRE(reps.size() == 1);
        const std::string& axis = c.str("axis");
        return axis == "none" ? repeat(x, reps[0]) : repeat(x, reps[0], std::stoll(axis));
    }
    REQUIRE(f == "roll");
    const auto [shift, shift_scalar] = c.list("shift");
    if (c.str("axis") == "none")
        return shift_scalar ? roll(x, shift[0]) : roll(x, shift);
    const auto [axis, axis_scalar] = c.list("axis");
    if (shift_scalar && axis_scalar)
        return roll(x, shift[0], axis[0]);
    if (shift_scalar)
        return roll(x, shift[0], axis);
    return roll(x, shift, axis);
}

// The call a case makes, on any operand form.
template <class T, class E>
tensor<T> call(const test_case& c, const E& x) {
    const std::string& f = c.func;
    if (f == "pad" || f == "roll")
        return lazy_call<T>(c, x);
    if (f == "tile")
        return lazy_call<T>(c, x);
    REQUIRE(f == "repeat");
    const auto [reps, scalar] = c.list("repeats");
    const std::string& axis = c.str("axis");
    if (scalar)
        return axis == "none" ? repeat(x, reps[0]) : repeat(x, reps[0], std::stoll(axis));
    const std::vector<index_t> counts(reps.begin(), reps.end());
    if (axis == "none")
        return repeat(x, counts);
    // the counts as an integer tensor too (every other case)
    if (c.id % 2 == 0) {
        tensor<std::int32_t> ct(shape_t{static_cast<index_t>(counts.size())}, uninitialized);
        for (std::size_t i = 0; i < counts.size(); ++i)
            ct.data()[i] = static_cast<std::int32_t>(counts[i]);
        return repeat(x, ct, std::stoll(axis));
    }
    return repeat(x, counts, std::stoll(axis));
}

// The segments of the same call, on a tensor operand (per-element repeat counts: one segment
// per element; the public function runs a direct loop instead).
template <class T>
segment_list<T> segments_of(const test_case& c, const tensor_view<const T>& x) {
    const std::string& f = c.func;
    if (f == "pad") {
        std::optional<pad_pairs<T>> constants;
        if (c.str("constants") != "none")
            constants = pairs_of<T>(c, "constants");
        return pad_segments(
            x, pairs_of<index_t>(c, "width"), pad_mode_from(c.str("mode")), constants);
    }
    if (f == "roll") {
        const auto [shift, shift_scalar] = c.list("shift");
        if (c.str("axis") == "none") {
            index_t total = 0;
            for (index_t s : shift)
                total += s;
            return roll_segments(x, total);
        }
        const auto [axis, axis_scalar] = c.list("axis");
        return roll_segments(x, shift, axis);
    }
    if (f == "tile")
        return tile_segments(x, c.list("reps").first);
    const auto [reps, scalar] = c.list("repeats");
    const std::string& a = c.str("axis");
    const std::optional<index_t> axis =
        a == "none" ? std::nullopt : std::optional<index_t>(std::stoll(a));
    if (scalar)
        return repeat_segments(x, reps[0], axis);
    return repeat_segments(x, std::vector<index_t>(reps.begin(), reps.end()), axis);
}

int segment_lists_checked = 0;

// Every box inside the space, with a source of its extents; every position covered exactly
// once (counted one position at a time, without fusor's loops); the fill equals NumPy's.
template <class T>
void check_segments(const test_case& c, const segment_list<T>& list) {
    INFO("segments of the tensor operand (", list.segments.size(), " segments)");
    CHECK(shape_size(list.space) == shape_size(list.shape));
    std::vector<int> covered(static_cast<std::size_t>(shape_size(list.space)), 0);
    const strides_t rm = row_major_strides(list.space);
    for (const segment<T>& s : list.segments) {
        REQUIRE(s.start.size() == list.space.size());
        REQUIRE(s.extents().size() == list.space.size());
        CHECK(shape_size(s.extents()) > 0);
        for (std::size_t k = 0; k < s.start.size(); ++k)
            REQUIRE((s.start[k] >= 0 && s.start[k] + s.extents()[k] <= list.space[k]));
        for (const shape_t& i : ndindex(s.extents())) {
            index_t flat = 0;
            for (std::size_t k = 0; k < i.size(); ++k)
                flat += (s.start[k] + i[k]) * rm[k];
            ++covered[static_cast<std::size_t>(flat)];
        }
    }
    for (std::size_t p = 0; p < covered.size(); ++p)
        if (covered[p] != 1) {
            FAIL_CHECK("position ",
                       p,
                       " of the space ",
                       to_string(list.space),
                       " is covered ",
                       covered[p],
                       " times");
            break;
        }
    tensor<T> filled(list.shape, uninitialized);
    fill_segments(list, filled);
    check_result(c, filled, "filled from the segments");
    ++segment_lists_checked;
}

template <class T>
void run(const test_case& c) {
    const tensor<T> x = to_tensor<T>(*c.x);
    run_case(c, [&] {
        with_form(c, x, [&](const auto& v) { check_result(c, call<T>(c, v), "the function"); });
    });
    if (c.error.empty() && c.str("form") == "tensor")
        check_segments(c, segments_of<T>(c, x.view()));
    // tile as one box per tile of the output (what a lazy tile of at most 64 tiles reads).
    if (c.error.empty() && c.str("form") == "tensor" && c.func == "tile")
        check_segments(c, tile_boxes(x.view(), c.list("reps").first));
    // The lazy forms inside larger expressions (tests/toolbox/lazy_consumers.hpp).
    const bool one_count = c.func != "repeat" || c.list("repeats").first.size() == 1;
    if (c.error.empty() && one_count)
        with_form(c, x, [&](const auto& v) { lazy_consumers::check(lazy_call<T>(c, v)); });
}

TEST_CASE("pad, roll, tile and repeat against NumPy 1.24, and their segments") {
    const auto& all = cases();
    REQUIRE(all.size() >= 300);
    std::map<std::string, int> per_func;
    for (const test_case& c : all) {
        INFO(c.name());
        REQUIRE(c.x.has_value());
        with_dtype(c.x->dtype, [&](auto tag) { run<typename decltype(tag)::type>(c); });
        ++per_func[c.func];
    }
    for (const char* f : {"pad", "roll", "tile", "repeat"})
        CHECK_MESSAGE(per_func[f] >= 40, f, ": only ", per_func[f], " cases");
    MESSAGE(all.size() << " NumPy cases, " << assertions << " values and errors compared, "
                       << segment_lists_checked << " segment lists covered exactly once, "
                       << lazy_consumers::checked
                       << " expressions over the lazy results compared with the same over NumPy's");
    CHECK(lazy_consumers::checked >= 1000);
}

// The segments tile their space exactly once for shapes and parameters the NumPy cases may
// not reach (every pad width from 0 to beyond twice the axis, both sides), checked against a
// plain reading of NumPy 1.24's iterations on one axis.
TEST_CASE("pad: each axis's map follows NumPy's iterations for every width") {
    const tensor<std::int64_t> x = arange<std::int64_t>(5);
    for (pad_mode mode : {pad_mode::edge, pad_mode::reflect, pad_mode::symmetric, pad_mode::wrap})
        for (index_t n : {1, 2, 3, 5})
            for (index_t b = 0; b <= 2 * n + 3; ++b)
                for (index_t a = 0; a <= 2 * n + 3; ++a) {
                    const tensor_view<const std::int64_t> v = view(x, slice(0, n));
                    const segment_list<std::int64_t> list = pad_segments(v, {b, a}, mode);
                    tensor<std::int64_t> out(list.shape, uninitialized);
                    fill_segments(list, out);
                    // the same per-axis map on the values: x[i] == i
                    const std::vector<index_t> map = detail::pad_axis_map(mode, n, b, a);
                    REQUIRE(out.size() == static_cast<index_t>(map.size()));
                    for (std::size_t p = 0; p < map.size(); ++p)
                        REQUIRE(out.data()[p] == map[p]);
                    // edge/reflect/symmetric stay inside [0, n); the interior is the identity
                    for (index_t i = 0; i < n; ++i)
                        REQUIRE(map[static_cast<std::size_t>(b + i)] == i);
                    for (index_t m : map)
                        REQUIRE((m >= 0 && m < n));
                }
}

TEST_CASE("segments: a roll is at most 2^k boxes, a tile and a scalar repeat one") {
    const tensor<float> x = ones<float>({3, 4, 5});
    CHECK(roll_segments(x.view(), shape_t{1, 2, 3}, shape_t{0, 1, 2}).segments.size() == 8);
    CHECK(roll_segments(x.view(), shape_t{3}, shape_t{0}).segments.size() == 1);
    CHECK(roll_segments(x.view(), 7).segments.size() == 2);
    CHECK(tile_segments(x.view(), shape_t{2, 1, 3, 4}).segments.size() == 1);
    CHECK(repeat_segments(x.view(), 3, 1).segments.size() == 1);
    CHECK(repeat_segments(x.view(), std::vector<index_t>{1, 0, 2, 1}, 1).segments.size() == 3);
    // constant pad of a 3-d tensor: the interior and two boxes per padded axis
    const segment_list<float> p = pad_segments(x.view(), 1, pad_mode::constant);
    CHECK(p.segments.size() == 7);
    CHECK(p.constants != nullptr);
    // reflect: the product of 3 runs per axis
    CHECK(pad_segments(x.view(), 1, pad_mode::reflect).segments.size() == 27);
}

TEST_CASE("pad's constant segments keep their values alive") {
    tensor<int> x = {1, 2, 3};
    std::vector<segment<int>> kept;
    {
        const segment_list<int> list =
            pad_segments(std::as_const(x).view(), {1, 2}, pad_mode::constant, pad_pairs<int>{7, 9});
        kept = list.segments;
    } // the list is gone; the constants live on in the views' owners
    REQUIRE(kept.size() == 3);
    CHECK(kept.front().source.data()[0] == 7);
    CHECK(kept.back().source.data()[0] == 9);
}

TEST_CASE("errors leave nothing allocated half-way and name NumPy's words") {
    tensor<double> x = {{1, 2, 3}, {4, 5, 6}};
    CHECK_THROWS_WITH_AS(pad(x, {{1, 2}, {3, 4}, {5, 6}}),
                         doctest::Contains("operands could not be broadcast"),
                         value_error);
    CHECK_THROWS_WITH_AS(pad(x, 1, "median"), doctest::Contains("not supported"), value_error);
    CHECK_THROWS_WITH_AS(pad(x, 1, "banana"), doctest::Contains("mode 'banana'"), value_error);
    CHECK_THROWS_WITH_AS(roll(x, 1, 2), doctest::Contains("axis 2 is out of bounds"), axis_error);
    CHECK_THROWS_WITH_AS(
        roll(x, shape_t{1, 2}, shape_t{0, 1, 1}), doctest::Contains("shape mismatch"), value_error);
    CHECK_THROWS_WITH_AS(tile(x, shape_t{2, -1}), doctest::Contains("negative"), value_error);
    CHECK_THROWS_WITH_AS(repeat(x, -1, 0), doctest::Contains("negative"), value_error);
    const tensor<std::int64_t> counts2d = {{1, 2, 3}};
    CHECK_THROWS_WITH_AS(repeat(x, counts2d, 1), doctest::Contains("too deep"), value_error);
    CHECK_THROWS_WITH_AS(
        roll_segments(transpose(std::as_const(x)), 1), doctest::Contains("row-major"), value_error);
}

} // namespace
