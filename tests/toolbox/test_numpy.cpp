// NumPy's everyday toolbox against NumPy 1.24: the views and lazy expressions (flipud, fliplr,
// rot90, ravel, flatten, atleast_1d/2d/3d, diff, tril, triu, meshgrid, indices), the mask and
// index-array functions (nonzero, where, argwhere, flatnonzero, compress, extract, take,
// take_along_axis, put, put_along_axis, putmask, place, choose, unravel_index,
// ravel_multi_index, ndindex, interp) and joining and splitting (concatenate, stack, hstack,
// vstack, dstack, column_stack, split, array_split, hsplit, vsplit, dsplit).
// tests/toolbox/toolbox_reference.py (the ctest fixture toolbox.numpy_reference) draws the
// cases over every dtype, runs NumPy on them and writes inputs and answers (or the fusor
// exception NumPy's error maps to, with words its message must contain) to
// toolbox_expected.txt; this test reads them as data. Axes, counts and forms are run-time
// values, so each function is instantiated once per dtype (and index dtype, and operand form:
// a tensor, a view, an expression), dispatched on the dtype names. Every result is compared
// exactly (floats too: NaN equals NaN).
//
// Below the NumPy cases: laziness and views (writes through, later changes followed, no
// allocation of the operand's size until evaluated), and destinations untouched on errors.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../counting_new.hpp"
#include "../numpy_data.hpp"
#include "lazy_consumers.hpp"

using namespace fusor;

namespace {

using numpy_data::array_data;
using numpy_data::parse_value;
using numpy_data::to_tensor;

// ---- allocation counting (tests/counting_new.hpp calls record_allocation) --------------------

std::size_t largest_allocation = 0;
std::size_t total_allocated = 0;
bool counting = false;

void start_counting() {
    largest_allocation = total_allocated = 0;
    counting = true;
}

} // namespace

void record_allocation(std::size_t n) {
    if (counting) {
        total_allocated += n;
        largest_allocation = n > largest_allocation ? n : largest_allocation;
    }
}

namespace {

// ---- the data file ---------------------------------------------------------------------------

struct test_case {
    std::string func;
    int id = 0;
    std::map<std::string, std::vector<std::string>> params;
    std::vector<std::pair<std::string, array_data>> operands;
    std::vector<array_data> out;
    std::string error;
    std::vector<std::string> needles;

