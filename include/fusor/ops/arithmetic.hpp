// fusor/ops/arithmetic.hpp: + - * / and unary minus, with NumPy's result types and integer
// wrap-around (never C++ undefined behaviour).
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>

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

} // namespace fusor::ops
