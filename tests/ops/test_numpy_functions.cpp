// NumPy's element-wise functions added for the first day: arcsinh, arccosh, arctanh, deg2rad,
// rad2deg (radians, degrees), fmod, copysign, signbit, logaddexp and nan_to_num, against the
// values NumPy 1.24 computes for 16 inputs in float64 and float32 (zeros of both signs,
// infinities, NaN, 1e300). The values below were written by
//   x = np.array([-3.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 0.99, 1.0, 1.5, 2.0, 10.0, 1e300,
//                 np.inf, -np.inf, np.nan]); xf = x.astype(np.float32)
// then np.deg2rad(x), np.deg2rad(xf), np.rad2deg(x), np.rad2deg(xf), np.fmod(x, 0.75),
// np.fmod(xf, np.float32(0.75)), np.copysign(1.5, x), np.logaddexp(x, x[::-1]),
// np.logaddexp(xf, xf[::-1]), np.nan_to_num(xf, nan=1.5, posinf=9.0, neginf=-9.0),
// np.arcsinh(x), np.arccosh(x), np.arctanh(x) and the same of xf, as hex floats. Integer fmod is
// checked on every corner in test_integer_corners.cpp.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

using namespace fusor;

namespace {

constexpr float inf_v = std::numeric_limits<float>::infinity(); // float: exact in either vector
constexpr float nan_v = std::numeric_limits<float>::quiet_NaN();

const std::vector<double> x = {
    -3.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 0.99, 1.0, 1.5, 2.0, 10.0, 1e300, inf_v, -inf_v, nan_v};

tensor<double> x64() {
    tensor<double> t(shape_t{static_cast<index_t>(x.size())});
    std::copy(x.begin(), x.end(), t.begin());
    return t;
}
tensor<float> x32() {
    return tensor<float>(cast<float>(x64()));
}

// Bit for bit: NaN equals NaN, zeros compare with their signs.
template <class T, class E>
void check_same(const char* what, const E& e, const std::vector<T>& want) {
    const tensor<T> got = e;
    REQUIRE(static_cast<std::size_t>(got.size()) == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        const T g = got.begin()[k], w = want[k];
        const bool same =
            (std::isnan(g) && std::isnan(w)) || (g == w && std::signbit(g) == std::signbit(w));
        CHECK_MESSAGE(same, what << " of " << x[k] << ": " << g << ", NumPy " << w);
    }
}

// Within one unit in the last place of NumPy's (SVML's on AVX-512 hosts, the C library's
// elsewhere; fusor computes float32 through float64, float64 by the C library, both within an
// ulp of the exact value), and exactly fusor's own definition `std_f`.
template <class T, class E, class F>
void check_within_ulp(const char* what, const E& e, const std::vector<T>& want, F std_f) {
    const tensor<T> got = e;
    REQUIRE(static_cast<std::size_t>(got.size()) == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        const T g = got.begin()[k], w = want[k];
        if (std::isnan(w) || std::isinf(w) || w == T(0)) {
            CHECK_MESSAGE(((std::isnan(g) && std::isnan(w)) || g == w), what << " of " << x[k]);
            continue;
        }
        const T ulp = std::nextafter(std::abs(w), std::numeric_limits<T>::infinity()) - std::abs(w);
        CHECK_MESSAGE(std::abs(g - w) <= ulp,
                      what << " of " << x[k] << ": " << g << ", NumPy " << w);
        CHECK(g == static_cast<T>(std_f(static_cast<double>(static_cast<T>(x[k])))));
    }
}

} // namespace

