#!/usr/bin/python3
"""NumPy's answers on the integer corners of tests/ops/test_integer_corners.cpp.

Usage: corners_reference.py OUT_FILE

For every integer dtype T and the corner values C(T) = {min, min + 1, -2, -1, 0, 1, 2, 7, 8,
max - 1, max} (those T holds, in that order), every operation below is applied to the n × n
grid a[i] op b[j] (a = C as a column, b = C as a row), in T, by NumPy. One line per (T, op):

    <dtype> <op> <result dtype> <n*n values, row-major>

preceded by `<dtype> corners <dtype> <C>`; `**` by `<dtype> exponents <dtype> <|C| without min>`
and `cast` by `<dtype> cast_inputs float64 <inputs>`, so the test reads its inputs from here.

Operations: + - * // % << >> fmod (shifts: the amount is b as T, negative and too-wide amounts
included) and ** with b replaced by |b| (NumPy raises on negative integer exponents; abs of min
wraps to min, so min is dropped from the exponents: n × (n - 1) values for **). Then float64 →
T casts of values T can hold after truncation, and on x86-64, for the types NumPy converts through
int32 there, also of values beyond every type's range, NaN and infinities (NumPy's out-of-range
casts are platform-specific; fusor gives those x86-64 ones, see convert.hpp): a line `<dtype> cast <dtype> <values>` per T, the inputs in CAST_INPUTS order,
filtered to T's range. NumPy's warnings (divide by zero, overflow) are expected and silenced.
"""
import os
import platform
import sys
import warnings

import numpy as np

DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
CAST_INPUTS = [-129.5, -128.9, -1.5, -0.99, -0.0, 0.4, 0.99, 1.5, 127.9, 128.5, 255.9, 256.5,
               65535.7, -32768.2, 2147483647.0, -2147483648.9, 4294967295.5, 1e15 + 0.5,
               -9.2e18, 9.2e18, 1.8e19]


# Beyond some or every integer type's range, and NaN and infinities: NumPy's x86-64 answers.
OUT_OF_RANGE_CASTS = [3e9, -3e9, 5e9, 2147483648.0, -2147483649.0, 70000.0, -40000.0, 1e19,
                      -1e19, 2e19, float("nan"), float("inf"), float("-inf")]
X86_64 = platform.machine() in ("x86_64", "AMD64")
THROUGH_INT32 = ("int8", "int16", "int32", "uint8", "uint16")


def corners(dt):
    info = np.iinfo(dt)
    vals = [info.min, info.min + 1, -2, -1, 0, 1, 2, 7, 8, info.max - 1, info.max]
    out = []
    for v in vals:
        if info.min <= v <= info.max and v not in out:
            out.append(v)
    return np.array(out, dtype=dt)


def emit(f, dt, op, r):
    f.write("%s %s %s %s\n" % (dt, op, r.dtype.name, " ".join(str(int(v)) for v in r.ravel())))


def main():
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    os.makedirs(os.path.dirname(sys.argv[1]) or ".", exist_ok=True)
    with open(sys.argv[1], "w") as f:
        for dt in DTYPES:
            c = corners(dt)
            a, b = c[:, None], c[None, :]
            emit(f, dt, "corners", c)
            for op, fn in [("+", np.add), ("-", np.subtract), ("*", np.multiply),
                           ("//", np.floor_divide), ("%", np.remainder),
                           ("<<", np.left_shift), (">>", np.right_shift), ("fmod", np.fmod)]:
                emit(f, dt, op, fn(a, b))
            e = np.array([v for v in c if v >= 0 or v != np.iinfo(dt).min], dtype=dt)
            emit(f, dt, "exponents", np.abs(e))
            emit(f, dt, "**", np.power(a, np.abs(e)[None, :]))
            info = np.iinfo(dt)
            # On x86-64, for the types NumPy converts through int32 there, every input, the
            # target's range or not (core/convert.hpp gives NumPy's x86-64 values); otherwise
            # those whose truncation T holds (the rest is platform-specific in NumPy, and for
            # int64, uint32 and uint64 varies with its vector paths).
            if X86_64 and dt in THROUGH_INT32:
                xs = np.array(CAST_INPUTS + OUT_OF_RANGE_CASTS)
            else:
                xs = np.array([x for x in CAST_INPUTS if info.min <= np.trunc(x) <= info.max])
            f.write("%s cast_inputs float64 %s\n" % (dt, " ".join(repr(float(x)) for x in xs)))
            emit(f, dt, "cast", xs.astype(dt))


main()
