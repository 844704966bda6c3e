// Every error fusor throws in this release: its type, its message (naming the shapes, axes or
// values involved), its standard base class, and that the destination is untouched after it.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

using fusor::shape_t;

TEST_CASE("exception hierarchy: fusor::error mixin plus the standard bases") {
    CHECK(std::is_base_of_v<std::invalid_argument, fusor::broadcast_error>);
    CHECK(std::is_base_of_v<std::invalid_argument, fusor::value_error>);
    CHECK(std::is_base_of_v<std::out_of_range, fusor::axis_error>);
    CHECK(std::is_base_of_v<std::out_of_range, fusor::index_error>);
    CHECK(std::is_base_of_v<std::runtime_error, fusor::io_error>);
    CHECK(std::is_base_of_v<fusor::error, fusor::broadcast_error>);
    CHECK(std::is_base_of_v<fusor::error, fusor::axis_error>);
    CHECK_FALSE(std::is_base_of_v<std::exception, fusor::error>);
}

TEST_CASE("axis_error names the axis and the rank") {
    fusor::tensor<double> a = fusor::ones<double>({2, 3});
    // np.sum(a, axis=2) -> AxisError: axis 2 is out of bounds for array of dimension 2
    CHECK_THROWS_WITH_AS(
        fusor::sum(a, 2), "axis 2 is out of bounds for tensor of rank 2", fusor::axis_error);
    CHECK_THROWS_WITH_AS(
        fusor::argmax(a, -3), "axis -3 is out of bounds for tensor of rank 2", fusor::axis_error);
    CHECK_THROWS_AS(fusor::transpose(a, {0, 2}), fusor::axis_error);
    CHECK_THROWS_AS(fusor::diagonal(a, 0, 0, 5), fusor::axis_error);
    // np.sum(np.array(5.0), axis=1) -> AxisError (axis 0 is accepted on 0-d)
    CHECK_THROWS_AS(fusor::sum(fusor::full({}, 5.0), 1), fusor::axis_error);
    CHECK(fusor::eval(fusor::sum(fusor::full({}, 5.0), 0)).item() == 5.0);
}