TEST_CASE("deg2rad, rad2deg, fmod, copysign, logaddexp and nan_to_num: NumPy's bits") {
    const std::vector<double> deg2rad64 = {-0x1.f46bb9c109324p-5,
                                           -0x1.1df46a2529d39p-6,
                                           -0x1.1df46a2529d39p-7,
                                           -0x0.0p+0,
                                           0x0.0p+0,
                                           0x1.1df46a2529d39p-8,
                                           0x1.1df46a2529d39p-7,
                                           0x1.1b185ed7fde36p-6,
                                           0x1.1df46a2529d39p-6,
                                           0x1.acee9f37bebd6p-6,
                                           0x1.1df46a2529d39p-5,
                                           0x1.657184ae74487p-3,
                                           0x1.aafe6d51317bbp+990,
                                           inf_v,
                                           -inf_v,
                                           nan_v};
    const std::vector<float> deg2rad32 = {-0x1.f46bba0000000p-5f,
                                          -0x1.1df46a0000000p-6f,
                                          -0x1.1df46a0000000p-7f,
                                          -0x0.0p+0f,
                                          0x0.0p+0f,
                                          0x1.1df46a0000000p-8f,
                                          0x1.1df46a0000000p-7f,
                                          0x1.1b185e0000000p-6f,
                                          0x1.1df46a0000000p-6f,
                                          0x1.aceea00000000p-6f,
                                          0x1.1df46a0000000p-5f,
                                          0x1.6571840000000p-3f,
                                          inf_v,
                                          inf_v,
                                          -inf_v,
                                          nan_v};
    const std::vector<double> rad2deg64 = {-0x1.91120971749b9p+7,
                                           -0x1.ca5dc1a63c1f8p+5,
                                           -0x1.ca5dc1a63c1f8p+4,
                                           -0x0.0p+0,
                                           0x0.0p+0,
                                           0x1.ca5dc1a63c1f8p+3,
                                           0x1.ca5dc1a63c1f8p+4,
                                           0x1.c5c856c0bb859p+5,
                                           0x1.ca5dc1a63c1f8p+5,
                                           0x1.57c6513cad17ap+6,
                                           0x1.ca5dc1a63c1f8p+6,
                                           0x1.1e7a9907e593bp+9,
                                           0x1.5638a23f1bc66p+1002,
                                           inf_v,
                                           -inf_v,
                                           nan_v};
    const std::vector<float> rad2deg32 = {-0x1.9112080000000p+7f,
                                          -0x1.ca5dc00000000p+5f,
                                          -0x1.ca5dc00000000p+4f,
                                          -0x0.0p+0f,
                                          0x0.0p+0f,
                                          0x1.ca5dc00000000p+3f,
                                          0x1.ca5dc00000000p+4f,
                                          0x1.c5c8560000000p+5f,
                                          0x1.ca5dc00000000p+5f,
                                          0x1.57c6500000000p+6f,
                                          0x1.ca5dc00000000p+6f,
                                          0x1.1e7a980000000p+9f,
                                          inf_v,
                                          inf_v,
                                          -inf_v,
                                          nan_v};
    const std::vector<double> fmod64 = {-0x1.0000000000000p-1,
                                        -0x1.0000000000000p-2,
                                        -0x1.0000000000000p-1,
                                        -0x0.0p+0,
                                        0x0.0p+0,
                                        0x1.0000000000000p-2,
                                        0x1.0000000000000p-1,
                                        0x1.eb851eb851eb8p-3,
                                        0x1.0000000000000p-2,
                                        0x0.0p+0,
                                        0x1.0000000000000p-1,
                                        0x1.0000000000000p-2,
                                        0x0.0p+0,
                                        nan_v,
                                        nan_v,
                                        nan_v};
    const std::vector<float> fmod32 = {-0x1.0000000000000p-1f,
                                       -0x1.0000000000000p-2f,
                                       -0x1.0000000000000p-1f,
                                       -0x0.0p+0f,
                                       0x0.0p+0f,
                                       0x1.0000000000000p-2f,
                                       0x1.0000000000000p-1f,
                                       0x1.eb85200000000p-3f,
                                       0x1.0000000000000p-2f,
                                       0x0.0p+0f,
                                       0x1.0000000000000p-1f,
                                       0x1.0000000000000p-2f,
                                       nan_v,
                                       nan_v,
                                       nan_v,
                                       nan_v};
    const std::vector<double> copysign64 = {-0x1.8000000000000p+0,
                                            -0x1.8000000000000p+0,
                                            -0x1.8000000000000p+0,
                                            -0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            0x1.8000000000000p+0,
                                            -0x1.8000000000000p+0,
                                            0x1.8000000000000p+0};
    const std::vector<double> logaddexp64 = {nan_v,
                                             -0x1.0000000000000p+0,
                                             inf_v,
                                             0x1.7e43c8800759cp+996,
                                             0x1.40005f3559328p+3,
                                             0x1.14823997149aap+1,
                                             0x1.d031eafefb049p+0,
                                             0x1.b02b3b9a35030p+0,
                                             0x1.b02b3b9a35030p+0,
                                             0x1.d031eafefb049p+0,
                                             0x1.14823997149aap+1,
                                             0x1.40005f3559328p+3,
                                             0x1.7e43c8800759cp+996,
                                             inf_v,
                                             -0x1.0000000000000p+0,
                                             nan_v};
    const std::vector<float> logaddexp32 = {nan_v,
                                            -0x1.0000000000000p+0f,
                                            inf_v,
                                            inf_v,
                                            0x1.4000600000000p+3f,
                                            0x1.14823a0000000p+1f,
                                            0x1.d031ec0000000p+0f,
                                            0x1.b02b3c0000000p+0f,
                                            0x1.b02b3c0000000p+0f,
                                            0x1.d031ec0000000p+0f,
                                            0x1.14823a0000000p+1f,
                                            0x1.4000600000000p+3f,
                                            inf_v,
                                            inf_v,
                                            -0x1.0000000000000p+0f,
                                            nan_v};
    const std::vector<float> nan_to_num32 = {-0x1.c000000000000p+1f,
                                             -0x1.0000000000000p+0f,
                                             -0x1.0000000000000p-1f,
                                             -0x0.0p+0f,
                                             0x0.0p+0f,
                                             0x1.0000000000000p-2f,
                                             0x1.0000000000000p-1f,
                                             0x1.fae1480000000p-1f,
                                             0x1.0000000000000p+0f,
                                             0x1.8000000000000p+0f,
                                             0x1.0000000000000p+1f,
                                             0x1.4000000000000p+3f,
                                             0x1.2000000000000p+3f,
                                             0x1.2000000000000p+3f,
                                             -0x1.2000000000000p+3f,
                                             0x1.8000000000000p+0f};
    const auto a = x64();
    const auto f = x32();
    check_same("deg2rad", deg2rad(a), deg2rad64);
    check_same("deg2rad", deg2rad(f), deg2rad32);
    check_same("radians", radians(f), deg2rad32);
    check_same("rad2deg", rad2deg(a), rad2deg64);
    check_same("rad2deg", rad2deg(f), rad2deg32);
    check_same("degrees", degrees(a), rad2deg64);
    check_same("fmod", fmod(a, 0.75), fmod64);
    check_same("fmod", fmod(f, 0.75), fmod32); // a weak scalar: float32, as NumPy's float32 0.75
    check_same("copysign", copysign(1.5, a), copysign64);
    check_same("logaddexp", logaddexp(a, flip(a)), logaddexp64);
    check_same("logaddexp", logaddexp(f, flip(f)), logaddexp32);
    check_same("nan_to_num", nan_to_num(f, 1.5, 9.0, -9.0), nan_to_num32);
    const tensor<double> n = nan_to_num(a);
    CHECK(n(12) == 1e300);
    CHECK(n(13) == std::numeric_limits<double>::max());
    CHECK(n(14) == std::numeric_limits<double>::lowest());
    CHECK(n(15) == 0.0);
    CHECK(tensor<float>(nan_to_num(f))(13) == std::numeric_limits<float>::max());
    const tensor<std::int32_t> i = {-3, 0, 7};
    CHECK(array_equal(nan_to_num(i), i)); // integers unchanged, as NumPy
    const tensor<bool> s = signbit(a);
    const std::vector<int> sign_bits = {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};
    for (std::size_t k = 0; k < sign_bits.size(); ++k)
        CHECK(s.begin()[k] == (sign_bits[k] == 1));
    CHECK(array_equal(signbit(tensor<std::int8_t>{-1, 0, 1}), tensor<bool>{true, false, false}));
    CHECK(array_equal(signbit(tensor<std::uint8_t>{255, 0}), tensor<bool>{false, false}));
    // Types: NumPy's float rules for the math ones, promote for fmod.
    static_assert(std::is_same_v<value_type_t<decltype(deg2rad(i))>, double>);
    static_assert(std::is_same_v<value_type_t<decltype(fmod(i, 2))>, std::int32_t>);
    static_assert(std::is_same_v<value_type_t<decltype(logaddexp(f, f))>, float>);
    static_assert(std::is_same_v<value_type_t<decltype(signbit(f))>, bool>);
    CHECK(array_equal(fmod(tensor<std::int32_t>{-7, 7}, 3), tensor<std::int32_t>{-1, 1}));
    CHECK(array_equal(mod(tensor<std::int32_t>{-7, 7}, 3), tensor<std::int32_t>{2, 1}));
}

