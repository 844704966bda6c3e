// fusor/core/rounding.hpp: detail::rounded(x), a value the compiler must hold rounded to its
// type, so that a * b + c cannot be contracted into one fused multiply-add.
//
// Why: NumPy's C loops (its samplers, quantile's interpolation, the separate ufunc calls of
// `sqrt(add.reduce(x * x))`) are compiled without FMA, so each product is rounded before it is
// added.
// g++ contracts a * b + c into an FMA by default (-ffp-contract=fast outside ISO mode) wherever
// the target has one (-march=native on any recent x86-64), which changes the last bit, and a
// header cannot switch that off for its includer (GCC ignores #pragma STDC FP_CONTRACT). Passing
// the product through an empty asm statement that claims to modify it hides where it came from:
// the add sees an opaque value and must use the rounded product. The statement emits no
// instruction. Elsewhere a volatile round trip does the same at the cost of a store and a load.
#pragma once

#include <fusor/config.hpp>

/// 1 when the compile target has fused multiply-add instructions (FMA3, AVX-512): g++ then
/// fuses a multiply and an add into one instruction (contraction, on by default), and may fuse
/// them differently in two loops over the same expression, giving the last bit differently.
#if defined(__FMA__) || defined(__AVX512F__)
#define FUSOR_FMA_TARGET 1
#else
#define FUSOR_FMA_TARGET 0
#endif

namespace fusor::detail {

namespace rounding {
template <class T>
inline T opaque(T x) noexcept {
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
} // namespace rounding

/// `rounded(x)`: x itself, as an opaque value the optimiser cannot fuse with the operation that
/// made it or the one that uses it (no FMA contraction across it). `float` and `double` only
/// (other types do not convert: the call is ambiguous); scalar, never throws. Used wherever
/// NumPy's C code rounds a product before adding it: `rounded(a * b) + c`.
[[nodiscard]] FUSOR_HEADER_INLINE float rounded(float x) noexcept;
[[nodiscard]] FUSOR_HEADER_INLINE double rounded(double x) noexcept;

} // namespace fusor::detail

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/rounding.ipp>
#endif
