// fusor/random/ziggurat.hpp: NumPy's ziggurat samplers of the standard normal and the standard
// exponential distribution, float64 and float32, drawing from any bit generator with PCG64's
// interface. They return exactly NumPy 1.24's bits and consume exactly its draws, so a
// generator built on them continues NumPy's stream (numpy/random/src/distributions/
// distributions.c: random_standard_normal[_f], random_standard_exponential[_f]).
//
// The method (Marsaglia & Tsang 2000, 256 boxes): one draw gives a box index i and a uniform
// integer u; u * w[i] is the sample when u < k[i] (~99 % of draws); box 0 past r is the tail
// (sampled by Marsaglia's exponential method for the normal, r + Exp(1) for the exponential);
// otherwise a second uniform decides between the box's wedge and a new draw.
//
// Bits: every product that NumPy rounds before an addition goes through detail::rounded, so
// -ffp-contract (g++'s default, with FMA under -march=native) cannot fuse it; exp, log1p and their
// float versions are the C library's, as NumPy's are, so the slow paths match NumPy only when
// both use the same libm (they do when NumPy runs on the same system). The tables come from
// tests/random/ziggurat_tables.py (fusor/random/ziggurat_tables.hpp).
//
// The bit generator `g` offers, with NumPy PCG64's semantics:
//   std::uint64_t next_uint64();
//   std::uint32_t next_uint32();  // the low half of a fresh 64-bit draw, then its high half
//   double next_double();         // (next_uint64() >> 11) * 2^-53
//   float next_float();           // (next_uint32() >> 8) * 2^-24
#pragma once

#include <cmath>
#include <cstdint>

#include <fusor/random/rounding.hpp>
#include <fusor/random/ziggurat_tables.hpp>

