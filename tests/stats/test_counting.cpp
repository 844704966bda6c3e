// Counting, searching and summary statistics against NumPy 1.24: histogram,
// histogram_bin_edges, bincount, digitize, searchsorted, isin, unique, average, ptp, cov and
// corrcoef. tests/stats/counting_reference.py (the ctest fixture stats.counting_reference)
// draws several hundred random cases, runs NumPy on them and writes inputs and answers (or the
// error NumPy raises, as the fusor exception it maps to) to counting_expected.txt; this test
// reads them as data, one loop per function, dispatching on the dtypes at run time. Results are
// compared bit for bit (NaN equals NaN) unless the case carries a tolerance, which the script
// justifies where it writes it (sums whose order differs from NumPy's).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/algo/histogram.hpp>
#include <fusor/algo/searching.hpp>
#include <fusor/algo/statistics.hpp>
#include <fusor/fusor.hpp>

#include "../numpy_data.hpp"

using namespace fusor;

namespace {

using numpy_data::parse_value;
using numpy_data::show;

// ---- the data file ---------------------------------------------------------------------------

struct array_data {
    std::string dtype;
    shape_t shape;
    std::vector<std::string> values;
    // A generated 1-d array: k = (i * A + B) % M, value = k / D + C (float64), cast.
    bool generated = false;
    std::int64_t n = 0, A = 0, B = 0, M = 1;
    double D = 1, C = 0;
};

struct test_case {
    std::string func;
    int id = 0;
    std::map<std::string, std::vector<std::string>> params;
    std::map<std::string, array_data> in, out;
    std::map<std::string, double> tol;
    std::string error;

    bool has(const std::string& p) const { return params.count(p) != 0; }
    long long integer(const std::string& p, std::size_t k = 0) const {
        return std::stoll(params.at(p).at(k));
    }
    double real(const std::string& p, std::size_t k = 0) const {
        return std::strtod(params.at(p).at(k).c_str(), nullptr);
    }
    std::string name() const { return func + " case " + std::to_string(id); }
};

// An array as written (numpy_data::read_cases's), with its values as text.
array_data written(numpy_data::array_data&& w) {
    array_data a;
    a.dtype = std::move(w.dtype);
    a.shape = std::move(w.shape);
    a.values = std::move(w.values);
    return a;
}

// A case as the checks read it: the shared block (numpy_data::read_cases) plus this suite's own
// lines, `g <name> <dtype> <n> <A> <B> <M> <D> <C>` (a generated operand) and `t <name> <tol>`.
test_case from_block(numpy_data::case_block&& b) {
    test_case c;
    c.func = std::move(b.func);
    c.id = b.id;
    c.params = std::move(b.params);
    for (auto& [name, a] : b.operands)
        c.in[name] = written(std::move(a));
    for (auto& [name, a] : b.results)
        c.out[name] = written(std::move(a));
    for (const auto& [kind, text] : b.other_lines) {
        std::istringstream s(text);
        std::string name;
        if (kind == "g") {
            array_data a;
            std::string d, cc;
            s >> name >> a.dtype >> a.n >> a.A >> a.B >> a.M >> d >> cc;
            a.generated = true;
            a.D = std::strtod(d.c_str(), nullptr);
            a.C = std::strtod(cc.c_str(), nullptr);
            a.shape = shape_t{a.n};
            c.in[name] = a;
        } else if (kind == "t") {
            std::string v;
            s >> name >> v;
            c.tol[name] = std::strtod(v.c_str(), nullptr);
        }
    }
    c.error = std::move(b.error);
    return c;
}

const std::vector<test_case>& cases() {
    static const std::vector<test_case> all = [] {
        std::vector<test_case> out;
        std::ifstream in = numpy_data::open_cases("FUSOR_COUNTING_EXPECTED",
                                                  "tests/stats/counting_expected.txt",
                                                  "stats.counting_reference");
        for (numpy_data::case_block& b : numpy_data::read_cases(in))
            out.push_back(from_block(std::move(b)));
        return out;
    }();
    return all;
}

template <class T>
tensor<T> to_tensor(const array_data& a) {
    tensor<T> t(a.shape, uninitialized);
    if (a.generated) {
        for (std::int64_t i = 0; i < a.n; ++i) {
            const double k = static_cast<double>((i * a.A + a.B) % a.M);
            const double v = k / a.D + a.C;
            t.data()[i] = static_cast<T>(v);
        }
    } else {
        for (std::size_t i = 0; i < a.values.size(); ++i)
            t.data()[i] = parse_value<T>(a.values[i]);
    }
    return t;
}

// ---- comparing --------------------------------------------------------------------------------

template <class T>
bool same_value(T got, T want, double tol) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(want))
            return std::isnan(got);
        if (tol > 0 && std::isfinite(want))
            return std::abs(static_cast<double>(got) - static_cast<double>(want)) <= tol;
        return std::memcmp(&got, &want, sizeof(T)) == 0;
    } else {
        return got == want;
    }
}