    bool has(const std::string& p) const { return params.count(p) != 0; }
    const std::string& str(const std::string& p) const {
        const auto it = params.find(p);
        REQUIRE_MESSAGE(it != params.end(), name(), ": no parameter ", p);
        REQUIRE_MESSAGE(!it->second.empty(), name(), ": parameter ", p, " is empty");
        return it->second.front();
    }
    index_t integer(const std::string& p) const { return std::stoll(str(p)); }
    std::optional<index_t> axis() const {
        if (str("axis") == "none")
            return std::nullopt;
        return integer("axis");
    }
    shape_t list(const std::string& p) const {
        shape_t s;
        for (const std::string& v : params.at(p))
            s.push_back(std::stoll(v));
        return s;
    }
    std::optional<double> real(const std::string& p) const {
        if (str(p) == "none")
            return std::nullopt;
        return std::strtod(str(p).c_str(), nullptr);
    }
    bool has_operand(const std::string& n) const {
        for (const auto& [k, a] : operands)
            if (k == n)
                return true;
        return false;
    }
    const array_data& operand(const std::string& n) const {
        for (const auto& [k, a] : operands)
            if (k == n)
                return a;
        FAIL(name(), ": no operand ", n);
        return operands.front().second;
    }
    std::string name() const {
        std::string n = func + " case " + std::to_string(id);
        for (const auto& [p, v] : params) {
            n += " " + p + "=";
            for (const std::string& t : v)
                n += t + ",";
        }
        for (const auto& [k, a] : operands)
            n += " " + k + ":" + a.dtype + to_string(a.shape);
        return n;
    }
};

// A case as the checks read it: the shared block (numpy_data::read_cases), its results a list.
test_case from_block(numpy_data::case_block&& b) {
    test_case c;
    c.func = std::move(b.func);
    c.id = b.id;
    c.params = std::move(b.params);
    c.operands = std::move(b.operands);
    for (auto& [name, a] : b.results) {
        REQUIRE(name == std::to_string(c.out.size()));
        c.out.push_back(std::move(a));
    }
    c.error = std::move(b.error);
    c.needles = std::move(b.needles);
    return c;
}

const std::vector<test_case>& cases() {
    static const std::vector<test_case> all = [] {
        std::vector<test_case> out;
        std::ifstream in = numpy_data::open_cases("FUSOR_TOOLBOX_EXPECTED",
                                                  "tests/toolbox/toolbox_expected.txt",
                                                  "toolbox.numpy_reference");
        for (numpy_data::case_block& b : numpy_data::read_cases(in))
            out.push_back(from_block(std::move(b)));
        return out;
    }();
    return all;
}

// ---- checking ----------------------------------------------------------------------------------

int assertions = 0; // elements compared, for the summary

// The doctest context and messages are in these helpers, not in check_result's template: each
// INFO or *_MESSAGE is a type of its own, and there it would be one per expression checked.
void require_result(const test_case& c, std::size_t k) {
    REQUIRE_MESSAGE(k < c.out.size(), "result ", k, " was not expected");
}

template <class R>
void check_stored(const test_case& c, std::size_t k, const tensor<R>& got) {
    INFO("result ", k);
    assertions += static_cast<int>(numpy_data::check_exact(got, c.out[k]));
}

// Evaluates `e` (a tensor, a view or an expression) and checks it against result k: dtype,
// shape and every value (NaN equals NaN; -0.0 equals 0.0, as NumPy's array_equal).
template <class E>
void check_result(const test_case& c, std::size_t k, const E& e) {
    require_result(c, k);
    const tensor<value_type_t<E>> got = e;
    check_stored(c, k, got);
}

// Checks a list of results (nonzero, split, unravel_index): their count and each.
template <class V>
void check_results(const test_case& c, const V& results) {
    CHECK_MESSAGE(results.size() == c.out.size(),
                  "fusor gave ",
                  results.size(),
                  " results, NumPy ",
                  c.out.size());
    for (std::size_t k = 0; k < results.size() && k < c.out.size(); ++k)
        check_result(c, k, results[k]);
}

// Runs `f` and checks its outcome against NumPy's (numpy_data::check_outcome), compiled once.
void run_erased(const test_case& c, numpy_data::erased_call f) {
    INFO(c.name());
    if (numpy_data::check_outcome(c.error, c.needles, f))
        ++assertions;
}

template <class F>
void run_case(const test_case& c, F&& f) {
    run_erased(c, numpy_data::erase(f));
}

// ---- dtype dispatch
// ------------------------------------------------------------------------------

using numpy_data::dispatch;
using numpy_data::type_tag;
using numpy_data::with_dtype;

// The index dtypes toolbox_reference.py draws (INDEX_DTYPES there).
template <class F>
void with_index_dtype(const std::string& name, F&& f) {
    dispatch<std::int64_t,
             std::int32_t,
             std::int16_t,
             std::int8_t,
             std::uint8_t,
             std::uint16_t,
             std::uint32_t>(name, std::forward<F>(f));
}

// Calls `f(x')` with the operand in the case's form: the tensor, its transpose (a view; NumPy's
// answer is for a.T), or an expression of the same values.
template <class T, class F>
void with_form(const test_case& c, const tensor<T>& x, F&& f) {
    const std::string& form = c.str("form");
    if (form == "tensor")
        f(x);
    else if (form == "view")
        f(transpose(x));
    else if (form == "expr") {
        // Held const: a non-const lvalue one-operand node is copied by elementwise's child
        // constructor instead of its copy constructor (a fusor bug, see the report).
        const auto e = cast<T>(x);
        f(e);
    } else
        FAIL("unknown form ", form);
}

// ---- the functions, one group each
// ---------------------------------------------------------------

// flipud, fliplr, rot90, ravel, flatten, atleast_*, diff, tril, triu, nonzero, where.
template <class T>
void run_shaping(const test_case& c) {
    const tensor<T> x = to_tensor<T>(c.operand("x"));
    run_case(c, [&] {
        with_form(c, x, [&](auto&& v) {
            const std::string& f = c.func;
            if (f == "flipud")
                check_result(c, 0, flipud(v));
            else if (f == "fliplr")
                check_result(c, 0, fliplr(v));
            else if (f == "rot90")
                check_result(c, 0, rot90(v, c.integer("k"), c.list("axes")));
            else if (f == "ravel")
                check_result(c, 0, ravel(v));
            else if (f == "flatten")
                check_result(c, 0, flatten(v));
            else if (f == "atleast_1d")
                check_result(c, 0, atleast_1d(v));
            else if (f == "atleast_2d")
                check_result(c, 0, atleast_2d(v));
            else if (f == "atleast_3d")
                check_result(c, 0, atleast_3d(v));
            else if (f == "diff")
                check_result(c, 0, diff(v, c.integer("n"), c.integer("axis")));
            else if (f == "tril")
                check_result(c, 0, tril(v, c.integer("k")));
            else if (f == "triu")
                check_result(c, 0, triu(v, c.integer("k")));
            else if (f == "nonzero")
                check_results(c, nonzero(v));
            else if (f == "where1")
                check_results(c, where(v));
            else
                FAIL("unknown function ", f);
        });
    });
}

// diff with prepend/append: each edge is none, an array of x's dtype, a plain int or a double.
template <class T, class F>
void with_edge(const test_case& c, const std::string& edge, F&& f) {
    const std::string& kind = c.str(edge);
    if (kind == "none") {
        f(none);
    } else if (kind == "array") {
        f(to_tensor<T>(c.operand(edge)));
    } else if (kind == "int") {
        f(static_cast<int>(std::stoi(c.params.at(edge).at(1))));
    } else {
        REQUIRE(kind == "float");
        f(std::strtod(c.params.at(edge).at(1).c_str(), nullptr));
    }
}

template <class T>
void run_diff_edges(const test_case& c) {
    const tensor<T> x = to_tensor<T>(c.operand("x"));
    with_edge<T>(c, "prepend", [&](const auto& p) {
        with_edge<T>(c, "append", [&](const auto& a) {
            run_case(c,
                     [&] { check_result(c, 0, diff(x, c.integer("n"), c.integer("axis"), p, a)); });
        });
    });
}

template <class T>
void run_meshgrid(const test_case& c) {
    std::vector<tensor<T>> xs;
    for (std::size_t k = 0; c.has_operand(std::to_string(k)); ++k)
        xs.push_back(to_tensor<T>(c.operand(std::to_string(k))));
    const std::string& ix = c.str("indexing");
    const auto check_all = [&](const auto& grids) {
        CHECK(std::tuple_size_v<std::remove_cvref_t<decltype(grids)>> == c.out.size());
        std::size_t k = 0;
        std::apply([&](const auto&... g) { (check_result(c, k++, g), ...); }, grids);
    };
    const auto with_indexing = [&](auto&&... args) {
        if (ix == "default")
            check_all(meshgrid(args...));
        else
            check_all(meshgrid(args..., ix == "ij" ? indexing::ij : indexing::xy));
    };
    run_case(c, [&] {
        if (xs.size() == 1)
            with_indexing(xs[0]);
        else if (xs.size() == 2)
            with_indexing(xs[0], xs[1]);
        else if (xs.size() == 3)
            with_indexing(xs[0], xs[1], xs[2]);
        else
            FAIL("meshgrid of ", xs.size(), " inputs");
    });
}

// argwhere, flatnonzero, compress, extract (a condition of bool or x's dtype).
template <class T>
void run_masks(const test_case& c) {
    const tensor<T> x = to_tensor<T>(c.operand("x"));
    if (c.func == "argwhere" || c.func == "flatnonzero") {
        run_case(c, [&] {
            if (c.func == "argwhere")
                check_result(c, 0, argwhere(x));
            else
                check_result(c, 0, flatnonzero(x));
        });
        return;
    }
    const auto go = [&](const auto& cond) {
        run_case(c, [&] {
            if (c.func == "extract")
                check_result(c, 0, extract(cond, x));
            else if (c.axis())
                check_result(c, 0, compress(cond, x, *c.axis()));
            else
                check_result(c, 0, compress(cond, x));
        });
    };
    if (c.operand("condition").dtype == "bool")
        go(to_tensor<bool>(c.operand("condition")));
    else
        go(to_tensor<T>(c.operand("condition")));
}

// putmask and place (a mask of bool or x's dtype); the result is the destination afterwards.
template <class T>
void run_putmask(const test_case& c) {
    const tensor<T> x = to_tensor<T>(c.operand("x"));
    const tensor<T> values = to_tensor<T>(c.operand("values"));
    const auto go = [&](const auto& mask) {
        tensor<T> dest = x;
        run_case(c, [&] {
            if (c.func == "putmask")
                putmask(dest, mask, values);
            else
                place(dest, mask, values);
            check_result(c, 0, dest);
        });
        if (!c.error.empty())
            CHECK_MESSAGE(array_equal(dest, x), "the destination changed although it threw");
    };
    if (c.operand("mask").dtype == "bool")
        go(to_tensor<bool>(c.operand("mask")));
    else
        go(to_tensor<T>(c.operand("mask")));
}

// take, take_along_axis, put, put_along_axis over value dtype T and index dtype I.
template <class T, class I>
void run_take_put(const test_case& c) {
    const tensor<T> x = to_tensor<T>(c.operand("x"));
    const tensor<I> idx = to_tensor<I>(c.operand("indices"));
    const std::string& f = c.func;
    if (f == "take") {
        run_case(c, [&] {
            const auto in_form = [&](const auto& go) {
                if constexpr (std::is_same_v<I, std::int64_t>)
                    with_form(c, x, go);
                else if (c.str("form") == "tensor")
                    go(x);
                else
                    FAIL("views and expressions are drawn with int64 indices only");
            };
            in_form([&](auto&& v) {
                const bool scalar = c.integer("scalar") == 1;
                if (scalar && c.axis())
                    check_result(c, 0, take(v, idx.data()[0], *c.axis()));
                else if (scalar)
                    check_result(c, 0, take(v, idx.data()[0]));
                else if (c.axis())
                    check_result(c, 0, take(v, idx, *c.axis()));
                else
                    check_result(c, 0, take(v, idx));
            });
        });
    } else if (f == "take_along_axis") {
        run_case(c, [&] {
            if (c.axis())
                check_result(c, 0, take_along_axis(x, idx, *c.axis()));
            else
                check_result(c, 0, take_along_axis(x, idx));
        });
    } else {
        const tensor<T> values = to_tensor<T>(c.operand("values"));
        tensor<T> dest = x;
        run_case(c, [&] {
            if (f == "put")
                put(dest, idx, values);
            else if (c.axis())
                put_along_axis(dest, idx, values, *c.axis());
            else
                put_along_axis(dest, idx, values);
            check_result(c, 0, dest);
        });
        if (!c.error.empty())
            CHECK_MESSAGE(array_equal(dest, x), "the destination changed although it threw");
    }
}

template <class T, class I>
void run_choose(const test_case& c) {
    const tensor<I> idx = to_tensor<I>(c.operand("index"));
    std::vector<tensor<T>> ch;
    for (std::size_t k = 0; c.has_operand("c" + std::to_string(k)); ++k)
        ch.push_back(to_tensor<T>(c.operand("c" + std::to_string(k))));
    run_case(c, [&] {
        if (c.str("form") == "vector")
            check_result(c, 0, choose(idx, ch));
        else if (ch.size() == 1)
            check_result(c, 0, choose(idx, {ch[0]}));
        else if (ch.size() == 2)
            check_result(c, 0, choose(idx, {ch[0], ch[1]}));
        else if (ch.size() == 3)
            check_result(c, 0, choose(idx, {ch[0], ch[1], ch[2]}));
        else if (ch.size() == 4)
            check_result(c, 0, choose(idx, {ch[0], ch[1], ch[2], ch[3]}));
        else
            FAIL("choose of ", ch.size(), " choices");
    });
}

template <class I>
void run_unravel(const test_case& c) {
    const tensor<I> idx = to_tensor<I>(c.operand("indices"));
    const shape_t shape = c.list("shape");
    run_case(c, [&] {
        if (c.integer("scalar") == 1)
            check_results(c, unravel_index(idx.data()[0], shape));
        else
            check_results(c, unravel_index(idx, shape));
    });
}

template <class I>
void run_ravel_multi(const test_case& c) {
    std::vector<tensor<I>> m;
    for (std::size_t k = 0; c.has_operand("m" + std::to_string(k)); ++k)
        m.push_back(to_tensor<I>(c.operand("m" + std::to_string(k))));
    const shape_t dims = c.list("dims");
    run_case(c, [&] {
        if (c.str("form") == "vector") {
            check_result(c, 0, ravel_multi_index(m, dims));
        } else if constexpr (std::is_same_v<I, std::int64_t>) {
            if (m.size() == 1)
                check_result(c, 0, ravel_multi_index({m[0]}, dims));
            else if (m.size() == 2)
                check_result(c, 0, ravel_multi_index({m[0], m[1]}, dims));
            else if (m.size() == 3)
                check_result(c, 0, ravel_multi_index({m[0], m[1], m[2]}, dims));
            else if (m.size() == 4)
                check_result(c, 0, ravel_multi_index({m[0], m[1], m[2], m[3]}, dims));
            else
                FAIL("ravel_multi_index of ", m.size(), " arrays");
        } else {
            FAIL("the braced form takes int64 index arrays");
        }
    });
}

// interp: x of dtype T; xp and fp of T or float64.
template <class T, class P>
void run_interp(const test_case& c) {
    const tensor<T> x = to_tensor<T>(c.operand("x"));
    const tensor<P> xp = to_tensor<P>(c.operand("xp"));
    const tensor<P> fp = to_tensor<P>(c.operand("fp"));
    run_case(c, [&] {
        const auto left = c.real("left"), right = c.real("right"), period = c.real("period");
        if (c.integer("scalar") == 1) {
            const double r = interp(x.item(), xp, fp, left, right, period);
            check_result(c, 0, full({}, r));
        } else {
            check_result(c, 0, interp(x, xp, fp, left, right, period));
        }
    });
}

// The joining functions over a vector of parts or a braced list of 1 to 3 of them.
template <class T>
void run_join(const test_case& c) {
    std::vector<tensor<T>> parts;
    for (std::size_t k = 0; c.has_operand(std::to_string(k)); ++k)
        parts.push_back(to_tensor<T>(c.operand(std::to_string(k))));
    const std::string& f = c.func;
    const auto call = [&](const auto& fn) {
        const bool with_axis = f == "concatenate" || f == "stack";
        const std::optional<index_t> axis = with_axis ? c.axis() : std::nullopt;
        const auto go = [&](const auto& list) {
            using Fn = decltype(fn);
            using List = decltype(list);
            // Each result also read by larger expressions (lazy_consumers.hpp), for five element
            // types: the cells do not depend on the type, and toolbox.shifting reads pad, roll
            // and tile through them in every type (all eleven here: 144 s to compile, 131 s).
            const auto both = [&](const auto& lazy) {
                check_result(c, 0, lazy);
                if constexpr (
                    std::is_same_v<
                        T,
                        bool> || std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int64_t> || std::is_floating_point_v<T>)
                    lazy_consumers::check(lazy);
            };
            if constexpr (!std::is_invocable_v<Fn, List, index_t>)
                both(fn(list)); // hstack, vstack, dstack, column_stack
            else if (axis)
                both(fn(list, *axis));
            else if constexpr (std::is_invocable_v<Fn, List, none_t>)
                both(fn(list, none)); // concatenate(parts, none)
            else
                FAIL("axis none for ", f);
        };
        if (c.str("form") == "vector") {
            go(parts);
        } else if (parts.size() == 1) {
            go(std::initializer_list<tensor_view<const T>>{parts[0]});
        } else if (parts.size() == 2) {
            go(std::initializer_list<tensor_view<const T>>{parts[0], parts[1]});
        } else if (parts.size() == 3) {
            go(std::initializer_list<tensor_view<const T>>{parts[0], parts[1], parts[2]});
        } else {
            FAIL("a braced list of ", parts.size(), " parts");
        }
    };
    run_case(c, [&] {
        if (f == "concatenate")
            call(concatenate);
        else if (f == "stack")
            call(stack);
        else if (f == "hstack")
            call(hstack);
        else if (f == "vstack")
            call(vstack);
        else if (f == "dstack")
            call(dstack);
        else if (f == "column_stack")
            call(column_stack);
        else
            FAIL("unknown function ", f);
    });
}

// concatenate's std::tuple form over two parts of different dtypes (MIXED in the script).
template <class A, class B>
void run_concatenate_tuple(const test_case& c) {
    const tensor<A> a = to_tensor<A>(c.operand("0"));
    const tensor<B> b = to_tensor<B>(c.operand("1"));
    run_case(c, [&] {
        if (c.axis())
            check_result(c, 0, concatenate(std::tuple{a, b}, *c.axis()));
        else
            check_result(c, 0, concatenate(std::tuple{a, b}, none));
    });
}

template <class A, class B, class F>
bool try_pair(const test_case& c, F&& f) {
    if (c.operand("0").dtype == dtype_name<A>() && c.operand("1").dtype == dtype_name<B>()) {
        f(type_tag<A>{}, type_tag<B>{});
        return true;
    }
    return false;
}

void run_mixed(const test_case& c) {
    const auto go = [&](auto a, auto b) {
        run_concatenate_tuple<typename decltype(a)::type, typename decltype(b)::type>(c);
    };
    const bool found =
        try_pair<std::int8_t, std::uint8_t>(c, go) || try_pair<std::int32_t, float>(c, go)
        || try_pair<bool, std::int32_t>(c, go) || try_pair<std::uint64_t, std::int64_t>(c, go)
        || try_pair<float, double>(c, go) || try_pair<std::uint16_t, std::int8_t>(c, go);
    REQUIRE_MESSAGE(found, c.name(), ": a mixed pair not dispatched here");
}

template <class T>
void run_split(const test_case& c) {
    const tensor<T> x = to_tensor<T>(c.operand("x"));
    const auto spec = [&]() -> std::vector<index_t> {
        const shape_t s = c.list("indices");
        return std::vector<index_t>(s.begin(), s.end());
    };
    const bool by_sections = c.has("sections");
    run_case(c, [&] {
        const std::string& f = c.func;
        if (f == "split" || f == "array_split") {
            with_form(c, x, [&](auto&& v) {
                const index_t axis = c.integer("axis");
                if (f == "split" && by_sections)
                    check_results(c, split(v, c.integer("sections"), axis));
                else if (f == "split")
                    check_results(c, split(v, spec(), axis));
                else if (by_sections)
                    check_results(c, array_split(v, c.integer("sections"), axis));
                else
                    check_results(c, array_split(v, spec(), axis));
            });
        } else {
            const auto go = [&](const auto& s) {
                if (f == "hsplit")
                    check_results(c, hsplit(x, s));
                else if (f == "vsplit")
                    check_results(c, vsplit(x, s));
                else
                    check_results(c, dsplit(x, s));
            };
            if (by_sections)
                go(c.integer("sections"));
            else
                go(spec());
        }
    });
}

// ---- advanced indexing through view(...) (toolbox_reference.py: VIEW_PATTERNS) -----------------

// A slice token `s:<start>:<stop>:<step>` (`n` for none).
slice slice_of(const std::string& token) {
    std::vector<std::optional<index_t>> b;
    std::istringstream in(token.substr(2));
    for (std::string part; std::getline(in, part, ':');)
        b.push_back(part == "n" ? std::nullopt : std::optional<index_t>(std::stoll(part)));
    REQUIRE(b.size() == 3);
    const auto bound = [](std::optional<index_t> v, const auto& f) {
        if (v)
            return f(*v);
        return f(none);
    };
    return bound(b[0], [&](auto start) {
        return bound(b[1], [&](auto stop) {
            return bound(b[2], [&](auto step) { return slice(start, stop, step); });
        });
    });
}

// Calls `f(m)` with the first index operand in the case's `iform`: the tensor, the transpose
// of the tensor written (a view), or an expression of the same values.
template <class T, class F>
void with_index_form(const test_case& c, const tensor<T>& t, F&& f) {
    const std::string& form = c.str("iform");
    if (form == "tensor")
        f(t);
    else if (form == "view")
        f(transpose(t));
    else if (form == "expr")
        f(cast<T>(t));
    else
        FAIL("unknown index form ", form);
}

// Calls `f(indices...)` with the case's index list, its pattern one call each (index arrays of
// int64; the pattern "a" with another index dtype goes through run_view_typed).
template <class F>
void with_view_indices(const test_case& c, F&& f) {
    const std::string& pattern = c.str("pattern");
    const std::vector<std::string>& tokens = c.params.at("idx");
    const auto arr = [&](const char* name) {
        return to_tensor<std::int64_t>(c.operand(name));
    };
    const auto sl = [&](std::size_t k) {
        return slice_of(tokens.at(k));
    };
    const auto in = [&](std::size_t k) {
        return static_cast<index_t>(std::stoll(tokens.at(k).substr(2)));
    };
    if (pattern == "m")
        with_index_form(c, to_tensor<bool>(c.operand("m0")), [&](const auto& m) { f(m); });
    else if (pattern == "a")
        with_index_form(c, arr("i0"), [&](const auto& i) { f(i); });
    else if (pattern == "aa")
        f(arr("i0"), arr("i1"));
    else if (pattern == "sa")
        f(sl(0), arr("i0"));
    else if (pattern == "as")
        f(arr("i0"), sl(1));
    else if (pattern == "asa")
        f(arr("i0"), sl(1), arr("i1"));
    else if (pattern == "ia")
        f(in(0), arr("i0"));
    else if (pattern == "aAi")
        f(arr("i0"), all, in(2));
    else if (pattern == "na")
        f(newaxis, arr("i0"));
    else if (pattern == "da")
        f(ellipsis, arr("i0"));
    else if (pattern == "ad")
        f(arr("i0"), ellipsis);
    else if (pattern == "sm")
        f(sl(0), to_tensor<bool>(c.operand("m0")));
    else if (pattern == "ma")
        f(to_tensor<bool>(c.operand("m0")), arr("i0"));
    else if (pattern == "md")
        f(to_tensor<bool>(c.operand("m0")), ellipsis);
    else if (pattern == "aia")
        f(arr("i0"), in(1), arr("i1"));
    else
        FAIL("unknown pattern ", pattern);
}

// view_read with one index array of dtype I (not int64), the operand a tensor.
template <class T, class I>
void run_view_typed(const test_case& c) {
    const tensor<T> x = to_tensor<T>(c.operand("x"));
    const tensor<I> idx = to_tensor<I>(c.operand("i0"));
    run_case(c, [&] { check_result(c, 0, eval(view(x, idx))); });
}

template <class T>
void run_view(const test_case& c) {
    const tensor<T> x = to_tensor<T>(c.operand("x"));
    if (c.func == "view_read") {
        run_case(c, [&] {
            with_form(c, x, [&](auto&& v) {
                with_view_indices(c, [&](const auto&... idx) {
                    const tensor<T> got = view(v, idx...); // the conversion form
                    check_result(c, 0, got);
                });
            });
        });
        return;
    }
    // view_write, view_iadd: the destination afterwards.
    tensor<T> dest = x;
    run_case(c, [&] {
        const auto write = [&](auto&& target) {
            with_view_indices(c, [&](const auto&... idx) {
                if (c.func == "view_iadd") {
                    if constexpr (!std::is_same_v<T, bool>)
                        view(target, idx...) += to_tensor<T>(c.operand("values"));
                } else if (c.has("scalar")) {
                    view(target, idx...) = parse_value<T>(c.str("scalar"));
                } else {
                    view(target, idx...) = to_tensor<T>(c.operand("values"));
                }
            });
        };
        if (c.str("form") == "view")
            write(transpose(dest));
        else
            write(dest);
        check_result(c, 0, dest);
    });
    if (!c.error.empty())
        CHECK_MESSAGE(array_equal(dest, x), "the destination changed although it threw");
}

// One case, dispatched on its function and dtypes.
void run(const test_case& c) {
    const std::string& f = c.func;
    const auto dtype_of = [&](const char* name) {
        return c.operand(name).dtype;
    };
    if (f == "flipud" || f == "fliplr" || f == "rot90" || f == "ravel" || f == "flatten"
        || f == "atleast_1d" || f == "atleast_2d" || f == "atleast_3d" || f == "diff" || f == "tril"
        || f == "triu" || f == "nonzero" || f == "where1") {
        with_dtype(dtype_of("x"), [&](auto t) { run_shaping<typename decltype(t)::type>(c); });
    } else if (f == "diff_edges") {
        with_dtype(dtype_of("x"), [&](auto t) { run_diff_edges<typename decltype(t)::type>(c); });
    } else if (f == "meshgrid") {
        with_dtype(dtype_of("0"), [&](auto t) { run_meshgrid<typename decltype(t)::type>(c); });
    } else if (f == "indices") {
        run_case(c, [&] { check_result(c, 0, indices(c.list("shape"))); });
    } else if (f == "ndindex") {
        run_case(c, [&] {
            const ndindex range(c.list("shape"));
            tensor<std::int64_t> rows(shape_t{range.size(), c.list("shape").rank()});
            std::int64_t* o = rows.data();
            for (const shape_t& i : range)
                for (index_t v : i)
                    *o++ = v;
            check_result(c, 0, rows);
        });
    } else if (f == "argwhere" || f == "flatnonzero" || f == "compress" || f == "extract") {
        with_dtype(dtype_of("x"), [&](auto t) { run_masks<typename decltype(t)::type>(c); });
    } else if (f == "putmask" || f == "place") {
        with_dtype(dtype_of("x"), [&](auto t) { run_putmask<typename decltype(t)::type>(c); });
    } else if (f == "take" || f == "take_along_axis" || f == "put" || f == "put_along_axis") {
        with_dtype(dtype_of("x"), [&](auto t) {
            with_index_dtype(dtype_of("indices"), [&](auto i) {
                run_take_put<typename decltype(t)::type, typename decltype(i)::type>(c);
            });
        });
    } else if (f == "choose") {
        with_dtype(dtype_of("c0"), [&](auto t) {
            with_index_dtype(dtype_of("index"), [&](auto i) {
                run_choose<typename decltype(t)::type, typename decltype(i)::type>(c);
            });
        });
    } else if (f == "unravel_index") {
        with_index_dtype(dtype_of("indices"),
                         [&](auto i) { run_unravel<typename decltype(i)::type>(c); });
    } else if (f == "ravel_multi_index") {
        if (!c.has_operand("m0"))
            FAIL("no index arrays");
        else if (dtype_of("m0") == "int64")
            run_ravel_multi<std::int64_t>(c);
        else
            run_ravel_multi<std::int32_t>(c);
    } else if (f == "interp") {
        with_dtype(dtype_of("x"), [&](auto t) {
            using T = typename decltype(t)::type;
            if (dtype_of("xp") == dtype_name<T>())
                run_interp<T, T>(c);
            else
                run_interp<T, double>(c);
        });
    } else if (f == "concatenate" || f == "stack" || f == "hstack" || f == "vstack" || f == "dstack"
               || f == "column_stack") {
        if (c.has("form") && c.str("form") == "tuple")
            run_mixed(c);
        else if (!c.has_operand("0"))
            run_join<double>(c); // no parts: the error of an empty list
        else
            with_dtype(dtype_of("0"), [&](auto t) { run_join<typename decltype(t)::type>(c); });
    } else if (f == "view_read" && c.str("pattern") == "a" && c.operand("i0").dtype != "int64") {
        with_dtype(dtype_of("x"), [&](auto t) {
            dispatch<std::int32_t,
                     std::int16_t,
                     std::int8_t,
                     std::uint8_t,
                     std::uint16_t,
                     std::uint32_t,
                     std::uint64_t>(dtype_of("i0"), [&](auto i) {
                run_view_typed<typename decltype(t)::type, typename decltype(i)::type>(c);
            });
        });
    } else if (f == "view_read" || f == "view_write" || f == "view_iadd") {
        with_dtype(dtype_of("x"), [&](auto t) { run_view<typename decltype(t)::type>(c); });
    } else if (f == "split" || f == "array_split" || f == "hsplit" || f == "vsplit"
               || f == "dsplit") {
        with_dtype(dtype_of("x"), [&](auto t) { run_split<typename decltype(t)::type>(c); });
    } else {
        FAIL("unknown function ", f);
    }
}

// Runs every case of the functions `funcs`; returns how many ran.
int run_all(std::initializer_list<std::string> funcs) {
    int ran = 0;
    for (const test_case& c : cases())
        for (const std::string& f : funcs)
            if (c.func == f) {
                run(c);
                ++ran;
            }
    return ran;
}

} // namespace