namespace fusor::random::detail {

namespace ziggurat_slow {
// The rarely taken paths, out of line so that the common path stays small enough to inline.

// The normal's tail beyond r (Marsaglia 1964): x = -log(U1) / r, y = -log(U2) until 2y > x^2;
// the sample is r + x with the sign of bit 8 of the first draw's magnitude. log(1 - U) rather
// than log(U), as NumPy does (numpy GH 13361: U can be 0, never 1).
template <class BitGenerator>
[[gnu::noinline]] double normal_tail(BitGenerator& g, bool negative) {
    namespace z = ziggurat;
    for (;;) {
        const double xx = rounded(-z::normal_inv_r * std::log1p(-g.next_double()));
        const double yy = -std::log1p(-g.next_double());
        if (yy + yy > rounded(xx * xx))
            return negative ? -(z::normal_r + xx) : z::normal_r + xx;
    }
}

template <class BitGenerator>
[[gnu::noinline]] float normal_tail_float(BitGenerator& g, bool negative) {
    namespace z = ziggurat;
    for (;;) {
        const float xx = rounded(-z::normal_inv_r_float * std::log1p(-g.next_float()));
        const float yy = -std::log1p(-g.next_float());
        if (yy + yy > rounded(xx * xx))
            return negative ? -(z::normal_r_float + xx) : z::normal_r_float + xx;
    }
}

// Box i's wedge: accept x when a uniform point between f[i] and f[i - 1] lies under the curve.
// NumPy computes (f[i-1] - f[i]) * U + f[i] in the table's type and the density in double.
template <class BitGenerator>
[[gnu::noinline]] bool normal_wedge(BitGenerator& g, unsigned i, double x) {
    namespace z = ziggurat;
    const double y =
        rounded((z::normal_f[i - 1] - z::normal_f[i]) * g.next_double()) + z::normal_f[i];
    return y < std::exp(-0.5 * x * x);
}

template <class BitGenerator>
[[gnu::noinline]] bool normal_wedge_float(BitGenerator& g, unsigned i, float x) {
    namespace z = ziggurat;
    const float y = rounded((z::normal_f_float[i - 1] - z::normal_f_float[i]) * g.next_float())
                    + z::normal_f_float[i];
    const double xd = x; // NumPy's float sampler evaluates exp(-0.5 * x * x) in double
    return static_cast<double>(y) < std::exp(-0.5 * xd * xd);
}

template <class BitGenerator>
[[gnu::noinline]] bool exponential_wedge(BitGenerator& g, unsigned i, double x) {
    namespace z = ziggurat;
    const double y = rounded((z::exponential_f[i - 1] - z::exponential_f[i]) * g.next_double())
                     + z::exponential_f[i];
    return y < std::exp(-x);
}

template <class BitGenerator>
[[gnu::noinline]] bool exponential_wedge_float(BitGenerator& g, unsigned i, float x) {
    namespace z = ziggurat;
    const float y =
        rounded((z::exponential_f_float[i - 1] - z::exponential_f_float[i]) * g.next_float())
        + z::exponential_f_float[i];
    return y < std::exp(-x); // expf, in float, as NumPy's float sampler
}

} // namespace ziggurat_slow

/// `standard_normal(g)`: one N(0, 1) sample, exactly NumPy's bits, as
/// numpy.random.Generator(PCG64).standard_normal() (float64). Draws one next_uint64() per try:
/// bits 0-7 the box, bit 8 the sign, bits 9-60 the 52-bit magnitude; the tail and the wedges
/// draw next_double()s. Never throws (unless `g` does).
template <class BitGenerator>
double standard_normal(BitGenerator& g) {
    namespace z = ziggurat;
    for (;;) {
        const std::uint64_t r = g.next_uint64();
        const unsigned i = static_cast<unsigned>(r & 0xff);
        const std::uint64_t magnitude = (r >> 9) & 0x000fffffffffffffu;
        double x = rounded(static_cast<double>(magnitude) * z::normal_w[i]);
        if ((r >> 8) & 1u)
            x = -x;
        if (magnitude < z::normal_k[i])
            return x; // ~99.3 % of the time
        if (i == 0)
            return rounded(ziggurat_slow::normal_tail(g, (magnitude >> 8) & 1u));
        if (ziggurat_slow::normal_wedge(g, i, x))
            return x;
    }
}

/// `standard_normal_float(g)`: one N(0, 1) float sample, exactly NumPy's bits, as
/// numpy.random.Generator(PCG64).standard_normal(dtype=np.float32). Draws one next_uint32() per
/// try (bits 0-7 the box, bit 8 the sign, bits 9-31 the 23-bit magnitude) and next_float()s on
/// the slow paths; the float tables are separate from the double ones. Never throws.
template <class BitGenerator>
float standard_normal_float(BitGenerator& g) {
    namespace z = ziggurat;
    for (;;) {
        const std::uint32_t r = g.next_uint32();
        const unsigned i = r & 0xffu;
        const std::uint32_t magnitude = (r >> 9) & 0x007fffffu;
        float x = rounded(static_cast<float>(magnitude) * z::normal_w_float[i]);
        if ((r >> 8) & 1u)
            x = -x;
        if (magnitude < z::normal_k_float[i])
            return x;
        if (i == 0)
            return rounded(ziggurat_slow::normal_tail_float(g, (magnitude >> 8) & 1u));
        if (ziggurat_slow::normal_wedge_float(g, i, x))
            return x;
    }
}

/// `standard_exponential(g)`: one Exp(1) sample, exactly NumPy's bits, as
/// numpy.random.Generator(PCG64).standard_exponential() (method='zig', float64). Draws one
/// next_uint64() per try: bits 3-10 the box, bits 11-63 the 53-bit uniform; the tail
/// (r - log1p(-U)) and the wedges draw next_double()s. Never throws.
template <class BitGenerator>
double standard_exponential(BitGenerator& g) {
    namespace z = ziggurat;
    for (;;) {
        const std::uint64_t r = g.next_uint64() >> 3;
        const unsigned i = static_cast<unsigned>(r & 0xff);
        const std::uint64_t u = r >> 8;
        const double x = rounded(static_cast<double>(u) * z::exponential_w[i]);
        if (u < z::exponential_k[i])
            return x; // ~98.9 % of the time
        if (i == 0)
            return rounded(z::exponential_r - std::log1p(-g.next_double()));
        if (ziggurat_slow::exponential_wedge(g, i, x))
            return x;
    }
}

/// `standard_exponential_float(g)`: one Exp(1) float sample, exactly NumPy's bits, as
/// numpy.random.Generator(PCG64).standard_exponential(dtype=np.float32). Draws one
/// next_uint32() per try (bits 1-8 the box, bits 9-31 the 23-bit uniform) and next_float()s on
/// the slow paths. Never throws.
template <class BitGenerator>
float standard_exponential_float(BitGenerator& g) {
    namespace z = ziggurat;
    for (;;) {
        const std::uint32_t r = g.next_uint32() >> 1;
        const unsigned i = r & 0xffu;
        const std::uint32_t u = r >> 8;
        const float x = rounded(static_cast<float>(u) * z::exponential_w_float[i]);
        if (u < z::exponential_k_float[i])
            return x;
        if (i == 0)
            return rounded(z::exponential_r_float - std::log1p(-g.next_float()));
        if (ziggurat_slow::exponential_wedge_float(g, i, x))
            return x;
    }
}

/// `normal(g, loc, scale)`: loc + scale * standard_normal(g), the product rounded before the
/// sum as numpy.random.Generator.normal(loc, scale) computes it (random_normal). No check of
/// scale (the generator validates it, as NumPy's does before sampling). Never throws.
template <class BitGenerator>
double normal(BitGenerator& g, double loc, double scale) {
    return rounded(loc + rounded(scale * standard_normal(g)));
}

/// `exponential(g, scale)`: scale * standard_exponential(g), as
/// numpy.random.Generator.exponential(scale) (random_exponential). Never throws.
template <class BitGenerator>
double exponential(BitGenerator& g, double scale) {
    return rounded(scale * standard_exponential(g));
}

} // namespace fusor::random::detail
