// fusor/ops/compare.hpp: the six comparisons, minimum/maximum (NaN-propagating), fmin/fmax
// (NaN-ignoring), clip, isclose and where.
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

/// numpy.fmin: the smaller of two values, ignoring NaN (NaN only when both are NaN).
struct fmin {
    static constexpr std::string_view name = "fmin";
    template <class A, class B>
    using result = promote_t<A, B>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        return (a <= b || b != b) ? a : b; // b != b: b is NaN, so a (NaN or not) wins
    }
};

/// numpy.fmax: the larger of two values, ignoring NaN (NaN only when both are NaN).
struct fmax {
    static constexpr std::string_view name = "fmax";
    template <class A, class B>
    using result = promote_t<A, B>;
    template <class A, class B>
    FUSOR_INLINE constexpr result<A, B> operator()(A a_, B b_) const {
        using R = result<A, B>;
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        return (a >= b || b != b) ? a : b;
    }
};

/// numpy.clip: `minimum(maximum(x, lo), hi)` in `promote(x, lo, hi)`; NaN in any of the three
/// propagates (as NumPy); `lo > hi` gives `hi` everywhere (as NumPy).
struct clip {
    static constexpr std::string_view name = "clip";
    template <class X, class L, class H>
    using result = promote_t<promote_t<X, L>, H>;
    template <class X, class L, class H>
    FUSOR_INLINE constexpr result<X, L, H> operator()(X x, L lo, H hi) const {
        using R = result<X, L, H>;
        return minimum{}(maximum{}(static_cast<R>(x), static_cast<R>(lo)), static_cast<R>(hi));
    }
};

/// numpy.isclose(a, b, rtol, atol) (equal_nan=False) → bool: `|a - b| <= atol + rtol * |b|`
/// for finite values, `a == b` when either is infinite, false for NaN. Computed as NumPy does:
/// in `promote(a, b')` where `b'` is `b` made floating (integers as float64).
struct isclose {
    static constexpr std::string_view name = "isclose";
    template <class A, class B, class Rtol, class Atol>
    using result = bool;
    template <class A, class B>
    using compute_t = promote_t<A, std::conditional_t<std::is_floating_point_v<B>, B, double>>;
    template <class A, class B, class Rtol, class Atol>
    FUSOR_INLINE bool operator()(A a_, B b_, Rtol rtol, Atol atol) const {
        using R = compute_t<A, B>;
        const R a = static_cast<R>(a_), b = static_cast<R>(b_);
        const bool finite = (a - a == R(0)) && (b - b == R(0));
        if (!finite)
            return a == b;
        const R d = a > b ? a - b : b - a;
        return d <= static_cast<R>(atol) + static_cast<R>(rtol) * (b < R(0) ? -b : b);
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
