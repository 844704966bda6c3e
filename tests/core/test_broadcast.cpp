// Broadcasting on shapes: NumPy's rule and its error messages (expected values from
// numpy.broadcast_shapes, see ../shared/numpy-semantics.md §4.3).
#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

using fusor::shape_t;

TEST_CASE("broadcast_shapes follows numpy.broadcast_shapes") {
    // np.broadcast_shapes((2,1,3), (4,1), ()) -> (2, 4, 3)
    const shape_t a{2, 1, 3}, b{4, 1}, c{};
    CHECK(fusor::broadcast_shapes({&a, &b, &c}) == shape_t{2, 4, 3});
    // np.broadcast_shapes((0,1), (1,5)) -> (0, 5): 0 broadcasts with 1 to 0
    CHECK(fusor::broadcast_shapes(shape_t{0, 1}, shape_t{1, 5}) == shape_t{0, 5});
    CHECK(fusor::broadcast_shapes(shape_t{}, shape_t{}) == shape_t{});
    CHECK(fusor::broadcast_shapes(shape_t{3}, shape_t{}) == shape_t{3});
}

TEST_CASE("incompatible shapes throw broadcast_error naming every shape") {
    // np.ones((3,4)) + np.ones((2,)) -> operands could not be broadcast together with shapes (3,4)
    // (2,)
    CHECK_THROWS_WITH_AS(fusor::broadcast_shapes(shape_t{3, 4}, shape_t{2}),
                         "operands could not be broadcast together with shapes (3,4) (2,)",
                         fusor::broadcast_error);
    // 0 broadcasts only with 1: np.zeros((0,)) + np.ones((2,)) fails
    CHECK_THROWS_AS(fusor::broadcast_shapes(shape_t{0}, shape_t{2}), fusor::broadcast_error);
    const shape_t x{2, 3}, y{3}, z{4, 1, 2};
    CHECK_THROWS_WITH(fusor::broadcast_shapes({&x, &y, &z}),
                      "operands could not be broadcast together with shapes (2,3) (3,) (4,1,2)");
}

TEST_CASE("the error is raised when the expression is built, by operators too") {
    fusor::tensor<double> a = fusor::ones<double>({3, 4});
    fusor::tensor<double> b = fusor::ones<double>({2});
    CHECK_THROWS_WITH_AS((void)(a + b),
                         "operands could not be broadcast together with shapes (3,4) (2,)",
                         fusor::broadcast_error);
    // broadcast_error is both a std::invalid_argument and a fusor::error
    try {
        (void)(a * b);
        FAIL("no throw");
    } catch (const fusor::error& e) {
        CHECK(dynamic_cast<const std::invalid_argument*>(&e) != nullptr);
    }
}

TEST_CASE("a binary node's shape is NumPy's broadcast shape, pointed at when a child has it") {
    // Pairs where one side's shape is the broadcast shape (elementwise's one-pass
    // detail::covering_child), where neither is, and where they do not broadcast; expected
    // shapes as numpy.broadcast_shapes.
    struct pair_case {
        shape_t a, b, want;
        int holder; // 0 or 1: the operand whose shape the node points at; -1: neither
    };
    const pair_case cases[] = {
        {{8, 16}, {8, 1}, {8, 16}, 0},
        {{8, 1}, {8, 16}, {8, 16}, 1},
        {{3, 4}, {4}, {3, 4}, 0},
        {{4}, {3, 4}, {3, 4}, 1},
        {{1}, {5}, {5}, 1},
        {{5}, {1}, {5}, 0},
        {{}, {3}, {3}, 1},
        {{2, 3}, {}, {2, 3}, 0},
        {{0}, {1}, {0}, 0},
        {{1}, {0}, {0}, 1},
        {{2, 1, 4}, {3, 1}, {2, 3, 4}, -1},
        {{3, 1}, {1, 4}, {3, 4}, -1},
        {{1, 1}, {1}, {1, 1}, 0},
        {{6, 1, 1}, {1, 5}, {6, 1, 5}, -1},
    };
    for (const auto& c : cases) {
        CAPTURE(c.a);
        CAPTURE(c.b);
        const fusor::tensor<float> a = fusor::full<float>(c.a, 1.0f),
                                   b = fusor::full<float>(c.b, 2.0f);
        const auto e = a + b;
        CHECK(e.shape() == c.want);
        if (c.holder == 0)
            CHECK(&e.shape() == &a.shape());
        else if (c.holder == 1)
            CHECK(&e.shape() == &b.shape());
        else
            CHECK((&e.shape() != &a.shape() && &e.shape() != &b.shape()));
        const fusor::tensor<float> r = e * 1.0f;
        CHECK(r.shape() == c.want);
        CHECK(fusor::array_equal(r, fusor::full<float>(c.want, 3.0f)));
    }
    const fusor::tensor<float> a(shape_t{2, 3}), b(shape_t{4, 3});
    CHECK_THROWS_AS((void)(a + b), fusor::broadcast_error);
    CHECK_THROWS_AS((void)(b - a), fusor::broadcast_error);
}

TEST_CASE("broadcasts_to: the destination rule of assignment") {
    CHECK(fusor::broadcasts_to(shape_t{3}, shape_t{2, 3}, false));
    CHECK(
        fusor::broadcasts_to(shape_t{1, 3}, shape_t{3}, true)); // plain assignment drops leading 1s
    CHECK_FALSE(fusor::broadcasts_to(shape_t{1, 3}, shape_t{3}, false)); // in place: no new axes
    CHECK_FALSE(fusor::broadcasts_to(shape_t{2, 3}, shape_t{3}, true));
    CHECK_FALSE(
        fusor::broadcasts_to(shape_t{3}, shape_t{1}, true)); // never stretches the destination
}

TEST_CASE("axes normalise like NumPy's and name the rank when out of range") {
    CHECK(fusor::normalize_axis(-1, 3) == 2);
    CHECK_THROWS_WITH_AS(fusor::normalize_axis(3, 2),
                         "axis 3 is out of bounds for tensor of rank 2",
                         fusor::axis_error);
    CHECK_THROWS_AS(fusor::normalize_axes(shape_t{0, -2}, 2), fusor::value_error);
}
