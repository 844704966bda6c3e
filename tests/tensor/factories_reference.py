#!/usr/bin/python3
"""NumPy's answers for tests/tensor/test_factories.cpp (ctest fixture tensor.factories_reference).

Draws arange and linspace calls (seeded: argv[2] or the default below) over every dtype fusor
has and NumPy's default (`none`): integer, float and mixed arguments, float steps that drift
(NumPy fills `first + i * (second - first)` in the result dtype), float arguments into integer
dtypes (truncated, then stepped; linspace floors), steps of +-inf, and the errors (a zero step,
a NaN or infinite length, a bool result of more than 2 elements). Runs NumPy 1.24 on each and
writes, one case per block:

    case <func> <id>
    p dtype <name or none>
    p args <kind>...                 i (a Python int: C++ int64) or f (a float: C++ double)
    p values <token>...              arange: start stop step; linspace: start stop num [endpoint]
    e 0 <dtype> 1 <n> <values>...    the result (floats as repr(), exact)
    x value_error                    the fusor exception expected instead
    end

Cases where NumPy warns (an integer out of the dtype's range) or converts NaN, infinity or an
out-of-range float into an integer dtype (undefined in C++) are not drawn.

Usage: factories_reference.py <output file> [seed]
"""
import math
import os
import sys
import warnings

import numpy as np

OUT = sys.argv[1]
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 20261206
rng = np.random.default_rng(SEED)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
lines = []


def tok(v):
    if isinstance(v, float):
        return repr(v)
    return str(int(v))


def value_tok(v, dtype):
    if dtype in ("float32", "float64"):
        return repr(float(v))
    if dtype == "bool":
        return "1" if v else "0"
    return str(int(v))


def emit(func, cid, dtype, args, result=None, error=None):
    lines.append("case %s %d" % (func, cid))
    lines.append("p dtype %s" % (dtype or "none"))
    lines.append("p args " + " ".join("i" if isinstance(a, int) else "f" for a in args))
    lines.append("p values " + " ".join(tok(a) for a in args))
    if error:
        lines.append("x " + error)
    else:
        r = np.asarray(result)
        lines.append("e 0 %s 1 %d %s" % (r.dtype.name, r.size,
                                         " ".join(value_tok(v, r.dtype.name) for v in r)))
    lines.append("end")


def integer_safe(values, dtype):
    """True when every value NumPy converts into integer `dtype` is finite and in its range."""
    if dtype is None or dtype in ("float32", "float64", "bool"):
        return True
    info = np.iinfo(dtype)
    for v in values:
        if isinstance(v, float) and not math.isfinite(v):
            return False
        if not (info.min <= math.trunc(v) <= info.max):
            return False
    return True


