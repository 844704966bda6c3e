// Any rank: broadcasting at rank 8 and rank 12 against an independent reference that
// unravels every flat index and applies NumPy's broadcasting rule directly.
#include <cstdint>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

using fusor::index_t;
using fusor::shape_t;

namespace {
// The element of `t` (shape s) that NumPy's broadcasting reads at multi-index `idx` of `out`.
double broadcast_read(const fusor::tensor<double>& t,
                      const shape_t& out,
                      const std::vector<index_t>& idx) {
    const std::size_t lead = out.size() - t.shape().size();
    index_t off = 0;
    for (std::size_t k = 0; k < t.shape().size(); ++k) {
        const index_t i = t.shape()[k] == 1 ? 0 : idx[lead + k];
        off += i * t.strides()[k];
    }
    return t.data()[off];
}

fusor::tensor<double> random_tensor(const shape_t& s, std::mt19937& rng) {
    fusor::tensor<double> t(s);
    std::uniform_int_distribution<int> d(-9, 9);
    for (auto& v : t)
        v = d(rng);
    return t;
}

void check_rank(std::size_t rank, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> ext(1, 3), coin(0, 2);
    shape_t out(rank), sa(rank), sb(rank - 2);
    for (std::size_t k = 0; k < rank; ++k) {
        // Past rank 16, a few axes of 2 and 3 among 1s keep the size small (rank 32: 1296).
        out[k] = rank <= 16 ? ext(rng) : k % 8 == 0 ? 3 : k % 8 == 4 ? 2 : 1;
        sa[k] = coin(rng) == 0 ? 1 : out[k];
        if (k >= 2)
            sb[k - 2] = coin(rng) == 0 ? 1 : out[k];
    }
    sa[0] = out[0]; // keep the broadcast shape equal to `out`
    auto a = random_tensor(sa, rng), b = random_tensor(sb, rng);
    fusor::tensor<double> r = a * 2.0 - b;
    const shape_t expected_shape = fusor::broadcast_shapes(sa, sb);
    REQUIRE(r.shape() == expected_shape);
    std::vector<index_t> idx(rank, 0);
    for (index_t flat = 0; flat < r.size(); ++flat) {
        index_t rem = flat;
        for (std::size_t k = rank; k-- > 0;) {
            idx[k] = rem % expected_shape[k];
            rem /= expected_shape[k];
        }
        const double want =
            broadcast_read(a, expected_shape, idx) * 2.0 - broadcast_read(b, expected_shape, idx);
        REQUIRE(r.data()[flat] == want);
    }
    // and a reduction over the middle axes at that rank
    fusor::tensor<double> s = fusor::sum(a, {1, static_cast<index_t>(rank) - 2});
    CHECK(s.rank() == static_cast<index_t>(rank) - 2);
    CHECK(fusor::eval(fusor::sum(s)).item() == doctest::Approx(fusor::eval(fusor::sum(a)).item()));
}
} // namespace

TEST_CASE("rank 8 broadcasting") {
    for (unsigned seed = 1; seed <= 5; ++seed)
        check_rank(8, seed);
}

TEST_CASE("rank 12 broadcasting") {
    for (unsigned seed = 11; seed <= 13; ++seed)
        check_rank(12, seed);
}

TEST_CASE("rank 32 broadcasting and reductions") {
    for (unsigned seed = 21; seed <= 23; ++seed)
        check_rank(32, seed);
}

TEST_CASE("rank 32 with negative strides: flip of every axis, against the unravelled index") {
    shape_t s(32, 1);
    s[0] = 3;
    s[9] = 2;
    s[31] = 4;
    std::mt19937 rng(7);
    auto a = random_tensor(s, rng);
    fusor::tensor<double> r = fusor::flip(a) * 10.0 + a;
    REQUIRE(r.shape() == s);
    for (index_t i = 0; i < 3; ++i)
        for (index_t j = 0; j < 2; ++j)
            for (index_t k = 0; k < 4; ++k) {
                const index_t flat = i * 8 + j * 4 + k,
                              mirrored = (2 - i) * 8 + (1 - j) * 4 + (3 - k);
                REQUIRE(r.data()[flat] == a.data()[mirrored] * 10.0 + a.data()[flat]);
            }
}