TEST_CASE("arcsinh, arccosh and arctanh: within an ulp of NumPy's") {
    const std::vector<double> arcsinh64 = {-0x1.f73974f2d01d6p+0,
                                           -0x1.c34366179d427p-1,
                                           -0x1.ecc2caec5160ap-2,
                                           -0x0.0p+0,
                                           0x0.0p+0,
                                           0x1.facfb2399e637p-3,
                                           0x1.ecc2caec5160ap-2,
                                           0x1.bfa2424777c63p-1,
                                           0x1.c34366179d427p-1,
                                           0x1.31dc0090b63d8p+0,
                                           0x1.719218313d087p+0,
                                           0x1.7fc5c506d2bdbp+1,
                                           0x1.59bbfd8b83e44p+9,
                                           inf_v,
                                           -inf_v,
                                           nan_v};
    const std::vector<double> arccosh64 = {nan_v,
                                           nan_v,
                                           nan_v,
                                           nan_v,
                                           nan_v,
                                           nan_v,
                                           nan_v,
                                           nan_v,
                                           0x0.0p+0,
                                           0x1.ecc2caec5160ap-1,
                                           0x1.5124271980435p+0,
                                           0x1.7f21ed1ce05d4p+1,
                                           0x1.59bbfd8b83e44p+9,
                                           inf_v,
                                           nan_v,
                                           nan_v};
    const std::vector<double> arctanh64 = {nan_v,
                                           -inf_v,
                                           -0x1.193ea7aad030bp-1,
                                           -0x0.0p+0,
                                           0x0.0p+0,
                                           0x1.058aefa811452p-2,
                                           0x1.193ea7aad030bp-1,
                                           0x1.52c581997cd85p+1,
                                           inf_v,
                                           nan_v,
                                           nan_v,
                                           nan_v,
                                           nan_v,
                                           nan_v,
                                           nan_v,
                                           nan_v};
    const std::vector<float> arcsinh32 = {-0x1.f739740000000p+0f,
                                          -0x1.c343660000000p-1f,
                                          -0x1.ecc2ca0000000p-2f,
                                          -0x0.0p+0f,
                                          0x0.0p+0f,
                                          0x1.facfb20000000p-3f,
                                          0x1.ecc2ca0000000p-2f,
                                          0x1.bfa2420000000p-1f,
                                          0x1.c343660000000p-1f,
                                          0x1.31dc000000000p+0f,
                                          0x1.7192180000000p+0f,
                                          0x1.7fc5c60000000p+1f,
                                          inf_v,
                                          inf_v,
                                          -inf_v,
                                          nan_v};
    const std::vector<float> arccosh32 = {nan_v,
                                          nan_v,
                                          nan_v,
                                          nan_v,
                                          nan_v,
                                          nan_v,
                                          nan_v,
                                          nan_v,
                                          0x0.0p+0f,
                                          0x1.ecc2ca0000000p-1f,
                                          0x1.5124280000000p+0f,
                                          0x1.7f21ee0000000p+1f,
                                          inf_v,
                                          inf_v,
                                          nan_v,
                                          nan_v};
    const std::vector<float> arctanh32 = {nan_v,
                                          -inf_v,
                                          -0x1.193ea80000000p-1f,
                                          -0x0.0p+0f,
                                          0x0.0p+0f,
                                          0x1.058af00000000p-2f,
                                          0x1.193ea80000000p-1f,
                                          0x1.52c5860000000p+1f,
                                          inf_v,
                                          nan_v,
                                          nan_v,
                                          nan_v,
                                          nan_v,
                                          nan_v,
                                          nan_v,
                                          nan_v};
    const auto a = x64();
    const auto f = x32();
    const auto asinh_ = [](double v) {
        return std::asinh(v);
    };
    const auto acosh_ = [](double v) {
        return std::acosh(v);
    };
    const auto atanh_ = [](double v) {
        return std::atanh(v);
    };
    check_within_ulp("arcsinh", arcsinh(a), arcsinh64, asinh_);
    check_within_ulp("arccosh", arccosh(a), arccosh64, acosh_);
    check_within_ulp("arctanh", arctanh(a), arctanh64, atanh_);
    check_within_ulp("arcsinh", arcsinh(f), arcsinh32, asinh_);
    check_within_ulp("arccosh", arccosh(f), arccosh32, acosh_);
    check_within_ulp("arctanh", arctanh(f), arctanh32, atanh_);
    static_assert(std::is_same_v<value_type_t<decltype(arcsinh(tensor<std::int16_t>{1}))>, float>);
}

