// nonzero, argwhere, flatnonzero and isin on inputs large enough for their fast loops: the
// positions of a mask's true elements stored without a branch in chunks of 1,024 (a chunk that
// could run past the count falls back to a branch per element), bytes skipped eight at a time,
// and isin of integers by a table (NumPy's kind='table') or by binary search when the range is
// too wide. Every result is compared with a plain loop written here (NumPy's rules; the NumPy
// cases in tests/toolbox/ cover small shapes and every dtype).
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace {
using fusor::index_t;
using fusor::shape_t;

// The coordinates of the true elements of `values` (row-major over `shape`), as a list of
// rows of coordinates: the reference, by division.
template <class T>
std::vector<std::vector<std::int64_t>> true_coordinates(const std::vector<T>& values,
                                                        const shape_t& shape) {
    std::vector<std::vector<std::int64_t>> out;
    for (std::size_t k = 0; k < values.size(); ++k) {
        if (!(values[k] != T(0)))
            continue;
        std::vector<std::int64_t> c(shape.size());
        auto rest = static_cast<std::int64_t>(k);
        for (std::size_t d = shape.size(); d-- > 0;) {
            c[d] = rest % shape[d];
            rest /= shape[d];
        }
        out.push_back(c);
    }
    return out;
}

// Checks nonzero, argwhere and flatnonzero of `mask` (any expression of shape `shape`, whose
// values row-major are `values`).
template <class M, class T>
void check_positions(const M& mask, const std::vector<T>& values, const shape_t& shape) {
    const auto want = true_coordinates(values, shape);
    const auto count = static_cast<index_t>(want.size());
    const auto rank = static_cast<index_t>(shape.size());
    const auto nz = fusor::nonzero(mask);
    REQUIRE(nz.size() == shape.size());
    const auto aw = fusor::argwhere(mask);
    REQUIRE(aw.shape() == shape_t{count, rank});
    const auto flat = fusor::flatnonzero(mask);
    REQUIRE(flat.shape() == shape_t{count});
    int wrong = 0;
    for (index_t n = 0; n < count; ++n) {
        std::int64_t flat_want = 0;
        for (index_t d = 0; d < rank; ++d) {
            const std::int64_t c = want[static_cast<std::size_t>(n)][static_cast<std::size_t>(d)];
            flat_want = flat_want * shape[static_cast<std::size_t>(d)] + c;
            wrong += nz[static_cast<std::size_t>(d)].shape() != shape_t{count}
                     || nz[static_cast<std::size_t>(d)].data()[n] != c;
            wrong += aw.data()[n * rank + d] != c;
        }
        wrong += flat.data()[n] != flat_want;
    }
    CHECK(wrong == 0);
    // Nothing stored past the results: a result of more elements than a tensor holds inline
    // is followed by zeroed bytes (core/tail_slack.hpp), still zero.
    constexpr index_t held_inline = fusor::tensor<std::int64_t>::inline_capacity;
    if (count > held_inline) {
        CHECK(flat.data()[count] == 0);
        CHECK(nz.back().data()[count] == 0);
    }
    if (count * rank > held_inline)
        CHECK(aw.data()[count * rank] == 0);
}

// Mask values of one density pattern: 0 all false, 1 all true, 2 random half, 3 one in a
// hundred, 4 true only in the last 1,500 elements (the chunks that may run past the count), 5
// true only at the last element, 6 runs of eight trues and eight falses (whole words), 7 four
// trues at the start (results of four elements are held inline in the tensor, with no room
// after them).
template <class T>
std::vector<T> pattern(std::size_t size, int kind, std::mt19937& g) {
    std::vector<T> v(size, T(0));
    std::uniform_int_distribution<int> d(0, 99);
    for (std::size_t k = 0; k < size; ++k) {
        bool on = false;
        switch (kind) {
        case 1:
            on = true;
            break;
        case 2:
            on = d(g) < 50;
            break;
        case 3:
            on = d(g) == 0;
            break;
        case 4:
            on = k + 1500 >= size && d(g) < 60;
            break;
        case 5:
            on = k + 1 == size;
            break;
        case 6:
            on = (k / 8) % 2 == 0;
            break;
        default:
            break;
        }
        if (on)
            v[k] = T(1 + d(g) % 3); // values other than 1 are true too
    }
    return v;
}

template <class T>
fusor::tensor<T> tensor_of(const std::vector<T>& v, const shape_t& shape) {
    fusor::tensor<T> t(shape, fusor::uninitialized);
    for (std::size_t k = 0; k < v.size(); ++k)
        t.data()[k] = v[k];
    return t;
}
} // namespace

