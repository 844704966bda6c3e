#!/usr/bin/python3
"""Writes tests/io/test_print_cases.hpp: NumPy's own text for every array test_print.cpp prints.

    /usr/bin/python3 tests/io/print_reference.py           rewrite the header beside this file
    /usr/bin/python3 tests/io/print_reference.py --check   exit 1 unless the checked-in header
                                                            is byte for byte what this writes

Run it after changing the cases below and commit the header. NumPy (1.24, the Debian
python3-numpy fusor is tested against) is the oracle: every expected string is
`str(a)` (what print(a) shows, under numpy.printoptions with the case's options) and
`numpy.array2string(a, ...)` with the same options, never written by hand. The output is
deterministic (one numpy.random.default_rng(SEED) stream, fixed case order).

The values reach C++ exactly: floats as hexadecimal literals (float32 values are exact in
double and are cast back), integers as decimal literals. The large (summarised) arrays are not
written out: their values come from a 64-bit LCG that test_print.cpp computes the same way
(`lcg_values`): state = state * 6364136223846793005 + 1442695040888963407 (mod 2**64), then
bits = state >> 11 (53 bits) and
    float64: (bits * 2**-53 - 0.5) * scale      (one rounding, the same in C++ and Python)
    float32: float32(the float64 value)
    integer: lo + bits % span                  bool: bits & 1
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "test_print_cases.hpp")
SEED = 20240611
rng = np.random.default_rng(SEED)

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float32", "float64"]
DTYPES = ["bool"] + INTS + FLOATS
DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False)
EXPLICIT_LIMIT = 400  # larger arrays come from the LCG

np.seterr(all="ignore")


# ------------------------------------------------------------------------------------------
# Values

def lcg(n, seed):
    state, out = seed, []
    for _ in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        out.append(state >> 11)
    return out


def formula_array(dtype, shape, seed, scale=1.0, lo=0, span=0):
    bits = lcg(int(np.prod(shape, dtype=np.int64)), seed)
    if dtype in FLOATS:
        vals = [(b * 2.0**-53 - 0.5) * scale for b in bits]
        a = np.array(vals, dtype=np.float64).astype(dtype)
    elif dtype == "bool":
        a = np.array([b & 1 for b in bits], dtype=bool)
    else:
        a = np.array([lo + b % span for b in bits], dtype=np.dtype(dtype))
    return a.reshape(shape)


def random_floats(dtype, n, kind):
    """n values of one of several distributions, as `dtype`."""
    if kind == "normal":
        v = rng.standard_normal(n)
    elif kind == "uniform":
        v = rng.uniform(0, 1, n)
    elif kind.startswith("scale"):  # normal times a power of ten
        v = rng.standard_normal(n) * 10.0 ** int(kind[5:])
    # Magnitudes spread by a power of two (np.ldexp: exact), not 10.0 ** uniform: NumPy's
    # float64 power is vectorised differently per processor (AVX-512 or AVX2) and differed in
    # the last bit, so the header depended on the machine that wrote it.
    elif kind == "logmix":  # magnitudes from about 1e-12 to 1e12, both signs
        v = rng.choice([-1.0, 1.0], n) * np.ldexp(rng.uniform(0.5, 1.0, n), rng.integers(-39, 41, n))
    elif kind == "wide":  # magnitudes across the whole range of the type
        info = np.finfo(dtype)
        v = rng.choice([-1.0, 1.0], n) * np.ldexp(
            rng.uniform(0.5, 1.0, n), rng.integers(int(info.minexp) + 1, int(info.maxexp), n))
    elif kind == "integral":
        v = rng.integers(-1000, 1000, n).astype(np.float64)
    elif kind == "eighths":  # exact binary fractions: ties when rounded
        v = rng.integers(-64, 64, n) / 8.0
    elif kind == "short":  # few decimal digits
        v = np.round(rng.standard_normal(n) * 100, rng.integers(0, 4))
    elif kind == "special":
        v = rng.standard_normal(n)
        pick = rng.integers(0, 6, n)
        v = np.where(pick == 0, np.nan, v)
        v = np.where(pick == 1, np.inf, v)
        v = np.where(pick == 2, -np.inf, v)
        v = np.where(pick == 3, -0.0, v)
    else:
        raise ValueError(kind)
    return v.astype(dtype)


def random_ints(dtype, n, kind):
    info = np.iinfo(dtype)
    if kind == "full":
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    if kind == "small":
        lo = max(info.min, -50)
        return rng.integers(lo, lo + 100, n).astype(dtype)
    raise ValueError(kind)


def random_array(dtype, shape, kind=None):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return (rng.integers(0, 2, n) == 1).reshape(shape)
    if dtype in FLOATS:
        return random_floats(dtype, n, kind or "normal").reshape(shape)
    return random_ints(dtype, n, kind or "full").reshape(shape)


# ------------------------------------------------------------------------------------------
# Cases

cases = []


def add(name, a, options=None, formula=None):
    """One case: array `a`, options (DEFAULTS updated), and for big arrays the LCG parameters
    that rebuild it in C++."""
    opts = dict(DEFAULTS)
    opts.update(options or {})
    a = np.asarray(a)
    if formula is None and a.size > EXPLICIT_LIMIT:
        raise ValueError(f"{name}: {a.size} elements need a formula")
    with np.printoptions(**opts):
        text = str(a)
    a2s = np.array2string(a, max_line_width=opts["linewidth"], precision=opts["precision"],
                          suppress_small=opts["suppress"], threshold=opts["threshold"],
                          edgeitems=opts["edgeitems"])
    cases.append(dict(name=name, a=a, opts=opts, formula=formula, str=text, a2s=a2s))


def add_formula(name, dtype, shape, seed, scale=1.0, lo=0, span=0, options=None):
    a = formula_array(dtype, shape, seed, scale, lo, span)
    add(name, a, options, formula=dict(seed=seed, scale=scale, lo=lo, span=span))


def make_cases():
    f32, f64 = np.float32, np.float64

    # 0-d: print(a) is str() of the scalar (all its digits); array2string formats the value.
    zero_d = {
        "bool": [True, False],
        "int8": [0, -128, 127], "int16": [-32768, 12345], "int32": [-2147483648, 7],
        "int64": [-2**63, 2**63 - 1, -1], "uint8": [255, 0], "uint16": [65535],
        "uint32": [4294967295], "uint64": [2**64 - 1, 0],
    }
    floats = [0.9921580365105283, 1e20, 1e-5, 1e16, 9999999999999998.0, 1e-4,
              float(np.nextafter(1e-4, 0)), -0.0, 0.0, math.nan, math.inf, -math.inf, 1.5e300,
              5e-324, 123456789.0, 0.1, 1 / 3, -2.5e-7, -0.5526473, 1.0, 100.0, 1.5e-5, 2.0**70]
    zero_d["float64"] = floats
    zero_d["float32"] = [f32(x) for x in floats if abs(x) < 3e38 or not math.isfinite(x)]
    zero_d["float32"] += [np.nextafter(f32(1e-4), f32(1)), np.nextafter(f32(1e16), f32(0))]
    for dtype, values in zero_d.items():
        for k, v in enumerate(values):
            add(f"0d {dtype} {k}", np.array(v, dtype=dtype))
    add("0d float64 precision 3", np.array(0.123456789), dict(precision=3))
    add("0d float32 precision 3 suppress", np.array(f32(1e-7)), dict(precision=3, suppress=True))
    add("0d int64 threshold 0", np.array(-42, dtype=np.int64), dict(threshold=0))

    # Empty arrays print [] whatever their shape.
    for k, shape in enumerate([(0,), (2, 0), (0, 3, 3), (3, 0, 2), (1, 0)]):
        for dtype in ["bool", "int32", "float64"]:
            add(f"empty {dtype} {k}", np.zeros(shape, dtype=dtype))
    add("empty threshold 0", np.zeros((0, 2)), dict(threshold=0))

    # Small 1-d of every dtype, several value kinds.
    for dtype in DTYPES:
        for n in [1, 2, 5, 12]:
            if dtype in FLOATS:
                for kind in ["normal", "uniform", "scale3", "scale-3", "scale5", "scale9",
                             "scale-6", "logmix", "integral", "eighths", "short", "special"]:
                    add(f"1d {dtype} {n} {kind}", random_array(dtype, (n,), kind))
            elif dtype == "bool":
                add(f"1d bool {n}", random_array(dtype, (n,)))
            else:
                for kind in ["full", "small"]:
                    add(f"1d {dtype} {n} {kind}", random_array(dtype, (n,), kind))
    for dtype in FLOATS:
        for k in range(4):
            add(f"1d {dtype} wide {k}", random_array(dtype, (6,), "wide"))

    # Wrapping at 75 columns and other widths, 1-d and in rows of 2-d and 3-d arrays.
    for dtype in DTYPES:
        add(f"wrap 1d {dtype} 40", random_array(dtype, (40,)))
        add(f"wrap 2d {dtype} 3x25", random_array(dtype, (3, 25)))
    for dtype in ["float64", "float32", "int16", "bool"]:
        for lw in [1, 10, 20, 33, 40, 100, 200]:
            add(f"linewidth {lw} {dtype} 2x3x9", random_array(dtype, (2, 3, 9)), dict(linewidth=lw))
    add("wrap 1d float64 300", random_array("float64", (300,), "logmix"))
    add("wrap 4d float32 2x2x2x30", random_array("float32", (2, 2, 2, 30)))

    # Shapes of rank 2 to 6.
    for dtype in DTYPES:
        for shape in [(1, 1), (3, 4), (4, 1), (2, 3, 4), (1, 1, 1), (2, 1, 3), (2, 2, 3, 4),
                      (2, 1, 2, 1, 3), (1, 2, 1, 2, 1, 2)]:
            add(f"nd {dtype} {'x'.join(map(str, shape))}", random_array(dtype, shape))
    for kind in ["logmix", "special", "scale-6", "eighths", "scale9"]:
        for dtype in FLOATS:
            add(f"nd {dtype} 2x3x4 {kind}", random_array(dtype, (2, 3, 4), kind))

    # Summarised (more than threshold elements): values from the LCG.
    add_formula("summary float64 1001", "float64", (1001,), 1, 10.0)
    add_formula("summary float64 2000 scale 1e-5", "float64", (2000,), 2, 1e-5)
    add_formula("summary float32 11x12x13", "float32", (11, 12, 13), 3, 100.0)
    add_formula("summary int32 40x30", "int32", (40, 30), 4, lo=-1000, span=2001)
    add_formula("summary int64 3x4x5x6x7", "int64", (3, 4, 5, 6, 7), 5, lo=-(2**40), span=2**41)
    add_formula("summary float64 7x200", "float64", (7, 200), 6, 1e3)
    add_formula("summary float64 5x300", "float64", (5, 300), 7, 1.0)
    add_formula("summary bool 2000", "bool", (2000,), 8)
    add_formula("summary uint8 1001", "uint8", (1001,), 9, lo=0, span=256)
    add_formula("summary uint64 2x3x200", "uint64", (2, 3, 200), 10, lo=2**60, span=2**53)
    add_formula("summary int8 10x10x11", "int8", (10, 10, 11), 11, lo=-128, span=256)
    add_formula("summary float32 2x2x2x2x100", "float32", (2, 2, 2, 2, 100), 12, 1e9)
    add_formula("summary float64 1001 edge 1", "float64", (1001,), 13, 1.0, options=dict(edgeitems=1))
    add_formula("summary float64 7x8x20 edge 2", "float64", (7, 8, 20), 14, 1.0,
                options=dict(edgeitems=2))
    add_formula("summary int16 5x6x40 edge 0", "int16", (5, 6, 40), 15, lo=-300, span=601,
                options=dict(edgeitems=0))
    add_formula("summary float64 30x40 edge 0", "float64", (30, 40), 16, 1.0,
                options=dict(edgeitems=0))
    add_formula("summary float64 4x5x6 edge 10", "float64", (4, 5, 60), 17, 1.0,
                options=dict(edgeitems=10))
    add_formula("no summary float64 1200 threshold 1200", "float64", (1200,), 18, 1.0,
                options=dict(threshold=1200))
    add_formula("summary float64 3x4x5 threshold 10", "float64", (3, 4, 5), 19, 1.0,
                options=dict(threshold=10))
    add_formula("summary int32 2x3 threshold 0", "int32", (2, 3), 20, lo=0, span=10,
                options=dict(threshold=0))
    add_formula("summary float64 7 threshold 0 edge 2", "float64", (7,), 21, 1.0,
                options=dict(threshold=0, edgeitems=2))
    add_formula("summary float64 8x9 threshold 5 linewidth 30", "float64", (8, 9), 22, 1e4,
                options=dict(threshold=5, linewidth=30))
    add_formula("summary float32 1001 suppress", "float32", (1001,), 23, 1e-3,
                options=dict(suppress=True))
    add_formula("summary float64 3x500 precision 3", "float64", (3, 500), 24, 1.0,
                options=dict(precision=3))

    # Special values and the choice between fixed and exponential notation.
    nan, inf = math.nan, math.inf
    special = {
        "nan inf": [nan, inf], "nan -inf": [nan, -inf], "nan -inf 1e-10": [nan, -inf, 1e-10],
        "nan -inf 1.5": [nan, -inf, 1.5], "all nan": [nan, nan], "inf": [inf], "-inf": [-inf],
        "nan in exp": [nan, 1e-10, 1.0], "inf in exp": [-inf, 1e10, 1.0],
        "-0 1": [-0.0, 1.0], "0 1e-5": [0.0, 1e-5], "zeros": [0.0, 0.0], "-0": [-0.0],
        "1e-100 0.5": [1e-100, 0.5], "1e10 2e10": [1e10, 2e10], "1e8 1": [1e8, 1.0],
        "99999999 1": [99999999.0, 1.0], "12345678.9 1.5": [12345678.9, 1.5],
        "1e-4 2e-4": [1e-4, 2e-4], "below 1e-4": [float(np.nextafter(1e-4, 0)), 2e-4],
        "ratio 1000": [1.0, 1000.0], "ratio above 1000": [1.0, 1000.0000000001],
        "exp carry": [9.99999999999e-5, 0.5], "fixed carry": [0.99999999999, 0.5],
        "brief example": [1e-6, 0.5, 0.25], "negatives": [-1.5, -22.25, 3.0],
        "subnormal": [5e-324, 1.0], "huge": [1.7976931348623157e308, -1e-300],
        "large integral": [1e7, 2.5, 12345678.0], "thirds": [1 / 3, 2 / 3, -1 / 3],
        "exp 3-digit exponent": [1e-100, 1e100, -1.0], "exp ties": [1.25e-5, 3.75e-5, 1.0],
    }
    for dtype in FLOATS:
        for name, vals in special.items():
            add(f"special {dtype} {name}", np.array(vals, dtype=np.float64).astype(dtype))
    add("special float32 ratio in float32", np.array([1925.6956, 1.9256955], dtype=f32))
    add("special float32 1e-4", np.array([f32(1e-4), f32(2e-4)]))
    add("special float32 min digits", np.array([f32(0.1), f32(1.2345678e-5), f32(3.4028235e38)]))
    add("special float32 9 digits", np.array([f32(0.1), f32(1.23456791e-5), f32(-0.55264729)]))
    add("special float32 subnormal", np.array([f32(1e-45), f32(1.0)]))
    # float32 integers above 2**24 whose unique digits end above the units: printed exactly.
    add("special float32 large integers",
        np.array([83726224.0, 22522392.0, -37556848.0, 15000000.0, 1234567.5], dtype=f32))
    add("special float32 large integers suppress",
        np.array([50331648.0, 2.0**-24, 2.0**-119], dtype=f32), dict(precision=6, suppress=True))
    add("brief float32", np.array([-0.55264729, 0.5], dtype=f32))
    add("ties precision 2", np.array([0.125, 0.375, 0.625, 0.875, -0.125]), dict(precision=2))
    add("ties precision 0", np.array([0.5, 1.5, 2.5, 3.5, -2.5]), dict(precision=0))
    add("ties precision 1 exp", np.array([1.25e-5, 3.75e-5, 1.0]), dict(precision=1))
    add("ties float32 precision 1", np.array([0.25, 0.75, 2.25], dtype=f32), dict(precision=1))
    # Dragon4's min_digits on powers of two (unequal margins): rounds up where rounding would not.
    for k in [149, -645, -569, -499, 740, 890, 956, 966]:
        add(f"power of two 2**{k}", np.array([2.0**k, 1.234567890123456e-5, 1.0]),
            dict(precision=16))
    add("powers of two float64", np.array([2.0**k for k in range(-60, 61, 7)]), dict(precision=17))
    add("powers of two float32", np.array([2.0**k for k in range(-120, 121, 9)], dtype=f32),
        dict(precision=9))

    # suppress, precision.
    add("suppress small", np.array([-1e-10, 1.0, 6e-9, 5e-9, 1e7]), dict(suppress=True))
    add("suppress large still exp", np.array([-1e-10, 1.0, 1e9]), dict(suppress=True))
    add("suppress ratio", np.array([1e-3, 1e3, 0.5]), dict(suppress=True))
    add("suppress tiny negative", np.array([-1e-10, 1.0]), dict(suppress=True))
    for dtype in FLOATS:
        for p in [0, 1, 3, 5, 12, 17]:
            for kind in ["normal", "logmix", "scale-3", "special"]:
                add(f"precision {p} {dtype} {kind}", random_array(dtype, (2, 5), kind),
                    dict(precision=p))
        for kind in ["normal", "logmix", "scale-6", "scale9", "special"]:
            add(f"suppress {dtype} {kind}", random_array(dtype, (2, 5), kind), dict(suppress=True))
            add(f"suppress precision 3 {dtype} {kind}", random_array(dtype, (2, 5), kind),
                dict(suppress=True, precision=3))

    # Random mix: dtype, shape (rank 0 to 4), values and options all drawn.
    for k in range(150):
        dtype = DTYPES[rng.integers(0, len(DTYPES))]
        rank = int(rng.integers(0, 5))
        shape = tuple(int(x) for x in rng.integers(0, 6, rank))
        kind = None
        if dtype in FLOATS:
            kind = ["normal", "uniform", "scale3", "scale-5", "scale8", "logmix", "integral",
                    "eighths", "short", "special", "wide"][rng.integers(0, 11)]
        elif dtype != "bool":
            kind = ["full", "small"][rng.integers(0, 2)]
        opts = {}
        if rng.integers(0, 2):
            opts = dict(precision=int(rng.integers(0, 10)), threshold=int(rng.integers(0, 200)),
                        edgeitems=int(rng.integers(1, 4)), linewidth=int(rng.integers(10, 120)),
                        suppress=bool(rng.integers(0, 2)))
        add(f"random {k} {dtype} {shape} {kind}", random_array(dtype, shape, kind), opts)


# ------------------------------------------------------------------------------------------
# Output

def c_string(s):
    """A C++ string literal, one source line per printed line."""
    def esc(t):
        return t.replace("\\", "\\\\").replace('"', '\\"')
    lines = s.split("\n")
    parts = [f'"{esc(line)}\\n"' for line in lines[:-1]] + [f'"{esc(lines[-1])}"']
    return "\n        ".join(parts)


def float_lit(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x.hex()


def int_lit(v, unsigned):
    v = int(v)
    if unsigned:
        return f"{v}u"
    if v == -(2**63):
        return "-9223372036854775807 - 1"
    return str(v)


def values_field(a):
    flat = a.reshape(-1)
    if a.dtype.kind == "f":
        return ".f = {" + ", ".join(float_lit(x) for x in flat) + "},"
    if a.dtype.kind == "i":
        return ".i = {" + ", ".join(int_lit(x, False) for x in flat) + "},"
    return ".u = {" + ", ".join(int_lit(x, True) for x in flat) + "},"


def case_text(c):
    a, o = c["a"], c["opts"]
    shape = ", ".join(str(n) for n in a.shape)
    lines = [
        "    {",
        f'        .name = "{c["name"]}",',
        f'        .dtype = "{a.dtype.name}",',
        f"        .shape = {{{shape}}},",
        f"        .options = {{.precision = {o['precision']}, .threshold = {o['threshold']}, "
        f".edgeitems = {o['edgeitems']}, .linewidth = {o['linewidth']}, "
        f".suppress = {'true' if o['suppress'] else 'false'}}},",
    ]
    f = c["formula"]
    if f is None:
        lines.append("        " + values_field(a))
    else:
        lines.append(f"        .seed = {f['seed']}u,")
        lines.append(f"        .scale = {float_lit(f['scale'])},")
        lines.append(f"        .lo = {int_lit(f['lo'], False)},")
        lines.append(f"        .span = {int_lit(f['span'], True)},")
    lines.append(f"        .str = {c_string(c['str'])},")
    lines.append(f"        .array2string = {c_string(c['a2s'])},")
    lines.append("    },")
    return "\n".join(lines)


def header_text():
    make_cases()
    head = f"""// Generated by tests/io/print_reference.py from NumPy {np.__version__}; do not edit.
