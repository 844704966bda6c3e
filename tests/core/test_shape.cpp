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

TEST_CASE("copies and moves keep every extent, inline or on the heap, in every direction") {
    // shape_t copies up to 6 extents itself (core/shape.hpp); ranks 0-9 cross the inline
    // storage's edge both ways.
    for (std::size_t from = 0; from <= 9; ++from) {
        shape_t src;
        for (std::size_t i = 0; i < from; ++i)
            src.push_back(static_cast<fusor::index_t>(10 * i + 3));
        const shape_t original = src;
        CHECK(original.size() == from);
        for (std::size_t to = 0; to <= 9; ++to) {
            CAPTURE(from);
            CAPTURE(to);
            shape_t a(to, -1), b(to, -2), c(to, -3);
            a = src; // copy assignment
            CHECK(a == original);
            b = shape_t(src); // move assignment from a temporary copy
            CHECK(b == original);
            shape_t moved(std::move(b)); // move construction
            CHECK(moved == original);
            c = std::move(moved); // move assignment
            CHECK(c == original);
            CHECK(src == original); // never touched
        }
        shape_t self = original;
        const shape_t& alias = self;
        self = alias; // self-assignment
        CHECK(self == original);
        shape_t& same = self;
        self = std::move(same); // self-move leaves it valid; here the same extents
        CHECK(self == original);
    }
}