TEST_CASE("cross as numpy.cross: each product rounded, integers wrap, 2- and 3-vectors, axis") {
    // np.cross([[0.1, 0.2, 0.3], [1e8, 3.3, -7.1]], [0.7, 1.3, 2.9]) (an FMA would change four
    // of the six values in the last bit)
    const tensor<double> a = {{0.1, 0.2, 0.3}, {1e8, 3.3, -7.1}};
    const tensor<double> b = {0.7, 1.3, 2.9};
    const tensor<double> c = cross(a, b);
    CHECK(c.shape() == shape_t{2, 3});
    const std::vector<double> want = {0x1.851eb851eb850p-3,
                                      -0x1.47ae147ae147ap-4,
                                      -0x1.47ae147ae1470p-7,
                                      0x1.2ccccccccccccp+4,
                                      -0x1.1490c84f851ecp+28,
                                      0x1.efe91f6c28f5cp+26};
    for (std::size_t k = 0; k < want.size(); ++k)
        CHECK(c.begin()[k] == want[k]);
    // int32: np.cross([[2**30, 3, 2**31 - 1]], [7, 2**30, 5]) -> [[1073741839, 1073741817, -21]]
    const tensor<std::int32_t> i = {{1 << 30, 3, 2147483647}};
    const tensor<std::int32_t> j = {7, 1 << 30, 5};
    CHECK(array_equal(cross(i, j), tensor<std::int32_t>{{1073741839, 1073741817, -21}}));
    // 2-vectors: the z component; a 2- with a 3-vector: the missing component 0.
    const tensor<std::int64_t> z = cross(tensor<int>{1, 2}, tensor<int>{3, 4});
    CHECK(z.shape() == shape_t{});
    CHECK(z.item() == -2);
    CHECK(
        array_equal(cross(tensor<int>{1, 2}, tensor<float>{3, 4, 5}), tensor<double>{10, -5, -2}));
    CHECK(array_equal(cross(tensor<double>{1, 2, 3}, tensor<double>{3, 4}),
                      tensor<double>{-12, 9, -2}));
    // axis 0: vectors down the columns, the result's vectors on axis 0 too.
    const tensor<double> col = {{0.7}, {1.3}, {2.9}}; // b as a column
    CHECK(array_equal(cross(transpose(a), col, 0), transpose(cross(a, b))));
    CHECK_THROWS_AS((void)cross(tensor<double>{1, 2, 3, 4}, b), value_error);
    CHECK_THROWS_AS((void)cross(a, b, 2), axis_error);
    CHECK_THROWS_AS((void)cross(a, tensor<double>{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}),
                    broadcast_error);
}