TEST_CASE("value_error: bad arguments, named") {
    fusor::tensor<double> a = fusor::ones<double>({2, 3});
    CHECK_THROWS_WITH_AS(fusor::sum(a, {1, -1}), "duplicate value in 'axis'", fusor::value_error);
    CHECK_THROWS_WITH_AS(fusor::transpose(a, {1, 1}),
                         "repeated axis in transpose: axes (1, 1) are not a permutation",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(fusor::transpose(a, {0}),
                         "axes don't match array: 1 axes for tensor of rank 2",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(fusor::diagonal(a, 0, 1, -1),
                         "axis1 and axis2 cannot be the same (both are axis 1)",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(fusor::diagonal(fusor::ones<double>({3})),
                         "diagonal requires a tensor of at least two dimensions, got rank 1",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(
        fusor::view(a, fusor::slice(0, 2, 0)), "slice step cannot be zero", fusor::value_error);
    CHECK_THROWS_WITH_AS(fusor::view(a, 0, 0, 0),
                         "too many indices for tensor: tensor is 2-dimensional, but 3 were indexed",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(fusor::view(a, fusor::ellipsis, fusor::ellipsis),
                         "an index can only have a single ellipsis",
                         fusor::value_error);
    fusor::tensor<std::uint8_t> u = {1, 2};
    CHECK_THROWS_WITH_AS(u + 300, "scalar 300 is out of bounds for uint8", fusor::value_error);
    CHECK_THROWS_WITH_AS(u + (-1), "scalar -1 is out of bounds for uint8", fusor::value_error);
}

TEST_CASE("value_error: a reduction with no identity over an empty axis, before any store") {
    fusor::tensor<double> z = fusor::zeros<double>({2, 0});
    fusor::tensor<double> out = {7, 7};
    CHECK_THROWS_WITH_AS(out = fusor::max(z, 1),
                         "zero-size array to reduction operation maximum which has no identity "
                         "(reducing axes (1,) of shape (2, 0))",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(out = fusor::argmin(z, 1),
                         "attempt to get argmin of an empty sequence (reducing axes (1,) of shape "
                         "(2, 0))",
                         fusor::value_error);
    CHECK(std::vector<double>(out.begin(), out.end()) == std::vector<double>{7, 7});
    // An empty result is fine (NumPy's rule).
    CHECK(fusor::eval(fusor::max(fusor::zeros<double>({0, 3}), 1)).shape() == shape_t{0});
}

TEST_CASE("index_error: integers outside their axis") {
    fusor::tensor<double> a = fusor::ones<double>({2, 3});
    CHECK_THROWS_WITH_AS(
        fusor::view(a, 2), "index 2 is out of bounds for axis 0 with size 2", fusor::index_error);
    CHECK_THROWS_WITH_AS(fusor::view(a, fusor::all, -4),
                         "index -4 is out of bounds for axis 1 with size 3",
                         fusor::index_error);
    CHECK_THROWS_WITH_AS(
        a.at(0, 3), "index 3 is out of bounds for axis 1 with size 3", fusor::index_error);
    CHECK_THROWS_WITH_AS(a.at(0), "at(): 1 indices for tensor of rank 2", fusor::index_error);
}

TEST_CASE("broadcast_error on assignment leaves the destination untouched") {
    fusor::tensor<double> c = {{1, 2, 3}, {4, 5, 6}};
    const std::vector<double> before(c.begin(), c.end());
    CHECK_THROWS_WITH_AS(c += fusor::ones<double>({2}),
                         "operands could not be broadcast together with shapes (2,3) (2,)",
                         fusor::broadcast_error);
    CHECK_THROWS_WITH_AS(fusor::transpose(c) = fusor::ones<double>({2, 3}),
                         "could not broadcast input array from shape (2,3) into shape (3,2)",
                         fusor::broadcast_error);
    CHECK_THROWS_AS(c -= fusor::ones<double>({4, 2, 3}), fusor::broadcast_error);
    CHECK(std::vector<double>(c.begin(), c.end()) == before);
}

TEST_CASE("every error type leaves the destination untouched: =, +=, and through a view") {
    fusor::tensor<double> c = {{1, 2, 3}, {4, 5, 6}};
    const std::vector<double> before(c.begin(), c.end());
    const fusor::tensor<double> a = fusor::ones<double>({2, 3});
    auto unchanged = [&] {
        return std::vector<double>(c.begin(), c.end()) == before;
    };
    // axis_error: a bad axis in a reduction, a view or a squeeze on the right side
    CHECK_THROWS_AS(c = fusor::sum(a, 3) + a, fusor::axis_error);
    CHECK_THROWS_AS(c += fusor::swapaxes(a, 0, 2), fusor::axis_error);
    CHECK_THROWS_AS(fusor::view(c, 0) = fusor::squeeze(a, -3), fusor::axis_error);
    CHECK(unchanged());
    // value_error: a reshape whose size does not match, an empty max, an out-of-range scalar
    CHECK_THROWS_WITH_AS(c = fusor::reshape(a, {4, -1}) + 1.0,
                         "cannot reshape tensor of size 6 into shape (4, -1)",
                         fusor::value_error);
    CHECK_THROWS_AS(c += fusor::max(fusor::zeros<double>({3, 0}), 1), fusor::value_error);
    fusor::tensor<std::int8_t> i = {{1, 2, 3}, {4, 5, 6}};
    const fusor::tensor<std::int8_t> ones8 = {1, 1, 1};
    CHECK_THROWS_AS(i += ones8 * 200, fusor::value_error);
    CHECK(i(1, 2) == 6);
    // index_error: an integer index outside its axis
    CHECK_THROWS_AS(fusor::view(c, 1) = fusor::view(a, 5), fusor::index_error);
    // broadcast_error: through a reshaped view, and an expression that does not broadcast
    CHECK_THROWS_WITH_AS(fusor::reshape(c, {3, 2}) = a,
                         "could not broadcast input array from shape (2,3) into shape (3,2)",
                         fusor::broadcast_error);
    CHECK_THROWS_AS(c = a + fusor::ones<double>({2}), fusor::broadcast_error);
    CHECK(unchanged());
}
