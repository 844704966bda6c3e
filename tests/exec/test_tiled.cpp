// The tiled kernel (a transposed operand): results equal an element-by-element reference for
// shapes that are and are not multiples of the tile, with three loop levels, float64 and
// int32, broadcast and flipped operands, a transposed view of an expression, and under
// threads, transposed views with steps and offsets, and element types of 2, 4 and 8 bytes (the
// staging's blocks transposed in registers, with rows and columns left over); explain names the
// kernel; packed tiles (rows of at most 64 elements that the destination and the other
// operands continue from row to row: one contiguous loop per tile) at small and odd shapes,
// every element type, three levels and threads; loops that neither way tiles keep the strided
// kernel, which steps the rows of its blocks itself (two levels per call): its results with three
// levels, a strided destination and under threads; all with more operands than the driver keeps
// in its inline index words.
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "support.hpp"

using fusor::index_t;
using fusor::shape_t;

namespace {

// Values -50 .. 50.
template <class T>
fusor::tensor<T> counting(const shape_t& s, int salt) {
    return exec_test::counting<T>(s, salt, 101);
}

std::string kernel_line(const auto& e) {
    return exec_test::explain_line(e, "kernel:  ");
}

// explain's kernel line for packed tiles, up to the row length.
std::string packed_prefix() {
    return "kernel:  tiled (the two inner loops in tiles of 16 rows of ";
}

template <class T>
void check_plus_transpose(index_t rows, index_t cols) {
    CAPTURE(rows);
    CAPTURE(cols);
    const auto a = counting<T>({rows, cols}, 1);
    const auto b = counting<T>({cols, rows}, 2);
    const fusor::tensor<T> out = fusor::eval(a + fusor::transpose(b));
    bool all_equal = true;
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j)
            all_equal = all_equal && out(i, j) == a(i, j) + b(j, i);
    CHECK(all_equal);
}

} // namespace

TEST_CASE("a + transpose(b) in tiles equals the element-wise definition") {
    for (auto [r, c] :
         {std::pair<index_t, index_t>{16, 64}, {17, 65}, {67, 130}, {128, 64}, {300, 257}})
        check_plus_transpose<float>(r, c);
    check_plus_transpose<double>(70, 100);
    check_plus_transpose<std::int32_t>(40, 200);
    // The staging's blocks transposed in registers (4 x 4 of 4 bytes, 2 x 2 of 8) with rows and
    // columns left over in a tile (22 = 16 + 4 + 2, 70 = 64 + 4 + 2 ...), and element types of
    // each width, signed and unsigned; 2-byte elements go element by element.
    for (auto [r, c] : {std::pair<index_t, index_t>{22, 70}, {23, 71}, {19, 66}, {35, 131}}) {
        check_plus_transpose<float>(r, c);
        check_plus_transpose<double>(r, c);
        check_plus_transpose<std::int64_t>(r, c);
        check_plus_transpose<std::uint32_t>(r, c);
        check_plus_transpose<std::int16_t>(r, c);
    }
    const auto a = counting<float>({300, 257}, 3), b = counting<float>({257, 300}, 4);
    CHECK(kernel_line(a + fusor::transpose(b)).starts_with("kernel:  tiled (the two inner loops"));
    // Rows of 4 to 64 elements, at least 4 rows: packed tiles, one loop each.
    const std::string packed = packed_prefix();
    const auto s = counting<float>({8, 8}, 5);
    CHECK(kernel_line(s + fusor::transpose(s))
          == packed
                 + "8; staged into a tile buffer: t0' "
                   "(stride 8); each tile one contiguous "
                   "loop)");
    const auto n31 = counting<float>({31, 31}, 5), w = counting<float>({16, 32}, 5);
    CHECK(kernel_line(n31 + fusor::transpose(n31)).starts_with(packed + "31;"));
    CHECK(kernel_line(w + fusor::transpose(counting<float>({32, 16}, 6)))
              .starts_with(packed + "32;"));
    const auto n15 = counting<float>({15, 64}, 5);
    CHECK(kernel_line(n15 + fusor::transpose(counting<float>({64, 15}, 6)))
              .starts_with(packed + "64;"));
    // Neither way: fewer than 4 columns, or more than 64 in fewer than 16 rows: strided.
    const auto n3 = counting<float>({8, 3}, 5), n65 = counting<float>({15, 65}, 5);
    CHECK(kernel_line(n3 + fusor::transpose(counting<float>({3, 8}, 6)))
              .starts_with("kernel:  strided"));
    CHECK(kernel_line(n65 + fusor::transpose(counting<float>({65, 15}, 6)))
              .starts_with("kernel:  strided"));
    for (auto [r, c] : {std::pair<index_t, index_t>{16, 32}, {32, 32}, {20, 45}, {48, 48}})
        check_plus_transpose<float>(r, c);
}