def run(func, cid, dtype, args):
    """NumPy's outcome, or None when the case is not drawn (see the module's text)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            if func == "arange":
                r = np.arange(*args, dtype=dtype)
            else:
                endpoint = bool(args[3]) if len(args) > 3 else True
                r = np.linspace(args[0], args[1], args[2], endpoint=endpoint, dtype=dtype)
        except (ValueError, ZeroDivisionError, TypeError) as e:
            if isinstance(e, TypeError) and "boolean" not in str(e):
                return None
            emit(func, cid, dtype, args, error="value_error")
            return True
        except (Warning, OverflowError):
            return None
    if r.size > 400:
        return None
    emit(func, cid, dtype, args, result=r)
    return True


def arange_args():
    kinds = rng.choice(["iii", "fff", "iif", "fif", "ffi", "iff"])
    start = int(rng.integers(-20, 20)) if kinds[0] == "i" else float(np.round(rng.uniform(-10, 10), int(rng.integers(0, 4))))
    stop = int(rng.integers(-20, 40)) if kinds[1] == "i" else float(np.round(rng.uniform(-10, 30), int(rng.integers(0, 4))))
    if kinds[2] == "i":
        step = int(rng.choice([-5, -3, -2, -1, 1, 1, 2, 3, 7]))
    else:
        step = float(rng.choice([0.1, 0.3, -0.3, 0.25, -0.7, 1.5, 0.05, 2.75, 1 / 3, -1 / 7]))
    return [start, stop, step]


def main():
    cid = 0
    fixed_arange = [
        (None, [-1.3, 2.9, 0.3]), (None, [1e10, 1e10 + 1, 0.1]), ("float32", [1000.1, 1001.0, 0.1]),
        ("int32", [0.5, 3.0, 0.5]), ("int64", [0, 5, 1.5]), ("int16", [-3.5, 3.0, 1.25]),
        ("uint8", [0.5, 3.0, 0.5]), ("float32", [0, 1, 0.3]), (None, [0, 10]), (None, [7]),
        (None, [0.0, 1.0, math.inf]), (None, [0.0, -1.0, math.inf]), (None, [0.0, 1.0, -math.inf]),
        (None, [0, 10, 0]), (None, [0.0, 1.0, 0.0]), (None, [0.0, math.nan]), (None, [math.nan, 1.0]),
        (None, [0.0, math.inf]), (None, [0.0, 1.0, math.nan]), ("bool", [0, 2]), ("bool", [0, 3]),
        ("bool", [0, 1]), (None, [5, 0, -2]), (None, [0, 0]), (None, [3, 0]), ("int8", [100, 127, 13]),
        ("uint64", [0, 10, 3]), ("float64", [1, 2, 0.1]), (None, [0.0, 1e-320, 1e300]),
    ]
    for dtype, args in fixed_arange:
        cid += 1
        run("arange", cid, dtype, args)
    drawn = 0
    while drawn < 300:
        dtype = None if rng.random() < 0.3 else str(rng.choice(DTYPES))
        args = arange_args()
        cid += 1
        # NumPy stores start and start + step first: both must convert.
        if not integer_safe([args[0], args[0] + args[2]], dtype):
            continue
        if dtype == "bool" and rng.random() < 0.7:
            continue
        if run("arange", cid, dtype, args):
            drawn += 1
    fixed_linspace = [
        ("int32", [-5, 5, 4]), ("int32", [5, -5, 4]), ("int64", [-1, 0, 5]), ("uint8", [0, 9, 4]),
        (None, [0.0, 1.0, 5]), (None, [0.0, 1.0, 0]), (None, [2.5, 7.0, 1]), (None, [0.0, math.inf, 1]),
        (None, [0.0, 5e-324, 3]), (None, [1.0, 1.0, 4]), ("float32", [0.1, 0.7, 7]),
        ("bool", [0.0, 1.0, 3]), (None, [0, 10, -1]), ("int16", [-7.5, 7.5, 11]),
        # endpoint=False: [start, stop) in n intervals
        (None, [0.0, 1.0, 5, 0]), (None, [0.0, 1.0, 1, 0]), (None, [0.0, 1.0, 0, 0]),
        ("int32", [-5, 5, 4, 0]), ("float32", [0.1, 0.7, 7, 0]), (None, [0.0, 5e-324, 3, 0]),
        (None, [0, 10, -1, 0]),
    ]
    for dtype, args in fixed_linspace:
        cid += 1
        run("linspace", cid, dtype, args)
    drawn = 0
    while drawn < 200:
        dtype = None if rng.random() < 0.3 else str(rng.choice(DTYPES))
        if rng.random() < 0.5:
            start, stop = int(rng.integers(-30, 30)), int(rng.integers(-30, 30))
        else:
            start = float(np.round(rng.uniform(-20, 20), int(rng.integers(0, 5))))
            stop = float(np.round(rng.uniform(-20, 20), int(rng.integers(0, 5))))
        num = int(rng.integers(0, 16))
        cid += 1
        if dtype in ("uint8", "uint16", "uint32", "uint64") and min(start, stop) < 0:
            continue
        if not integer_safe([start, stop], dtype):
            continue
        args = [float(start), float(stop), num]
        if rng.random() < 0.3:
            args.append(0)  # endpoint=False
        if run("linspace", cid, dtype, args):
            drawn += 1
    os.makedirs(os.path.dirname(os.path.abspath(OUT)), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")


main()