// The result `got` against the expected array `name` of case `c`: dtype, shape, values.
template <class T>
void check_result(const test_case& c, const std::string& name, const tensor<T>& got) {
    INFO(c.name(), ": ", name);
    REQUIRE_MESSAGE(c.out.count(name) == 1, "no expected ", name);
    const array_data& want = c.out.at(name);
    CHECK(dtype_name<T>() == want.dtype);
    CHECK(to_string(got.shape()) == to_string(want.shape));
    if (dtype_name<T>() != want.dtype || !(got.shape() == want.shape))
        return;
    const auto tol_it = c.tol.find(name);
    const double tol = tol_it == c.tol.end() ? 0.0 : tol_it->second;
    const tensor<T> w = to_tensor<T>(want);
    for (index_t i = 0; i < got.size(); ++i)
        if (!same_value(got.data()[i], w.data()[i], tol)) {
            FAIL_CHECK("element ",
                       i,
                       ": got ",
                       show(got.data()[i]),
                       ", NumPy ",
                       show(w.data()[i]),
                       " (tolerance ",
                       tol,
                       ")");
            return;
        }
}

// Runs `f`; when the case expects an error, checks that `f` throws exactly that fusor type.
// Compiled once (numpy_data::erased_call), not once per lambda.
void run_erased(const test_case& c, numpy_data::erased_call f) {
    INFO(c.name());
    if (c.error.empty()) {
        try {
            f();
        } catch (const std::exception& e) {
            FAIL_CHECK(c.name(), " threw \"", std::string(e.what()), "\" where NumPy did not");
        }
    } else if (c.error == "value_error") {
        CHECK_THROWS_AS(f(), value_error);
    } else if (c.error == "index_error") {
        CHECK_THROWS_AS(f(), index_error);
    } else if (c.error == "axis_error") {
        CHECK_THROWS_AS(f(), axis_error);
    } else {
        FAIL_CHECK("unknown error ", c.error);
    }
}

template <class F>
void run_case(const test_case& c, F&& f) {
    run_erased(c, numpy_data::erase(f));
}

// ---- dtype dispatch -----------------------------------------------------------------------------

using numpy_data::type_tag;

// Calls `f(type_tag<T>{})` for the one T among Ts whose NumPy name is `name`.
template <class... Ts, class F>
void with_dtype(const std::string& name, F&& f) {
    numpy_data::dispatch<Ts...>(name, std::forward<F>(f));
}
#define FUSOR_ALL_DTYPES float, double, std::int32_t, std::int64_t, std::uint8_t, bool

std::vector<const test_case*> cases_of(const std::string& func) {
    std::vector<const test_case*> out;
    for (const auto& c : cases())
        if (c.func == func)
            out.push_back(&c);
    return out;
}

template <class H, class B>
void check_histogram(const test_case& c, const histogram_result<H, B>& r) {
    check_result(c, "hist", r.hist);
    check_result(c, "edges", r.edges);
}

} // namespace

TEST_CASE("the NumPy reference holds at least 300 cases") {
    CHECK(cases().size() >= 300);
}

// ---- histogram
// ------------------------------------------------------------------------------------