TEST_CASE("packed tiles: rows of 4 to 64 elements, one contiguous loop per tile") {
    // Rows and columns not multiples of the 4 x 4 (2 x 2) blocks, one tile and several, each
    // element width; the smallest and largest rows that pack.
    for (auto [r, c] : {std::pair<index_t, index_t>{4, 4},
                        {8, 8},
                        {5, 7},
                        {16, 16},
                        {17, 9},
                        {33, 64},
                        {100, 6},
                        {3, 8},
                        {8, 3}}) {
        check_plus_transpose<float>(r, c);
        check_plus_transpose<double>(r, c);
        check_plus_transpose<std::int64_t>(r, c);
        check_plus_transpose<std::uint32_t>(r, c);
        check_plus_transpose<std::int16_t>(r, c);
    }
    // Three levels (the batch stepped by the driver), a column (staged: stride 0 in the row), a
    // scalar, and threads. A row read again for every row does not continue from one row to the
    // next: those tiles do not pack.
    const auto x = counting<float>({3, 8, 8}, 17);
    const auto col = counting<float>({8, 1}, 19);
    const auto e = x + fusor::swapaxes(x, 1, 2) * 2.f - col + 1.5f;
    CHECK(kernel_line(e).starts_with(packed_prefix() + "8;"));
    CHECK(kernel_line(e + counting<float>({8}, 18)).starts_with("kernel:  strided"));
    const fusor::tensor<float> three = fusor::eval(e);
    bool three_ok = true;
    for (index_t n = 0; n < 3; ++n)
        for (index_t i = 0; i < 8; ++i)
            for (index_t j = 0; j < 8; ++j)
                three_ok =
                    three_ok && three(n, i, j) == x(n, i, j) + x(n, j, i) * 2.f - col(i, 0) + 1.5f;
    CHECK(three_ok);
    const auto tall = counting<double>({4000, 40}, 20), tallt = counting<double>({40, 4000}, 21);
    CHECK(kernel_line(tall + fusor::transpose(tallt)).starts_with(packed_prefix() + "40;"));
    fusor::set_num_threads(1);
    const fusor::tensor<double> one = fusor::eval(tall + fusor::transpose(tallt));
    fusor::set_num_threads(3);
    const fusor::tensor<double> split = fusor::eval(tall + fusor::transpose(tallt));
    fusor::set_num_threads(1);
    CHECK(fusor::array_equal(one, split));
    bool tall_ok = true;
    for (index_t i = 0; i < 4000; ++i)
        for (index_t j = 0; j < 40; ++j)
            tall_ok = tall_ok && one(i, j) == tall(i, j) + tallt(j, i);
    CHECK(tall_ok);
}

TEST_CASE("tiles with three levels, broadcast, flipped and expression operands, and threads") {
    const auto x = counting<float>({3, 40, 90}, 6); // (batch, rows, cols)
    const auto y = counting<float>({3, 90, 40}, 7); // transposed in its last two axes
    const auto row = counting<float>({90}, 8);      // broadcast along rows
    const auto col = counting<float>({40, 1}, 9);   // broadcast along columns
    const fusor::tensor<float> out = fusor::eval(x * 2.f + fusor::swapaxes(y, 1, 2) - row + col);
    CHECK(
        kernel_line(x * 2.f + fusor::swapaxes(y, 1, 2) - row + col).starts_with("kernel:  tiled"));
    bool all_equal = true;
    for (index_t n = 0; n < 3; ++n)
        for (index_t i = 0; i < 40; ++i)
            for (index_t j = 0; j < 90; ++j)
                all_equal =
                    all_equal && out(n, i, j) == x(n, i, j) * 2.f + y(n, j, i) - row(j) + col(i, 0);
    CHECK(all_equal);

    // A flipped transposed operand, and the transpose of an expression.
    const auto a = counting<double>({64, 80}, 10), b = counting<double>({80, 64}, 11);
    const fusor::tensor<double> flipped = fusor::eval(a - fusor::flip(fusor::transpose(b), 0));
    const fusor::tensor<double> of_expr = fusor::eval(a + fusor::transpose(b * 3.0 + 1.0));
    bool flipped_ok = true, expr_ok = true;
    for (index_t i = 0; i < 64; ++i)
        for (index_t j = 0; j < 80; ++j) {
            flipped_ok = flipped_ok && flipped(i, j) == a(i, j) - b(j, 63 - i);
            expr_ok = expr_ok && of_expr(i, j) == a(i, j) + (b(j, i) * 3.0 + 1.0);
        }
    CHECK(flipped_ok);
    CHECK(expr_ok);

    // Transposed views off unit stride in both directions (every second row and column: the
    // staging's element-by-element path) and with a column offset (the block path from an
    // element that is not the first).
    const auto wide = counting<float>({150, 170}, 14);
    const auto v = fusor::view(wide, fusor::slice(0, 140, 2), fusor::slice(1, 151)); // (70, 150)
    const auto u = counting<float>({150, 70}, 15);
    const fusor::tensor<float> stepped = fusor::eval(u + fusor::transpose(v));
    const fusor::tensor<float> shifted = fusor::eval(
        counting<float>({150, 150}, 16)
        + fusor::transpose(fusor::view(wide, fusor::slice(0, 150), fusor::slice(3, 153))));
    bool stepped_ok = true, shifted_ok = true;
    const auto base = counting<float>({150, 150}, 16);
    for (index_t i = 0; i < 150; ++i) {
        for (index_t j = 0; j < 70; ++j)
            stepped_ok = stepped_ok && stepped(i, j) == u(i, j) + wide(2 * j, i + 1);
        for (index_t j = 0; j < 150; ++j)
            shifted_ok = shifted_ok && shifted(i, j) == base(i, j) + wide(j, i + 3);
    }
    CHECK(stepped_ok);
    CHECK(shifted_ok);
    CHECK(kernel_line(u + fusor::transpose(v)).starts_with("kernel:  tiled"));

    // Split across threads: whole tile rows per chunk, the same bits.
    const auto big = counting<float>({512, 300}, 12), bigt = counting<float>({300, 512}, 13);
    fusor::set_num_threads(1);
    const fusor::tensor<float> one = fusor::eval(big + fusor::transpose(bigt));
    fusor::set_num_threads(3);
    const fusor::tensor<float> three = fusor::eval(big + fusor::transpose(bigt));
    fusor::set_num_threads(1);
    CHECK(fusor::array_equal(one, three));
    CHECK(one(511, 299) == big(511, 299) + bigt(299, 511));
}

