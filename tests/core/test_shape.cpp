// shape_t: printing as Python tuples, row-major strides, inline storage at any rank.
#include <sstream>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

using fusor::shape_t;

TEST_CASE("shapes print as Python tuples") {
    std::ostringstream os;
    os << shape_t{3, 4} << ' ' << shape_t{2} << ' ' << shape_t{};
    CHECK(os.str() == "(3, 4) (2,) ()");
    CHECK(fusor::to_compact_string(shape_t{3, 4}) == "(3,4)");
}

TEST_CASE("row-major strides and sizes") {
    // np.zeros((2,3,4)).strides / 8 -> (12, 4, 1)
    CHECK(fusor::row_major_strides(shape_t{2, 3, 4}) == shape_t{12, 4, 1});
    CHECK(fusor::row_major_strides(shape_t{}) == shape_t{});
    CHECK(fusor::shape_size(shape_t{}) == 1);
    CHECK(fusor::shape_size(shape_t{2, 0, 5}) == 0);
}

TEST_CASE("any rank: 32 axes spill out of the inline storage and still compare") {
    shape_t big(32, 1);
    big[31] = 7;
    shape_t copy = big;
    CHECK(copy == big);
    CHECK(copy.rank() == 32);
    CHECK(fusor::shape_size(copy) == 7);
}

namespace {
// A shape of `n` extents 10 i + `first`, made one of three ways: pushed (inline up to 6), cut
// down from 9 extents (a heap buffer of 9 holding fewer), or cut down and shrunk (a heap buffer
// that may hold fewer than 6).
shape_t made_shape(std::size_t n, int way, fusor::index_t first = 3) {
    shape_t s;
    if (way > 0)
        s.assign(9, 0);
    s.resize(n);
    if (way == 2)
        s.shrink_to_fit();
    for (std::size_t i = 0; i < n; ++i)
        s[i] = static_cast<fusor::index_t>(10 * i) + first;
    return s;
}
} // namespace

TEST_CASE("copies and moves keep every extent, inline or on the heap, in every direction") {
    // shape_t copies up to 6 extents itself (core/shape.hpp), the whole inline block where
    // both buffers hold 6; ranks 0-9 cross the inline storage's edge both ways, and sources and
    // destinations are each made the three ways of made_shape (under the sanitizers, a copy
    // that read or wrote the whole block of a smaller heap buffer fails).
    for (std::size_t from = 0; from <= 9; ++from) {
        for (int way = 0; way < 3; ++way) {
            shape_t src = made_shape(from, way);
            const shape_t original = made_shape(from, 0);
            CHECK(src == original);
            for (std::size_t to = 0; to <= 9; ++to) {
                for (int to_way = 0; to_way < 3; ++to_way) {
                    CAPTURE(from);
                    CAPTURE(way);
                    CAPTURE(to);
                    CAPTURE(to_way);
                    shape_t a = made_shape(to, to_way, -1);
                    a = src; // copy assignment
                    CHECK(a == original);
                    shape_t b = made_shape(to, to_way, -2);
                    b = made_shape(from, way); // move assignment
                    CHECK(b == original);
                    shape_t moved(std::move(b)); // move construction
                    CHECK(moved == original);
                    shape_t c = made_shape(to, to_way, -3);
                    c = std::move(moved); // move assignment
                    CHECK(c == original);
                    const shape_t copied(src); // copy construction
                    CHECK(copied == original);
                    CHECK(src == original); // never touched
                }
            }
            shape_t self = src;
            const shape_t& alias = self;
            self = alias; // self-assignment
            CHECK(self == original);
            shape_t& same = self;
            self = std::move(same); // self-move leaves it valid; here the same extents
            CHECK(self == original);
        }
    }
}