namespace {
// histogram(x, bins, [range], [density], [weights(w)]) for x of type T, w of type W (void: none).
template <class T, class W, class X>
void histogram_count_form(const test_case& c, const X& x) {
    const index_t bins = c.integer("bins");
    const bool dense = c.has("density");
    const std::optional<range> r =
        c.has("range") ? std::optional<range>(range{c.real("range", 0), c.real("range", 1)})
                       : std::nullopt;
    const auto call = [&](const auto&... opts) {
        if (dense) {
            if (r)
                check_histogram(c, histogram(x, bins, *r, density, opts...));
            else
                check_histogram(c, histogram(x, bins, opts..., density));
        } else {
            if (r)
                check_histogram(c, histogram(x, bins, opts..., *r));
            else
                check_histogram(c, histogram(x, bins, opts...));
        }
    };
    run_case(c, [&] {
        if constexpr (std::is_void_v<W>) {
            call();
        } else {
            const tensor<W> w = to_tensor<W>(c.in.at("w"));
            call(weights(w));
        }
    });
}

template <class T, class B, class W>
void histogram_edges_form(const test_case& c, const tensor<T>& x) {
    const tensor<B> edges = to_tensor<B>(c.in.at("edges"));
    const bool dense = c.has("density");
    run_case(c, [&] {
        if constexpr (std::is_void_v<W>) {
            if (dense)
                check_histogram(c, histogram(x, edges, density));
            else
                check_histogram(c, histogram(x, edges));
        } else {
            const tensor<W> w = to_tensor<W>(c.in.at("w"));
            if (dense)
                check_histogram(c, histogram(x, edges, density, weights(w)));
            else
                check_histogram(c, histogram(x, edges, weights(w)));
        }
    });
}
} // namespace

TEST_CASE("histogram with a number of bins, as numpy.histogram") {
    int n = 0;
    for (const test_case* c : cases_of("histogram")) {
        if (c->in.count("edges"))
            continue;
        ++n;
        with_dtype<FUSOR_ALL_DTYPES>(c->in.at("x").dtype, [&](auto tx) {
            using T = typename decltype(tx)::type;
            const tensor<T> x = to_tensor<T>(c->in.at("x"));
            if (!c->in.count("w"))
                histogram_count_form<T, void>(*c, x);
            else
                with_dtype<double, float, std::int64_t, bool>(c->in.at("w").dtype, [&](auto tw) {
                    histogram_count_form<T, typename decltype(tw)::type>(*c, x);
                });
            // The same values through an element-wise expression (evaluated a chunk at a time
            // when larger than one chunk): the same answers.
            if constexpr (std::is_floating_point_v<T>) {
                if (!c->in.count("w"))
                    histogram_count_form<T, void>(*c, x * T(1));
                else if (c->in.at("w").dtype == "float64")
                    histogram_count_form<T, double>(*c, x * T(1));
            }
        });
    }
    CHECK(n > 80);
}

TEST_CASE("histogram with explicit edges, as numpy.histogram") {
    int n = 0;
    for (const test_case* c : cases_of("histogram")) {
        if (!c->in.count("edges"))
            continue;
        ++n;
        with_dtype<FUSOR_ALL_DTYPES>(c->in.at("x").dtype, [&](auto tx) {
            using T = typename decltype(tx)::type;
            const tensor<T> x = to_tensor<T>(c->in.at("x"));
            with_dtype<double, float, std::int64_t>(c->in.at("edges").dtype, [&](auto tb) {
                using B = typename decltype(tb)::type;
                if (!c->in.count("w"))
                    histogram_edges_form<T, B, void>(*c, x);
                else
                    with_dtype<double, float, std::int64_t>(c->in.at("w").dtype, [&](auto tw) {
                        histogram_edges_form<T, B, typename decltype(tw)::type>(*c, x);
                    });
            });
        });
    }
    CHECK(n > 40);
}

TEST_CASE("histogram_bin_edges, as numpy.histogram_bin_edges") {
    for (const test_case* c : cases_of("histogram_bin_edges"))
        with_dtype<FUSOR_ALL_DTYPES>(c->in.at("x").dtype, [&](auto tx) {
            using T = typename decltype(tx)::type;
            const tensor<T> x = to_tensor<T>(c->in.at("x"));
            const index_t bins = c->integer("bins");
            run_case(*c, [&] {
                if (c->has("range"))
                    check_result(*c,
                                 "edges",
                                 histogram_bin_edges(
                                     x, bins, range{c->real("range", 0), c->real("range", 1)}));
                else
                    check_result(*c, "edges", histogram_bin_edges(x, bins));
            });
        });
}

