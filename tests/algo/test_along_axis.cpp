// Scans, sort, argsort and topk: shapes, dtypes and the errors (values are checked against
// NumPy in tests/oracle/; here, the rules a reader should see written down).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace {
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
}

TEST_CASE("cumsum and cumprod: shapes and NumPy's result types") {
    const fusor::tensor<std::int32_t> a{{1, 2, 3}, {4, 5, 6}};
    const auto flat = fusor::cumsum(a);
    static_assert(std::is_same_v<decltype(flat)::value_type, std::int64_t>);
    CHECK(flat.shape() == fusor::shape_t{6});
    CHECK(flat(5) == 21);
    const auto rows = fusor::cumprod(a, -1);
    CHECK(rows.shape() == fusor::shape_t{2, 3});
    CHECK(rows(1, 2) == 120);
    const auto cols = fusor::cumsum(a, 0);
    CHECK(cols(1, 0) == 5);
    const fusor::tensor<std::uint8_t> u{200, 100};
    static_assert(std::is_same_v<decltype(fusor::cumsum(u))::value_type, std::uint64_t>);
    CHECK(fusor::cumsum(u)(1) == 300); // no uint8 wrap: accumulated in uint64
    const fusor::tensor<float> f{0.5f, 0.25f};
    static_assert(std::is_same_v<decltype(fusor::cumsum(f))::value_type, float>);
    // 0-d operands ravel to (1,), as NumPy; a bad axis throws before anything is computed.
    CHECK(fusor::cumsum(fusor::full<double>({}, 4.0)).shape() == fusor::shape_t{1});
    CHECK(fusor::cumsum(fusor::full<double>({}, 4.0), 0).shape() == fusor::shape_t{1});
    CHECK_THROWS_AS(fusor::cumsum(a, 2), fusor::axis_error);
    CHECK_THROWS_AS(fusor::cumprod(a, -3), fusor::axis_error);
    // Fused operand: cumsum(a * 2) evaluates a * 2 once into the result, then scans.
    CHECK(fusor::cumsum(a * 2, 1)(0, 2) == 12);
}

TEST_CASE("signed cumprod wraps as NumPy's int64 does, without undefined behaviour") {
    const fusor::tensor<std::int64_t> big{std::int64_t{1} << 62, 4};
    CHECK(fusor::cumprod(big)(1) == 0); // 2^64 wraps to 0
}

// Each lane's sums in order, one element after another, whichever way the lanes are walked
// (contiguous lanes with the running sum in a register; lanes across rows a row at a time).
TEST_CASE("cumsum along every axis of a 3-d tensor: each lane summed in order, bit for bit") {
    const fusor::shape_t shape{3, 50, 7};
    fusor::tensor<float> x(shape, fusor::uninitialized);
    std::uint64_t state = 5;
    for (float& v : x) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        v = static_cast<float>(static_cast<std::int64_t>(state >> 40) - (1 << 23)) / 4096.0f;
    }
    const fusor::index_t strides[3] = {350, 7, 1};
    for (const fusor::index_t axis : {0, 1, 2}) {
        CAPTURE(axis);
        const fusor::tensor<float> got = fusor::cumsum(x, axis);
        int wrong = 0;
        for (fusor::index_t i = 0; i < 3; ++i)
            for (fusor::index_t j = 0; j < 50; ++j)
                for (fusor::index_t k = 0; k < 7; ++k) {
                    const fusor::index_t at = i * 350 + j * 7 + k;
                    const fusor::index_t position[3] = {i, j, k};
                    // The lane through `at`: its elements from the lane's start up to `at`.
                    const fusor::index_t start = at - position[axis] * strides[axis];
                    float want = x.data()[start];
                    for (fusor::index_t p = 1; p <= position[axis]; ++p)
                        want = want + x.data()[start + p * strides[axis]];
                    wrong += std::memcmp(&want, &got.data()[at], sizeof want) != 0;
                }
        CHECK(wrong == 0);
    }
    const fusor::tensor<float> flat = fusor::cumsum(x);
    float want = 0.0f;
    int wrong = 0;
    for (fusor::index_t k = 0; k < x.size(); ++k) {
        want = k == 0 ? x.data()[0] : want + x.data()[k];
        wrong += std::memcmp(&want, &flat.data()[k], sizeof want) != 0;
    }
    CHECK(wrong == 0);
}

