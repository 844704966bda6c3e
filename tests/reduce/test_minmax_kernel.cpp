// The SIMD max/min/argmax/argmin kernel (exec/minmax_kernel.hpp) against a plain sequential
// reference written from NumPy's rules: the first maximum (minimum) wins ties, the first NaN
// wins over everything and max/min return NaN. Rows of 64 to 300 elements (the kernel's range,
// with partial last registers), float32, float64, int32 and int64, with many ties, NaNs,
// infinities and signed zeros; and the same rows read through a transpose (the strided path).
// Shorter rows too (the eight-lane and sequential loops). The lanes are vectors of one register
// of the target (lane_vector_bytes): this file is built for the default target (16 bytes on
// x86-64) and again for AVX2 and AVX-512 (test_minmax_kernel_avx2.cpp, _avx512.cpp), which skip
// on a processor without those instructions and report the skip.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

#ifndef FUSOR_TEST_TARGET
#define FUSOR_TEST_TARGET 0 // the compiler's default target; 2 AVX2, 3 AVX-512
#endif

using fusor::index_t;
using fusor::shape_t;

namespace {

// Whether this processor runs the instructions this file was built for.
bool processor_has_target() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (FUSOR_TEST_TARGET == 3)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    if (FUSOR_TEST_TARGET == 2)
        return __builtin_cpu_supports("avx2");
    return true;
#else
    return FUSOR_TEST_TARGET == 0; // the AVX builds are x86's
#endif
}
const bool skip_here = !processor_has_target();

template <class T>
fusor::tensor<T> tricky_rows(index_t rows, index_t cols, unsigned seed) {
    fusor::tensor<T> t(shape_t{rows, cols});
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> small(-3, 3), pick(0, 99);
    for (index_t r = 0; r < rows; ++r)
        for (index_t c = 0; c < cols; ++c) {
            T v = static_cast<T>(small(rng)); // few distinct values: many ties
            const int p = pick(rng);
            if constexpr (std::is_floating_point_v<T>) {
                if (r % 4 == 1 && p < 2)
                    v = std::numeric_limits<T>::quiet_NaN();
                else if (p < 4)
                    v = std::numeric_limits<T>::infinity();
                else if (p < 6)
                    v = -std::numeric_limits<T>::infinity();
                else if (p < 8)
                    v = -T(0);
            } else {
                if (p < 2)
                    v = std::numeric_limits<T>::max();
                else if (p < 4)
                    v = std::numeric_limits<T>::lowest();
            }
            t(r, c) = v;
        }
    // A row of nothing but the lowest value, and one where the maximum is the last element.
    for (index_t c = 0; c < cols; ++c)
        t(0, c) = std::is_floating_point_v<T> ? -std::numeric_limits<T>::infinity()
                                              : std::numeric_limits<T>::lowest();
    t(2, cols - 1) = std::numeric_limits<T>::max();
    return t;
}

template <class T>
bool is_nan(T v) {
    if constexpr (std::is_floating_point_v<T>)
        return std::isnan(v);
    else
        return false;
}

// NumPy's argmax/argmin of one row, sequentially.
template <class T>
std::int64_t reference_arg(const fusor::tensor<T>& t, index_t r, bool greater) {
    std::int64_t best = 0;
    for (index_t c = 0; c < t.shape()[1]; ++c) {
        const T v = t(r, c), b = t(r, best);
        if (is_nan(b))
            break;
        if (is_nan(v) || (greater ? v > b : v < b))
            best = c;
    }
    return best;
}

template <class T>
void check_rows(index_t cols, unsigned seed) {
    CAPTURE(cols);
    const auto t = tricky_rows<T>(12, cols, seed);
    const auto amax = fusor::eval(fusor::argmax(t, 1)), amin = fusor::eval(fusor::argmin(t, 1));
    const auto mx = fusor::eval(fusor::max(t, 1)), mn = fusor::eval(fusor::min(t, 1));
    // The same reductions read through a transpose take the strided path.
    const fusor::tensor<T> tt = fusor::eval(fusor::transpose(t));
    const auto amax_strided = fusor::eval(fusor::argmax(fusor::transpose(tt), 1));
    for (index_t r = 0; r < 12; ++r) {
        CAPTURE(r);
        const std::int64_t hi = reference_arg(t, r, true), lo = reference_arg(t, r, false);
        CHECK(amax(r) == hi);
        CHECK(amin(r) == lo);
        CHECK(amax_strided(r) == hi);
        const T want_max = t(r, hi), want_min = t(r, lo);
        if (is_nan(want_max)) {
            CHECK(is_nan(mx(r)));
            CHECK(is_nan(mn(r)));
        } else {
            CHECK(mx(r) == want_max);
            CHECK(mn(r) == want_min);
        }
    }
}

} // namespace

