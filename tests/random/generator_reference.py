#!/usr/bin/python3
"""NumPy's answers for tests/random/test_generator.cpp.

    generator_reference.py OUT_FILE

Runs sessions of calls (every method and dtype in each, in a random order) on `numpy.random.default_rng(seed)` (one generator per session, so the
calls share the bit generator's state and its buffered 32-bit half, as a user's code does) and
writes one line per call:

    call <session> <seed> <method> <dtype> <args...> ; <shape> ; <values> ; <state after>

Floats are written as the hex of their bits (so the comparison is exact), integers in decimal,
the state as `state_hex inc_hex has_uint32 uinteger`. Also `seedseq` lines: the words of
`SeedSequence(entropy, spawn_key).generate_state(4)` and PCG64 lines for advance/jumped.
"""
import os
import sys

import numpy as np

rs = np.random.RandomState(20261125)  # the test's choices, not the values under test
lines = []

INT_TYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]


def fmt_values(a):
    a = np.asarray(a)
    flat = a.ravel()
    if a.dtype == np.float64:
        return " ".join("%016x" % v for v in flat.view(np.uint64))
    if a.dtype == np.float32:
        return " ".join("%08x" % v for v in flat.view(np.uint32))
    if a.dtype == np.bool_:
        return " ".join(str(int(v)) for v in flat)
    return " ".join(str(int(v)) for v in flat)


def fmt_state(bg):
    st = bg.state
    return "%032x %032x %d %d" % (st["state"]["state"], st["state"]["inc"], st["has_uint32"],
                                  st["uinteger"])


def shape_of(n_max=6, rank_max=3):
    rank = rs.randint(0, rank_max + 1)
    return tuple(int(rs.randint(0, n_max + 1)) for _ in range(rank))


def fmt_shape(s):
    return " ".join(str(d) for d in s)


def int_bounds(dtype):
    info = np.iinfo(dtype) if dtype != "bool" else None
    lo, hi = (0, 1) if dtype == "bool" else (int(info.min), int(info.max))
    kind = rs.randint(0, 5)
    if kind == 0:  # the full range
        return lo, hi, True
    if kind == 1:  # a single value
        v = int(rs.randint(0, 2)) if dtype == "bool" else lo + int(rs.randint(0, min(hi - lo, 1000)))
        return v, v, True
    if kind == 2:  # a small range
        a = lo + int(rs.randint(0, 2)) if dtype == "bool" else lo + int(rs.randint(0, min(hi - lo, 100)))
        b = min(hi, a + int(rs.randint(1, 40)))
        return a, b, bool(rs.randint(0, 2))
    # a wide range: a random fraction of the type's span
    span = hi - lo
    a = lo + int(span * rs.random_sample() * 0.5)
    b = a + max(1, int((hi - a) * rs.random_sample()))
    return a, b, bool(rs.randint(0, 2))