TEST_CASE("sort and argsort: NaN last, stable, along any axis") {
    const fusor::tensor<double> x{{3.0, NaN, 1.0, 3.0}, {0.0, -1.0, NaN, -1.0}};
    const auto s = fusor::sort(x);
    CHECK(s(0, 0) == 1.0);
    CHECK(s(0, 2) == 3.0);
    CHECK(std::isnan(s(0, 3)));
    CHECK(std::isnan(s(1, 3)));
    const auto i = fusor::argsort(x);
    static_assert(std::is_same_v<decltype(i)::value_type, std::int64_t>);
    CHECK(i(0, 0) == 2);
    CHECK(i(0, 1) == 0); // the two 3s keep their order
    CHECK(i(0, 2) == 3);
    CHECK(i(0, 3) == 1);
    CHECK(i(1, 0) == 1); // the two -1s keep their order
    CHECK(i(1, 1) == 3);
    const auto c = fusor::argsort(x, 0);
    CHECK(c(0, 1) == 1); // -1 before NaN
    CHECK(fusor::sort(x, 0).shape() == fusor::shape_t{2, 4});
    CHECK_THROWS_AS(fusor::sort(fusor::full<double>({}, 1.0)), fusor::axis_error);
    CHECK(fusor::argsort(fusor::full<double>({}, 1.0)).shape() == fusor::shape_t{1});
    CHECK_THROWS_AS(fusor::sort(x, 2), fusor::axis_error);
    // axis=None: the raveled elements (row-major, views too), as NumPy 1.24's
    // np.sort(y, axis=None) -> [-1, 0, 1, 2, 3, nan] and np.argsort(y, axis=None,
    // kind='stable') -> [5, 3, 2, 4, 0, 1], y = [[3, nan, 1], [0, 2, -1]]; of y.T [5, 1, 4, 3, 0,
    // 2].
    const fusor::tensor<double> y{{3.0, NaN, 1.0}, {0.0, 2.0, -1.0}};
    const auto flat = fusor::sort(y, fusor::none);
    REQUIRE(flat.shape() == fusor::shape_t{6});
    CHECK(fusor::array_equal(fusor::view(flat, fusor::slice(0, 5)),
                             fusor::tensor<double>{-1, 0, 1, 2, 3}));
    CHECK(std::isnan(flat(5)));
    CHECK(fusor::array_equal(fusor::argsort(y, fusor::none),
                             fusor::tensor<std::int64_t>{5, 3, 2, 4, 0, 1}));
    CHECK(fusor::array_equal(fusor::argsort(fusor::transpose(y), fusor::none),
                             fusor::tensor<std::int64_t>{5, 1, 4, 3, 0, 2}));
    CHECK(fusor::sort(fusor::full<double>({}, 5.0), fusor::none).shape() == fusor::shape_t{1});
}

TEST_CASE("topk: largest first, ties to the lower index, NaN on top") {
    const fusor::tensor<double> x{{1.0, 5.0, 5.0, NaN, 2.0}, {4.0, 4.0, 4.0, 4.0, 9.0}};
    auto [v, i] = fusor::topk(x, 3);
    CHECK(v.shape() == fusor::shape_t{2, 3});
    CHECK(std::isnan(v(0, 0)));
    CHECK(i(0, 0) == 3);
    CHECK(v(0, 1) == 5.0);
    CHECK(i(0, 1) == 1);
    CHECK(i(0, 2) == 2);
    CHECK(i(1, 0) == 4);
    CHECK(i(1, 1) == 0);
    CHECK(i(1, 2) == 1);
    const auto cols = fusor::topk(x, 1, 0);
    CHECK(cols.values.shape() == fusor::shape_t{1, 5});
    CHECK(cols.indices(0, 0) == 1);
    CHECK(fusor::topk(x, 0).values.shape() == fusor::shape_t{2, 0});
    CHECK(fusor::topk(x, 5).indices(1, 4) == 3);
}

// sort and unique order the values themselves (with Highway: VQSort, not stable, the zeros put
// back in order), argsort sorts (order key, index) pairs (with Highway) or the index order, and
// topk selects its k before sorting them; all must give, bit for bit, what a stable sort of each
// lane's index order gives (the definition: NaN last for sort and first for topk, ties in index
// order, -0.0 and 0.0 and NaN payloads kept in their order). Lanes of 0 to 1,000 elements with
// many ties, both zeros, NaNs of two payloads, infinities and each integer type's ends, along the
// last axis and across (off unit stride), every k kind.
namespace {
template <class T>
bool sorts_before_ref(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        return a < b || (b != b && a == a);
    else
        return a < b;
}

template <class T>
fusor::tensor<T> tied_values(fusor::index_t rows, fusor::index_t cols, unsigned seed) {
    fusor::tensor<T> x(fusor::shape_t{rows, cols}, fusor::uninitialized);
    std::uint64_t state = seed;
    for (T& v : x) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        const auto r = static_cast<int>((state >> 33) % 23);
        if constexpr (std::is_floating_point_v<T>) {
            if (r == 0)
                v = std::numeric_limits<T>::quiet_NaN();
            else if (r == 1)
                v = -std::numeric_limits<T>::quiet_NaN(); // another payload (the sign)
            else if (r == 2)
                v = T(-0.0);
            else if (r == 3)
                v = -std::numeric_limits<T>::infinity();
            else if (r == 4)
                v = std::numeric_limits<T>::infinity();
            else if (r == 5)
                v = std::numeric_limits<T>::denorm_min();
            else if (r == 6)
                v = -std::numeric_limits<T>::max();
            else
                v = static_cast<T>(r % 7) - T(3); // ties, and 0.0 among them
        } else if constexpr (std::is_same_v<T, bool>) {
            v = r % 2 == 0;
        } else {
            // Ties, and both ends of the type (the order keys of algo/vector_sort.hpp).
            v = r == 0 ? std::numeric_limits<T>::min()
                       : (r == 1 ? std::numeric_limits<T>::max() : static_cast<T>(r % 5));
        }
    }
    return x;
}

