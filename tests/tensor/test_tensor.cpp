// tensor<T>, tensor_view<T>, adapt and the factories.
#include <cstdint>
#include <sstream>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

using fusor::shape_t;

TEST_CASE("nested initializer lists give shape and row-major values") {
    fusor::tensor<double> a = {{1, 2, 3}, {4, 5, 6}};
    CHECK(a.shape() == shape_t{2, 3});
    CHECK(a.strides() == shape_t{3, 1});
    CHECK(a.rank() == 2);
    CHECK(a.size() == 6);
    CHECK(a(1, 2) == 6);
    CHECK(std::vector<double>(a.begin(), a.end()) == std::vector<double>{1, 2, 3, 4, 5, 6});
    CHECK_THROWS_AS((fusor::tensor<int>{{1, 2}, {3}}), fusor::value_error);
}

TEST_CASE("value semantics: copies are deep, moves are O(1)") {
    fusor::tensor<int> a = {1, 2, 3};
    fusor::tensor<int> b = a;
    b(0) = 10;
    CHECK(a(0) == 1);
    // More elements than fit inline: a move takes the heap buffer itself.
    fusor::tensor<int> big(shape_t{3, 4});
    big(2, 3) = 7;
    const int* p = big.data();
    fusor::tensor<int> c = std::move(big);
    CHECK(c.data() == p);
    CHECK(c(2, 3) == 7);
    CHECK(big.shape() == shape_t{0});
}

// Buffers on the heap start at a multiple of 64 bytes (core/tail_slack.hpp, buffer_alignment):
// operator new alone gives 16, and glibc's large blocks start 16 bytes past a page.
TEST_CASE("a tensor's heap buffer starts at a multiple of 64 bytes, for every size and type") {
    const auto aligned = [](const void* p) {
        return reinterpret_cast<std::uintptr_t>(p) % 64 == 0;
    };
    for (fusor::index_t n : {9, 17, 100, 1000, 4099, 1 << 20, (1 << 22) + 3}) {
        CAPTURE(n);
        CHECK(aligned(fusor::tensor<float>(shape_t{n}).data()));
        CHECK(aligned(fusor::tensor<double>(shape_t{n}).data()));
        CHECK(aligned(fusor::tensor<std::int8_t>(shape_t{n + 32}).data()));
        CHECK(aligned(fusor::tensor<bool>(shape_t{n + 32}).data()));
        CHECK(aligned(fusor::empty<std::int64_t>(shape_t{n}).data()));
    }
    // Results of evaluations and copies too.
    const fusor::tensor<float> a = fusor::arange<float>(0.0f, 1000.0f);
    const fusor::tensor<float> b = fusor::eval(a * 2.0f + 1.0f);
    CHECK(aligned(b.data()));
    const fusor::tensor<float> c = b;
    CHECK(aligned(c.data()));
    CHECK(c(999) == 1999.0f);
}

TEST_CASE("small tensors hold their elements inline; moves copy them, assignments reuse them") {
    static_assert(fusor::tensor<float>::inline_capacity == 8);
    static_assert(fusor::tensor<double>::inline_capacity == 4);
    static_assert(fusor::tensor<bool>::inline_capacity == 32);
    fusor::tensor<double> v = {1.5, -2.0, 3.25}; // 24 bytes: inline
    fusor::tensor<double> w = std::move(v);
    CHECK(w.shape() == shape_t{3});
    CHECK(std::vector<double>(w.begin(), w.end()) == std::vector<double>{1.5, -2.0, 3.25});
    CHECK(v.shape() == shape_t{0});
    CHECK(v.size() == 0);
    // Move-assignment of another size takes the elements (inline into inline, inline over a
    // heap buffer, a heap buffer over inline ones).
    fusor::tensor<double> big(shape_t{5});
    big(4) = 9.0;
    fusor::tensor<double> x = {7.0};
    x = std::move(big); // heap into an inline tensor
    CHECK(x.shape() == shape_t{5});
    CHECK(x(4) == 9.0);
    x = std::move(w); // inline over a heap buffer
    CHECK(std::vector<double>(x.begin(), x.end()) == std::vector<double>{1.5, -2.0, 3.25});
    // Equal sizes: the storage stays (views of it keep reading it).
    fusor::tensor<double> y = {4.0, 5.0, 6.0};
    const double* q = x.data();
    x = std::move(y);
    CHECK(x.data() == q);
    CHECK(x(2) == 6.0);
    // A 0-d tensor, a result of a full reduction, and its copy.
    const fusor::tensor<float> a = {1.0f, 2.0f, 3.0f};
    fusor::tensor<float> s = fusor::eval(fusor::sum(a * a));
    CHECK(s.rank() == 0);
    CHECK(s.item() == 14.0f);
    fusor::tensor<float> t = s;
    s = 0.0f;
    CHECK(t.item() == 14.0f);
    // A moved-from tensor takes a new value again.
    v = fusor::tensor<double>{8.0, 9.0};
    CHECK(v(1) == 9.0);
    std::vector<fusor::tensor<float>> many;
    for (int i = 0; i < 20; ++i)
        many.push_back(fusor::full(shape_t{2}, static_cast<float>(i)));
    for (int i = 0; i < 20; ++i)
        CHECK(many[static_cast<std::size_t>(i)](1) == static_cast<float>(i));
}