TEST_CASE("histogram reads an expression without storing it") {
    // Larger than a chunk, rank 2 with an inner extent that splits chunks inside rows: the
    // expression's histogram equals the histogram of its evaluated values, weighted or not.
    tensor<float> a(shape_t{300, 1000}, uninitialized), b(shape_t{300, 1000}, uninitialized);
    for (index_t i = 0; i < a.size(); ++i) {
        a.data()[i] = static_cast<float>((i * 7919) % 1013) / 101.0f;
        b.data()[i] = static_cast<float>((i * 104729) % 997) / 331.0f - 1.0f;
    }
    const tensor<float> e = a * b + 0.5f;
    const auto lazy = histogram(a * b + 0.5f, 64, range{-5, 5});
    const auto eager = histogram(e, 64, range{-5, 5});
    CHECK(eval(all(lazy.hist == eager.hist)).item());
    CHECK(eval(all(lazy.edges == eager.edges)).item());
    const auto lazy_w = histogram(a * b + 0.5f, 50, weights(b * 2.0f));
    const tensor<float> w = b * 2.0f;
    const auto eager_w = histogram(e, 50, weights(w));
    CHECK(eval(all(lazy_w.hist == eager_w.hist)).item());
    // A transposed (strided) view: the same counts (order does not matter to counts).
    const auto strided = histogram(transpose(e), 64, range{-5, 5});
    CHECK(eval(all(strided.hist == eager.hist)).item());
    // An expression holding a reduction is evaluated once, whole.
    const auto centred = histogram(e - mean(e), 20);
    const tensor<float> ce = e - mean(e);
    CHECK(eval(all(centred.hist == histogram(ce, 20).hist)).item());
}

// ---- bincount, digitize, searchsorted
// ------------------------------------------------------------

TEST_CASE("bincount, as numpy.bincount") {
    for (const test_case* c : cases_of("bincount"))
        with_dtype<std::int32_t, std::int64_t, std::uint8_t, bool>(
            c->in.at("x").dtype, [&](auto tx) {
                using T = typename decltype(tx)::type;
                const tensor<T> x = to_tensor<T>(c->in.at("x"));
                const index_t minlength = c->integer("minlength");
                if (!c->in.count("w")) {
                    run_case(*c, [&] { check_result(*c, "out", bincount(x, minlength)); });
                    return;
                }
                with_dtype<double, float, std::int64_t, bool>(c->in.at("w").dtype, [&](auto tw) {
                    using W = typename decltype(tw)::type;
                    const tensor<W> w = to_tensor<W>(c->in.at("w"));
                    run_case(*c, [&] { check_result(*c, "out", bincount(x, w, minlength)); });
                });
            });
}

#define FUSOR_SEARCH_DTYPES float, double, std::int32_t, std::int64_t, std::uint8_t

TEST_CASE("digitize, as numpy.digitize") {
    for (const test_case* c : cases_of("digitize"))
        with_dtype<FUSOR_SEARCH_DTYPES>(c->in.at("x").dtype, [&](auto tx) {
            using X = typename decltype(tx)::type;
            const tensor<X> x = to_tensor<X>(c->in.at("x"));
            with_dtype<double, float, std::int64_t>(c->in.at("bins").dtype, [&](auto tb) {
                using B = typename decltype(tb)::type;
                const tensor<B> bins = to_tensor<B>(c->in.at("bins"));
                const bool right = c->integer("right") != 0;
                run_case(*c, [&] { check_result(*c, "out", digitize(x, bins, right)); });
            });
        });
}

TEST_CASE("searchsorted, as numpy.searchsorted") {
    for (const test_case* c : cases_of("searchsorted"))
        with_dtype<FUSOR_SEARCH_DTYPES>(c->in.at("a").dtype, [&](auto ta) {
            using A = typename decltype(ta)::type;
            const tensor<A> a = to_tensor<A>(c->in.at("a"));
            with_dtype<FUSOR_SEARCH_DTYPES>(c->in.at("v").dtype, [&](auto tv) {
                using V = typename decltype(tv)::type;
                const tensor<V> v = to_tensor<V>(c->in.at("v"));
                const side s = c->params.at("side").at(0) == "left" ? side::left : side::right;
                if (!c->in.count("sorter")) {
                    run_case(*c, [&] { check_result(*c, "out", searchsorted(a, v, s)); });
                    return;
                }
                with_dtype<std::int64_t, std::int32_t>(c->in.at("sorter").dtype, [&](auto ts) {
                    using S = typename decltype(ts)::type;
                    const tensor<S> sorter = to_tensor<S>(c->in.at("sorter"));
                    run_case(*c, [&] { check_result(*c, "out", searchsorted(a, v, s, sorter)); });
                });
            });
        });
}

