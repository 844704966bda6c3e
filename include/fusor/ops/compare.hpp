// fusor/ops/compare.hpp: the six comparisons, minimum, maximum and where.
#pragma once

#include <string_view>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>

namespace fusor::ops {

#define FUSOR_COMPARISON(NAME, SYMBOL, EXPR)                                                       \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        static constexpr std::string_view symbol = SYMBOL;                                         \
        template <class A, class B>                                                                \
        using result = bool;                                                                       \
        template <class A, class B>                                                                \
        FUSOR_INLINE constexpr bool operator()(A a_, B b_) const {                                 \
            using C = promote_t<A, B>; /* compare in the promoted type, as NumPy */                \
            const C a = static_cast<C>(a_), b = static_cast<C>(b_);                                \
            return EXPR;                                                                           \
        }                                                                                          \
    };
FUSOR_COMPARISON(equal, "==", a == b)
FUSOR_COMPARISON(not_equal, "!=", a != b)
FUSOR_COMPARISON(less, "<", a < b)
FUSOR_COMPARISON(less_equal, "<=", a <= b)
FUSOR_COMPARISON(greater, ">", a > b)
FUSOR_COMPARISON(greater_equal, ">=", a >= b)
#undef FUSOR_COMPARISON

/// numpy.minimum: the smaller of two values; NaN propagates (either NaN gives NaN).
struct minimum {
    static constexpr std::string_view name = "minimum";
    template <class A, class B>
    using result = promote_t<A, B>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        return (a < b || a != a) ? a : b; // a != a: a is NaN
    }
};

/// numpy.maximum: the larger of two values; NaN propagates (either NaN gives NaN).
struct maximum {
    static constexpr std::string_view name = "maximum";
    template <class A, class B>
    using result = promote_t<A, B>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        return (a > b || a != a) ? a : b;
    }
};

/// numpy.where: `x` where `cond` is true (non-zero), else `y`; type `promote(x, y)`.
struct where {
    static constexpr std::string_view name = "where";
    template <class C, class X, class Y>
    using result = promote_t<X, Y>;
    template <class C, class X, class Y>
    FUSOR_INLINE constexpr result<C, X, Y> operator()(C c, X x, Y y) const {
        using R = result<C, X, Y>;
        return static_cast<bool>(c) ? static_cast<R>(x) : static_cast<R>(y);
    }
};

} // namespace fusor::ops