TEST_CASE_TEMPLATE("nonzero, argwhere, flatnonzero: every true element, in order, any length",
                   T,
                   bool,
                   std::uint8_t,
                   std::int32_t,
                   float,
                   double) {
    std::mt19937 g(7);
    const std::vector<shape_t> shapes{{5000},
                                      {1024},
                                      {1025},
                                      {3, 1500},
                                      {2, 3, 700},
                                      {7, 2048},
                                      {1, 4097},
                                      {4000, 1},
                                      {2, 2, 2, 300}};
    for (const shape_t& shape : shapes) {
        const auto size = static_cast<std::size_t>(fusor::shape_size(shape));
        for (int kind = 0; kind <= 7; ++kind) {
            CAPTURE(fusor::to_string(shape));
            CAPTURE(kind);
            const std::vector<T> v = pattern<T>(size, kind, g);
            const fusor::tensor<T> m = tensor_of(v, shape);
            check_positions(m, v, shape); // a tensor, read in place
            if constexpr (!std::is_same_v<T, bool>) {
                // An expression (evaluated once into a bool buffer).
                std::vector<bool> as_bool(v.begin(), v.end());
                std::vector<std::uint8_t> bytes(as_bool.begin(), as_bool.end());
                check_positions(m != T(0), bytes, shape);
            }
        }
    }
}

TEST_CASE("nonzero of NaN, -0.0 and views that are not dense") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> v(3000, -0.0); // -0.0 is false, NaN true, as NumPy
    for (std::size_t k = 0; k < v.size(); k += 7)
        v[k] = nan;
    const fusor::tensor<double> m = tensor_of(v, shape_t{3, 1000});
    check_positions(m, v, shape_t{3, 1000});
    // The transpose: (1000, 3), read row-major through the view.
    std::vector<double> t(3000);
    for (std::size_t i = 0; i < 1000; ++i)
        for (std::size_t j = 0; j < 3; ++j)
            t[i * 3 + j] = v[j * 1000 + i];
    check_positions(fusor::transpose(m), t, shape_t{1000, 3});
    // 0-d masks count as shape (1,) for nonzero and flatnonzero; argwhere gives (count, 0).
    const auto one = fusor::full<float>({}, 2.0f);
    CHECK(fusor::nonzero(one)[0].shape() == shape_t{1});
    CHECK(fusor::flatnonzero(one).shape() == shape_t{1});
    CHECK(fusor::argwhere(one).shape() == shape_t{1, 0});
    CHECK(fusor::argwhere(fusor::full<float>({}, 0.0f)).shape() == shape_t{0, 0});
    CHECK(fusor::nonzero(fusor::zeros<float>({0, 4}))[1].shape() == shape_t{0});
}