// The lane's index order by a stable sort, ascending or, `descending`, largest first.
template <class T>
std::vector<fusor::index_t> stable_order(const std::vector<T>& lane, bool descending) {
    std::vector<fusor::index_t> order(lane.size());
    std::iota(order.begin(), order.end(), fusor::index_t{0});
    std::stable_sort(order.begin(), order.end(), [&](fusor::index_t a, fusor::index_t b) {
        const T va = lane[static_cast<std::size_t>(a)], vb = lane[static_cast<std::size_t>(b)];
        return descending ? sorts_before_ref(vb, va) : sorts_before_ref(va, vb);
    });
    return order;
}

template <class T>
void check_against_stable_order(fusor::index_t rows, fusor::index_t cols, unsigned seed) {
    CAPTURE(rows);
    CAPTURE(cols);
    const fusor::tensor<T> x = tied_values<T>(rows, cols, seed);
    // unique(x) sorts the values themselves; with a part asked for it goes through the stable
    // index order (unique_rows): the same values, bit for bit (first occurrences shown).
    const fusor::tensor<T> u = fusor::unique(x);
    const fusor::tensor<T> u_rows = fusor::unique(x, fusor::return_counts).values;
    REQUIRE(u.shape() == u_rows.shape());
    CHECK(std::memcmp(u.data(), u_rows.data(), static_cast<std::size_t>(u.size()) * sizeof(T))
          == 0);
    // Its parts: each group's first occurrence and size, from the flattened stable order (NaN
    // one group, -0.0 and 0.0 one).
    {
        std::vector<T> flat(static_cast<std::size_t>(x.size()));
        for (fusor::index_t k = 0; k < x.size(); ++k)
            flat[static_cast<std::size_t>(k)] = x.data()[k];
        const auto up = stable_order(flat, false);
        std::vector<std::int64_t> first, count;
        for (std::size_t k = 0; k < up.size(); ++k) {
            const T a = k == 0 ? T{} : flat[static_cast<std::size_t>(up[k - 1])];
            const T b = flat[static_cast<std::size_t>(up[k])];
            const bool same = k > 0 && (a == b || (a != a && b != b));
            if (!same) {
                first.push_back(up[k]);
                count.push_back(0);
            }
            ++count.back();
        }
        const auto parts = fusor::unique(x, fusor::return_index, fusor::return_counts);
        REQUIRE(parts.indices.size() == static_cast<fusor::index_t>(first.size()));
        int wrong = 0;
        for (std::size_t g = 0; g < first.size(); ++g) {
            wrong += parts.indices.data()[g] != first[g];
            wrong += parts.counts.data()[g] != count[g];
        }
        CHECK(wrong == 0);
    }
    const fusor::index_t extents[2] = {rows, cols};
    for (const fusor::index_t axis : {0, 1}) {
        CAPTURE(axis);
        const fusor::index_t n = extents[axis], lanes = extents[1 - axis];
        const fusor::index_t step = axis == 1 ? 1 : cols, lane_step = axis == 1 ? cols : 1;
        const fusor::tensor<T> sorted = fusor::sort(x, axis);
        const fusor::tensor<std::int64_t> order = fusor::argsort(x, axis);
        for (const fusor::index_t k : {fusor::index_t{0}, n / 3, n}) {
            CAPTURE(k);
            const auto top = fusor::topk(x, k, axis);
            const fusor::index_t top_step = axis == 1 ? 1 : cols, top_lane = axis == 1 ? k : 1;
            int wrong = 0;
            for (fusor::index_t l = 0; l < lanes; ++l) {
                std::vector<T> lane(static_cast<std::size_t>(n));
                for (fusor::index_t j = 0; j < n; ++j)
                    lane[static_cast<std::size_t>(j)] = x.data()[l * lane_step + j * step];
                const auto up = stable_order(lane, false), down = stable_order(lane, true);
                for (fusor::index_t j = 0; j < n && k == 0; ++j) {
                    const T want = lane[static_cast<std::size_t>(up[static_cast<std::size_t>(j)])];
                    const T got = sorted.data()[l * lane_step + j * step];
                    wrong += std::memcmp(&want, &got, sizeof(T)) != 0;
                    wrong +=
                        order.data()[l * lane_step + j * step] != up[static_cast<std::size_t>(j)];
                }
                for (fusor::index_t j = 0; j < k; ++j) {
                    const fusor::index_t src = down[static_cast<std::size_t>(j)];
                    const fusor::index_t at = l * top_lane + j * top_step;
                    wrong += top.indices.data()[at] != src;
                    const T want = lane[static_cast<std::size_t>(src)];
                    wrong += std::memcmp(&want, &top.values.data()[at], sizeof(T)) != 0;
                }
            }
            CHECK(wrong == 0);
        }
    }
}
} // namespace