TEST_CASE("diag, eye(n, m, k), identity, logspace and geomspace as NumPy's") {
    CHECK(array_equal(diag(tensor<std::int64_t>{1, 2}, 1),
                      tensor<std::int64_t>{{0, 1, 0}, {0, 0, 2}, {0, 0, 0}}));
    CHECK(array_equal(diag(tensor<int>{5, 6}, -1), tensor<int>{{0, 0, 0}, {5, 0, 0}, {0, 6, 0}}));
    const tensor<std::int64_t> m = reshape(arange(9), {3, 3});
    CHECK(array_equal(diag(m, 1), tensor<std::int64_t>{1, 5}));
    CHECK(array_equal(diag(m), tensor<std::int64_t>{0, 4, 8}));
    CHECK(diag(m, 5).shape() == shape_t{0});
    CHECK_THROWS_AS((void)diag(zeros<double>({2, 2, 2})), value_error);
    CHECK(array_equal(eye(2, 3, 1), tensor<double>{{0, 1, 0}, {0, 0, 1}}));
    CHECK(array_equal(eye<int>(3, 2, -1), tensor<int>{{0, 0}, {1, 0}, {0, 1}}));
    CHECK(array_equal(identity<float>(2), tensor<float>{{1, 0}, {0, 1}}));
    CHECK_THROWS_AS((void)eye(-1, 2), value_error);
    // np.logspace(-3, 5, 7) and np.geomspace(0.001, 7e5, 7): NumPy's power on an AVX-512 host
    // (SVML) and std::pow may differ in the last bit; the ends of geomspace are exact.
    const std::vector<double> logs = {0x1.0624dd2f1a9fcp-10,
                                      0x1.60fb8a566f626p-6,
                                      0x1.db4c7760bcfefp-2,
                                      0x1.4000000000000p+3,
                                      0x1.aee30e5e82f76p+7,
                                      0x1.22196bdccb5a5p+12,
                                      0x1.86a0000000000p+16};
    const std::vector<double> geoms = {0x1.0624dd2f1a9fcp-10,
                                       0x1.e834b024c674bp-6,
                                       0x1.c69b5a72f1a9dp-1,
                                       0x1.a751f9447b725p+4,
                                       0x1.8a2fcf61e91d1p+9,
                                       0x1.6f0eed545ac8cp+14,
                                       0x1.55cc000000000p+19};
    const tensor<double> l = logspace(-3, 5, 7);
    const tensor<double> g = geomspace(0.001, 7e5, 7);
    for (std::size_t k = 0; k < logs.size(); ++k) {
        CHECK(std::abs(l.begin()[k] - logs[k]) <= std::nextafter(logs[k], 1e300) - logs[k]);
        CHECK(std::abs(g.begin()[k] - geoms[k]) <= std::nextafter(geoms[k], 1e300) - geoms[k]);
    }
    CHECK(g(0) == 0.001);
    CHECK(g(6) == 7e5);
    CHECK(array_equal(geomspace(-1, -1000, 4), tensor<double>{-1, -10, -100, -1000}));
    CHECK(array_equal(logspace(0, 1, 3, true, 4.0), tensor<double>{1, 2, 4}));
    CHECK(logspace<float>(0, 2, 50).shape() == shape_t{50});
    const tensor<double> mixed = geomspace(-1, 1000, 3); // log10(-1): NaN between the ends
    CHECK(mixed(0) == -1);
    CHECK(std::isnan(mixed(1)));
    CHECK(mixed(2) == 1000);
    CHECK_THROWS_AS((void)geomspace(0, 10), value_error);
}