def session(sid, seed):
    rng = np.random.default_rng(seed)
    bg = rng.bit_generator
    # Every method with every dtype once per session, in a random order (so that the calls
    # meet the bit generator in different states), then a few more drawn at random.
    plan = [("random", "float64"), ("random", "float32"), ("uniform", None),
            ("standard_normal", "float64"), ("standard_normal", "float32"), ("normal", None),
            ("standard_exponential", "float64"), ("standard_exponential", "float32"),
            ("exponential", None), ("choice", None), ("choice_p", None), ("choice_array", None),
            ("permutation", None), ("permutation_array", None), ("shuffle", None)]
    plan += [("integers", t) for t in INT_TYPES]
    plan = [plan[i] for i in rs.permutation(len(plan))]
    plan += [plan[i] for i in rs.randint(0, len(plan), size=6)]
    for m, fixed_dtype in plan:
        s = shape_of()
        if m == "random":
            dt = fixed_dtype
            v = rng.random(s, dtype=dt)
            args = ""
        elif m == "integers":
            dt = fixed_dtype
            lo, hi, endpoint = int_bounds(dt)
            if not endpoint:
                hi += 1  # exclusive: the same range
            v = rng.integers(lo, hi, s, dtype=dt, endpoint=endpoint)
            args = "%d %d %d" % (lo, hi, int(endpoint))
        elif m == "uniform":
            dt = "float64"
            lo = float(rs.uniform(-10, 10))
            hi = lo + float(rs.uniform(0, 20))
            v = rng.uniform(lo, hi, s)
            args = "%s %s" % (np.float64(lo).view(np.uint64), np.float64(hi).view(np.uint64))
        elif m == "standard_normal" or m == "standard_exponential":
            dt = fixed_dtype
            s = (int(rs.randint(0, 3000)),) if rs.randint(0, 3) == 0 else s
            v = getattr(rng, m)(s, dtype=dt)
            args = ""
        elif m == "normal":
            dt = "float64"
            loc, scale = float(rs.uniform(-5, 5)), float(rs.uniform(0, 3))
            v = rng.normal(loc, scale, s)
            args = "%d %d" % (np.float64(loc).view(np.uint64), np.float64(scale).view(np.uint64))
        elif m == "exponential":
            dt = "float64"
            scale = float(rs.uniform(0, 3))
            v = rng.exponential(scale, s)
            args = "%d" % np.float64(scale).view(np.uint64)
        elif m in ("choice", "choice_p"):
            dt = "int64"
            replace = bool(rs.randint(0, 2))
            n = int(rs.choice([1, 5, 40, 20000, 100000]))
            size = int(np.prod(s))
            if not replace and size > n:
                s = (min(n, 3),)
            if n >= 20000 and not replace and rs.randint(0, 2):
                s = (int(rs.randint(n // 50, n // 10)),)  # NumPy's tail-shuffle path
            if m == "choice_p":
                n = min(n, 40)
                p = rs.random_sample(n)
                p[rs.random_sample(n) < 0.2] = 0
                if p.sum() == 0:
                    p[0] = 1
                p /= p.sum()
                if not replace and np.count_nonzero(p) < int(np.prod(s)):
                    s = (int(np.count_nonzero(p)),)
                v = rng.choice(n, s, replace=replace, p=p)
                args = "%d %d %d %s" % (n, int(replace), n,
                                        " ".join(str(x) for x in np.asarray(p).view(np.uint64)))
            else:
                v = rng.choice(n, s, replace=replace)
                args = "%d %d 0" % (n, int(replace))
        elif m == "choice_array":
            dt = "int64"
            a = np.arange(24, dtype=np.int64).reshape(6, 4) * 3
            replace = bool(rs.randint(0, 2))
            s = (int(rs.randint(0, 7)),)
            v = rng.choice(a, s, replace=replace)
            args = "%d" % int(replace)
        elif m == "permutation":
            dt = "int64"
            n = int(rs.choice([0, 1, 7, 300]))
            v = rng.permutation(n)
            args = "%d" % n
            s = v.shape
        elif m == "permutation_array":
            dt = "int64"
            a = np.arange(30, dtype=np.int64).reshape(5, 6)
            axis = int(rs.randint(-2, 2))
            v = rng.permutation(a, axis=axis) if axis else rng.permutation(a)
            args = "%d" % axis
            s = v.shape
        else:  # shuffle
            dt = "float64"
            shp = rs.choice(["1d", "2d"])
            a = np.arange(12, dtype=np.float64) if shp == "1d" else np.arange(12.0).reshape(4, 3)
            axis = int(rs.randint(0, a.ndim))
            rng.shuffle(a, axis=axis)
            v = a
            args = "%s %d" % (shp, axis)
            s = v.shape
        lines.append("call %d %d %s %s %s ; %s ; %s ; %s" % (
            sid, seed, m, dt, args, fmt_shape(np.shape(v)), fmt_values(v), fmt_state(bg)))


def edge_session(sid, seed):
    """Calls at the edges a random session seldom reaches, each line as session() writes them:
    a 64-bit range of exactly 2**32 values (a whole 32-bit draw, where Lemire's method would
    wrap), choice from 2**32, empty shapes (no draws, no bounds check), shuffles and
    permutations of empty arrays, NaN and signed-zero parameters."""
    rng = np.random.default_rng(seed)
    bg = rng.bit_generator
    nan_bits = np.float64(np.nan).view(np.uint64)
    calls = [
        ("integers", "int64", (0, 2**32, 0), (3,)),
        ("integers", "uint64", (7, 2**32 + 6, 1), (3,)),
        ("integers", "int64", (-1, 2**32 - 1, 0), ()),
        ("integers", "int64", (10, 10 + 2**32 - 1, 1), (2, 2)),
        ("integers", "uint64", (2**63, 2**63 + 2**32, 0), (5,)),
        ("integers", "int64", (5, 5, 0), (0,)),  # empty: NumPy checks no bounds
        ("integers", "uint8", (0, 300, 0), (2, 0)),
        ("choice", "int64", (2**32, 1, 0), (3,)),
        ("choice", "int64", (2**32, 0, 0), (1,)),  # Floyd's draw of [0, 2**32 - 1]
        ("choice", "int64", (0, 1, 0), (0,)),
        ("choice", "int64", (0, 0, 0), (2, 0)),
        ("shuffle", "float64", ("empty", 0), (3, 0)),  # no draws
        ("permutation_empty", "int64", (0,), (3, 0)),  # draws for the axis' 3
        ("normal", "float64", (0, nan_bits), (2,)),
        ("exponential", "float64", (nan_bits,), (2,)),
        ("uniform", "float64", (np.float64(-0.0).view(np.uint64), 0), (2,)),
    ]
    for m, dt, a, s in calls:
        if m == "integers":
            lo, hi, endpoint = a
            v = rng.integers(lo, hi, s, dtype=dt, endpoint=bool(endpoint))
        elif m == "choice":
            v = rng.choice(a[0], s, replace=bool(a[1]))
        elif m == "shuffle":
            v = np.zeros(s)
            rng.shuffle(v, axis=a[1])
        elif m == "permutation_empty":
            v = rng.permutation(np.zeros(s, dtype=np.int64), axis=a[0])
        elif m == "normal":
            v = rng.normal(0.0, np.nan, s)
        elif m == "exponential":
            v = rng.exponential(np.nan, s)
        else:
            v = rng.uniform(-0.0, 0.0, s)
        args = " ".join(str(x) for x in a)
        lines.append("call %d %d %s %s %s ; %s ; %s ; %s" % (
            sid, seed, m, dt, args, fmt_shape(np.shape(v)), fmt_values(v), fmt_state(bg)))


seeds = [0, 1, 2, 3, 7, 42, 123, 2**31 - 1, 2**32, 2**32 + 5, 2**63, 2**64 - 1]
seeds += [int(x) for x in rs.randint(0, 2**62, size=14, dtype=np.int64)]
for sid, seed in enumerate(seeds):
    session(sid, seed)
for k, seed in enumerate([0, 1, 2**63]):
    edge_session(len(seeds) + k, seed)

# SeedSequence words and spawned children; PCG64 advance and jumped.
for entropy in [0, 1, 42, 2**32 - 1, 2**40 + 3, 2**64 - 1]:
    for key in [(), (0,), (3, 2**33)]:
        w = np.random.SeedSequence(entropy, spawn_key=key).generate_state(4, np.uint32)
        lines.append("seedseq %d %s ; %s" % (entropy, " ".join(map(str, key)),
                                            " ".join(map(str, w))))
for seed in [5, 99]:
    for delta in [0, 1, 1000, 2**64 + 17, 2**127 + 2**90]:
        bg = np.random.PCG64(seed)
        bg.random_raw(3)
        bg.advance(delta)
        lines.append("advance %d %d ; %s" % (seed, delta, " ".join(map(str, bg.random_raw(3)))))
    for jumps in [1, 2, 5]:
        bg = np.random.PCG64(seed).jumped(jumps)
        lines.append("jumped %d %d ; %s" % (seed, jumps, " ".join(map(str, bg.random_raw(3)))))

os.makedirs(os.path.dirname(os.path.abspath(sys.argv[1])), exist_ok=True)
with open(sys.argv[1], "w") as f:
    f.write("\n".join(lines) + "\n")