TEST_CASE("the NumPy reference holds at least 800 cases, every function, every dtype") {
    std::map<std::string, int> n;
    std::map<std::string, int> dtypes;
    int errors = 0;
    for (const test_case& c : cases()) {
        ++n[c.func];
        errors += !c.error.empty();
        if (!c.operands.empty())
            ++dtypes[c.operands.front().second.dtype];
    }
    CHECK(cases().size() >= 800);
    for (const char* f : {"flipud",
                          "fliplr",
                          "rot90",
                          "ravel",
                          "flatten",
                          "atleast_1d",
                          "atleast_2d",
                          "atleast_3d",
                          "diff",
                          "diff_edges",
                          "tril",
                          "triu",
                          "meshgrid",
                          "indices",
                          "nonzero",
                          "where1",
                          "argwhere",
                          "flatnonzero",
                          "compress",
                          "extract",
                          "take",
                          "take_along_axis",
                          "put",
                          "put_along_axis",
                          "putmask",
                          "place",
                          "choose",
                          "unravel_index",
                          "ravel_multi_index",
                          "ndindex",
                          "interp",
                          "concatenate",
                          "stack",
                          "hstack",
                          "vstack",
                          "dstack",
                          "column_stack",
                          "split",
                          "array_split",
                          "hsplit",
                          "vsplit",
                          "dsplit",
                          "view_read",
                          "view_write",
                          "view_iadd"})
        CHECK_MESSAGE(n[f] >= 10, f, ": ", n[f], " cases");
    for (const char* d : {"bool",
                          "int8",
                          "int16",
                          "int32",
                          "int64",
                          "uint8",
                          "uint16",
                          "uint32",
                          "uint64",
                          "float32",
                          "float64"})
        CHECK_MESSAGE(dtypes[d] >= 20, d, ": ", dtypes[d], " cases");
    CHECK(errors >= 80);
}

