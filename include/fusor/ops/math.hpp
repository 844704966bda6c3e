// fusor/ops/math.hpp: one-argument math functions (exp, log, sqrt, abs).
#pragma once

#include <cmath>
#include <string_view>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/ops/arithmetic.hpp>

namespace fusor::ops {

#define FUSOR_FLOAT_FUNCTION(NAME, STD)                                                            \
    struct NAME {                                                                                  \
        static constexpr std::string_view name = #NAME;                                            \
        template <class A>                                                                         \
        using result = float_result_t<A>;                                                          \
        template <class A>                                                                         \
        FUSOR_INLINE result<A> operator()(A a) const {                                             \
            return STD(static_cast<result<A>>(a));                                                 \
        }                                                                                          \
    };
/// numpy.exp, numpy.log, numpy.sqrt: floating types keep theirs; bool and 8/16-bit integers
/// give float32, wider integers float64. Domain errors give NaN (IEEE), never a trap.
FUSOR_FLOAT_FUNCTION(exp, std::exp)
FUSOR_FLOAT_FUNCTION(log, std::log)
FUSOR_FLOAT_FUNCTION(sqrt, std::sqrt)
#undef FUSOR_FLOAT_FUNCTION

/// numpy.absolute: keeps the type; wraps on the most negative integer (`abs(INT_MIN)` is
/// `INT_MIN`, as NumPy); identity on bool and unsigned types.
struct abs {
    static constexpr std::string_view name = "absolute";
    template <class A>
    using result = A;
    template <class A>
    FUSOR_INLINE constexpr A operator()(A a) const {
        if constexpr (std::is_same_v<A, bool> || std::is_unsigned_v<A>)
            return a;
        else if constexpr (std::is_floating_point_v<A>)
            return std::fabs(a);
        else
            return a < 0 ? negate{}(a) : a;
    }
};

} // namespace fusor::ops
