// fusor/random/pcg64.hpp: NumPy's default bit generator, PCG64 (O'Neill's PCG XSL RR 128/64),
// seeded through SeedSequence exactly as numpy.random.PCG64, with NumPy's 32-bit buffering and
// its integer-to-float conversions, so that every draw matches NumPy's bit for bit.
#pragma once

#include <cstdint>

#include <fusor/random/seed_sequence.hpp>

namespace fusor::random {

/// An unsigned 128-bit integer (GCC and Clang's `unsigned __int128`): PCG64's state, increment
/// and advance distances.
__extension__ typedef unsigned __int128 uint128_t;

/// PCG64's full state, as NumPy's `PCG64().state`: the 128-bit LCG state and increment, and the
/// buffered upper half of a 64-bit draw that the next 32-bit draw returns.
struct pcg64_state {
    uint128_t state = 0;
    uint128_t inc = 1;
    bool has_uint32 = false;
    std::uint32_t uinteger = 0;
    friend bool operator==(const pcg64_state&, const pcg64_state&) = default;
};

/// The PCG64 bit generator (numpy.random.PCG64): a 128-bit linear congruential generator whose
/// output is the XOR of its halves rotated by its top 6 bits. Period 2^128; `advance` moves it
/// by any distance in O(log distance) steps.
class pcg64 {
public:
    /// Seeded from fresh OS entropy (as `PCG64()`).
    pcg64() : pcg64(seed_sequence{}) {}
    /// Seeded as `PCG64(seed)`: through `seed_sequence(seed)`.
    explicit pcg64(std::uint64_t seed) : pcg64(seed_sequence{seed}) {}
    /// Seeded as `PCG64(seed_sequence)`: four 64-bit words of `generate_state`, the first two
    /// the initial state (high word first), the last two the stream.
    explicit pcg64(const seed_sequence& seq) {
        const auto words = seq.generate_state<std::uint64_t>(4);
        set_seed((uint128_t{words[0]} << 64) | words[1], (uint128_t{words[2]} << 64) | words[3]);
    }
    /// A generator in the given state (NumPy's `state` setter).
    explicit pcg64(const pcg64_state& s) : s_(s) {}

    /// The next 64 random bits (NumPy's `next_uint64`, `random_raw`).
    std::uint64_t next_uint64() {
        s_.state = s_.state * multiplier + s_.inc;
        const auto high = static_cast<std::uint64_t>(s_.state >> 64);
        const auto low = static_cast<std::uint64_t>(s_.state);
        const unsigned rot = static_cast<unsigned>(s_.state >> 122);
        const std::uint64_t x = high ^ low;
        return (x >> rot) | (x << ((64u - rot) & 63u));
    }

    /// The next 32 random bits: the low half of a fresh 64-bit draw, whose high half the
    /// following call returns (NumPy's `pcg64_next32`).
    std::uint32_t next_uint32() {
        if (s_.has_uint32) {
            s_.has_uint32 = false;
            return s_.uinteger;
        }
        const std::uint64_t next = next_uint64();
        s_.has_uint32 = true;
        s_.uinteger = static_cast<std::uint32_t>(next >> 32);
        return static_cast<std::uint32_t>(next & 0xFFFFFFFFu);
    }

    /// A double in [0, 1): the top 53 bits of a 64-bit draw times 2^-53 (NumPy's next_double).
    double next_double() { return static_cast<double>(next_uint64() >> 11) * 0x1.0p-53; }

    /// A float in [0, 1): the top 24 bits of a 32-bit draw times 2^-24 (NumPy 1.24's
    /// next_float; later NumPy releases keep 23 bits).
    float next_float() { return static_cast<float>(next_uint32() >> 8) * 0x1.0p-24f; }

    /// Moves the state as if `delta` 64-bit draws had been made (mod 2^128) and drops the
    /// buffered 32-bit half, as `PCG64.advance(delta)`.
    pcg64& advance(uint128_t delta) {
        uint128_t acc_mult = 1, acc_plus = 0, cur_mult = multiplier, cur_plus = s_.inc;
        while (delta > 0) {
            if (delta & 1) {
                acc_mult *= cur_mult;
                acc_plus = acc_plus * cur_mult + cur_plus;
            }
            cur_plus = (cur_mult + 1) * cur_plus;
            cur_mult *= cur_mult;
            delta >>= 1;
        }
        s_.state = acc_mult * s_.state + acc_plus;
        s_.has_uint32 = false;
        s_.uinteger = 0;
        return *this;
    }

    /// A copy advanced by `jumps` times (φ - 1)·2^128 draws, as `PCG64.jumped(jumps)`: streams
    /// for parallel work that do not overlap in practice.
    pcg64 jumped(std::uint64_t jumps = 1) const {
        pcg64 copy = *this;
        copy.advance(jump_step * jumps);
        return copy;
    }

    /// The state (NumPy's `PCG64().state['state']`, `has_uint32`, `uinteger`).
    const pcg64_state& state() const { return s_; }
    void set_state(const pcg64_state& s) { s_ = s; }

private:
    static constexpr uint128_t multiplier =
        (uint128_t{2549297995355413924ULL} << 64) + 4865540595714422341ULL;
    static constexpr uint128_t jump_step =
        (uint128_t{0x9e3779b97f4a7c15ULL} << 64) + 0xf39cc0605cedc835ULL;

    void set_seed(uint128_t initstate, uint128_t initseq) {
        s_.state = 0;
        s_.inc = (initseq << 1) | 1;
        s_.state = s_.state * multiplier + s_.inc;
        s_.state += initstate;
        s_.state = s_.state * multiplier + s_.inc;
        s_.has_uint32 = false;
        s_.uinteger = 0;
    }

    pcg64_state s_;
};

} // namespace fusor::random