TEST_CASE("flipud, fliplr, rot90, ravel, flatten, atleast_1d/2d/3d, as NumPy's") {
    CHECK(run_all({"flipud",
                   "fliplr",
                   "rot90",
                   "ravel",
                   "flatten",
                   "atleast_1d",
                   "atleast_2d",
                   "atleast_3d"})
          >= 200);
}

TEST_CASE("diff (with prepend and append), tril, triu, as NumPy's") {
    CHECK(run_all({"diff", "diff_edges", "tril", "triu"}) >= 100);
}

TEST_CASE("meshgrid, indices, ndindex, unravel_index, ravel_multi_index, as NumPy's") {
    CHECK(run_all({"meshgrid", "indices", "ndindex", "unravel_index", "ravel_multi_index"}) >= 80);
}

TEST_CASE("nonzero, where(m), argwhere, flatnonzero, compress, extract, as NumPy's") {
    CHECK(run_all({"nonzero", "where1", "argwhere", "flatnonzero", "compress", "extract"}) >= 100);
}

TEST_CASE("take, take_along_axis, put, put_along_axis, putmask, place, choose, as NumPy's") {
    CHECK(
        run_all({"take", "take_along_axis", "put", "put_along_axis", "putmask", "place", "choose"})
        >= 150);
}

TEST_CASE("interp, as numpy.interp (bit for bit)") {
    CHECK(run_all({"interp"}) >= 30);
}

