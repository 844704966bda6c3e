// fusor/ops/logical.hpp: logical operations (any type → bool) and bitwise operations and
// shifts (integers and bool only), as NumPy.
#pragma once

#include <climits>
#include <string_view>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/ops/arithmetic.hpp>

namespace fusor::ops {

#define FUSOR_LOGICAL(NAME, SYMBOL, EXPR)                                                          \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        static constexpr std::string_view symbol = SYMBOL;                                         \
        template <class A, class B>                                                                \
        using result = bool;                                                                       \
        template <class A, class B>                                                                \
        FUSOR_INLINE constexpr bool operator()(A a_, B b_) const {                                 \
            const bool a = a_ != A(0), b = b_ != B(0); /* NaN is true, as NumPy */                 \
            return EXPR;                                                                           \
        }                                                                                          \
    };
/// numpy.logical_and (`&&`), numpy.logical_or (`||`), numpy.logical_xor: operands of any type
/// are true when non-zero (NaN is true); the result is bool. Both sides are always evaluated
/// (element-wise, no short circuit).
FUSOR_LOGICAL(logical_and, "&&", a&& b)
FUSOR_LOGICAL(logical_or, "||", a || b)
FUSOR_LOGICAL(logical_xor, "", a != b)
#undef FUSOR_LOGICAL

/// numpy.logical_not (`!`): true where the operand is zero → bool.
struct logical_not {
    static constexpr std::string_view name = "logical_not";
    static constexpr std::string_view symbol = "!";
    template <class A>
    using result = bool;
    template <class A>
    FUSOR_INLINE constexpr bool operator()(A a) const {
        return a == A(0);
    }
};

// Bitwise operations on floating types are rejected at compile time (NumPy raises TypeError);
// the message names the operation, the compiler's note names the types.
#define FUSOR_REQUIRE_INTEGER(NAME, R)                                                             \
    static_assert(!std::is_floating_point_v<R>,                                                    \
                  "fusor: " NAME " needs integer or bool operands (as NumPy); these operands "     \
                  "promote to a floating type")

#define FUSOR_BITWISE(NAME, SYMBOL, OPERATOR)                                                      \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        static constexpr std::string_view symbol = SYMBOL;                                         \
        template <class A, class B>                                                                \
        using result = promote_t<A, B>;                                                            \
        template <class A, class B>                                                                \
        FUSOR_INLINE constexpr result<A, B> operator()(A a, B b) const {                           \
            using R = result<A, B>;                                                                \
            FUSOR_REQUIRE_INTEGER(#NAME, R);                                                       \
            return static_cast<R>(static_cast<R>(a) OPERATOR static_cast<R>(b));                   \
        }                                                                                          \
    };
/// numpy.bitwise_and (`&`), numpy.bitwise_or (`|`), numpy.bitwise_xor (`^`) in
/// `promote(a, b)`; on two bools they are logical and, or, xor (result bool). Do not compile on
/// floating types.
FUSOR_BITWISE(bitwise_and, "&", &)
FUSOR_BITWISE(bitwise_or, "|", |)
FUSOR_BITWISE(bitwise_xor, "^", ^)
#undef FUSOR_BITWISE

/// numpy.invert (`~`): bitwise not of integers; logical not of bool. Does not compile on
/// floating types.
struct invert {
    static constexpr std::string_view name = "invert";
    static constexpr std::string_view symbol = "~";
    template <class A>
    using result = A;
    template <class A>
    FUSOR_INLINE constexpr A operator()(A a) const {
        FUSOR_REQUIRE_INTEGER("invert (~)", A);
        if constexpr (std::is_same_v<A, bool>)
            return !a;
        else
            return static_cast<A>(~a);
    }
};

/// numpy.left_shift (`<<`) in `promote(a, b)` (int8 for two bools): bits shifted out are lost
/// (wraps, as NumPy); a shift by a negative amount or by at least the type's width gives 0.
/// Never C++ undefined behaviour. Does not compile on floating types.
struct left_shift {
    static constexpr std::string_view name = "left_shift";
    static constexpr std::string_view symbol = "<<";
    template <class A, class B>
    using result = detail::bool_as_int8_t<promote_t<A, B>>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        FUSOR_REQUIRE_INTEGER("left_shift (<<)", R);
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        constexpr auto width = sizeof(R) * CHAR_BIT;
        if (static_cast<std::make_unsigned_t<R>>(b) >= width) // negative b is huge here
            return R(0);
        return static_cast<R>(static_cast<detail::wrap_t<R>>(a) << b);
    }
};

/// numpy.right_shift (`>>`) in `promote(a, b)` (int8 for two bools): arithmetic for signed
/// types; a shift by a negative amount or by at least the type's width gives 0, or -1 for a
/// negative `a` (as NumPy). Does not compile on floating types.
struct right_shift {
    static constexpr std::string_view name = "right_shift";
    static constexpr std::string_view symbol = ">>";
    template <class A, class B>
    using result = detail::bool_as_int8_t<promote_t<A, B>>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        FUSOR_REQUIRE_INTEGER("right_shift (>>)", R);
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        constexpr auto width = sizeof(R) * CHAR_BIT;
        if (static_cast<std::make_unsigned_t<R>>(b) >= width)
            return a < R(0) ? R(-1) : R(0);
        return static_cast<R>(a >> b);
    }
};

#undef FUSOR_REQUIRE_INTEGER

} // namespace fusor::ops