TEST_CASE("convolve and correlate as numpy.convolve and numpy.correlate, every mode") {
    // a = [1, 2, 3, 4, 5.], v = [0.5, 1, -2], w = [1, ..., 7.]: np.convolve(a, v, mode),
    // np.convolve(v, a, mode), np.correlate(a, v, mode), np.correlate(v, a, mode),
    // np.convolve(a, [1, -1.], mode), np.correlate([1, -1, 2, 5.], w, mode), in the order
    // full, same, valid (NumPy 1.24's values, exact in float64).
    const tensor<double> a = {1, 2, 3, 4, 5}, v = {0.5, 1, -2}, w = {1, 2, 3, 4, 5, 6, 7};
    const tensor<double> step = {1, -1}, four = {1, -1, 2, 5};
    const convolve_mode modes[] = {convolve_mode::full, convolve_mode::same, convolve_mode::valid};
    const std::vector<std::vector<std::vector<double>>> want = {
        {{0.5, 2, 1.5, 1, 0.5, -3, -10},
         {-2, -3, -3.5, -4, -4.5, 7, 2.5},
         {2.5, 7, -4.5, -4, -3.5, -3, -2},
         {1, 1, 1, 1, 1, -5},
         {7, -1, 13, 46, 39, 32, 25, 18, 12, 5}},
        {{2, 1.5, 1, 0.5, -3},
         {-3, -3.5, -4, -4.5, 7},
         {7, -4.5, -4, -3.5, -3},
         {1, 1, 1, 1, 1},
         {13, 46, 39, 32, 25, 18, 12}},
        {{1.5, 1, 0.5}, {-3.5, -4, -4.5}, {-4.5, -4, -3.5}, {1, 1, 1, 1}, {46, 39, 32, 25}}};
    const auto values = [](const tensor<double>& t) {
        return std::vector<double>(t.begin(), t.end());
    };
    for (std::size_t k = 0; k < 3; ++k) {
        const convolve_mode m = modes[k];
        CHECK(values(convolve(a, v, m)) == want[k][0]);
        CHECK(values(convolve(v, a, m)) == want[k][0]); // convolution commutes
        CHECK(values(correlate(a, v, m)) == want[k][1]);
        CHECK(values(correlate(v, a, m)) == want[k][2]);
        CHECK(values(convolve(a, step, m)) == want[k][3]);
        CHECK(values(correlate(four, w, m)) == want[k][4]);
    }
    // np.convolve(int8 [100, 100], int8 [2, 3]) -> int8 [-56, -12, 44] (wraps); bool: or of
    // ands; int32 with float32 -> float64 [0.5, 1.25, 2, 0.75].
    CHECK(array_equal(convolve(tensor<std::int8_t>{100, 100}, tensor<std::int8_t>{2, 3}),
                      tensor<std::int8_t>{-56, -12, 44}));
    CHECK(array_equal(convolve(tensor<bool>{true, false, true}, tensor<bool>{true, true}),
                      tensor<bool>{true, true, true, true}));
    CHECK(array_equal(convolve(tensor<std::int32_t>{1, 2, 3}, tensor<float>{0.5f, 0.25f}),
                      tensor<double>{0.5, 1.25, 2, 0.75}));
    // A moving average of 3 (np.convolve(x, np.ones(3) / 3, 'valid')).
    const tensor<double> avg =
        convolve(tensor<double>{3, 6, 9, 12}, full({3}, 1.0 / 3), convolve_mode::valid);
    CHECK(avg.shape() == shape_t{2});
    CHECK(std::abs(avg(0) - 6.0) < 1e-15);
    CHECK_THROWS_AS((void)convolve(tensor<double>(shape_t{0}), v), value_error);
    CHECK_THROWS_AS((void)correlate(a, tensor<double>{{1.0}}), value_error);
}