TEST_CASE("sort, argsort, topk and unique give, bit for bit, what a stable sort of each lane "
          "gives") {
    for (const auto& [rows, cols] : {std::pair<fusor::index_t, fusor::index_t>{1, 0},
                                     {0, 3},
                                     {1, 1},
                                     {2, 2},
                                     {3, 17},
                                     {17, 40},
                                     {2, 1000},
                                     {1000, 3}}) {
        check_against_stable_order<float>(rows, cols, 1);
        check_against_stable_order<double>(rows, cols, 2);
        check_against_stable_order<std::int32_t>(rows, cols, 3);
        check_against_stable_order<std::uint8_t>(rows, cols, 4);
        check_against_stable_order<std::int64_t>(rows, cols, 5);
        check_against_stable_order<std::int16_t>(rows, cols, 6);
        check_against_stable_order<std::uint16_t>(rows, cols, 7);
        check_against_stable_order<std::uint32_t>(rows, cols, 8);
        check_against_stable_order<std::uint64_t>(rows, cols, 9);
        check_against_stable_order<bool>(rows, cols, 10);
    }
}

TEST_CASE("topk refuses k outside [0, extent] and names the axis") {
    const fusor::tensor<float> x{{1.f, 2.f}, {3.f, 4.f}};
    CHECK_THROWS_AS(fusor::topk(x, 3), fusor::value_error);
    CHECK_THROWS_AS(fusor::topk(x, -1, 0), fusor::value_error);
    CHECK_THROWS_WITH(fusor::topk(x, 3, 0),
                      "topk: k = 3 is outside [0, 2] for axis 0 of shape (2, 2)");
    CHECK_THROWS_AS(fusor::topk(x, 1, 2), fusor::axis_error);
    CHECK_THROWS_AS(fusor::topk(fusor::full<float>({}, 1.f), 1), fusor::axis_error);
}

TEST_CASE("empty reductions: identities, NaN, and value_error naming the axis") {
    const auto e = fusor::zeros<float>({3, 0});
    CHECK(fusor::eval(fusor::sum(e, 1))(0) == 0.0f);
    CHECK(fusor::eval(fusor::prod(e, 1))(2) == 1.0f);
    CHECK(fusor::eval(fusor::count_nonzero(e, 1))(0) == 0);
    CHECK(fusor::eval(fusor::norm(e, 1))(0) == 0.0f);
    CHECK(fusor::eval(fusor::logsumexp(e, 1))(0) == -std::numeric_limits<float>::infinity());
    CHECK(std::isnan(fusor::eval(fusor::mean(e, 1))(0)));
    CHECK(fusor::eval(fusor::max(e, 0)).shape() == fusor::shape_t{0}); // empty result: fine
    CHECK_THROWS_WITH_AS(fusor::eval(fusor::max(e, 1)),
                         "zero-size array to reduction operation maximum which has no identity "
                         "(reducing axes (1,) of shape (3, 0))",
                         fusor::value_error);
    CHECK_THROWS_AS(fusor::eval(fusor::argmin(e, 1)), fusor::value_error);
}

TEST_CASE("logsumexp is stable where exp overflows") {
    const fusor::tensor<double> x{1000.0, 1000.0};
    CHECK(fusor::eval(fusor::logsumexp(x)).item() == doctest::Approx(1000.0 + std::log(2.0)));
    const fusor::tensor<float> y{-1e30f, 0.0f};
    CHECK(fusor::eval(fusor::logsumexp(y)).item() == 0.0f);
    static_assert(
        std::is_same_v<decltype(fusor::eval(fusor::logsumexp(fusor::tensor<int>{1})))::value_type,
                       double>);
}