TEST_CASE("the strided kernel steps its rows: three levels, a strided destination, threads") {
    // (3, 8, 8) of (3, 8, 11): blocks of 8 rows of 8, the batch level stepped by the driver; x's
    // rows do not continue from one to the next, so the tiles would not pack.
    const auto wider = counting<float>({3, 8, 11}, 17);
    const auto x = fusor::view(
        wider, fusor::slice(fusor::none), fusor::slice(fusor::none), fusor::slice(0, 8));
    CHECK(kernel_line(x + fusor::swapaxes(x, 1, 2)).starts_with("kernel:  strided"));
    const fusor::tensor<float> sum3 = fusor::eval(x + fusor::swapaxes(x, 1, 2));
    bool three_ok = true;
    for (index_t n = 0; n < 3; ++n)
        for (index_t i = 0; i < 8; ++i)
            for (index_t j = 0; j < 8; ++j)
                three_ok = three_ok && sum3(n, i, j) == x(n, i, j) + x(n, j, i);
    CHECK(three_ok);

    // Into every second column of a (6, 10): the destination at stride 2 in each row; the
    // columns between are left as they were.
    const auto a = counting<double>({6, 5}, 18), b = counting<double>({5, 6}, 19);
    fusor::tensor<double> dest = fusor::full<double>({6, 10}, -7.0);
    fusor::view(dest, fusor::slice(fusor::none, fusor::none), fusor::slice(0, fusor::none, 2)) =
        a * 2.0 - fusor::transpose(b);
    bool dest_ok = true;
    for (index_t i = 0; i < 6; ++i)
        for (index_t j = 0; j < 10; ++j)
            dest_ok =
                dest_ok && dest(i, j) == (j % 2 == 0 ? a(i, j / 2) * 2.0 - b(j / 2, i) : -7.0);
    CHECK(dest_ok);

    // Every third column of (1000, 901): two levels that do not coalesce, split across threads
    // in chunks of rows; the same values on one thread and three.
    const auto wide = counting<std::int64_t>({1000, 901}, 20);
    const auto c = counting<std::int64_t>({1000, 300}, 21);
    const auto third =
        fusor::view(wide, fusor::slice(fusor::none, fusor::none), fusor::slice(0, 900, 3));
    CHECK(kernel_line(c + third).starts_with("kernel:  strided"));
    fusor::set_num_threads(1);
    const fusor::tensor<std::int64_t> one = fusor::eval(c + third);
    fusor::set_num_threads(3);
    const fusor::tensor<std::int64_t> three = fusor::eval(c + third);
    fusor::set_num_threads(1);
    CHECK(fusor::array_equal(one, three));
    bool wide_ok = true;
    for (index_t i = 0; i < 1000; ++i)
        for (index_t j = 0; j < 300; ++j)
            wide_ok = wide_ok && one(i, j) == c(i, j) + wide(i, 3 * j);
    CHECK(wide_ok);
}

TEST_CASE("more operands than the driver's index words hold inline: strided and tiled") {
    // Eighteen leaves and the destination: 19 operands, past the 16 words exec::detail::
    // index_buffer holds in the object (offsets, steps and counters on the heap).
    for (const index_t n : {index_t{3}, index_t{8}, index_t{65}}) {
        CAPTURE(n);
        const auto x = counting<std::int32_t>({n, n}, 22);
        const auto t = fusor::transpose(x);
        const auto e = x + t + x + t + x + t + x + t + x + t + x + t + x + t + x + t + x + t;
        CHECK(kernel_line(e).starts_with(n == 3   ? "kernel:  strided"
                                         : n == 8 ? "kernel:  tiled (the two inner loops in tiles"
                                                  : "kernel:  tiled (the two inner loops in 16"));
        const fusor::tensor<std::int32_t> out = e;
        bool ok = true;
        for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < n; ++j)
                ok = ok && out(i, j) == 9 * (x(i, j) + x(j, i));
        CHECK(ok);
    }
}