// ---- isin, unique -------------------------------------------------------------------------------

TEST_CASE("isin, as numpy.isin") {
    for (const test_case* c : cases_of("isin"))
        with_dtype<FUSOR_ALL_DTYPES>(c->in.at("element").dtype, [&](auto te) {
            using E = typename decltype(te)::type;
            const tensor<E> element = to_tensor<E>(c->in.at("element"));
            with_dtype<FUSOR_ALL_DTYPES>(c->in.at("test").dtype, [&](auto tt) {
                using T = typename decltype(tt)::type;
                const tensor<T> test = to_tensor<T>(c->in.at("test"));
                const bool invert = c->integer("invert") != 0;
                run_case(*c, [&] { check_result(*c, "out", isin(element, test, invert)); });
            });
        });
}

namespace {
// unique(x, [axis], tags...) with the tags the case's flags name, checked part by part.
template <class T, class... Tags>
void unique_with(const test_case& c, const tensor<T>& x, Tags... tags) {
    run_case(c, [&] {
        const auto check = [&](const auto& r) {
            using R = std::remove_cvref_t<decltype(r)>;
            if constexpr (std::is_same_v<R, tensor<T>>) {
                check_result(c, "values", r);
            } else {
                check_result(c, "values", r.values);
                if constexpr (requires { r.indices; })
                    check_result(c, "indices", r.indices);
                if constexpr (requires { r.inverse; })
                    check_result(c, "inverse", r.inverse);
                if constexpr (requires { r.counts; })
                    check_result(c, "counts", r.counts);
            }
        };
        if (c.has("axis"))
            check(unique(x, c.integer("axis"), tags...));
        else
            check(unique(x, tags...));
    });
}
} // namespace

TEST_CASE("unique, as numpy.unique") {
    for (const test_case* c : cases_of("unique"))
        with_dtype<FUSOR_ALL_DTYPES>(c->in.at("x").dtype, [&](auto tx) {
            using T = typename decltype(tx)::type;
            const tensor<T> x = to_tensor<T>(c->in.at("x"));
            const int flags = static_cast<int>(c->integer("flags", 0) + 2 * c->integer("flags", 1)
                                               + 4 * c->integer("flags", 2));
            switch (flags) {
            case 0:
                unique_with(*c, x);
                break;
            case 1:
                unique_with(*c, x, return_index);
                break;
            case 2:
                unique_with(*c, x, return_inverse);
                break;
            case 3:
                unique_with(*c, x, return_inverse, return_index);
                break;
            case 4:
                unique_with(*c, x, return_counts);
                break;
            case 5:
                unique_with(*c, x, return_counts, return_index);
                break;
            case 6:
                unique_with(*c, x, return_inverse, return_counts);
                break;
            default:
                unique_with(*c, x, return_index, return_inverse, return_counts);
                break;
            }
        });
}

TEST_CASE("unique's parts bind by structured bindings, in NumPy's order") {
    const tensor<int> x = {3, 1, 3, 2, 1, 3};
    auto [values, counts] = unique(x, return_counts);
    CHECK(to_string(values.shape()) == "(3,)");
    CHECK(counts(0) == 2);
    CHECK(counts(2) == 3);
    auto [v, first, inverse] = unique(x, return_inverse, return_index);
    CHECK(first(0) == 1);
    CHECK(inverse(0) == 2);
    CHECK(v(inverse(3)) == 2);
    static_assert(std::tuple_size_v<decltype(unique(x, return_counts))> == 2);
}

// ---- average, ptp, cov, corrcoef
// -------------------------------------------------------------------

