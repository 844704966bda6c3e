// swapaxes, moveaxis, expand_dims, squeeze and reshape: shapes, values, writability, views of
// views and of expressions, errors and aliasing. Every expected shape and value list below was
// printed by NumPy 1.24 for the expression in the comment beside it, with
// a = np.arange(24).reshape(2, 3, 4) and b = np.arange(6).reshape(1, 2, 1, 3, 1).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

using fusor::shape_t;
using fusor::strides_t;

namespace {
using i64 = std::int64_t;

fusor::tensor<i64> make_a() {
    fusor::tensor<i64> a = fusor::arange<i64>(24);
    a.reshape({2, 3, 4});
    return a;
}
fusor::tensor<i64> make_b() {
    fusor::tensor<i64> b = fusor::arange<i64>(6);
    b.reshape({1, 2, 1, 3, 1});
    return b;
}

// Row-major values of any tensor, view or expression.
template <class E>
std::vector<i64> values(const E& e) {
    const fusor::tensor<i64> t = fusor::cast<i64>(e);
    return {t.begin(), t.end()};
}

template <class E>
std::size_t temporaries(const E& e) {
    return fusor::explain(e).plan.boundaries.size();
}

const std::vector<i64> iota24 = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23};
} // namespace

TEST_CASE("swapaxes and moveaxis are transposes") {
    fusor::tensor<i64> a = make_a();
    auto s = fusor::swapaxes(a, 0, 2); // np.swapaxes(a, 0, 2)
    CHECK(s.shape() == shape_t{4, 3, 2});
    CHECK(values(s) == std::vector<i64>{0, 12, 4, 16, 8,  20, 1, 13, 5, 17, 9,  21,
                                        2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23});
    CHECK(s.data() == a.data()); // a view, not a copy
    // np.swapaxes(a, -1, 1)
    CHECK(values(fusor::swapaxes(a, -1, 1)) == std::vector<i64>{0,  4,  8,  1,  5,  9,  2,  6,
                                                                10, 3,  7,  11, 12, 16, 20, 13,
                                                                17, 21, 14, 18, 22, 15, 19, 23});
    // np.moveaxis(a, 0, -1)
    auto m = fusor::moveaxis(a, 0, -1);
    CHECK(m.shape() == shape_t{3, 4, 2});
    CHECK(values(m) == std::vector<i64>{0, 12, 1, 13, 2, 14, 3, 15, 4,  16, 5,  17,
                                        6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23});
    // np.moveaxis(a, [0, 1], [-1, -2]) equals np.swapaxes(a, 0, 2)
    CHECK(fusor::moveaxis(a, {0, 1}, {-1, -2}).shape() == shape_t{4, 3, 2});
    CHECK(values(fusor::moveaxis(a, {0, 1}, {-1, -2})) == values(s));
    // np.moveaxis(a, [2, 0], [0, 1])
    auto m2 = fusor::moveaxis(a, {2, 0}, {0, 1});
    CHECK(m2.shape() == shape_t{4, 2, 3});
    CHECK(values(m2) == std::vector<i64>{0, 4, 8,  12, 16, 20, 1, 5, 9,  13, 17, 21,
                                         2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23});

    // Writable on a tensor: assigning through the swapped view writes a.
    fusor::swapaxes(a, 0, 2)(3, 1, 0) = 100; // a[0, 1, 3]
    CHECK(a(0, 1, 3) == 100);

    // On an expression: a lazy remap, never a temporary.
    const auto e = fusor::swapaxes(a * 2, 0, 2);
    CHECK(temporaries(e) == 0);
    CHECK(values(e)[6] == 2); // (a * 2)[0, 0, 1]

    // np.swapaxes(a, 0, 3) -> AxisError; np.moveaxis(a, [0, 1], [1]) -> ValueError "`source` and
    // `destination` arguments must have the same number of elements"; np.moveaxis(a, [0, 0],
    // [1, 2]) -> ValueError "repeated axis in `source` argument".
    CHECK_THROWS_AS(fusor::swapaxes(a, 0, 3), fusor::axis_error);
    CHECK_THROWS_AS(fusor::moveaxis(a + 1, -4, 0), fusor::axis_error);
    CHECK_THROWS_WITH_AS(fusor::moveaxis(a, {0, 1}, {1}),
                         "moveaxis: `source` and `destination` arguments must have the same number "
                         "of elements, got (0, 1) and (1,)",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(fusor::moveaxis(a, {0, 0}, {1, 2}),
                         "moveaxis: repeated axis in `source` argument (0, 0)",
                         fusor::value_error);
}

TEST_CASE("expand_dims inserts extent-1 axes at positions of the result") {
    fusor::tensor<i64> a = make_a();
    auto e = fusor::expand_dims(a, {0, -1}); // np.expand_dims(a, (0, -1))
    CHECK(e.shape() == shape_t{1, 2, 3, 4, 1});
    CHECK(values(e) == iota24);
    CHECK(fusor::expand_dims(a, {1, 3}).shape() == shape_t{2, 1, 3, 1, 4});
    CHECK(fusor::expand_dims(a, -1).shape() == shape_t{2, 3, 4, 1});
    CHECK(fusor::expand_dims(a + 1, 0).shape() == shape_t{1, 2, 3, 4});
    // 0-d: np.expand_dims(np.int64(5), 0).shape == (1,)
    const fusor::tensor<i64> z = fusor::full<i64>({}, 5);
    CHECK(fusor::expand_dims(z, 0).shape() == shape_t{1});
    // Writable, and a column of a broadcast: (2, 3, 4) + expand_dims(x, -1) with x (2, 3, 1)...
    fusor::expand_dims(a, 1)(1, 0, 2, 3) = -7; // a[1, 2, 3]
    CHECK(a(1, 2, 3) == -7);
    // np.expand_dims(a, 4) -> AxisError (result rank 4); np.expand_dims(a, (1, 1)) -> ValueError
    CHECK_THROWS_WITH_AS(fusor::expand_dims(a, 4),
                         "axis 4 is out of bounds for tensor of rank 4",
                         fusor::axis_error);
    CHECK_THROWS_AS(fusor::expand_dims(a, {1, 1}), fusor::value_error);
}

TEST_CASE("squeeze removes extent-1 axes, all or the ones named") {
    fusor::tensor<i64> b = make_b();
    CHECK(fusor::squeeze(b).shape() == shape_t{2, 3});             // np.squeeze(b)
    CHECK(fusor::squeeze(b, 2).shape() == shape_t{1, 2, 3, 1});    // np.squeeze(b, 2)
    CHECK(fusor::squeeze(b, {0, -1}).shape() == shape_t{2, 1, 3}); // np.squeeze(b, (0, -1))
    CHECK(values(fusor::squeeze(b)) == std::vector<i64>{0, 1, 2, 3, 4, 5});
    // Down to 0-d: np.squeeze(np.ones((1, 1))).shape == ()
    CHECK(fusor::squeeze(fusor::ones<i64>({1, 1})).shape() == shape_t{});
    // Extent-0 axes are not extent 1: np.squeeze(np.ones((1, 0))).shape == (0,)
    CHECK(fusor::squeeze(fusor::ones<i64>({1, 0})).shape() == shape_t{0});
    // Writable on a tensor; lazy on an expression.
    fusor::squeeze(b) = fusor::squeeze(b) * 10;
    CHECK(values(b) == std::vector<i64>{0, 10, 20, 30, 40, 50});
    CHECK(fusor::squeeze(b + 1).shape() == shape_t{2, 3});
    CHECK(temporaries(fusor::squeeze(b + 1)) == 0);
    // np.squeeze(b, 1) -> ValueError "cannot select an axis to squeeze out which has size not
    // equal to one"; np.squeeze(b, 5) -> AxisError
    CHECK_THROWS_WITH_AS(fusor::squeeze(b, 1),
                         "cannot select an axis to squeeze out which has size not equal to one "
                         "(axis 1 of shape (1, 2, 1, 3, 1))",
                         fusor::value_error);
    CHECK_THROWS_AS(fusor::squeeze(b, 5), fusor::axis_error);
    CHECK_THROWS_AS(fusor::squeeze(b, {0, 0}), fusor::value_error);
}

TEST_CASE("reshape of a tensor is a writable view with -1 inferred") {
    fusor::tensor<i64> a = make_a();
    auto r = fusor::reshape(a, {4, -1}); // a.reshape(4, -1)
    CHECK(r.shape() == shape_t{4, 6});
    CHECK(r.strides() == strides_t{6, 1});
    CHECK(r.data() == a.data());
    CHECK(values(r) == iota24);
    r(3, 5) = 99; // a[1, 2, 3]
    CHECK(a(1, 2, 3) == 99);
    CHECK(fusor::reshape(a, 24).shape() == shape_t{24}); // np.reshape(a, 24)
    CHECK(fusor::reshape(a, -1).data() == a.data());
    fusor::reshape(a, {-1}) += 1; // compound assignment through the view
    CHECK(a(0, 0, 0) == 1);
    CHECK(a(1, 2, 3) == 100);
    // To 0-d and back: np.ones((1, 1)).reshape(()).shape == ()
    fusor::tensor<double> one = fusor::ones<double>({1, 1});
    CHECK(fusor::reshape(one, {}).shape() == shape_t{});
    CHECK(fusor::reshape(fusor::reshape(one, {}), {1, 1, 1}).shape() == shape_t{1, 1, 1});
    // Empty: np.zeros((0, 3)).reshape(3, 0, 5).shape == (3, 0, 5); .reshape(-1, 3) -> (0, 3)
    const fusor::tensor<double> empty = fusor::zeros<double>({0, 3});
    CHECK(fusor::reshape(empty, {3, 0, 5}).shape() == shape_t{3, 0, 5});
    CHECK(fusor::reshape(empty, {-1, 3}).shape() == shape_t{0, 3});
    // An rvalue tensor is reshaped in place: reshape(arange(6), {2, 3}) is a tensor.
    auto t = fusor::reshape(fusor::arange<i64>(6), {2, -1});
    static_assert(std::is_same_v<decltype(t), fusor::tensor<i64>>);
    CHECK(t.shape() == shape_t{2, 3});
    CHECK(values(t) == std::vector<i64>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("reshape errors name the size and the shape; nothing is written") {
    fusor::tensor<i64> a = make_a();
    fusor::tensor<i64> c = fusor::zeros<i64>({24});
    // a.reshape(5, -1) -> ValueError: cannot reshape array of size 24 into shape (5,newaxis)
    CHECK_THROWS_WITH_AS(c = fusor::reshape(a, {5, -1}),
                         "cannot reshape tensor of size 24 into shape (5, -1)",
                         fusor::value_error);
    CHECK_THROWS_WITH_AS(fusor::reshape(a + 1, {25}),
                         "cannot reshape tensor of size 24 into shape (25,)",
                         fusor::value_error);
    // a.reshape(-1, -1) -> ValueError: can only specify one unknown dimension
    CHECK_THROWS_AS(fusor::reshape(a, {-1, -1}), fusor::value_error);
    // NumPy 1.24 reads any negative extent as unknown (a.reshape(-2, 12) works); API.md allows
    // only -1, as NumPy 2 does after its deprecation.
    CHECK_THROWS_AS(fusor::reshape(a, {-2, 12}), fusor::value_error);
    // np.zeros((0, 3)).reshape(-1, 0) -> ValueError: the unknown extent is undetermined
    CHECK_THROWS_AS(fusor::reshape(fusor::zeros<double>({0, 3}), {-1, 0}), fusor::value_error);
    CHECK_THROWS_AS(c += fusor::reshape(a, {4, 7}), fusor::value_error);
    CHECK(values(c) == std::vector<i64>(24, 0));
    // The in-place member leaves the tensor unchanged on error.
    CHECK_THROWS_AS(a.reshape({7, 7}), fusor::value_error);
    CHECK(a.shape() == shape_t{2, 3, 4});
}

TEST_CASE("reshape of a view: a view when the layout allows (NumPy's rule), else a copy") {
    fusor::tensor<i64> a = make_a();
    using fusor::none;
    using fusor::slice;
    // a[:, 1:, :].reshape(2, -1): rows 1..2 of each block are contiguous -> a view
    auto v1 = fusor::reshape(fusor::view(a, fusor::all, slice(1, none)), {2, -1});
    CHECK(v1.shape() == shape_t{2, 8});
    CHECK(v1.owner() == nullptr);
    CHECK(values(v1) == std::vector<i64>{4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23});
    // a[:, :, 1].reshape(-1): strides (12, 4) merge into one of 4 -> a view
    auto v2 = fusor::reshape(fusor::view(a, fusor::all, fusor::all, 1), {-1});
    CHECK(v2.strides() == strides_t{4});
    CHECK(values(v2) == std::vector<i64>{1, 5, 9, 13, 17, 21});
    v2 = 0; // writes a's column 1
    CHECK(a(1, 2, 1) == 0);
    CHECK(a(0, 1, 1) == 0);
    v2 = fusor::tensor<i64>{1, 5, 9, 13, 17, 21}; // and back
    CHECK(values(a) == iota24);
    // a.transpose(1, 0, 2).reshape(3, 2, 2, 2): splits only -> a view, strides (32, 96, 16, 8)
    // bytes, i.e. (4, 12, 2, 1) elements
    auto v3 = fusor::reshape(fusor::transpose(a, {1, 0, 2}), {3, 2, 2, 2});
    CHECK(v3.strides() == strides_t{4, 12, 2, 1});
    CHECK(values(v3) == std::vector<i64>{0,  1,  2,  3,  12, 13, 14, 15, 4,  5,  6,  7,
                                         16, 17, 18, 19, 8,  9,  10, 11, 20, 21, 22, 23});
    // a[:, 1:, ::2].reshape(2, -1): the stepped axis merges with the row axis -> NumPy shares
    // memory here too (stride 8 = 2 * 4 of each row, contiguous with respect to each other)
    auto v4 =
        fusor::reshape(fusor::view(a, fusor::all, slice(1, none), slice(none, none, 2)), {2, -1});
    CHECK(v4.owner() == nullptr);
    CHECK(values(v4) == std::vector<i64>{4, 6, 8, 10, 16, 18, 20, 22});
    // a.T.reshape(-1): no strides can do it -> a copy, owned by the returned view
    auto c = fusor::reshape(fusor::transpose(a), {-1});
    CHECK(c.owner() != nullptr);
    CHECK(c.data() != a.data());
    CHECK(values(c) == std::vector<i64>{0, 12, 4, 16, 8,  20, 1, 13, 5, 17, 9,  21,
                                        2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23});
    c(0) = -1; // writes the copy, not a (as writing NumPy's copy)
    CHECK(a(0, 0, 0) == 0);
    // explain says where the elements come from.
    const std::string text = explain_text::one_line(fusor::explain(c + 1).text());
    CHECK(text.find("t0 = view (reshape copy)") != std::string::npos);
    // Views of views: squeeze(reshape(swapaxes(...)))
    auto vv = fusor::squeeze(fusor::reshape(fusor::swapaxes(a, 0, 1), {3, 1, 8}));
    CHECK(vv.shape() == shape_t{3, 8});
    CHECK(values(vv)[8] == 4); // a.swapaxes(0, 1).reshape(3, 8)[1, 0]
}

TEST_CASE("reshape of an expression: an index remap when it splits, else materialised") {
    fusor::tensor<i64> a = make_a();
    // (a - 1).reshape(2, 3, 2, 2): splits the last axis -> no temporary
    const auto split = fusor::reshape(a - 1, {2, 3, 2, 2});
    CHECK(split.shape() == shape_t{2, 3, 2, 2});
    CHECK(temporaries(split) == 0);
    CHECK(values(split)[0] == -1);
    CHECK(values(split)[23] == 22);
    // (a * 2 + 1).reshape(4, 6): merges axes -> one temporary, shown by explain
    const auto merged = fusor::reshape(a * 2 + 1, {4, 6});
    CHECK(temporaries(merged) == 1);
    const auto text = explain_text::one_line(fusor::explain(merged * 1).text());
    CHECK(text.find("reshape copy of (2, 3, 4) into (4, 6)") != std::string::npos);
    CHECK(values(merged) == std::vector<i64>{1,  3,  5,  7,  9,  11, 13, 15, 17, 19, 21, 23,
                                             25, 27, 29, 31, 33, 35, 37, 39, 41, 43, 45, 47});
    // (a.T + 1).reshape(4, 6)
    CHECK(values(fusor::reshape(fusor::transpose(a) + 1, {4, 6}))
          == std::vector<i64>{1, 13, 5, 17, 9,  21, 2, 14, 6, 18, 10, 22,
                              3, 15, 7, 19, 11, 23, 4, 16, 8, 20, 12, 24});
    // Inside a reduction, and evaluated eagerly: (a * a).reshape(6, 4).sum(1)
    const std::vector<i64> sums = {14, 126, 366, 734, 1230, 1854};
    CHECK(values(fusor::sum(fusor::reshape(a * a, {6, 4}), 1)) == sums);
    CHECK(values(fusor::eval_eager(fusor::sum(fusor::reshape(a * a, {6, 4}), 1))) == sums);
    // Two equal reshape copies in one expression are computed once.
    const auto twice = fusor::reshape(a + 1, {-1}) * fusor::reshape(a + 1, {-1});
    const auto plan = fusor::explain(twice).plan;
    REQUIRE(plan.boundaries.size() == 2);
    CHECK(plan.boundaries[1].reused);
    CHECK(values(twice)[3] == 16);
    // Empty expressions reshape lazily.
    CHECK(temporaries(fusor::reshape(fusor::zeros<double>({0, 3}) + 1.0, {3, 0})) == 0);
}

TEST_CASE("aliasing through reshape: as if the right side were evaluated first") {
    fusor::tensor<double> x = fusor::arange<double>(6);
    x.reshape({2, 3});
    // x[...] = x.T.reshape(2, 3) + x -> [0, 4, 3, 7, 6, 10]
    x = fusor::reshape(fusor::transpose(x), {2, 3}) + x;
    CHECK(std::vector<double>(x.begin(), x.end()) == std::vector<double>{0, 4, 3, 7, 6, 10});
    // x.reshape(-1)[1:] = x.reshape(-1)[:-1] (overlapping views of the same elements)
    fusor::tensor<double> y = fusor::arange<double>(6);
    y.reshape({2, 3});
    auto flat = fusor::reshape(y, {-1});
    fusor::view(flat, fusor::slice(1, fusor::none)) = fusor::view(flat, fusor::slice(-1));
    CHECK(std::vector<double>(y.begin(), y.end()) == std::vector<double>{0, 0, 1, 2, 3, 4});
    // a += swapaxes(a, 0, 1) on a square matrix reads the old values (a + a.T)
    fusor::tensor<double> s = {{1, 2}, {3, 4}};
    s += fusor::swapaxes(s, 0, 1);
    CHECK(std::vector<double>(s.begin(), s.end()) == std::vector<double>{2, 5, 5, 8});
}

TEST_CASE("each view's map names the call that made it, as explain prints it") {
    // The labels are kept as a pattern and numbers and written out only when printed; these
    // are the texts the maps carried when they were formatted at construction.
    using fusor::detail::atleast_map;
    using fusor::detail::rot90_map;
    const shape_t s{2, 3, 4};
    CHECK(fusor::transpose_map(s, {}).label.str() == "transpose(axes=(2, 1, 0))");
    CHECK(fusor::transpose_map(s, {1, -1, 0}).label.str() == "transpose(axes=(1, 2, 0))");
    CHECK(fusor::swapaxes_map(s, 0, -1).label.str() == "swapaxes(0, 2)");
    CHECK(fusor::moveaxis_map(s, {0}, {-1}).label.str() == "moveaxis((0,) -> (2,))");
    CHECK(fusor::moveaxis_map(s, {0, 1}, {-1, -2}).label.str() == "moveaxis((0, 1) -> (2, 1))");
    CHECK(fusor::expand_dims_map(s, {-1}).label.str() == "expand_dims(axes=(-1,))");
    CHECK(fusor::squeeze_map(shape_t{1, 3, 1}, std::nullopt).label.str() == "squeeze");
    CHECK(fusor::squeeze_map(shape_t{1, 3, 1}, shape_t{0, 2}).label.str()
          == "squeeze(axes=(0, 2))");
    CHECK(fusor::diagonal_map(s, -1, 1, -1).label.str() == "diagonal(offset=-1, axis1=1, axis2=2)");
    CHECK(fusor::flip_map(s, std::nullopt).label.str() == "flip(axes=(0, 1, 2))");
    CHECK(fusor::flip_map(s, shape_t{-1}).label.str() == "flip(axes=(2,))");
    CHECK(fusor::broadcast_map(shape_t{4}, s).label.str() == "broadcast_to(shape=(2, 3, 4))");
    CHECK(fusor::view_map(s, std::vector<fusor::view_index>{1}).label.str() == "view");
    CHECK(fusor::reshape_map(shape_t{6}, shape_t{2, 3})->label.str() == "reshape(shape=(2, 3))");
    CHECK(rot90_map(s, 1, {0, 1}).label.str() == "rot90(k=1, axes=(0, 1))");
    CHECK(rot90_map(s, -2, {1, -1}).label.str() == "rot90(k=-2, axes=(1, -1))");
    CHECK(rot90_map(s, 4, {0, 1}).label.str() == "rot90(k=4, axes=(0, 1))");
    CHECK(atleast_map(shape_t{3}, 2).label.str() == "atleast_2d");
    CHECK(fusor::map_label("100%").str() == "100%"); // a last % is text
    CHECK(fusor::map_label(std::string("ij,jk->ik")).str() == "ij,jk->ik");
    // explain prints the label of a view of an expression.
    const fusor::tensor<i64> a = make_a();
    const std::string text =
        explain_text::one_line(fusor::explain(fusor::moveaxis(a + 1, 0, -1)).text());
    CHECK(text.find("moveaxis((0,) -> (2,))") != std::string::npos);
}

TEST_CASE("a view of a tensor made from its indices is the view its map gives") {
    // view() and transpose() of a tensor or a view compute the shape, strides and offset
    // directly; apply_view's route goes through the affine_map. Every index kind, through a
    // view of a view (the base and offset explain prints included).
    using fusor::all;
    using fusor::ellipsis;
    using fusor::newaxis;
    using fusor::none;
    using fusor::slice;
    fusor::tensor<i64> a = make_a(); // (2, 3, 4)
    auto same = [](const auto& direct, const auto& mapped) {
        CHECK(direct.shape() == mapped.shape());
        CHECK(direct.strides() == mapped.strides());
        CHECK(direct.data() == mapped.data());
        CHECK(direct.base() == mapped.base());
    };
    auto by_map = [](auto& e, std::vector<fusor::view_index> idx) {
        const fusor::tensor_view<i64> whole = e;
        return whole.remap(fusor::view_map(e.shape(), idx));
    };
    same(fusor::view(a, 1), by_map(a, {1}));
    same(fusor::view(a, -1, slice(none, none, -2)), by_map(a, {-1, slice(none, none, -2)}));
    same(fusor::view(a, ellipsis, slice(1, 3)), by_map(a, {ellipsis, slice(1, 3)}));
    same(fusor::view(a, newaxis, all, 2, newaxis),
         by_map(a, {newaxis, slice(none, none), 2, newaxis}));
    same(fusor::view(a, slice(5, 9)), by_map(a, {slice(5, 9)})); // empty: offset 0
    auto v = fusor::view(a, slice(1, none), slice(none, none, -1));
    same(fusor::view(v, all, 1, slice(1, none, 2)),
         by_map(v, {slice(none, none), 1, slice(1, none, 2)}));
    same(fusor::transpose(v), v.remap(fusor::transpose_map(v.shape(), {})));
    same(fusor::transpose(a, {1, -1, 0}),
         a.view().remap(fusor::transpose_map(a.shape(), {1, 2, 0})));
    same(fusor::transpose(a), a.view().remap(fusor::transpose_map(a.shape(), {}))); // reversed
    const fusor::tensor<i64> row = fusor::arange<i64>(5), zero_d(shape_t{});
    same(fusor::transpose(row), row.view().remap(fusor::transpose_map(row.shape(), {})));
    same(fusor::transpose(zero_d), zero_d.view().remap(fusor::transpose_map(shape_t{}, {})));
    CHECK(fusor::view(v, 0, 2, 3).item() == a(1, 0, 3)); // v[0, 2, 3] is a[1, 2 - 2, 3]
    // The errors are the map's, and nothing is made.
    CHECK_THROWS_AS(fusor::view(a, 0, 3), fusor::index_error);
    CHECK_THROWS_AS(fusor::view(a, 0, 0, 0, 0), fusor::value_error);
    CHECK_THROWS_AS(fusor::view(a, ellipsis, 0, ellipsis), fusor::value_error);
    CHECK_THROWS_AS(fusor::view(a, slice(none, none, 0)), fusor::value_error);
    CHECK_THROWS_AS(fusor::transpose(a, {0, 0, 1}), fusor::value_error);
}

namespace {
// view(t, i...) with each of `idx` as its own C++ type (an integer, a slice or `all`), the
// types chosen at run time: the route of view() that takes no index list.
template <class T, class... Done>
fusor::tensor_view<const T> plain_view_of(const fusor::tensor<T>& t,
                                          std::span<const fusor::view_index> idx,
                                          const Done&... done) {
    if constexpr (sizeof...(Done) < 3) {
        if (!idx.empty()) {
            const auto rest = idx.subspan(1);
            if (const auto* i = std::get_if<fusor::index_t>(&idx[0]))
                return plain_view_of(t, rest, done..., *i);
            const auto& s = std::get<fusor::slice>(idx[0]);
            if (!s.start() && !s.stop() && s.step() == 1)
                return plain_view_of(t, rest, done..., fusor::all);
            return plain_view_of(t, rest, done..., s);
        }
    }
    return fusor::view(t, done...);
}
} // namespace

TEST_CASE("a view from integers, slices and all alone is the view its map gives") {
    // view() of a tensor whose indices are only integers, slices and `all` writes the view's
    // axes straight from them; view_map's walk over an index list is the reference: the same
    // shape, strides and data, or the same exception and message. Shapes of rank 0 to 4 (empty
    // axes included), up to 3 indices each drawn from integers in and out of range, slices of
    // every sign and step (0 included) and `all`.
    using fusor::none;
    using fusor::slice;
    std::uint64_t state = 12345;
    auto draw = [&](int n) { // a small pseudo-random integer in [0, n)
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
    };
    auto bound = [&]() -> std::optional<fusor::index_t> {
        const int b = draw(9);
        return b == 8 ? std::nullopt : std::optional<fusor::index_t>(b - 5);
    };
    int checked = 0, thrown = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        shape_t shape(static_cast<std::size_t>(draw(5)));
        for (auto& n : shape)
            n = std::vector<fusor::index_t>{0, 1, 3, 4}[static_cast<std::size_t>(draw(4))];
        fusor::tensor<i64> t(shape);
        std::vector<fusor::view_index> idx;
        for (int k = draw(4); k > 0; --k) {
            const int kind = draw(4);
            if (kind == 0) {
                idx.emplace_back(static_cast<fusor::index_t>(draw(11) - 5));
            } else if (kind == 1) {
                idx.emplace_back(slice(none, none));
            } else {
                const auto start = bound(), stop = bound();
                const fusor::index_t step =
                    std::vector<fusor::index_t>{1, 2, -1, -3, 0}[static_cast<std::size_t>(draw(5))];
                if (start && stop)
                    idx.emplace_back(slice(*start, *stop, step));
                else if (start)
                    idx.emplace_back(slice(*start, none, step));
                else if (stop)
                    idx.emplace_back(slice(none, *stop, step));
                else
                    idx.emplace_back(slice(none, none, step));
            }
        }
        CAPTURE(shape);
        CAPTURE(trial);
        std::string want_error, got_error;
        std::optional<fusor::tensor_view<const i64>> want, got;
        try {
            want.emplace(fusor::tensor_view<const i64>(t).remap(fusor::view_map(t.shape(), idx)));
        } catch (const fusor::value_error& e) {
            want_error = std::string("value_error: ") + e.what();
        } catch (const fusor::index_error& e) {
            want_error = std::string("index_error: ") + e.what();
        }
        try {
            got.emplace(plain_view_of(t, idx)); // (a view's = writes its elements)
        } catch (const fusor::value_error& e) {
            got_error = std::string("value_error: ") + e.what();
        } catch (const fusor::index_error& e) {
            got_error = std::string("index_error: ") + e.what();
        }
        CHECK(got_error == want_error);
        REQUIRE(got.has_value() == want.has_value());
        if (!got)
            ++thrown;
        else {
            CHECK(got->shape() == want->shape());
            CHECK(got->strides() == want->strides());
            CHECK(got->data() == want->data());
            ++checked;
        }
    }
    CHECK(checked > 1000); // both outcomes are drawn often
    CHECK(thrown > 300);
}

TEST_CASE("a view is assigned from a braced list, as NumPy's x[0] = [7, 8, 9]") {
    // x = np.zeros((3, 3)); x[0] = [7, 8, 9]; x[:, 2] = [1, 2, 3]; x[1:3, 0:2] = [[-1, -2],
    // [-3, -4]]; x[1] = [5] -> [[7, 8, 1], [5, 5, 5], [-3, -4, 3]]; x[0] = [1, 2] raises.
    fusor::tensor<double> x = fusor::zeros<double>({3, 3});
    fusor::view(x, 0) = {7, 8, 9};
    fusor::view(x, fusor::all, 2) = {1, 2, 3};
    fusor::view(x, fusor::slice(1, 3), fusor::slice(0, 2)) = {{-1, -2}, {-3, -4}};
    fusor::view(x, 1) = {5}; // broadcasts
    CHECK(fusor::array_equal(x, fusor::tensor<double>{{7, 8, 1}, {5, 5, 5}, {-3, -4, 3}}));
    const auto two_into_three = [&] {
        fusor::view(x, 0) = {1, 2};
    };
    CHECK_THROWS_AS(two_into_three(), fusor::broadcast_error);
    CHECK(fusor::array_equal(x, fusor::tensor<double>{{7, 8, 1}, {5, 5, 5}, {-3, -4, 3}}));
    fusor::tensor<std::int8_t> cube = fusor::zeros<std::int8_t>({2, 2, 2});
    fusor::view(cube, fusor::all) = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};
    CHECK(cube(1, 1, 1) == 8);
}
