// fusor/ops/arithmetic.hpp: + - * / and unary minus, with NumPy's result types and integer
// wrap-around (never C++ undefined behaviour).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>

namespace fusor::ops {

namespace detail {
// Integer arithmetic wraps (two's complement, as NumPy): compute in an unsigned type at least
// as wide as `unsigned` (so uint16 * uint16 cannot overflow a promoted int), then convert
// back, which C++20 defines as modular.
template <class R>
using wrap_t =
    std::conditional_t<(sizeof(R) < sizeof(unsigned)), unsigned, std::make_unsigned_t<R>>;

template <class R>
constexpr bool wraps = std::is_integral_v<R> && !std::is_same_v<R, bool>;

// NumPy computes %, floor_divide, power and shifts of two bools in int8 (True → 1).
template <class R>
using bool_as_int8_t = std::conditional_t<std::is_same_v<R, bool>, std::int8_t, R>;

// NumPy's npy_divmod for floating types: fmod, then moved to the divisor's sign; the quotient
// is (a - mod) / b rounded to the nearest integer below. Division by zero gives a / b (±inf or
// NaN) and a NaN remainder.
template <class R>
struct float_divmod {
    R quotient, remainder;
};
template <class R>
FUSOR_INLINE float_divmod<R> divmod_float(R a, R b) {
    R mod = std::fmod(a, b);
    if (b == R(0))
        return {a / b, mod};
    R div = (a - mod) / b;
    if (mod != R(0)) {
        if ((b < R(0)) != (mod < R(0))) {
            mod += b;
            div -= R(1);
        }
    } else {
        mod = std::copysign(R(0), b);
    }
    R floordiv;
    if (div != R(0)) {
        floordiv = std::floor(div);
        if (div - floordiv > R(0.5))
            floordiv += R(1);
    } else {
        floordiv = std::copysign(R(0), a / b);
    }
    return {floordiv, mod};
}
} // namespace detail

/// `a + b` (numpy.add); on `bool` it is logical or.
struct add {
    static constexpr std::string_view name = "add";
    static constexpr std::string_view symbol = "+";
    template <class A, class B>
    using result = promote_t<A, B>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a, B b) const {
        using R = result<A, B>;
        if constexpr (std::is_same_v<R, bool>)
            return a || b;
        else if constexpr (detail::wraps<R>)
            return static_cast<R>(static_cast<detail::wrap_t<R>>(a)
                                  + static_cast<detail::wrap_t<R>>(b));
        else
            return static_cast<R>(a) + static_cast<R>(b);
    }
};

/// `a - b` (numpy.subtract); does not compile on `bool` (NumPy raises TypeError).
struct subtract {
    static constexpr std::string_view name = "subtract";
    static constexpr std::string_view symbol = "-";
    template <class A, class B>
    using result = promote_t<A, B>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a, B b) const {
        using R = result<A, B>;
        static_assert(!std::is_same_v<R, bool>,
                      "fusor: subtract (-) on bool operands is not supported (as NumPy); use "
                      "logical_xor or ^");
        if constexpr (detail::wraps<R>)
            return static_cast<R>(static_cast<detail::wrap_t<R>>(a)
                                  - static_cast<detail::wrap_t<R>>(b));
        else
            return static_cast<R>(a) - static_cast<R>(b);
    }
};

/// `a * b` (numpy.multiply); on `bool` it is logical and.
struct multiply {
    static constexpr std::string_view name = "multiply";
    static constexpr std::string_view symbol = "*";
    template <class A, class B>
    using result = promote_t<A, B>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a, B b) const {
        using R = result<A, B>;
        if constexpr (std::is_same_v<R, bool>)
            return a && b;
        else if constexpr (detail::wraps<R>)
            return static_cast<R>(static_cast<detail::wrap_t<R>>(a)
                                  * static_cast<detail::wrap_t<R>>(b));
        else
            return static_cast<R>(a) * static_cast<R>(b);
    }
};

/// `a / b`, true division (numpy.true_divide): integers and bools divide as `double`;
/// `1 / 0` is `inf`, `0 / 0` is NaN (IEEE, no trap).
struct divide {
    static constexpr std::string_view name = "divide";
    static constexpr std::string_view symbol = "/";
    template <class A, class B>
    using result = true_divide_t<A, B>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a, B b) const {
        using R = result<A, B>;
        return static_cast<R>(a) / static_cast<R>(b);
    }
};

