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