// xp holding a NaN, or not ascending (NumPy checks neither): the answers depend on the order of
// NumPy's comparisons and on the guess each x leaves for the next (values from NumPy 1.24's
// numpy.interp; a plain upper_bound gave NaN, not -2.5, for the first).
TEST_CASE("interp searches a NaN or unsorted xp with NumPy's comparisons") {
    using fusor::tensor;
    auto of = [](std::vector<double> v) {
        tensor<double> t = fusor::zeros<double>({static_cast<fusor::index_t>(v.size())});
        std::copy(v.begin(), v.end(), t.data());
        return t;
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // period: xp becomes [nan, 4, nan, 17], searched by a scan (4 samples).
    const tensor<std::uint64_t> x30 = fusor::full<std::uint64_t>({1, 1}, 30);
    const tensor<double> p =
        fusor::interp(x30, of({4, nan}), of({-2.5, 7.5}), std::nullopt, std::nullopt, -13.0);
    CHECK(p(0, 0) == -2.5);
    // Seven samples, a NaN among them: the guess decides.
    const tensor<double> g = fusor::interp(of({0.5, 2.5, 1.5, 7, 3.2, 0.2}),
                                           of({0, 1, 2, 3, nan, 5, 6}),
                                           of({0, 10, 20, 30, 40, 50, 60}));
    CHECK(g(0) == 5.0);
    CHECK(g(1) == 25.0);
    CHECK(g(2) == 15.0);
    CHECK(g(3) == 60.0);
    CHECK(std::isnan(g(4)));
    CHECK(std::isnan(g(5)));
    // Ten samples, not ascending.
    const tensor<double> u = fusor::interp(of({2.5, 0.5, 4.5, 5.5, 1.5}),
                                           of({0, 1, 5, 2, 3, 4, 6, 7, 8, 9}),
                                           of({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    CHECK(u(0) == 1.375);
    CHECK(u(1) == 0.5);
    CHECK(u(2) == 1.875);
    CHECK(u(3) == 5.75);
    CHECK(u(4) == 1.125);
}

TEST_CASE("concatenate, stack, hstack, vstack, dstack, column_stack, as NumPy's") {
    CHECK(run_all({"concatenate", "stack", "hstack", "vstack", "dstack", "column_stack"}) >= 150);
}

TEST_CASE("split, array_split, hsplit, vsplit, dsplit, as NumPy's") {
    CHECK(run_all({"split", "array_split", "hsplit", "vsplit", "dsplit"}) >= 80);
}

TEST_CASE("view(x, mask) and view(x, index arrays...): read, write, +=, as NumPy's x[idx]") {
    CHECK(run_all({"view_read"}) >= 150);
    CHECK(run_all({"view_write", "view_iadd"}) >= 100);
    MESSAGE(assertions, " values and errors compared against NumPy");
}

// ---- laziness and views
// ----------------------------------------------------------------------------

TEST_CASE("the views are views: writes go through to the tensor") {
    tensor<double> t = {{1, 2, 3}, {4, 5, 6}};
    flipud(t) = tensor<double>{{10, 20, 30}, {40, 50, 60}};
    CHECK(array_equal(t, tensor<double>{{40, 50, 60}, {10, 20, 30}}));
    fliplr(t) = tensor<double>{{1, 2, 3}, {4, 5, 6}};
    CHECK(array_equal(t, tensor<double>{{3, 2, 1}, {6, 5, 4}}));
    rot90(t)(0, 1) = -1.0; // rot90's (0, 1) is t's (1, 2)
    CHECK(t(1, 2) == -1.0);
    rot90(t, 3)(0, 0) = -2.0; // three turns: (i, j) is t's (1 - j, i)
    CHECK(t(1, 0) == -2.0);
    atleast_3d(t)(1, 1, 0) = -3.0;
    CHECK(t(1, 1) == -3.0);
    ravel(t) = 7.0;
    CHECK(array_equal(t, full({2, 3}, 7.0)));
    auto parts = split(t, 3, 1);
    parts[1] = 0.0;
    CHECK(t(0, 1) == 0.0);
    CHECK(t(1, 1) == 0.0);
    CHECK(t(0, 0) == 7.0);
    auto halves = array_split(t, {1}, 0);
    halves[0] = 1.0;
    CHECK(t(0, 2) == 1.0);
    CHECK(t(1, 2) == 7.0);
    // flatten copies.
    tensor<double> f = flatten(t);
    f(0) = 99.0;
    CHECK(t(0, 0) == 1.0);
}

TEST_CASE("the lazy forms read their operands when evaluated") {
    tensor<double> t = {{1, 2, 3}, {4, 5, 6}};
    auto d = diff(t);
    auto lower = tril(t);
    auto upper = triu(t, 1);
    auto flipped = rot90(t + 1.0);
    tensor<double> x = {1, 2, 3};
    tensor<double> y = {10, 20};
    auto [gx, gy] = meshgrid(x, y);
    t(0, 1) = 10.0;
    x(2) = 30.0;
    y(0) = -10.0;
    CHECK(array_equal(eval(d), tensor<double>{{9, -7}, {1, 1}}));
    CHECK(array_equal(eval(lower), tensor<double>{{1, 0, 0}, {4, 5, 0}}));
    CHECK(array_equal(eval(upper), tensor<double>{{0, 10, 3}, {0, 0, 6}}));
    CHECK(array_equal(eval(flipped), tensor<double>{{4, 7}, {11, 6}, {2, 5}}));
    CHECK(array_equal(eval(gx), tensor<double>{{1, 2, 30}, {1, 2, 30}}));
    CHECK(array_equal(eval(gy), tensor<double>{{-10, -10, -10}, {20, 20, 20}}));
}

TEST_CASE("views of small tensors evaluated into existing results allocate nothing") {
    // Inner-loop code: a difference of two slices, a transpose, a reversed axis, a broadcast
    // and a new axis. Each view's index map, its label and view(...)'s index list stay off the
    // heap (ranks up to 4); the first evaluation of each fills the plan caches.
    tensor<float> x = arange<float>(17), d(shape_t{16});
    tensor<float> a = arange<float>(64), b(shape_t{8, 8}), c(shape_t{8, 8});
    a.reshape({8, 8});
    auto evaluate_all = [&] {
        d = view(x, slice(1, none)) - view(x, slice(none, -1));
        c = transpose(a) + b;
        c = view(a, slice(none, none, -1), all) * 2.0f;
        c = broadcast_to(view(x, slice(0, 8)), shape_t{8, 8}) + view(a, all, 0, newaxis);
    };
    evaluate_all();
    start_counting();
    evaluate_all();
    counting = false;
    CHECK(total_allocated == 0);
    CHECK(d(3) == 1.0f);
    CHECK(c(2, 5) == 5.0f + 16.0f); // x[5] + a[2, 0]
}

TEST_CASE("building the lazy forms allocates nothing of the operand's size") {
    const index_t n = 256;
    tensor<double> t(shape_t{n, n});
    const std::size_t bytes = static_cast<std::size_t>(n * n) * sizeof(double);
    start_counting();
    {
        auto a = flipud(t);
        auto b = rot90(t, 1, {1, 0});
        auto c = atleast_3d(t);
        auto d = ravel(t);
        auto e = diff(t, 1, 0);
        auto f = tril(t, -1);
        auto g = triu(t * 2.0);
        auto h = split(t, 4, 1);
        auto [gx, gy] = meshgrid(view(t, 0), view(t, all, 0));
        auto i = rot90(t + 1.0, 2);
        (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g, (void)h, (void)i;
    }
    counting = false;
    // Shapes, index maps and tril's two aranges (n int64 each) only.
    CHECK(largest_allocation < bytes / 64);
    CHECK(total_allocated < bytes / 8);
    // Evaluating allocates the result: the counter sees it.
    start_counting();
    const tensor<double> r = tril(t, -1);
    counting = false;
    CHECK(largest_allocation >= bytes);
    CHECK(r(0, 0) == 0.0);
}

TEST_CASE("roll, pad, concatenate and stack are lazy: operands read when evaluated, in place") {
    tensor<double> a = {{1, 2, 3}, {4, 5, 6}};
    tensor<double> b = {{7, 8, 9}};
    auto r = roll(a, 1, 0);
    auto p = pad(a, {{0, 0}, {1, 0}}, pad_mode::edge);
    auto c = concatenate({a, b}, 0);
    auto s = stack({view(a, 0), view(b, 0)}, 1);
    a(0, 0) = -1.0;
    b(0, 2) = -9.0;
    CHECK(array_equal(eval(r), tensor<double>{{4, 5, 6}, {-1, 2, 3}}));
    CHECK(array_equal(eval(p), tensor<double>{{-1, -1, 2, 3}, {4, 4, 5, 6}}));
    CHECK(array_equal(eval(c), tensor<double>{{-1, 2, 3}, {4, 5, 6}, {7, 8, -9}}));
    CHECK(array_equal(eval(s), tensor<double>{{-1, 7}, {2, 8}, {3, -9}}));
    // An expression operand is evaluated when the function is called (as NumPy's would be);
    // an rvalue tensor is kept alive by the node.
    auto re = roll(a * 2.0, 1, 1);
    auto rt = roll(tensor<double>{1, 2, 3}, 1, 0);
    a(1, 1) = 0.0;
    CHECK(array_equal(eval(re), tensor<double>{{6, -2, 4}, {12, 8, 10}}));
    CHECK(array_equal(eval(rt), tensor<double>{3, 1, 2}));
    // The types: lazy nodes, not tensors.
    static_assert(std::is_same_v<decltype(r), segmented<double>>);
    static_assert(std::is_same_v<decltype(c), segmented<double>>);
}

// A braced list's parts as roll's operand: an rvalue tensor kept by the node, any other
// expression of the list's element type evaluated when the list is made (as NumPy's
// np.concatenate([np.sort(x), x]) and np.stack([x, x * 2], 1) evaluate their parts), tensors and
// views read in place. Before, `auto c = concatenate({sort(x), x}, 0)` read a destroyed
// temporary (checked mode: lifetime_error) and `{x, x * 2.0}` did not compile.
TEST_CASE("concatenate and stack of temporaries and expressions: parts kept, not referred to") {
    tensor<double> x = {3, 1, 2};
    auto c = concatenate({sort(x), x}, 0);
    auto s = stack({x, x * 2.0, view(x, slice(none, none, -1)), view(x, x > 0.0)}, 1);
    x(0) = 30.0;
    CHECK(array_equal(eval(c), tensor<double>{1, 2, 3, 30, 1, 2}));
    CHECK(array_equal(eval(s), tensor<double>{{30, 6, 2, 3}, {1, 2, 1, 1}, {2, 4, 30, 2}}));
    const tensor<double>& cx = x;
    CHECK(array_equal(eval(hstack({cx.view(), x + 1.0})), tensor<double>{30, 1, 2, 31, 2, 3}));
    CHECK(array_equal(eval(concatenate({x * 1.0, x}, none)), tensor<double>{30, 1, 2, 30, 1, 2}));
    static_assert(std::is_same_v<decltype(c), segmented<double>>);
}

TEST_CASE("a lazy roll, pad or concatenate in an expression allocates no temporary") {
    const index_t n = 256;
    const tensor<float> x = random::uniform<float>({n, n}, -1.0f, 1.0f, 7);
    const tensor<float> y = random::uniform<float>({n, n}, -1.0f, 1.0f, 8);
    const std::size_t bytes = static_cast<std::size_t>(n * n) * sizeof(float);
    tensor<float> out(shape_t{n, n});
    tensor<float> rows(shape_t{2 * n});
    // Warm up this thread's plan cache and scratch so the counts see the evaluations only.
    out = roll(x, 1, 0) - x;
    out = pad(view(x, slice(1, -1), slice(1, -1)), 1, pad_mode::reflect) * 2.0f;
    rows = sum(concatenate({x, y}, 0), 1);
    start_counting();
    out = roll(x, 1, 0) - x;
    const std::size_t roll_largest = largest_allocation;
    start_counting();
    out = pad(view(x, slice(1, -1), slice(1, -1)), 1, pad_mode::reflect) * 2.0f;
    const std::size_t pad_largest = largest_allocation;
    start_counting();
    rows = sum(concatenate({x, y}, 0), 1);
    const std::size_t concat_largest = largest_allocation;
    counting = false;
    // Plans and cell lists only: nothing near the size of an operand (64 KiB).
    CHECK(roll_largest < bytes / 16);
    CHECK(pad_largest < bytes / 16);
    CHECK(concat_largest < bytes / 16);
    // The values: against the eager forms.
    CHECK(array_equal(eval(roll(x, 1, 0) - x), eval(eval(roll(x, 1, 0)) - x)));
    const tensor<float> joined = concatenate({x, y}, 0);
    CHECK(array_equal(rows, eval(sum(joined, 1))));
    // The fallback fills a temporary: a transpose of a roll.
    start_counting();
    out = transpose(roll(x, 1, 0)) + 1.0f;
    counting = false;
    CHECK(largest_allocation >= bytes);
    CHECK(array_equal(out, eval(transpose(eval(roll(x, 1, 0))) + 1.0f)));
}

TEST_CASE("lazy segments and aliasing: the destination may be what they read") {
    tensor<int> x = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    x = roll(x, 1, 0);
    CHECK(array_equal(x, tensor<int>{{7, 8, 9}, {1, 2, 3}, {4, 5, 6}}));
    x = roll(x, -1, 0) - x; // cells would overwrite what a later cell reads
    CHECK(array_equal(x, tensor<int>{{-6, -6, -6}, {3, 3, 3}, {3, 3, 3}}));
    x += roll(x, 1, 1);
    CHECK(array_equal(x, tensor<int>{{-12, -12, -12}, {6, 6, 6}, {6, 6, 6}}));
    tensor<int> v = {1, 2, 3, 4, 5, 6};
    v = roll(v, 2); // no axis: filled straight into the destination, through a temporary here
    CHECK(array_equal(v, tensor<int>{5, 6, 1, 2, 3, 4}));
    view(v, slice(0, 4)) = concatenate({view(v, slice(2, 4)), view(v, slice(0, 2))}, 0);
    CHECK(array_equal(v, tensor<int>{1, 2, 5, 6, 3, 4}));
    // Into another element type, and into a strided view.
    tensor<double> d(shape_t{3, 3});
    view(d, all, slice(none, none, -1)) = roll(tensor<int>{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, 1, 1);
    CHECK(array_equal(d, tensor<double>{{2, 1, 3}, {5, 4, 6}, {8, 7, 9}}));
}

// ---- errors leave destinations untouched
// -------------------------------------------------------------

TEST_CASE("a throwing put, put_along_axis, putmask or place leaves the destination untouched") {
    tensor<std::int32_t> a = {{1, 2, 3}, {4, 5, 6}};
    const tensor<std::int32_t> before = a;
    const auto untouched = [&] {
        CHECK(array_equal(a, before));
    };
    // The bad index comes after good ones: NumPy has written those when it raises, fusor not.
    CHECK_THROWS_AS(put(a, tensor<std::int64_t>{0, 1, 6}, 9), index_error);
    untouched();
    CHECK_THROWS_AS(put(view(a, all, slice(0, 2)), tensor<std::int64_t>{0, -5}, 9), index_error);
    untouched();
    CHECK_THROWS_AS(put_along_axis(a, tensor<std::int64_t>{{0}, {3}}, 9, 1), index_error);
    untouched();
    CHECK_THROWS_AS(
        put_along_axis(a, tensor<std::int64_t>{{0}, {1}}, tensor<std::int32_t>{7, 8}, 1),
        value_error);
    untouched();
    CHECK_THROWS_AS(put_along_axis(a, tensor<std::int64_t>{{0}, {1}}, 9, 2), axis_error);
    untouched();
    CHECK_THROWS_AS(putmask(a, tensor<bool>{true, false}, 0), value_error);
    untouched();
    CHECK_THROWS_AS(place(a, a > 3, tensor<std::int32_t>(shape_t{0})), value_error);
    untouched();
    // A valid put into a strided view writes through its strides.
    put(view(a, all, slice(none, none, 2)),
        tensor<std::int64_t>{1, -1},
        tensor<std::int32_t>{-1, -2});
    CHECK(array_equal(a, tensor<std::int32_t>{{1, 2, -1}, {4, 5, -2}}));
    put_along_axis(transpose(a), tensor<std::int64_t>{{1}, {0}, {1}}, 0, 1);
    CHECK(array_equal(a, tensor<std::int32_t>{{1, 0, -1}, {0, 5, 0}}));
    putmask(view(a, 1), tensor<bool>{true, false, true}, tensor<std::int32_t>{8, 9});
    CHECK(array_equal(a, tensor<std::int32_t>{{1, 0, -1}, {8, 5, 8}}));
    // Values that alias the destination are read before anything is written.
    place(a, a > 0, flip(a));
    CHECK(array_equal(a, tensor<std::int32_t>{{8, 0, -1}, {5, 8, -1}}));
}

TEST_CASE("a joining error is thrown before anything is allocated for the result") {
    const tensor<double> a(shape_t{2, 3}), b(shape_t{2, 4});
    try {
        (void)concatenate({a, b}, 0);
        FAIL("concatenate did not throw");
    } catch (const value_error& e) {
        const std::string what = e.what();
        CHECK(what.find("(2, 3)") != std::string::npos);
        CHECK(what.find("(2, 4)") != std::string::npos);
        CHECK(what.find("axis 0") != std::string::npos);
    }
    tensor<double> dest = {1.0, 2.0};
    CHECK_THROWS_AS(dest = concatenate({a, b}, 0), value_error);
    CHECK(array_equal(dest, tensor<double>{1.0, 2.0}));
    // Parts that are views and expressions of other types join through the tuple form.
    const tensor<std::int32_t> i = {{1, 2}, {3, 4}};
    const tensor<double> joined = concatenate(std::tuple{view(a, all, slice(0, 2)), i * 2}, 0);
    CHECK(array_equal(joined, tensor<double>{{0, 0}, {0, 0}, {2, 4}, {6, 8}}));
}

// ---- advanced indexing through view(...): what the NumPy cases cannot show ---------------------

TEST_CASE("view(x, mask) and view(x, idx): overloads, read-only forms, when values are read") {
    tensor<double> x = {{1, 2, 3}, {4, 5, 6}};
    const tensor<double>& cx = x;
    const tensor<bool> m = {{false, true, true}, {false, false, true}};
    const tensor<std::int64_t> rows = {1, 0, 1};
    // Basic indices still give a tensor_view; a bool or integer tensor gives an advanced_view.
    static_assert(std::is_same_v<decltype(view(x, 1, all)), tensor_view<double>>);
    static_assert(std::is_same_v<decltype(view(x, m)), advanced_view<double>>);
    static_assert(std::is_same_v<decltype(view(x, rows, all)), advanced_view<double>>);
    static_assert(std::is_same_v<decltype(view(cx, m)), advanced_view<const double>>);
    static_assert(std::is_same_v<decltype(view(x + 1.0, m)), advanced_view<const double>>);
    static_assert(std::is_same_v<decltype(view(transpose(x), 0, rows)), advanced_view<double>>);
    // The positions are fixed at the call; the operand's values are read when evaluated.
    auto sel = view(x, m);
    CHECK(sel.shape() == shape_t{3});
    x(0, 1) = 20.0;
    CHECK(array_equal(eval(sel), tensor<double>{20, 3, 6}));
    // An expression operand is evaluated once, at the call.
    auto plus = view(x + 1.0, m);
    x(0, 2) = 30.0;
    CHECK(array_equal(eval(plus), tensor<double>{21, 4, 7}));
    // Reads of a 0-d selection, item() and the conversion.
    const tensor<double> r = view(x, rows, all);
    CHECK(array_equal(r, tensor<double>{{4, 5, 6}, {1, 20, 30}, {4, 5, 6}}));
    CHECK(view(x, 1, tensor<std::int64_t>(shape_t{}, uninitialized) = 2).item() == 6.0);
    // uint64 indices are cast as NumPy casts them to intp: 2^64 - 1 is -1.
    const tensor<std::uint64_t> last = {~std::uint64_t{0}};
    CHECK(array_equal(eval(view(x, all, last)), tensor<double>{{30}, {6}}));
    // NumPy's x[True] and x[False]: a new axis of extent 1 or 0.
    CHECK(eval(view(x, tensor<bool>(shape_t{}, uninitialized) = true)).shape() == shape_t{1, 2, 3});
    CHECK(eval(view(x, tensor<bool>(shape_t{}))).shape() == shape_t{0, 2, 3});
}

// An advanced view as an operand of any expression or function (`sum(x[m])`, `x[idx] * 2`,
// `np.matmul(x[idx], x.T)` ...): its elements gathered when the expression is built, as NumPy's
// x[mask] copies at once. Expected values from NumPy 1.24 (the expressions in the comments).
TEST_CASE("view(x, mask) and view(x, idx) as operands: gathered when the expression is built") {
    tensor<double> x = {{1, -2, 3}, {-4, 5, 6}};
    const tensor<std::int64_t> rows = {1, 0, 1};
    CHECK(sum(view(x, x > 0.0)).item() == 15.0); // np.sum(x[x > 0])
    const tensor<double> twice = view(x, x > 0.0) * 2.0;
    CHECK(array_equal(twice, tensor<double>{2, 6, 10, 12}));
    CHECK(array_equal(eval(max(view(x, rows, all), 1)), tensor<double>{6, 3, 6}));
    CHECK(mean(view(x, x > 0.0)).item() == 3.75);
    CHECK(array_equal(eval(matmul(view(x, rows), transpose(x))),
                      tensor<double>{{4, 77}, {14, 4}, {4, 77}})); // x[idx] @ x.T
    const auto h = histogram(view(x, x > 0.0), 2);                 // np.histogram(x[x > 0], 2)
    CHECK(array_equal(h.hist, tensor<std::int64_t>{2, 2}));
    CHECK(array_equal(h.edges, tensor<double>{1.0, 3.5, 6.0}));
    // Promotion as for any operand: int32 elements and a weak float scalar give float64.
    const tensor<std::int32_t> i = {{1, 2}, {3, 4}};
    const auto shifted = eval(view(i, tensor<std::int64_t>{1, 1, 0}) + 1.5);
    static_assert(std::is_same_v<decltype(shifted), const tensor<double>>);
    CHECK(array_equal(shifted, tensor<double>{{4.5, 5.5}, {4.5, 5.5}, {2.5, 3.5}}));
    static_assert(std::is_same_v<value_type_t<decltype(view(i, i > 1) * 2)>, std::int32_t>);
    // Printed as the copy prints.
    std::ostringstream printed, copied;
    printed << view(x, x > 0.0);
    copied << eval(view(x, x > 0.0));
    CHECK(printed.str() == copied.str());
    // The copy is the expression's own: an expression built once keeps the values it gathered,
    // as `s = np.sum(x[m])` does; building it again reads x as it is now.
    const tensor<bool> m = x > 0.0;
    const auto total = sum(view(x, m));
    x(0, 0) = 100.0;
    CHECK(total.item() == 15.0);
    CHECK(sum(view(x, m)).item() == 114.0);
    x(0, 0) = 1.0;
    // Read before the destination is written: x += x[[1, 0]] adds the rows as they were.
    x += view(x, tensor<std::int64_t>{1, 0});
    CHECK(array_equal(x, tensor<double>{{-3, 3, 9}, {-3, 3, 9}}));
    // Shapes that do not broadcast: the error at the call, as for any operand.
    const tensor<double> two = {1, 2};
    CHECK_THROWS_AS(view(x, x > 0.0) + two, broadcast_error);
}

// NumPy reads a 0-d index array as an integer and checks it whatever the result's size; an index
// array of rank 1 or more is checked only when the result has elements (NumPy 1.24: a
// DeprecationWarning otherwise). Expected errors from NumPy 1.24: np.zeros((4, 0, 2))[np.array(-5)]
// "index -5 is out of bounds for axis 0 with size 4", [:, np.array(0)] "index 0 is out of bounds
// for axis 1 with size 0", np.zeros((0, 0, 5, 1)).T[np.array(3)] = 1 "... axis 0 with size 1".
TEST_CASE("a 0-d index array is checked as an integer is, even when the result is empty") {
    const tensor<double> x = zeros<double>({4, 0, 2});
    const auto zero_d = [](std::int64_t i) {
        return full(shape_t{}, i);
    };
    CHECK_THROWS_WITH_AS(
        view(x, zero_d(-5)), "index -5 is out of bounds for axis 0 with size 4", index_error);
    CHECK_THROWS_WITH_AS(
        view(x, all, zero_d(0)), "index 0 is out of bounds for axis 1 with size 0", index_error);
    CHECK(view(x, zero_d(-4)).shape() == shape_t{0, 2});
    // Rank 1: unchecked when nothing is selected, as NumPy 1.24.
    CHECK(view(x, tensor<std::int64_t>{7}).shape() == shape_t{1, 0, 2});
    tensor<double> y = zeros<double>({0, 0, 5, 1});
    CHECK_THROWS_WITH_AS(view(transpose(y), zero_d(3)) = 1.0,
                         "index 3 is out of bounds for axis 0 with size 1",
                         index_error);
}

// take and view(x, idx) ask for each element's (or row's first) cache line some indices ahead
// when the source is gather_prefetch_min_bytes (1 MiB) or more (core/prefetch.hpp: 64 elements
// ahead, or about 4 KiB of rows). Sources either side of that, index counts either side of the
// distance, single elements and rows of 3 and 100, negative indices among the prefetched ones,
// and an index out of range before and after the prefetched part: every element is the one the
// index names (x holds 0, 1, 2 ... in row-major order: exact in float32 and float64 below 2^24),
// errors as NumPy's.
TEST_CASE("take and view(x, idx) from sources beyond the caches: every element, every error") {
    auto check_gathers = [](auto zero, index_t n, index_t width, index_t m) {
        using T = decltype(zero);
        CAPTURE(n);
        CAPTURE(width);
        CAPTURE(m);
        const index_t w = std::max(width, index_t{1});
        tensor<T> x(width == 0 ? shape_t{n} : shape_t{n, width}, uninitialized);
        for (index_t i = 0; i < n * w; ++i)
            x.data()[i] = static_cast<T>(i);
        tensor<std::int64_t> idx(shape_t{m}, uninitialized);
        std::uint64_t state = 12345;
        for (index_t j = 0; j < m; ++j) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            const auto i = static_cast<std::int64_t>((state >> 33) % static_cast<std::uint64_t>(n));
            idx.data()[j] = j % 3 == 1 ? i - n : i; // every third one counted from the end
        }
        const tensor<T> by_take = take(x, idx, 0);
        const tensor<T> by_view = view(x, idx);
        const shape_t want = width == 0 ? shape_t{m} : shape_t{m, width};
        REQUIRE(by_take.shape() == want);
        REQUIRE(by_view.shape() == want);
        index_t wrong = 0;
        for (index_t j = 0; j < m; ++j) {
            const std::int64_t i = idx.data()[j] < 0 ? idx.data()[j] + n : idx.data()[j];
            for (index_t c = 0; c < w; ++c) {
                wrong += by_take.data()[j * w + c] != static_cast<T>(i * w + c);
                wrong += by_view.data()[j * w + c] != static_cast<T>(i * w + c);
            }
        }
        CHECK(wrong == 0);
        // Out of range early (its line asked for before it is checked) and last; the extremes
        // of int64 too (the prefetch's address arithmetic must not overflow: UBSan in CI).
        for (const index_t at : {index_t{3}, m - 1}) {
            CAPTURE(at);
            const std::int64_t kept = idx.data()[at];
            for (const std::int64_t bad : {std::int64_t{n},
                                           std::int64_t{-n - 1},
                                           std::numeric_limits<std::int64_t>::max(),
                                           std::numeric_limits<std::int64_t>::min()}) {
                idx.data()[at] = bad;
                CHECK_THROWS_AS(take(x, idx, 0), index_error);
                CHECK_THROWS_AS(view(x, idx), index_error);
            }
            idx.data()[at] = kept;
        }
    };
    const index_t mib_f32 = (index_t{1} << 20) / 4; // float32 elements in 1 MiB
    for (const index_t m : {index_t{10}, index_t{64}, index_t{65}, index_t{1000}}) {
        check_gathers(0.0f, mib_f32 - 1, 0, m); // one element short of 1 MiB
        check_gathers(0.0f, mib_f32, 0, m);
        check_gathers(0.0f, index_t{1} << 22, 0, m);
        check_gathers(0.0, mib_f32 / 2, 0, m); // float64: 1 MiB
        // Rows of 3 (64 rows ahead) and of 100 (10 rows ahead), either side of 1 MiB.
        check_gathers(0.0f, mib_f32 / 3, 3, m);
        check_gathers(0.0f, mib_f32 / 3 + 1, 3, m);
        check_gathers(0.0f, mib_f32 / 100 + 1, 100, m);
        check_gathers(0.0, index_t{1} << 14, 100, m);
    }
}

TEST_CASE("view(x, idx) = e: the last of repeated indices wins, += adds once, values may alias") {
    tensor<std::int32_t> a = {10, 20, 30, 40};
    view(a, tensor<std::int64_t>{0, 0, 3}) = tensor<std::int32_t>{1, 2, 3};
    CHECK(array_equal(a, tensor<std::int32_t>{2, 20, 30, 3}));
    view(a, tensor<std::int64_t>{1, 1, -1}) += 5;
    CHECK(array_equal(a, tensor<std::int32_t>{2, 25, 30, 8}));
    // The right side reads the destination: evaluated before the first store.
    view(a, tensor<std::int64_t>{0, 1}) = view(a, tensor<std::int64_t>{1, 0});
    CHECK(array_equal(a, tensor<std::int32_t>{25, 2, 30, 8}));
    view(a, a > 5) = flip(eval(view(a, a > 5)));
    CHECK(array_equal(a, tensor<std::int32_t>{8, 2, 30, 25}));
    // Through a strided view, and a mask over the leading axis of a 2-d tensor.
    tensor<double> t = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    view(view(t, all, slice(none, none, 2)), tensor<bool>{true, false, true}) = 0.0;
    CHECK(array_equal(t, tensor<double>{{0, 2, 0}, {4, 5, 6}, {0, 8, 0}}));
    view(t, tensor<bool>{false, true, false}) *= tensor<double>{1, 10, 100};
    CHECK(array_equal(t, tensor<double>{{0, 2, 0}, {4, 50, 600}, {0, 8, 0}}));
}

TEST_CASE("a throwing view(x, mask) or view(x, idx) assignment leaves the destination untouched") {
    tensor<std::int32_t> a = {{1, 2, 3}, {4, 5, 6}};
    const tensor<std::int32_t> before = a;
    const auto untouched = [&] {
        CHECK(array_equal(a, before));
    };
    // The bad index comes after good ones.
    CHECK_THROWS_AS((view(a, tensor<std::int64_t>{0, 1, 2}) = 9), index_error);
    untouched();
    CHECK_THROWS_AS((view(a, tensor<std::int64_t>{1, 0}, tensor<std::int64_t>{0, 3}) = 9),
                    index_error);
    untouched();
    CHECK_THROWS_AS((view(transpose(a), tensor<bool>{true, false}) = 9), index_error);
    untouched();
    // Values that do not fit, found after the positions are known.
    CHECK_THROWS_AS((view(a, a > 2) = tensor<std::int32_t>{7, 8}), value_error);
    untouched();
    CHECK_THROWS_AS((view(a, a > 2) = tensor<std::int32_t>{{7, 8}, {9, 10}}), value_error);
    untouched();
    CHECK_THROWS_AS((view(a, tensor<std::int64_t>{1, 0}, all) = tensor<std::int32_t>{7, 8}),
                    value_error);
    untouched();
    CHECK_THROWS_AS((view(a, tensor<std::int64_t>{1, 0}) += tensor<std::int32_t>{7, 8}),
                    broadcast_error);
    untouched();
    try {
        (void)view(a, tensor<bool>{true, false, true});
        FAIL("a mask of the wrong shape did not throw");
    } catch (const index_error& e) {
        CHECK(std::string(e.what())
              == "boolean index did not match indexed array along dimension 0; dimension is 2 "
                 "but corresponding boolean dimension is 3");
    }
}

TEST_CASE("split<N> and array_split<N> unpack as NumPy's tuples do") {
    // a, b = np.split(np.arange(6).reshape(2, 3) * 1.0, 2): rows; c, d, e = np.array_split(x, 3, 1)
    tensor<double> x = {{0, 1, 2}, {3, 4, 5}};
    auto [a, b] = split<2>(x);
    static_assert(std::is_same_v<decltype(a), tensor_view<double>>);
    CHECK(a.shape() == shape_t{1, 3});
    CHECK(array_equal(b, tensor<double>{{3, 4, 5}}));
    a(0, 1) = 10; // writable views of x, as NumPy's
    CHECK(x(0, 1) == 10);
    auto [c, d, e] = array_split<3>(x, 1);
    CHECK(array_equal(c, tensor<double>{{0}, {3}}));
    CHECK(array_equal(e, tensor<double>{{2}, {5}}));
    auto [lo, hi] = array_split<2>(tensor<int>{1, 2, 3}); // an rvalue: kept alive by the parts
    CHECK(lo.shape() == shape_t{2});
    CHECK(array_equal(hi, tensor<int>{3}));
    auto [p, q] = split<2>(x * 2.0, 0); // a lazy expression: lazy parts
    CHECK(array_equal(p, tensor<double>{{0, 20, 4}}));
    CHECK(array_equal(q, tensor<double>{{6, 8, 10}}));
    CHECK_THROWS_AS((void)split<4>(x, 1), value_error); // 3 columns into 4 equal parts
    CHECK_THROWS_AS((void)split<2>(x, 2), axis_error);
}

TEST_CASE("interp takes braced lists and std::vector sample points, as NumPy's lists") {
    // np.interp(2.5, [1, 2, 3], [3, 2, 0]) == 1.0; np.interp([0, 1.5, 4], [1, 2, 3], [3, 2, 0])
    // == [3., 2.5, 0.]; np.interp(0.5, [1, 2], [3, 2], left=-1.0) == -1.0
    CHECK(interp(2.5, {1, 2, 3}, {3, 2, 0}) == 1.0);
    const tensor<double> r = interp(tensor<double>{0, 1.5, 4}, {1, 2, 3}, {3, 2, 0});
    CHECK(array_equal(r, tensor<double>{3.0, 2.5, 0.0}));
    const std::vector<double> xp = {1, 2}, fp = {3, 2};
    CHECK(interp(0.5, xp, fp, -1.0) == -1.0);
    CHECK(interp(1.25, tensor<float>{1.f, 2.f}, {3.0, 2.0}) == 2.75); // mixed forms
    CHECK_THROWS_WITH_AS(interp(1.0, {1.0, 2.0}, {3.0}),
                         "interp: fp and xp are not of the same length (1 and 2)",
                         value_error);
    const tensor<double> two_d = {{1, 2}};
    CHECK_THROWS_AS(interp(1.0, two_d, {3.0, 2.0}), value_error);
}

TEST_CASE("append, as numpy.append: raveled without an axis, NumPy's types for Python values") {
    // np.append(np.int32([1, 2, 3]), 5) -> int64 [1 2 3 5]; np.append(np.float32([1.5]), 0.5)
    // -> float64; np.append(a, [4, 5]) -> int64; np.append(a, np.int8([4])) -> int32;
    // np.append(np.ones((2, 2)), [[7, 8]], axis=0) -> (3, 2); np.append(np.ones((2, 2), f4),
    // np.zeros(3, f4)) -> float32 (7,)
    const tensor<std::int32_t> a = {1, 2, 3};
    const auto a5 = append(a, 5);
    static_assert(std::is_same_v<value_type_t<decltype(a5)>, std::int64_t>);
    CHECK(array_equal(a5, tensor<std::int64_t>{1, 2, 3, 5}));
    const auto f = append(tensor<float>{1.5f}, 0.5);
    static_assert(std::is_same_v<value_type_t<decltype(f)>, double>);
    CHECK(array_equal(f, tensor<double>{1.5, 0.5}));
    CHECK(array_equal(append(a, {4, 5}), tensor<std::int64_t>{1, 2, 3, 4, 5}));
    const auto a8 = append(a, tensor<std::int8_t>{4});
    static_assert(std::is_same_v<value_type_t<decltype(a8)>, std::int32_t>);
    const tensor<double> o = ones<double>({2, 2});
    const tensor<double> row = {{7, 8}};
    CHECK(array_equal(append(o, row, 0), tensor<double>{{1, 1}, {1, 1}, {7, 8}}));
    const auto flat = append(ones<float>({2, 2}), zeros<float>({3}));
    CHECK(flat.shape() == shape_t{7});
    CHECK(array_equal(append(a * 2, view(a, slice(none, none, -1))),
                      tensor<std::int32_t>{2, 4, 6, 3, 2, 1}));
    const tensor<double> seven_eight = {7, 8};
    CHECK_THROWS_AS((void)append(o, seven_eight, 0), value_error); // ranks 2 and 1
    CHECK_THROWS_AS((void)append(o, row, 2), axis_error);
}

TEST_CASE("take with a braced list of indices, as numpy.take(a, [0, 2], axis)") {
    // np.take(np.arange(6.).reshape(2, 3), [2, 0], 1) -> [[2, 0], [5, 3]];
    // np.take(np.arange(6.).reshape(2, 3), [-1, 1]) -> [5, 1]
    const tensor<double> a = {{0, 1, 2}, {3, 4, 5}};
    CHECK(array_equal(take(a, {2, 0}, 1), tensor<double>{{2, 0}, {5, 3}}));
    CHECK(array_equal(take(a, {-1, 1}), tensor<double>{5, 1}));
    CHECK_THROWS_AS((void)take(a, {3}, 1), index_error);
}

TEST_CASE("put with braced lists of indices and values, as numpy.put(a, [0, 2], [-44, -55])") {
    // a = np.arange(5); np.put(a, [0, 2], [-44, -55]) -> [-44, 1, -55, 3, 4]; then
    // np.put(a, np.array([4]), [9.7]) -> a[4] == 9 (cast to int64); np.put(a, [1, 3], 0)
    tensor<std::int64_t> a = {0, 1, 2, 3, 4};
    put(a, {0, 2}, {-44, -55});
    CHECK(array_equal(a, tensor<std::int64_t>{-44, 1, -55, 3, 4}));
    put(a, tensor<int>{4}, {9.7});
    CHECK(a(4) == 9);
    put(a, {1, 3}, 0);
    CHECK(array_equal(a, tensor<std::int64_t>{-44, 0, -55, 0, 9}));
    CHECK_THROWS_AS(put(a, {5}, {1}), index_error);
    CHECK(array_equal(a, tensor<std::int64_t>{-44, 0, -55, 0, 9})); // untouched
}
