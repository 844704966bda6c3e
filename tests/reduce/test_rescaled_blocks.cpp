// logsumexp's block kernel (reduce_kernel::rescaled_blocks, exec/rescaled_blocks.hpp) against
// a long double reference written from scipy.special.logsumexp's definition: m + log(sum(exp(x
// - m))), m the maximum; all -inf (or nothing) gives -inf, any +inf +inf, any NaN NaN. Rows of
// 16 to 2,049 elements (one block, several, a partial last block and a partial last register),
// float32 and float64, values spread over a wide range with -inf mixed in; the same rows
// through the flat path (a whole tensor), the general loop (one result per row), a transpose
// (the strided path) and an expression operand. Each case also checks that explain names the
// kernel, and that rows under 16 keep the element-at-a-time kernel.
//
// Tolerance (the oracle's for logsumexp, tests/oracle/generate.py): each term exp(x - m) is
// within 4 u64 absolutely (the subtraction's rounding amplified by exp, and exp's own 1 ulp);
// n - 1 additions and n / 256 block rescalings add at most (n + n / 256) u64 relative to the
// sum s >= 1, so log(s) is within (2 n + 6) u64 absolutely; m + log(s) rounds once to the result
// type: atol 2 (n + 2) eps64, rtol 2 eps of the result type.
#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

using fusor::index_t;
using fusor::shape_t;

namespace {

template <class T>
fusor::tensor<T> spread_rows(index_t rows, index_t cols, unsigned seed) {
    fusor::tensor<T> t(shape_t{rows, cols});
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_int_distribution<int> pick(0, 99);
    for (index_t r = 0; r < rows; ++r)
        for (index_t c = 0; c < cols; ++c) {
            // Row r's scale 10^(r - 2): differences from the maximum from ~0 to far past exp's
            // underflow, and rows whose maximum sits in a late block (the rescaling path).
            double v = normal(rng) * std::pow(10.0, static_cast<double>(r % 5) - 2.0);
            if (pick(rng) < 3)
                v = -std::numeric_limits<double>::infinity();
            t(r, c) = static_cast<T>(v);
        }
    return t;
}

long double reference(const long double* x, index_t n) {
    const long double inf = std::numeric_limits<long double>::infinity();
    long double m = -inf;
    for (index_t i = 0; i < n; ++i) {
        if (std::isnan(x[i]))
            return x[i];
        m = std::fmax(m, x[i]);
    }
    if (std::isinf(m))
        return m;
    long double s = 0;
    for (index_t i = 0; i < n; ++i)
        s += std::exp(x[i] - m);
    return m + std::log(s);
}

template <class T>
void check_close(T got, long double want, index_t n, const std::string& what) {
    CAPTURE(what);
    CAPTURE(n);
    if (std::isnan(want)) {
        CHECK(std::isnan(got));
        return;
    }
    if (std::isinf(want)) {
        CHECK(got == static_cast<T>(want));
        return;
    }
    const long double eps = std::numeric_limits<T>::epsilon();
    const long double tol = 2 * eps * std::fabs(want) + 2.0L * (n + 2) * DBL_EPSILON;
    CHECK_MESSAGE(std::fabs(static_cast<long double>(got) - want) <= tol,
                  "got " << static_cast<double>(got) << ", want " << static_cast<double>(want));
}

// The row r of `t` as long doubles.
template <class T>
std::vector<long double> row_of(const fusor::tensor<T>& t, index_t r) {
    std::vector<long double> x(static_cast<std::size_t>(t.shape()[1]));
    for (index_t c = 0; c < t.shape()[1]; ++c)
        x[static_cast<std::size_t>(c)] = static_cast<long double>(t(r, c));
    return x;
}

template <class E>
std::string runs_of(const E& e) {
    return fusor::explain(e).json();
}

} // namespace

TEST_CASE_TEMPLATE("logsumexp by blocks equals the long double definition", T, float, double) {
    for (const index_t n : {16, 17, 100, 255, 256, 257, 513, 1000, 2049}) {
        const auto x = spread_rows<T>(6, n, static_cast<unsigned>(n));
        // One result per row: the general loop's register accumulator.
        const auto per_row = fusor::eval(fusor::logsumexp(x, 1));
        CHECK(runs_of(fusor::logsumexp(x, 1)).find("\"rescaled_blocks\"") != std::string::npos);
        for (index_t r = 0; r < 6; ++r) {
            const auto want = row_of(x, r);
            check_close(per_row(r), reference(want.data(), n), n, "row");
        }
        // A row alone: the flat path (one run over the whole tensor).
        for (index_t r = 0; r < 6; ++r) {
            const auto row = fusor::eval(fusor::view(x, r));
            const auto want = row_of(x, r);
            CHECK(runs_of(fusor::logsumexp(row)).find("\"rescaled_blocks\"") != std::string::npos);
            check_close(fusor::logsumexp(row).item(), reference(want.data(), n), n, "flat");
        }
        // The same rows read down a transpose's columns (the strided path), and an expression
        // operand (each element computed as the kernel reads it).
        const auto xt = fusor::eval(fusor::transpose(x));
        const auto down = fusor::eval(fusor::logsumexp(fusor::transpose(xt), 1));
        const auto doubled = fusor::eval(fusor::logsumexp(x + x, 1));
        for (index_t r = 0; r < 6; ++r) {
            auto want = row_of(x, r);
            check_close(down(r), reference(want.data(), n), n, "strided");
            for (auto& v : want)
                v *= 2; // x + x is exact
            check_close(doubled(r), reference(want.data(), n), n, "expression");
        }
    }
}