namespace {
template <class T, class W>
void average_with(const test_case& c, const tensor<T>& x) {
    const bool with_sum = c.has("returned");
    const bool keep = c.has("keepdims");
    const auto check = [&](const auto& r) {
        if constexpr (requires { r.sum_of_weights; }) {
            check_result(c, "average", r.average);
            check_result(c, "sum_of_weights", r.sum_of_weights);
        } else {
            check_result(c, "average", r);
        }
    };
    // The tail of options after the axis: weights, returned, keepdims, as the case says.
    const auto tail = [&](const auto& call) {
        if constexpr (std::is_void_v<W>) {
            if (with_sum)
                keep ? call(returned, keepdims) : call(returned);
            else
                keep ? call(keepdims) : call();
        } else {
            const tensor<W> w = to_tensor<W>(c.in.at("w"));
            if (with_sum)
                keep ? call(w, returned, keepdims) : call(w, returned);
            else
                keep ? call(w, keepdims) : call(w);
        }
    };
    run_case(c, [&] {
        if (c.has("axis"))
            tail([&](const auto&... o) { check(average(x, c.integer("axis"), o...)); });
        else if (c.has("axes"))
            tail([&](const auto&... o) {
                check(average(x, shape_t{c.integer("axes", 0), c.integer("axes", 1)}, o...));
            });
        else
            tail([&](const auto&... o) { check(average(x, o...)); });
    });
}
} // namespace

TEST_CASE("average, as numpy.average") {
    for (const test_case* c : cases_of("average"))
        with_dtype<FUSOR_ALL_DTYPES>(c->in.at("x").dtype, [&](auto tx) {
            using T = typename decltype(tx)::type;
            const tensor<T> x = to_tensor<T>(c->in.at("x"));
            if (!c->in.count("w"))
                average_with<T, void>(*c, x);
            else
                with_dtype<double, float, std::int32_t, bool>(c->in.at("w").dtype, [&](auto tw) {
                    average_with<T, typename decltype(tw)::type>(*c, x);
                });
        });
}

TEST_CASE("ptp, as numpy.ptp") {
    for (const test_case* c : cases_of("ptp"))
        with_dtype<FUSOR_SEARCH_DTYPES>(c->in.at("x").dtype, [&](auto tx) {
            using T = typename decltype(tx)::type;
            const tensor<T> x = to_tensor<T>(c->in.at("x"));
            const bool keep = c->integer("keepdims") != 0;
            run_case(*c, [&] {
                if (c->has("axis")) {
                    const auto a = c->integer("axis");
                    check_result(*c, "out", keep ? ptp(x, a, keepdims) : ptp(x, a));
                } else if (c->has("axes")) {
                    const shape_t axes{c->integer("axes", 0), c->integer("axes", 1)};
                    check_result(*c, "out", keep ? ptp(x, axes, keepdims) : ptp(x, axes));
                } else {
                    check_result(*c, "out", keep ? ptp(x, keepdims) : ptp(x));
                }
            });
        });
}

TEST_CASE("cov and corrcoef, as numpy.cov and numpy.corrcoef") {
    for (const std::string func : {"cov", "corrcoef"})
        for (const test_case* c : cases_of(func))
            with_dtype<double, float, std::int32_t, std::uint8_t, bool>(
                c->in.at("x").dtype, [&](auto tx) {
                    using T = typename decltype(tx)::type;
                    const tensor<T> x = to_tensor<T>(c->in.at("x"));
                    const bool rowvar = c->integer("rowvar") != 0;
                    const bool bias = c->has("bias") && c->integer("bias") != 0;
                    const std::optional<index_t> ddof =
                        c->has("ddof") ? std::optional<index_t>(c->integer("ddof")) : std::nullopt;
                    run_case(*c, [&] {
                        if (!c->in.count("y")) {
                            check_result(*c,
                                         "out",
                                         func == "cov" ? cov(x, rowvar, bias, ddof)
                                                       : corrcoef(x, rowvar));
                        } else {
                            const tensor<T> y = to_tensor<T>(c->in.at("y"));
                            check_result(*c,
                                         "out",
                                         func == "cov" ? cov(x, y, rowvar, bias, ddof)
                                                       : corrcoef(x, y, rowvar));
                        }
                    });
                });
}