namespace {
// An integer as std::cmp_equal takes it (bool as 0 or 1).
template <class T>
auto as_integer(T x) {
    if constexpr (std::is_same_v<T, bool>)
        return static_cast<int>(x);
    else
        return x;
}

// isin by a scan of every test element (exact integer comparison, std::cmp_equal).
template <class A, class B>
std::vector<bool> isin_reference(const std::vector<A>& e, const std::vector<B>& t, bool invert) {
    std::vector<bool> out(e.size());
    for (std::size_t k = 0; k < e.size(); ++k) {
        bool found = false;
        for (const B x : t)
            found = found || std::cmp_equal(as_integer<A>(e[k]), as_integer(x));
        out[k] = found != invert;
    }
    return out;
}

template <class A, class B>
void check_isin(const std::vector<A>& e, const std::vector<B>& t) {
    const auto et = tensor_of(e, shape_t{static_cast<index_t>(e.size())});
    const auto tt = tensor_of(t, shape_t{static_cast<index_t>(t.size())});
    for (const bool invert : {false, true}) {
        const std::vector<bool> want = isin_reference(e, t, invert);
        const fusor::tensor<bool> got = fusor::isin(et, tt, invert);
        REQUIRE(got.shape() == et.shape());
        int wrong = 0;
        for (std::size_t k = 0; k < e.size(); ++k)
            wrong += got.data()[k] != want[k];
        CHECK(wrong == 0);
    }
}

// `n` elements drawn around `centre` (±spread, as the type allows) plus both of A's extremes.
template <class A>
std::vector<A> around(A centre, int spread, std::size_t n, std::mt19937& g) {
    std::uniform_int_distribution<int> d(-spread, spread);
    std::vector<A> v{std::numeric_limits<A>::min(), std::numeric_limits<A>::max()};
    while (v.size() < n) {
        const int step = d(g);
        A x = centre;
        if (step < 0 && centre >= std::numeric_limits<A>::min() + A(-step))
            x = A(centre - A(-step));
        else if (step > 0 && centre <= std::numeric_limits<A>::max() - A(step))
            x = A(centre + A(step));
        v.push_back(x);
    }
    return v;
}
} // namespace

TEST_CASE("isin of integers: by a table for a narrow range, by search for a wide one") {
    std::mt19937 g(11);
    using i64 = std::int64_t;
    using u64 = std::uint64_t;
    constexpr i64 i64_max = std::numeric_limits<i64>::max();
    constexpr u64 u64_max = std::numeric_limits<u64>::max();
    // Narrow test ranges (the table) at zero and near each type's limits, elements of the same
    // and of other widths and signs around them.
    check_isin(around<i64>(0, 40, 3000, g), std::vector<i64>{-20, -3, 0, 5, 19, 20});
    check_isin(around<i64>(i64_max - 10, 30, 3000, g), std::vector<i64>{i64_max, i64_max - 7});
    check_isin(around<u64>(u64_max - 10, 30, 3000, g), std::vector<i64>{i64_max, 3, 0});
    check_isin(around<u64>(u64_max - 10, 30, 3000, g), std::vector<u64>{u64_max, u64_max - 4});
    check_isin(around<i64>(-5, 30, 3000, g), std::vector<u64>{0, 1, 7, 24});
    check_isin(around<std::int8_t>(0, 120, 3000, g), std::vector<std::uint8_t>{0, 127, 128, 255});
    check_isin(around<std::uint8_t>(128, 120, 3000, g), std::vector<std::int8_t>{-128, -1, 0, 127});
    check_isin(around<std::int32_t>(-1000, 500, 3000, g), std::vector<bool>{true, false});
    check_isin(std::vector<bool>{true, false, true}, std::vector<std::int32_t>{1, 2});
    check_isin(std::vector<bool>{true, false, true}, std::vector<std::int32_t>{0, -1});
    check_isin(around<std::int16_t>(100, 50, 3000, g), std::vector<std::int16_t>{100});
    // Wide ranges (binary search): the extremes themselves in the tests.
    check_isin(around<i64>(0, 40, 3000, g),
               std::vector<i64>{std::numeric_limits<i64>::min(), 3, i64_max});
    check_isin(around<u64>(5, 40, 3000, g), std::vector<i64>{-1, 5, i64_max});
    check_isin(around<i64>(0, 40, 300, g), std::vector<i64>{0, 100000});
    // No test elements: nothing is in them.
    check_isin(around<i64>(0, 40, 300, g), std::vector<i64>{});
    // A narrow range of many tests, and every element in it.
    std::vector<std::int32_t> tests;
    for (std::int32_t k = -500; k <= 500; k += 3)
        tests.push_back(k);
    check_isin(around<std::int32_t>(0, 600, 5000, g), tests);
}