TEST_CASE_TEMPLATE("logsumexp by blocks: NaN, infinities and all -inf", T, float, double) {
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    const index_t n = 600; // three blocks, the last partial
    fusor::tensor<T> x(shape_t{6, n});
    for (index_t r = 0; r < 6; ++r)
        for (index_t c = 0; c < n; ++c)
            x(r, c) = static_cast<T>(c % 7) - T(3);
    for (index_t c = 0; c < n; ++c)
        x(0, c) = -inf;              // nothing: -inf
    x(1, 599) = nan;                 // NaN in the last element
    x(2, 300) = inf;                 // +inf in the middle block
    x(3, 10) = inf, x(3, 500) = nan; // both: NaN wins
    for (index_t c = 0; c < 256; ++c)
        x(4, c) = -inf; // a whole block of -inf, then finite values
    x(5, 256) = T(80);  // a late maximum far above the first block's: rescaled
    const auto got = fusor::eval(fusor::logsumexp(x, 1));
    CHECK(got(0) == -inf);
    CHECK(std::isnan(got(1)));
    CHECK(got(2) == inf);
    CHECK(std::isnan(got(3)));
    for (index_t r = 4; r < 6; ++r) {
        const auto want = row_of(x, r);
        check_close(got(r), reference(want.data(), n), n, "finite");
    }
}

TEST_CASE("logsumexp rows under 16 keep one step per element") {
    const auto x = spread_rows<float>(4, 15, 3);
    CHECK(runs_of(fusor::logsumexp(x, 1)).find("\"sequential\"") != std::string::npos);
    const auto got = fusor::eval(fusor::logsumexp(x, 1));
    for (index_t r = 0; r < 4; ++r) {
        const auto want = row_of(x, r);
        check_close(got(r), reference(want.data(), 15), 15, "short");
    }
}

TEST_CASE_TEMPLATE("logsumexp over rows by blocks (axis 0) equals the long double definition",
                   T,
                   float,
                   double) {
    // Rows: one block of 64, several with a partial last, under one block; columns: one strip of
    // 256, several with a partial last, fewer than a register.
    // Not a structured binding: clang 14 cannot capture one (doctest's CAPTURE is a lambda).
    for (const auto& shape :
         {std::pair<index_t, index_t>{64, 256}, {130, 300}, {7, 513}, {200, 5}, {2, 1000}}) {
        const index_t rows = shape.first, cols = shape.second;
        const auto xt = spread_rows<T>(cols, rows, static_cast<unsigned>(rows * cols));
        const auto x = fusor::eval(fusor::transpose(xt)); // (rows, cols): column c is xt's row c
        CAPTURE(rows);
        CAPTURE(cols);
        const auto got = fusor::eval(fusor::logsumexp(x, 0));
        CHECK(runs_of(fusor::logsumexp(x, 0)).find("\"rescaled_rows\"") != std::string::npos);
        const auto kept = fusor::eval(fusor::logsumexp(x + x, 0, fusor::keepdims));
        CHECK(kept.shape() == shape_t{1, cols});
        for (index_t c = 0; c < cols; ++c) {
            auto want = row_of(xt, c);
            check_close(got(c), reference(want.data(), rows), rows, "axis 0");
            for (auto& v : want)
                v *= 2;
            check_close(kept(0, c), reference(want.data(), rows), rows, "axis 0, expression");
        }
    }
}

TEST_CASE_TEMPLATE("logsumexp over rows by blocks: NaN, infinities and all -inf columns",
                   T,
                   float,
                   double) {
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    const index_t rows = 150, cols = 6; // three blocks of rows, the last partial
    fusor::tensor<T> x(shape_t{rows, cols});
    for (index_t r = 0; r < rows; ++r)
        for (index_t c = 0; c < cols; ++c)
            x(r, c) = static_cast<T>(r % 7) - T(3);
    for (index_t r = 0; r < rows; ++r)
        x(r, 0) = -inf;              // nothing: -inf
    x(149, 1) = nan;                 // NaN in the last row
    x(70, 2) = inf;                  // +inf in the middle block
    x(10, 3) = inf, x(100, 3) = nan; // both: NaN wins
    for (index_t r = 0; r < 64; ++r)
        x(r, 4) = -inf; // a whole block of -inf, then finite values
    x(64, 5) = T(800);  // a late maximum whose exp overflows: only the rescaling keeps it finite
    const auto got = fusor::eval(fusor::logsumexp(x, 0));
    CHECK(got(0) == -inf);
    CHECK(std::isnan(got(1)));
    CHECK(got(2) == inf);
    CHECK(std::isnan(got(3)));
    const auto xt = fusor::eval(fusor::transpose(x));
    for (index_t c = 4; c < 6; ++c) {
        const auto want = row_of(xt, c);
        check_close(got(c), reference(want.data(), rows), rows, "finite");
    }
}
