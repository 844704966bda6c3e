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

#include <fusor/core/rounding.hpp>
#include <fusor/random/ziggurat_tables.hpp>

namespace fusor::random::detail {

using fusor::detail::rounded; // core/rounding.hpp: NumPy's rounded products

namespace ziggurat_try {
// One try: the box i, the uniform integer u and the candidate x = u * w[i] that one draw gives,
// read from the same bits as NumPy. The candidate is the sample when u < k[i] (accepted()).
// The normal's sign is a multiplication by +-1 (exact, -0.0 included): a branch on a random bit
// would be mispredicted half the time.
inline constexpr double sign[2] = {1.0, -1.0};
inline constexpr float sign_float[2] = {1.0f, -1.0f};

struct normal {
    explicit normal(std::uint64_t r) // bits 0-7 the box, bit 8 the sign, 9-60 the magnitude
        : i(static_cast<unsigned>(r & 0xff)), u((r >> 9) & 0x000fffffffffffffu),
          x(rounded(static_cast<double>(u) * ziggurat::normal_w[i]) * sign[(r >> 8) & 1u]) {}
    bool accepted() const { return u < ziggurat::normal_k[i]; }
    unsigned i;
    std::uint64_t u;
    double x;
};

struct normal_float {
    explicit normal_float(std::uint32_t r) // bits 0-7 the box, bit 8 the sign, 9-31 the magnitude
        : i(r & 0xffu), u((r >> 9) & 0x007fffffu),
          x(rounded(static_cast<float>(u) * ziggurat::normal_w_float[i])
            * sign_float[(r >> 8) & 1u]) {}
    bool accepted() const { return u < ziggurat::normal_k_float[i]; }
    unsigned i;
    std::uint32_t u;
    float x;
};

struct exponential {
    explicit exponential(std::uint64_t r) // bits 3-10 the box, 11-63 the uniform
        : i(static_cast<unsigned>((r >> 3) & 0xff)), u(r >> 11),
          x(rounded(static_cast<double>(u) * ziggurat::exponential_w[i])) {}
    bool accepted() const { return u < ziggurat::exponential_k[i]; }
    unsigned i;
    std::uint64_t u;
    double x;
};

struct exponential_float {
    explicit exponential_float(std::uint32_t r) // bits 1-8 the box, 9-31 the uniform
        : i((r >> 1) & 0xffu), u(r >> 9),
          x(rounded(static_cast<float>(u) * ziggurat::exponential_w_float[i])) {}
    bool accepted() const { return u < ziggurat::exponential_k_float[i]; }
    unsigned i;
    std::uint32_t u;
    float x;
};
} // namespace ziggurat_try

namespace ziggurat_slow {
// The paths after a rejected first try (~1 % of samples), out of line so that the common path
// inlines into the caller's loop: the tail, the wedge test, then new tries until one is
// accepted. NumPy's C code loops (or recurses) the same way, drawing the same values.

// The normal's tail beyond r (Marsaglia 1964): x = -log(U1) / r, y = -log(U2) until 2y > x^2;
// the sample is r + x with the sign of bit 8 of the first draw's magnitude. log1p(-U) rather
// than log(U), as NumPy (numpy GH 13361: U can be 0, never 1).
template <class BitGenerator>
double normal_tail(BitGenerator& g, bool negative) {
    namespace z = ziggurat;
    for (;;) {
        const double xx = rounded(-z::normal_inv_r * std::log1p(-g.next_double()));
        const double yy = -std::log1p(-g.next_double());
        if (yy + yy > rounded(xx * xx))
            return rounded(negative ? -(z::normal_r + xx) : z::normal_r + xx);
    }
}

template <class BitGenerator>
float normal_tail_float(BitGenerator& g, bool negative) {
    namespace z = ziggurat;
    for (;;) {
        const float xx = rounded(-z::normal_inv_r_float * std::log1p(-g.next_float()));
        const float yy = -std::log1p(-g.next_float());
        if (yy + yy > rounded(xx * xx))
            return rounded(negative ? -(z::normal_r_float + xx) : z::normal_r_float + xx);
    }
}

// After a rejected first try: box 0 goes to the tail; box i's wedge accepts x when a uniform
// point between f[i] and f[i - 1] lies under the curve; otherwise a new try. NumPy computes (f[i-1]
// - f[i]) * U + f[i] in the table's type; the float normal evaluates the density in double
// (exp(-0.5 * x * x) with a float x), the float exponential in float (expf).
template <class BitGenerator>
[[gnu::noinline]] double standard_normal(BitGenerator& g, ziggurat_try::normal t) {
    namespace z = ziggurat;
    for (;;) {
        if (t.i == 0)
            return normal_tail(g, (t.u >> 8) & 1u);
        const double y =
            rounded((z::normal_f[t.i - 1] - z::normal_f[t.i]) * g.next_double()) + z::normal_f[t.i];
        if (y < std::exp(-0.5 * t.x * t.x))
            return t.x;
        t = ziggurat_try::normal(g.next_uint64());
        if (t.accepted())
            return t.x;
    }
}

template <class BitGenerator>
[[gnu::noinline]] float standard_normal_float(BitGenerator& g, ziggurat_try::normal_float t) {
    namespace z = ziggurat;
    for (;;) {
        if (t.i == 0)
            return normal_tail_float(g, (t.u >> 8) & 1u);
        const float y =
            rounded((z::normal_f_float[t.i - 1] - z::normal_f_float[t.i]) * g.next_float())
            + z::normal_f_float[t.i];
        const double x = t.x;
        if (static_cast<double>(y) < std::exp(-0.5 * x * x))
            return t.x;
        t = ziggurat_try::normal_float(g.next_uint32());
        if (t.accepted())
            return t.x;
    }
}

template <class BitGenerator>
[[gnu::noinline]] double standard_exponential(BitGenerator& g, ziggurat_try::exponential t) {
    namespace z = ziggurat;
    for (;;) {
        if (t.i == 0) // the tail beyond r is r + Exp(1)
            return rounded(z::exponential_r - std::log1p(-g.next_double()));
        const double y =
            rounded((z::exponential_f[t.i - 1] - z::exponential_f[t.i]) * g.next_double())
            + z::exponential_f[t.i];
        if (y < std::exp(-t.x))
            return t.x;
        t = ziggurat_try::exponential(g.next_uint64());
        if (t.accepted())
            return t.x;
    }
}

template <class BitGenerator>
[[gnu::noinline]] float standard_exponential_float(BitGenerator& g,
                                                   ziggurat_try::exponential_float t) {
    namespace z = ziggurat;
    for (;;) {
        if (t.i == 0)
            return rounded(z::exponential_r_float - std::log1p(-g.next_float()));
        const float y = rounded((z::exponential_f_float[t.i - 1] - z::exponential_f_float[t.i])
                                * g.next_float())
                        + z::exponential_f_float[t.i];
        if (y < std::exp(-t.x)) // expf
            return t.x;
        t = ziggurat_try::exponential_float(g.next_uint32());
        if (t.accepted())
            return t.x;
    }
}

} // namespace ziggurat_slow

/// `standard_normal(g)`: one N(0, 1) sample, exactly NumPy's bits, as
/// numpy.random.Generator(PCG64).standard_normal() (float64). Draws one next_uint64() per try:
/// bits 0-7 the box, bit 8 the sign, bits 9-60 the 52-bit magnitude; the tail and the wedges
/// draw next_double()s. Never throws (unless `g` does).
template <class BitGenerator>
double standard_normal(BitGenerator& g) {
    const ziggurat_try::normal t(g.next_uint64());
    if (t.accepted()) [[likely]] // ~99.3 % of the time
        return t.x;
    return ziggurat_slow::standard_normal(g, t);
}

/// `standard_normal_float(g)`: one N(0, 1) float sample, exactly NumPy's bits, as
/// numpy.random.Generator(PCG64).standard_normal(dtype=np.float32). Draws one next_uint32() per
/// try (bits 0-7 the box, bit 8 the sign, bits 9-31 the 23-bit magnitude) and next_float()s on
/// the slow paths; the float tables are separate from the double ones. Never throws.
template <class BitGenerator>
float standard_normal_float(BitGenerator& g) {
    const ziggurat_try::normal_float t(g.next_uint32());
    if (t.accepted()) [[likely]]
        return t.x;
    return ziggurat_slow::standard_normal_float(g, t);
}

/// `standard_exponential(g)`: one Exp(1) sample, exactly NumPy's bits, as
/// numpy.random.Generator(PCG64).standard_exponential() (method='zig', float64). Draws one
/// next_uint64() per try: bits 3-10 the box, bits 11-63 the 53-bit uniform; the tail
/// (r - log1p(-U)) and the wedges draw next_double()s. Never throws.
template <class BitGenerator>
double standard_exponential(BitGenerator& g) {
    const ziggurat_try::exponential t(g.next_uint64());
    if (t.accepted()) [[likely]] // ~98.9 % of the time
        return t.x;
    return ziggurat_slow::standard_exponential(g, t);
}

/// `standard_exponential_float(g)`: one Exp(1) float sample, exactly NumPy's bits, as
/// numpy.random.Generator(PCG64).standard_exponential(dtype=np.float32). Draws one
/// next_uint32() per try (bits 1-8 the box, bits 9-31 the 23-bit uniform) and next_float()s on
/// the slow paths. Never throws.
template <class BitGenerator>
float standard_exponential_float(BitGenerator& g) {
    const ziggurat_try::exponential_float t(g.next_uint32());
    if (t.accepted()) [[likely]]
        return t.x;
    return ziggurat_slow::standard_exponential_float(g, t);
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
