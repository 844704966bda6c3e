// fusor/random/rounding.hpp: detail::rounded(x), a value the compiler must hold rounded to its
// type, so that a * b + c cannot be contracted into one fused multiply-add.
//
// Why: NumPy's samplers are compiled without FMA, so each product is rounded before it is added.
// g++ contracts a * b + c into an FMA by default (-ffp-contract=fast outside ISO mode) wherever
// the target has one (-march=native on any recent x86-64), which changes the last bit, and a
// header cannot switch that off for its includer (GCC ignores #pragma STDC FP_CONTRACT). Passing
// the product through an empty asm statement that claims to modify it hides where it came from:
// the add sees an opaque value and must use the rounded product. The statement emits no
// instruction. Elsewhere a volatile round trip does the same at the cost of a store and a load.
#pragma once

#include <type_traits>

namespace fusor::random::detail {

/// `rounded(x)`: x itself, as an opaque value the optimiser cannot fuse with the operation that
/// made it or the one that uses it (no FMA contraction across it). For `float` and `double`
/// only; scalar, never throws. Used wherever NumPy's C code rounds a product before adding it.
template <class T>
[[nodiscard]] inline T rounded(T x) noexcept {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                  "fusor::random::detail::rounded(x): x must be float or double");
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    __asm__("" : "+x"(x)); // x lives in an SSE register, as rounded by the operation that made it
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
    __asm__("" : "+w"(x)); // the same with an AArch64 SIMD/FP register
#else
    volatile T stored = x;
    x = stored;
#endif
    return x;
}

} // namespace fusor::random::detail