TEST_CASE("at() checks, item() needs size 1") {
    fusor::tensor<int> a = {{1, 2}, {3, 4}};
    CHECK(a.at(1, -1) == 4);
    CHECK_THROWS_AS(a.at(2, 0), fusor::index_error);
    CHECK_THROWS_AS(a.at(0), std::out_of_range);
    CHECK_THROWS_AS(a.item(), fusor::value_error);
    CHECK(fusor::full({}, 5.0).item() == 5.0);
    CHECK(fusor::full({}, 5.0).rank() == 0);
}

TEST_CASE("factories match NumPy's") {
    CHECK(fusor::zeros<float>({3, 4}).shape() == shape_t{3, 4});
    CHECK(fusor::ones<int>({2})(1) == 1);
    // np.arange(0, 1, 0.25) -> [0, 0.25, 0.5, 0.75]
    auto r = fusor::arange(0.0, 1.0, 0.25);
    CHECK(r.shape() == shape_t{4});
    CHECK(r(3) == 0.75);
    CHECK(fusor::arange<int>(12).size() == 12);
    CHECK(fusor::arange<int>(5, 0, -2).size() == 3); // np.arange(5, 0, -2) -> [5, 3, 1]
    CHECK(fusor::arange<int>(5, 0, -2)(2) == 1);
    CHECK_THROWS_AS(fusor::arange<int>(0, 5, 0), fusor::value_error);
    // np.linspace(0, 1, 5) -> [0, 0.25, 0.5, 0.75, 1]
    auto l = fusor::linspace(0.0, 1.0, 5);
    CHECK(l(1) == 0.25);
    CHECK(l(4) == 1.0);
    auto e = fusor::eye<int>(3);
    CHECK(e(1, 1) == 1);
    CHECK(e(1, 2) == 0);
}

TEST_CASE("adapt views external memory, with or without strides") {
    std::vector<float> buf{0, 1, 2, 3, 4, 5};
    auto v = fusor::adapt(buf.data(), {2, 3});
    CHECK(v(1, 0) == 3);
    auto t = fusor::adapt(buf.data(), {3, 2}, {1, 3}); // the transpose, by strides
    CHECK(t(2, 1) == 5);
    v(0, 0) = 42;
    CHECK(buf[0] == 42);
    const std::vector<float>& cbuf = buf;
    auto cv = fusor::adapt(cbuf.data(), {}); // 0-d view of the first element
    CHECK(cv.item() == 42);
}

TEST_CASE("printing follows NumPy's print()") {
    // print(np.array([[1., 2.5], [-3., 4.]])) -> [[ 1.   2.5]\n [-3.   4. ]]
    std::ostringstream os;
    os << fusor::tensor<double>{{1., 2.5}, {-3., 4.}};
    CHECK(os.str() == "[[ 1.   2.5]\n [-3.   4. ]]");
    std::ostringstream b;
    b << fusor::tensor<bool>{true, false} << ' ' << fusor::tensor<int>{1, -20, 300};
    CHECK(b.str() == "[ True False] [  1 -20 300]");
}

TEST_CASE("shapes no array can have throw value_error, as NumPy's") {
    // np.empty((2, -1)): ValueError: negative dimensions are not allowed.
    CHECK_THROWS_WITH_AS(fusor::tensor<float>(fusor::shape_t{2, -1}),
                         "negative dimensions are not allowed: shape (2, -1)",
                         fusor::value_error);
    // np.empty((0, 2**40, 2**40)): ValueError: array is too big (the zero does not excuse it).
    CHECK_THROWS_WITH_AS(
        fusor::tensor<float>(fusor::shape_t{0, fusor::index_t{1} << 40, fusor::index_t{1} << 40},
                             fusor::uninitialized),
        "array is too big: shape (0, 1099511627776, 1099511627776) of 4-byte elements",
        fusor::value_error);
    // The largest extent product that fits is fine when another extent is 0.
    const fusor::tensor<double> empty(fusor::shape_t{0, fusor::index_t{1} << 50});
    CHECK(empty.size() == 0);
    CHECK(empty.strides() == fusor::strides_t{fusor::index_t{1} << 50, 1});
}
