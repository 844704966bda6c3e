#!/usr/bin/python3
"""NumPy's side of tests/random/test_ziggurat.cpp: writes what numpy.random.Generator(PCG64)
draws with its ziggurat samplers, to check fusor::random::detail's samplers bit for bit.

    ziggurat_reference.py OUT      writes the binary file OUT (directories are created)

For each seed, PCG64(seed)'s raw 64-bit stream (random_raw, from a copy of the state) and, for
each sampler, what a fresh Generator(PCG64(seed)) returns: the samples' bit patterns, how many
64-bit draws it consumed (the position of the generator's next raw value in the stream) and its
buffered 32-bit half (has_uint32, uinteger). Then a few long runs (10^6 samples) that store no
stream, only PCG64's state before and after, the buffered half and a digest of the samples'
bits (h = h * DIGEST_MULTIPLIER + bits, modulo 2^64): the C++ test steps its own PCG64 from the
recorded state, so these reach the tail and the wedges hundreds of times in a small file.

File layout, every field a little-endian uint64 unless said otherwise:
    magic "FZIGGUR1", seed_count
    per seed: seed, state_hi, state_lo, inc_hi, inc_lo, raw_count, raw[raw_count], case_count,
        per case: method, n, loc (float64 bits), scale (float64 bits),
                  samples[n] (uint64 bits for float64 methods, uint32 bits for float32 ones),
                  consumed, has_uint32, uinteger
    long_count
    per long run: method, seed, n, loc, scale, state_hi, state_lo, inc_hi, inc_lo, digest,
                  end_state_hi, end_state_lo, has_uint32, uinteger
Methods: 0 standard_normal(), 1 standard_normal(dtype=float32), 2 standard_exponential(),
3 standard_exponential(dtype=float32), 4 normal(loc, scale), 5 exponential(scale).
"""
import os
import struct
import sys

import numpy as np

DIGEST_MULTIPLIER = 0x9E3779B97F4A7C15
MASK64 = (1 << 64) - 1

# (seed, samples per method): 20 seeds of 5000 plus edge sizes -> > 100000 samples per method.
SEEDS = [(s, 5000) for s in range(20)] + [(2**32 + 7, 1), (12345678901234567890, 2),
                                          (2**63 - 25, 3), (987654321, 1001)]
# Per seed: (method, loc, scale); normal and exponential take PARAMETER_SAMPLES samples.
CASES = [(0, 1.0, 1.0), (1, 1.0, 1.0), (2, 1.0, 1.0), (3, 1.0, 1.0), (4, 1.5, 2.25),
         (5, 0.0, 0.75)]
PARAMETER_SAMPLES = 1000
# (method, seed, n, loc, scale)
LONG_RUNS = [(0, 101, 10**6, 1.0, 1.0), (1, 102, 10**6, 1.0, 1.0), (2, 103, 10**6, 1.0, 1.0),
             (3, 104, 10**6, 1.0, 1.0), (4, 105, 10**6, -3.0, 0.5), (5, 106, 10**6, 1.0, 4.0)]


def sample(gen, method, n, loc, scale):
    if method == 0:
        return gen.standard_normal(n)
    if method == 1:
        return gen.standard_normal(n, dtype=np.float32)
    if method == 2:
        return gen.standard_exponential(n)
    if method == 3:
        return gen.standard_exponential(n, dtype=np.float32)
    if method == 4:
        return gen.normal(loc, scale, n)
    return gen.exponential(scale, n)


def bits(samples):
    if samples.dtype == np.float32:
        return samples.view(np.uint32)
    assert samples.dtype == np.float64
    return samples.view(np.uint64)


def digest(samples):
    """Sum of bits[i] * M^(n-1-i) modulo 2^64: Horner's h = h * M + bits[i], vectorised."""
    b = bits(samples).astype(np.uint64)
    powers = np.full(len(b), DIGEST_MULTIPLIER, dtype=np.uint64)
    powers[-1] = 1
    with np.errstate(over="ignore"):
        powers = np.cumprod(powers[::-1])[::-1]  # M^(n-1-i), wrapping
        return int(np.sum(b * powers, dtype=np.uint64))


def state_words(bg):
    s = bg.state
    st, inc = s["state"]["state"], s["state"]["inc"]
    return [st >> 64, st & MASK64, inc >> 64, inc & MASK64]


def main(path):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    f64 = lambda x: struct.unpack("<Q", struct.pack("<d", x))[0]
    out = bytearray(b"FZIGGUR1")
    out += struct.pack("<Q", len(SEEDS))
    totals = [0] * 6
    for seed, n in SEEDS:
        bg = np.random.PCG64(seed)
        head = [seed] + state_words(bg)
        copy = np.random.PCG64()
        copy.state = bg.state
        raw = copy.random_raw(int(max(n, PARAMETER_SAMPLES) * 1.2) + 64)
        where = {int(v): k for k, v in enumerate(raw)}
        assert len(where) == len(raw)
        cases = []
        for method, loc, scale in CASES:
            count = PARAMETER_SAMPLES if method >= 4 else n
            gen = np.random.Generator(np.random.PCG64(seed))
            samples = sample(gen, method, count, loc, scale)
            after = gen.bit_generator.state
            consumed = where[int(gen.bit_generator.random_raw())]
            cases.append((method, count, loc, scale, samples, consumed, after["has_uint32"],
                          after["uinteger"]))
            totals[method] += count
        used = max(c[5] for c in cases) + 1  # the raw values the C++ replay may read
        out += struct.pack("<6Q", *head, used)
        out += raw[:used].astype("<u8").tobytes()
        out += struct.pack("<Q", len(cases))
        for method, count, loc, scale, samples, consumed, has, uinteger in cases:
            out += struct.pack("<4Q", method, count, f64(loc), f64(scale))
            out += bits(samples).astype("<u4" if samples.dtype == np.float32 else "<u8").tobytes()
            out += struct.pack("<3Q", consumed, has, uinteger)
    out += struct.pack("<Q", len(LONG_RUNS))
    for method, seed, n, loc, scale in LONG_RUNS:
        gen = np.random.Generator(np.random.PCG64(seed))
        start = state_words(gen.bit_generator)
        samples = sample(gen, method, n, loc, scale)
        end = gen.bit_generator.state
        out += struct.pack("<5Q", method, seed, n, f64(loc), f64(scale))
        out += struct.pack("<4Q", *start)
        out += struct.pack("<Q", digest(samples))
        st = end["state"]["state"]
        out += struct.pack("<4Q", st >> 64, st & MASK64, end["has_uint32"], end["uinteger"])
    with open(path, "wb") as f:
        f.write(out)
    print("numpy %s: %d bytes, samples per method %s" % (np.__version__, len(out), totals))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