TEST_CASE("the lanes are one register of the target" * doctest::skip(skip_here)) {
    const fusor::index_t want = FUSOR_TEST_TARGET == 3 ? 64 : FUSOR_TEST_TARGET == 2 ? 32 : 16;
    CHECK(fusor::lane_vector_bytes == want);
    // explain quotes the same lanes: four sets of one register each.
    const auto t = tricky_rows<float>(4, 256, 9);
    const std::string text = explain_text::one_line(fusor::explain(fusor::argmax(t, 1)).text());
    CHECK(text.find("4 x " + std::to_string(want / 4) + " float32 lanes (value, index)")
          != std::string::npos);
}

TEST_CASE("SIMD max, min, argmax, argmin equal the sequential rule" * doctest::skip(skip_here)) {
    for (index_t cols : {64, 65, 79, 128, 131, 300}) {
        check_rows<float>(cols, 1);
        check_rows<double>(cols, 2);
        check_rows<std::int32_t>(cols, 3);
        check_rows<std::int64_t>(cols, 4);
    }
}

// Rows under 64 take the eight-lane loop (max and min of floats in one vector of lanes:
// exec/execute.hpp, lane_reduce) or, under 16, one accumulator: the same rule.
TEST_CASE("max and min over rows under 64 equal the sequential rule" * doctest::skip(skip_here)) {
    for (index_t cols : {1, 7, 8, 9, 15, 16, 17, 23, 31, 32, 47, 63}) {
        check_rows<float>(cols, 5);
        check_rows<double>(cols, 6);
        check_rows<std::int32_t>(cols, 7);
    }
}

// argmax and argmin note NaNs beside their lanes and search the row again for the first: a NaN
// at every position of rows the SIMD kernel takes (each lane set, the leftover registers, the
// sequential tail), alone and after a later-lane NaN.
TEST_CASE("argmax and argmin return the first NaN wherever it is" * doctest::skip(skip_here)) {
    for (const index_t cols : {64, 131, 300}) {
        CAPTURE(cols);
        for (index_t p = 0; p < cols; ++p) {
            CAPTURE(p);
            fusor::tensor<float> f = fusor::zeros<float>({2, cols});
            fusor::tensor<double> d = fusor::zeros<double>({2, cols});
            for (index_t c = 0; c < cols; ++c) {
                f(0, c) = d(0, c) = static_cast<float>(c % 13); // maxima and minima before p
                f(1, c) = d(1, c) = static_cast<float>(-(c % 11));
            }
            f(0, p) = d(0, p) = std::numeric_limits<double>::quiet_NaN();
            // Row 1: a NaN at p and another later, in another lane (the first one wins).
            f(1, p) = d(1, p) = std::numeric_limits<double>::quiet_NaN();
            if (p + 17 < cols)
                f(1, p + 17) = d(1, p + 17) = -std::numeric_limits<double>::quiet_NaN();
            for (index_t r = 0; r < 2; ++r) {
                CHECK(fusor::eval(fusor::argmax(f, 1))(r) == p);
                CHECK(fusor::eval(fusor::argmin(f, 1))(r) == p);
                CHECK(fusor::eval(fusor::argmax(d, 1))(r) == p);
                CHECK(fusor::eval(fusor::argmin(d, 1))(r) == p);
            }
        }
    }
}

TEST_CASE("fused operand and flat argmax over several inner loops" * doctest::skip(skip_here)) {
    const auto a = tricky_rows<float>(8, 200, 5), b = tricky_rows<float>(8, 200, 6);
    const auto fused = fusor::eval(fusor::argmax(a * 2.f + b, 1));
    const fusor::tensor<float> materialised = fusor::eval(a * 2.f + b);
    for (index_t r = 0; r < 8; ++r)
        CHECK(fused(r) == reference_arg(materialised, r, true));
    // Flat argmax of a (8, 200) tensor: the index runs across rows.
    fusor::tensor<float> big(shape_t{8, 200});
    for (index_t i = 0; i < big.size(); ++i)
        big.data()[i] = static_cast<float>(i % 97);
    big(5, 17) = 1000.f;
    big(6, 3) = 1000.f;
    CHECK(fusor::eval(fusor::argmax(big))() == 5 * 200 + 17);
}
