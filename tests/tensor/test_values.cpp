// Expressions used as values: item(), explicit conversion, printing with <<, the column literal,
// the *_like factories and the factories' default element types (NumPy's: int64 for integers).
#include <cmath>
#include <cstdint>
#include <sstream>
#include <type_traits>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

using fusor::shape_t;
using fusor::tensor;

TEST_CASE("item() and explicit conversion of one-element expressions") {
    const tensor<float> a = {1.5f, 2.5f, 4.0f};
    CHECK(fusor::sum(a).item() == 8.0f);
    static_assert(std::is_same_v<decltype(fusor::sum(a).item()), float>);
    CHECK(static_cast<double>(fusor::sum(a * 2.0f)) == 16.0);
    CHECK(static_cast<int>(fusor::max(a)) == 4);
    CHECK((fusor::view(a, fusor::slice(1, 2)) + 1.0f).item() == 3.5f);
    CHECK(fusor::reshape(a + 0.0f, {3, 1}).shape() == shape_t{3, 1});
    CHECK(bool(fusor::all(a > 0.0f)));
    CHECK_FALSE(bool(fusor::any(a > 10.0f)));
    // More than one element: NumPy's "only size-1 arrays can be converted", as value_error.
    CHECK_THROWS_AS((void)(a + 1.0f).item(), fusor::value_error);
    CHECK_THROWS_AS((void)static_cast<double>(a * 2.0f), fusor::value_error);
    CHECK_THROWS_AS((void)bool(a > 0.0f), fusor::value_error);
    // `if (a > 0)` over several elements: NumPy's reason ("The truth value of an array with
    // more than one element is ambiguous. Use a.any() or a.all()"); empty: NumPy 2's.
    CHECK_THROWS_WITH_AS((void)bool(a > 0.0f),
                         "the truth value of an array with more than one element is ambiguous "
                         "(shape (3,)): use any(e) or all(e)",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS((void)bool(fusor::view(a, fusor::slice(0, 0)) + 1.0f),
                         "the truth value of an empty array is ambiguous (shape (0,)): test "
                         "e.size() > 0",
                         fusor::value_error);
}

TEST_CASE("tensors and views of one element convert explicitly, as expressions do") {
    // API.md: every expression (tensors and views included) has an explicit conversion to a
    // value for one element, as numpy.ndarray's __float__, __int__ and __bool__.
    const tensor<float> one = {{2.5f}};
    CHECK(static_cast<double>(one) == 2.5);
    CHECK(static_cast<int>(one) == 2);
    CHECK(bool(one));
    const tensor<std::int64_t> zero_d = fusor::full(shape_t{}, std::int64_t{0});
    CHECK_FALSE(bool(zero_d));
    const tensor<float> a = {1.5f, 2.5f, 4.0f};
    CHECK(static_cast<float>(fusor::view(a, fusor::slice(2, 3))) == 4.0f);
    CHECK(static_cast<double>(fusor::view(a, 1)) == 2.5);
    CHECK_THROWS_AS((void)static_cast<double>(a), fusor::value_error);
    CHECK_THROWS_AS((void)bool(a), fusor::value_error);
    CHECK_THROWS_AS((void)static_cast<float>(fusor::view(a, fusor::slice(0, 2))),
                    fusor::value_error);
    CHECK_THROWS_WITH_AS((void)bool(a),
                         "the truth value of an array with more than one element is ambiguous "
                         "(shape (3,)): use any(e) or all(e)",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS((void)bool(fusor::view(a, fusor::slice(0, 0))),
                         "the truth value of an empty array is ambiguous (shape (0,)): test "
                         "e.size() > 0",
                         fusor::value_error);
}

TEST_CASE("an expression prints as its evaluated tensor") {
    const tensor<double> a = {{1.0, 2.0}, {3.0, 4.0}};
    std::ostringstream expr_out, tensor_out;
    expr_out << a * 2.0 + 1.0;
    tensor_out << fusor::eval(a * 2.0 + 1.0);
    CHECK(expr_out.str() == tensor_out.str());
    CHECK(expr_out.str() == "[[3. 5.]\n [7. 9.]]");
    std::ostringstream sum_out;
    sum_out << fusor::sum(a);
    CHECK(sum_out.str() == "10.0");
}

TEST_CASE("the column literal {{1.0}, {2.0}} is a (2, 1) tensor") {
    tensor<double> c = {{1.0}, {2.0}};
    CHECK(c.shape() == shape_t{2, 1});
    CHECK(c(1, 0) == 2.0);
    tensor<double> one = {5.0};
    CHECK(one.shape() == shape_t{1});
    tensor<double> mixed = {1, 2.5}; // mixed literals convert to T, as before
    CHECK(mixed(0) == 1.0);
    tensor<int> row = {{1, 2, 3}};
    CHECK(row.shape() == shape_t{1, 3});
}

TEST_CASE("zeros_like, ones_like, empty_like, full_like follow NumPy's dtype rules") {
    const tensor<int> i = {{1, 2, 3}, {4, 5, 6}};
    auto z = fusor::zeros_like(i);
    static_assert(std::is_same_v<decltype(z), tensor<int>>);
    CHECK(z.shape() == shape_t{2, 3});
    CHECK(fusor::sum(z).item() == 0);
    auto o = fusor::ones_like<float>(i * 2); // of an expression, another dtype
    static_assert(std::is_same_v<decltype(o), tensor<float>>);
    CHECK(fusor::sum(o).item() == 6.0f);
    auto e = fusor::empty_like(fusor::transpose(i));
    CHECK(e.shape() == shape_t{3, 2});
    auto f = fusor::full_like(i, 2.7); // cast to int as NumPy's full_like: 2
    static_assert(std::is_same_v<decltype(f), tensor<int>>);
    CHECK(f(1, 2) == 2);
    auto fd = fusor::full_like<double>(i, 2.7);
    CHECK(fd(0, 0) == 2.7);
}

TEST_CASE("arange and full default to NumPy's int64 for a plain int") {
    auto r = fusor::arange(10);
    static_assert(std::is_same_v<decltype(r), tensor<std::int64_t>>);
    CHECK(r.shape() == shape_t{10});
    CHECK(r(9) == 9);
    auto f = fusor::full({2, 2}, 7);
    static_assert(std::is_same_v<decltype(f), tensor<std::int64_t>>);
    CHECK(f(1, 1) == 7);
    // An explicit type, or a typed argument, is kept.
    static_assert(std::is_same_v<decltype(fusor::arange<int>(3)), tensor<int>>);
    static_assert(std::is_same_v<decltype(fusor::arange(0.0, 1.0, 0.25)), tensor<double>>);
    static_assert(std::is_same_v<decltype(fusor::full({2}, 0.5f)), tensor<float>>);
    static_assert(
        std::is_same_v<decltype(fusor::full({2}, std::uint8_t{1})), tensor<std::uint8_t>>);
    CHECK(fusor::arange<double>(0, 1.5, 0.5).size() == 3);
    // 100000^2 fits int64, as in NumPy (int32 would overflow).
    CHECK(fusor::max(fusor::arange(100000) * fusor::arange(100000)).item()
          == std::int64_t{99999} * 99999);
}

TEST_CASE("the README's workarounds for what fusor does not have yet compute NumPy's values") {
    using fusor::all;
    using fusor::newaxis;
    using fusor::none;
    using fusor::slice;
    using fusor::view;
    const tensor<double> a = {{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}}; // (3, 2)
    const tensor<double> b = {{1.0, 0.0, 2.0}, {0.0, 1.0, 3.0}};   // (2, 3)
    // a @ b = [[1, 2, 8], [3, 4, 18], [5, 6, 28]]
    tensor<double> m = fusor::sum(view(a, all, all, newaxis) * view(b, newaxis, all, all), 1);
    CHECK(m.shape() == shape_t{3, 3});
    CHECK(m(0, 2) == 8.0);
    CHECK(m(2, 2) == 28.0);
    // np.concatenate([x, y])
    const tensor<double> x = {1.0, 2.0}, y = {3.0, 4.0, 5.0};
    tensor<double> r(shape_t{5});
    view(r, slice(0, 2)) = x;
    view(r, slice(2, none)) = y;
    CHECK(r(4) == 5.0);
    // masks
    const tensor<double> z = {-1.0, 2.0, -3.0, 4.0};
    tensor<double> kept = fusor::where(z > 0.0, z, 0.0);
    CHECK(kept(1) == 2.0);
    CHECK(kept(2) == 0.0);
    CHECK(fusor::count_nonzero(z > 0.0).item() == 2);
    // nansum
    const tensor<double> n = {1.0, std::nan(""), 2.0};
    CHECK(fusor::sum(fusor::where(fusor::isnan(n), 0.0, n)).item() == 3.0);
}