/// `-a` (numpy.negative); wraps on integers (`-INT_MIN == INT_MIN`); does not compile on
/// `bool`.
struct negate {
    static constexpr std::string_view name = "negative";
    static constexpr std::string_view symbol = "-";
    template <class A>
    using result = A;
    template <class A>
    FUSOR_INLINE constexpr A operator()(A a) const {
        static_assert(!std::is_same_v<A, bool>,
                      "fusor: negative (unary -) on bool is not supported (as NumPy); use "
                      "logical_not or ~");
        if constexpr (detail::wraps<A>)
            return static_cast<A>(detail::wrap_t<A>(0) - static_cast<detail::wrap_t<A>>(a));
        else
            return -a;
    }
};

/// `a * a` (numpy.square); wraps on integers; bool squares to int8 (as NumPy: True → 1).
struct square {
    static constexpr std::string_view name = "square";
    template <class A>
    using result = std::conditional_t<std::is_same_v<A, bool>, std::int8_t, A>;
    template <class A>
    FUSOR_INLINE constexpr result<A> operator()(A a) const {
        const auto v = static_cast<result<A>>(a);
        return multiply{}(v, v);
    }
};

/// `a % b` (numpy.remainder, numpy.mod): the remainder with the sign of the divisor, so
/// `a == floor_divide(a, b) * b + a % b`. Integers: `x % 0` is 0 (NumPy warns; no trap, no
/// undefined behaviour), `INT_MIN % -1` is 0. Floats: NumPy's fmod-based rule (`x % 0.0` is
/// NaN). Two bools compute in int8.
struct mod {
    static constexpr std::string_view name = "remainder";
    static constexpr std::string_view symbol = "%";
    template <class A, class B>
    using result = detail::bool_as_int8_t<promote_t<A, B>>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        if constexpr (std::is_floating_point_v<R>) {
            return detail::divmod_float(a, b).remainder;
        } else {
            if (b == R(0))
                return R(0);
            if constexpr (std::is_signed_v<R>) {
                if (b == R(-1))
                    return R(0); // INT_MIN % -1 would overflow in C++
                const R r = static_cast<R>(a % b);
                return (r != R(0) && ((r < R(0)) != (b < R(0)))) ? static_cast<R>(r + b) : r;
            } else {
                return static_cast<R>(a % b);
            }
        }
    }
};

/// `floor_divide(a, b)` (numpy.floor_divide, Python's `//`): the quotient rounded toward −∞.
/// Integers: `x // 0` is 0 and `INT_MIN // -1` wraps to `INT_MIN` (as NumPy, with no undefined
/// behaviour). Floats: NumPy's rule (`1.0 // 0.0` is inf, `0.0 // 0.0` NaN). Two bools compute in
/// int8.
struct floor_divide {
    static constexpr std::string_view name = "floor_divide";
    static constexpr std::string_view symbol = "//";
    template <class A, class B>
    using result = detail::bool_as_int8_t<promote_t<A, B>>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        if constexpr (std::is_floating_point_v<R>) {
            return detail::divmod_float(a, b).quotient;
        } else {
            if (b == R(0))
                return R(0);
            if constexpr (std::is_signed_v<R>) {
                if (b == R(-1))
                    return negate{}(a); // wraps on INT_MIN, as NumPy
                const R q = static_cast<R>(a / b);
                return (a % b != R(0) && ((a < R(0)) != (b < R(0)))) ? static_cast<R>(q - 1) : q;
            } else {
                return static_cast<R>(a / b);
            }
        }
    }
};

/// `power(a, b)` (numpy.power, also `pow`): floats as `std::pow`; integers by exact repeated
/// squaring with wrap-around (`int8(3) ** 5` is -13, as NumPy); `0 ** 0` is 1. An integer
/// raised to a negative integer power throws `value_error` (NumPy's ValueError) when it is
/// met. Two bools compute in int8.
struct power {
    static constexpr std::string_view name = "power";
    template <class A, class B>
    using result = detail::bool_as_int8_t<promote_t<A, B>>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        if constexpr (std::is_floating_point_v<R>) {
            return std::pow(a, b);
        } else {
            if constexpr (std::is_signed_v<R>)
                if (b < R(0))
                    throw value_error("Integers to negative integer powers are not allowed.");
            using W = detail::wrap_t<R>;
            W base = static_cast<W>(a), acc = 1;
            for (auto e = static_cast<std::make_unsigned_t<R>>(b); e != 0; e >>= 1) {
                if (e & 1u)
                    acc = static_cast<W>(acc * base);
                base = static_cast<W>(base * base);
            }
            return static_cast<R>(acc);
        }
    }
};

} // namespace fusor::ops