TEST_CASE("searchsorted, isin and digitize take a C++ scalar for a 0-d operand") {
    // numpy.searchsorted(i, 1.5) == 2 and np.digitize(1.5, [0, 1, 2]) == 2 (int64 scalars),
    // np.isin(2, i) == array(True) (0-d): here 0-d tensors of the same types.
    const tensor<std::int32_t> i = {0, 1, 2};
    const tensor<std::int64_t> left = searchsorted(i, 1);
    CHECK(left.shape() == shape_t{});
    CHECK(left.item() == 1);
    CHECK(searchsorted(i, 1, side::right).item() == 2);
    CHECK(searchsorted(i, 1.5).item() == 2); // a float scalar is not truncated to int32
    CHECK(searchsorted(i, -7).item() == 0);
    CHECK(searchsorted(tensor<double>{3.0, 1.0, 2.0}, 2.5, side::left, tensor<int>{1, 2, 0}).item()
          == 2);
    const tensor<bool> in = isin(2, i);
    CHECK(in.shape() == shape_t{});
    CHECK(in.item());
    CHECK(!isin(7, i).item());
    CHECK(!isin(2, i, true).item());
    CHECK(isin(1.5, i).item() == false);
    const tensor<bool> each = isin(i, 2);
    CHECK(eval(all(each == tensor<bool>{false, false, true})).item());
    const tensor<std::int64_t> bin = digitize(1.5, tensor<double>{0.0, 1.0, 2.0});
    CHECK(bin.shape() == shape_t{});
    CHECK(bin.item() == 2);
    CHECK(digitize(1.0, tensor<double>{0.0, 1.0, 2.0}, true).item() == 1);
    CHECK_THROWS_AS((void)searchsorted(tensor<std::int8_t>{1, 2}, 1000), value_error);
}

TEST_CASE("braced lists and std::vector edges, as NumPy's lists") {
    // NumPy 1.24 on x = np.array([.05, .1, .3, .5, .7, 1.2], np.float32): a list of Python floats
    // is float64, so 0.1 is below float32's 0.1 (0.10000000149...) and the compares are float64.
    const tensor<float> x = {0.05f, 0.1f, 0.3f, 0.5f, 0.7f, 1.2f};
    auto same = [](const tensor<std::int64_t>& t, std::vector<std::int64_t> want) {
        return std::vector<std::int64_t>(t.begin(), t.end()) == want;
    };
    CHECK(same(searchsorted(x, {0.1, 0.6}), {1, 4})); // np.searchsorted(x, [.1, .6])
    CHECK(same(searchsorted(x, {0.1, 0.6}, side::right), {1, 4}));
    CHECK(same(searchsorted(x, {0.1f, 0.6f}), {1, 4})); // float32 list: 0.1f itself
    CHECK(same(searchsorted(x, {0.1f}, side::right), {2}));
    const tensor<std::int64_t> xi = {1, 3, 5, 7};
    CHECK(same(searchsorted(xi, {3, 6}), {1, 3}));
    CHECK(same(searchsorted(xi, {3, 6}, side::left, tensor<int>{0, 1, 2, 3}), {1, 3}));
    CHECK(same(digitize(x, {0.1, 0.5, 1.0}), {0, 1, 1, 2, 2, 3}));
    CHECK(same(digitize(x, {0.1, 0.5, 1.0}, true), {0, 1, 1, 1, 2, 3}));
    const tensor<bool> in = isin(xi, {3, 4, 7});
    CHECK(std::vector<bool>(in.begin(), in.end()) == std::vector<bool>{false, true, false, true});
    // np.histogram(x, [0, 1, 2]): int edges stay int64.
    const auto [h, e] = histogram(x, {0, 1, 2});
    static_assert(std::is_same_v<value_type_t<decltype(e)>, std::int64_t>);
    CHECK(same(h, {5, 1}));
    CHECK(same(e, {0, 1, 2}));
    const std::vector<double> edges = {0.0, 0.25, 0.5, 1.0};
    const auto [h2, e2] = histogram(x, edges);
    CHECK(same(h2, {2, 1, 2}));
    CHECK(std::vector<double>(e2.begin(), e2.end()) == edges);
    const tensor<double> be = histogram_bin_edges(x, {0.0, 0.5});
    CHECK(std::vector<double>(be.begin(), be.end()) == std::vector<double>{0.0, 0.5});
    CHECK(histogram_bin_edges(x, edges).shape() == shape_t{4});
    CHECK_THROWS_AS(histogram(x, {1.0, 0.0}), value_error); // decreasing edges
}

TEST_CASE("corrcoef names itself in its errors") {
    const tensor<double> a = {1, 2, 3}, b = {1, 2};
    CHECK_THROWS_WITH_AS(corrcoef(a, b),
                         "corrcoef: m and y have different numbers of observations (3 and 2)",
                         value_error);
    CHECK_THROWS_WITH_AS(
        cov(a, b), "cov: m and y have different numbers of observations (3 and 2)", value_error);
    CHECK_THROWS_AS(corrcoef(tensor<double>(shape_t{2, 2, 2})), value_error);
}