TEST_CASE("gradient and trapz as numpy.gradient and numpy.trapz") {
    // f = np.array([1.0, 2.5, 4.1, 7.9, 11.2, 16.3]): np.gradient(f), np.gradient(f, 0.3),
    // np.gradient(f, 0.3, axis=0, edge_order=2), np.gradient(f.astype(np.float32), 0.3),
    // np.gradient(np.int32([1, 4, 9, 16])), m = f.reshape(2, 3): np.gradient(m, 0.5, axis=0),
    // np.gradient(m, 0.5, axis=1, edge_order=2); np.trapz(f), np.trapz(f, dx=0.1),
    // np.trapz(np.int32([1, 4, 9, 16])), np.trapz(m, dx=1.0, axis=0),
    // np.trapz(f, [0, .1, .3, .6, 1, 1.5]), np.trapz(m, [0, .5, 2]): NumPy 1.24's bits.
    const tensor<double> f = {1.0, 2.5, 4.1, 7.9, 11.2, 16.3};
    const auto bits = [](const auto& t) {
        const tensor<double> d = cast<double>(t);
        return std::vector<double>(d.begin(), d.end());
    };
    CHECK(bits(gradient(f))
          == std::vector<double>{0x1.8p+0,
                                 0x1.8ccccccccccccp+0,
                                 0x1.599999999999ap+1,
                                 0x1.c666666666666p+1,
                                 0x1.0cccccccccccdp+2,
                                 0x1.4666666666668p+2});
    CHECK(bits(gradient(f, 0.3))
          == std::vector<double>{0x1.4p+2,
                                 0x1.4aaaaaaaaaaaap+2,
                                 0x1.2000000000001p+3,
                                 0x1.7aaaaaaaaaaabp+3,
                                 0x1.c000000000001p+3,
                                 0x1.1000000000002p+4});
    CHECK(bits(gradient(f, 0.3, 0, 2))
          == std::vector<double>{0x1.3555555555557p+2,
                                 0x1.4aaaaaaaaaaaap+2,
                                 0x1.2000000000001p+3,
                                 0x1.7aaaaaaaaaaabp+3,
                                 0x1.c000000000001p+3,
                                 0x1.4p+4});
    const tensor<float> g32 = gradient(cast<float>(f), 0.3);
    CHECK(bits(g32)
          == std::vector<double>{
              0x1.4p+2, 0x1.4aaaaap+2, 0x1.2p+3, 0x1.7aaaaap+3, 0x1.bffffep+3, 0x1.0ffffep+4});
    const tensor<double> gi = gradient(tensor<std::int32_t>{1, 4, 9, 16}); // float64
    CHECK(bits(gi) == std::vector<double>{3, 4, 6, 7});
    const tensor<double> m = reshape(f, {2, 3});
    CHECK(bits(gradient(m, 0.5, 0))
          == std::vector<double>{0x1.b99999999999ap+3,
                                 0x1.1666666666666p+4,
                                 0x1.8666666666667p+4,
                                 0x1.b99999999999ap+3,
                                 0x1.1666666666666p+4,
                                 0x1.8666666666667p+4});
    CHECK(bits(gradient(m, 0.5, 1, 2))
          == std::vector<double>{0x1.7333333333334p+1,
                                 0x1.8ccccccccccccp+1,
                                 0x1.a666666666664p+1,
                                 0x1.333333333332cp+2,
                                 0x1.0cccccccccccdp+3,
                                 0x1.8000000000004p+3});
    CHECK_THROWS_AS((void)gradient(tensor<double>{1.0}), value_error);
    CHECK_THROWS_AS((void)gradient(tensor<double>{1.0, 2.0}, 1.0, 0, 2), value_error);
    CHECK_THROWS_AS((void)gradient(m), value_error); // two axes: name one
    CHECK_THROWS_AS((void)gradient(m, 1.0, 2), axis_error);
    // trapz
    CHECK(eval(trapz(f)).item() == 0x1.12ccccccccccdp+5);
    CHECK(eval(trapz(f, 0.1)).item() == 0x1.b7ae147ae147bp+1);
    CHECK(eval(trapz(tensor<std::int32_t>{1, 4, 9, 16})).item() == 21.5);
    CHECK(bits(eval(trapz(m, 1.0, 0)))
          == std::vector<double>{0x1.1cccccccccccdp+2, 0x1.b666666666666p+2, 0x1.4666666666666p+3});
    const tensor<double> xs = {0.0, 0.1, 0.3, 0.6, 1.0, 1.5};
    CHECK(eval(trapz(f, xs)).item() == 0x1.aa8f5c28f5c29p+3);
    CHECK(bits(eval(trapz(m, tensor<double>{0.0, 0.5, 2.0})))
          == std::vector<double>{0x1.74cccccccccccp+2, 0x1.9666666666666p+4});
    // float32 stays float32 (a float32 pairwise sum in NumPy, fusor's float64 sum here: within an
    // ulp of NumPy's 3.435).
    const auto t32 = trapz(cast<float>(f), 0.1);
    static_assert(std::is_same_v<value_type_t<decltype(t32)>, float>);
    CHECK(std::abs(eval(t32).item() - 3.435f) <= 3e-7f);
    CHECK_THROWS_AS((void)trapz(f, tensor<double>{0.0, 1.0, 2.0}),
                    value_error); // (2,) against (5,)
}