// Regenerate: /usr/bin/python3 tests/io/print_reference.py (then commit this file);
// the ctest io.print_reference_up_to_date checks that it is current.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include <fusor/core/shape.hpp>
#include <fusor/io/print_options.hpp>

namespace print_reference {{

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double inf = std::numeric_limits<double>::infinity();

// One array and NumPy's text for it. Values: `f` (float32 and float64, float32 values exact in
// double), `i` (signed), `u` (unsigned and bool), row-major; or, when `seed` is not 0, the LCG
// of print_reference.py with `scale` (floats) or `lo` and `span` (integers).
struct print_case {{
    const char* name;
    const char* dtype;
    fusor::shape_t shape;
    fusor::print_options options;
    std::vector<double> f = {{}};
    std::vector<std::int64_t> i = {{}};
    std::vector<std::uint64_t> u = {{}};
    std::uint64_t seed = 0;
    double scale = 0;
    std::int64_t lo = 0;
    std::uint64_t span = 0;
    const char* str = "";          // str(a) under numpy.printoptions(**options): print(a)
    const char* array2string = ""; // numpy.array2string(a, ...) with the same options
}};

// {len(cases)} cases.
inline const std::vector<print_case> cases = {{
"""
    body = "\n".join(case_text(c) for c in cases)
    tail = "\n};\n\n} // namespace print_reference\n"
    return head + body + tail


def main():
    np.set_printoptions(**DEFAULTS, floatmode="maxprec", sign="-", legacy=False,
                        nanstr="nan", infstr="inf", formatter=None)
    text = header_text()
    if "--check" in sys.argv[1:]:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{OUT} is not what print_reference.py writes: run "
                      "/usr/bin/python3 tests/io/print_reference.py", file=sys.stderr)
                return 1
        print(f"print_reference: {OUT} is up to date ({len(cases)} cases)")
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"print_reference: wrote {len(cases)} cases to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
