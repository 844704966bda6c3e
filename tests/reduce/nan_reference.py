#!/usr/bin/python3
"""NumPy 1.24's answers for tests/reduce/test_nan.cpp (reduce/nan_reductions.hpp and
algo/nan_scan.hpp), written at test time (ctest fixture reduce.nan_reference).

Usage: nan_reference.py OUT_FILE [SEED]

Random cases for nansum nanprod nanmean nanvar nanstd nanmin nanmax nanargmin nanargmax
nancumsum nancumprod over float32, float64, int32, int64 and bool operands: shapes of rank 0-3
with empty axes, rows long enough for the pairwise/interleaved kernels, NaN at several
densities, whole NaN hyperplanes (all-NaN slices), +-inf, axis None / one (negative too) /
a list (unsorted, negative, empty) / a bad axis, keepdims, ddof. The same SEED gives the same
file (default 20240617).

One case per line, whitespace-separated:
    func dtype ndim shape... values... axis keepdims ddof result
  values  row-major; floats as float.hex() ('nan', 'inf', '-inf'), integers in decimal,
          bools 0/1
  axis    'none' | 'one A' | 'list K A1..AK'
  result  'ok' dtype ndim shape... values... rtol atol   (NumPy's result)
        | 'error' ValueError|AxisError                   (NumPy raised)

Tolerances (rtol, atol; the check is |fusor - numpy| <= atol + rtol * |numpy|, NaN only equal to
NaN, an infinity only to itself; 0 0 means bitwise equality):
  * Exact (0 0): nanmin, nanmax, nanargmin, nanargmax (no arithmetic); nancumsum, nancumprod
    (both sides add/multiply sequentially in the result type); everything over integers and
    bool but nanvar/nanstd (integer sums and products wrap identically in int64; an integer
    mean is an exact float64 sum over small values, divided once); nansum and nanmean over
    the 'grid' value family (multiples of 1/4 below 16 in magnitude, at most 300 per slice:
    every partial sum is a multiple of 1/4 below 2^13, exact in float32 and float64 whatever
    the order, and nanmean's one division is rounded the same way on both sides: float64
    quotient of an exact sum rounded to the dtype).
  * nansum over the 'normal' family: NumPy sums float32 in float32 (pairwise), fusor in double
    (float64: compensated); whatever the order, a float sum of n terms is within
    (n - 1) * eps/2 * sum|x| of the exact one, so the two differ by at most
    n * eps * sum|x| (max over the slices; finite terms only): atol. nanmean: that bound
    divided by the slice's count, plus one rounding of the quotient (rtol 2 eps).
  * nanprod over floats: NumPy multiplies sequentially in the dtype (n - 1 roundings of
    eps/2 each), fusor in double then rounds once: rtol (n + 1) * eps. The product values
    have magnitudes in [1/4, 2] and slices of at most 60, so nothing overflows or underflows
    (where it would, the two orders could give inf vs a number).
  * nanvar / nanstd (all dtypes; integers compute in float64): both sides run the same two
    passes, but their sums of the squared deviations (all >= 0, no cancellation) round in
    different orders: within ~(n + 2) eps relative, covered by rtol 4 * n * eps; and the means
    may differ by d <= (n + 1) * eps * max|x| (the sum bound above), which moves the variance
    by at most ~3 * n * d^2 in absolute terms: atol. nanstd: the same rtol and sqrt(atol)
    (|sqrt(u) - sqrt(v)| <= sqrt(|u - v|)).
"""
import os
import sys
import warnings

import numpy as np

SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 20240617
rng = np.random.default_rng(SEED)
warnings.simplefilter("ignore")  # NumPy's RuntimeWarnings: all-NaN slices, dof <= 0

DTYPES = ["float32", "float64", "int32", "int64", "bool"]
REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax"]
ARGS = ["nanargmin", "nanargmax"]
SCANS = ["nancumsum", "nancumprod"]
PRODUCTS = ("nanprod", "nancumprod")
CASES_PER_PAIR = 32  # per (function, dtype): 11 * 5 * 32 = 1760 cases


def random_shape(func):
    """Rank 0-3, extents 0-5 (0 one time in ten); one case in five a long row (kernels)."""
    limit = 60 if func in PRODUCTS else 300
    if rng.random() < 0.2:
        n = int(rng.integers(16, limit + 1))
        return (n,) if rng.random() < 0.5 else (int(rng.integers(1, 4)), n // 3 or 1)
    rank = int(rng.choice([0, 1, 1, 2, 2, 2, 3, 3]))
    return tuple(0 if rng.random() < 0.1 else int(rng.integers(1, 6)) for _ in range(rank))


def random_values(func, dtype, shape):
    """The operand and its value family ('grid', 'normal', 'small', 'big')."""
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.random(shape) < 0.5, "small"
    if dtype in ("int32", "int64"):
        if func not in ("nanmean", "nanvar", "nanstd") and rng.random() < 0.3:
            info = np.iinfo(dtype)
            hi = info.max if dtype == "int32" else 2**62  # int64 sums wrap in both
            return rng.integers(-hi, hi, size=shape, dtype=dtype), "big"
        return rng.integers(-50, 51, size=shape).astype(dtype), "small"
    family = "grid" if rng.random() < 0.6 else "normal"
    if func in PRODUCTS:  # magnitudes in [1/4, 2]: no overflow or underflow in 60 factors
        if family == "grid":
            x = rng.integers(1, 9, size=n) / 4.0
        else:
            x = np.exp2(rng.uniform(-1.0, 1.0, size=n))
        x = x * rng.choice([-1.0, 1.0], size=n)
        if rng.random() < 0.3:
            x[rng.random(n) < 0.1] = 0.0
    elif family == "grid":
        x = rng.integers(-64, 65, size=n) / 4.0
    else:
        x = rng.standard_normal(n) * 4.0
    x = x.astype(dtype)  # float32: rounded here, so both sides read the same values
    x[x == 0] = 0.0  # no -0.0: NumPy's SIMD min/max and sums treat the sign of zero freely
    x = x.reshape(shape)
    p_nan = float(rng.choice([0.0, 0.0, 0.1, 0.3, 0.7, 1.0]))
    if x.size:
        x[rng.random(shape) < p_nan] = np.nan
        if rng.random() < 0.25:
            inf = rng.random(shape) < 0.08
            x[inf] = rng.choice([np.inf, -np.inf], size=shape)[inf]
        if x.ndim and rng.random() < 0.35:  # a whole hyperplane of NaN: all-NaN slices
            k = int(rng.integers(x.ndim))
            if x.shape[k]:
                idx = [slice(None)] * x.ndim
                idx[k] = int(rng.integers(x.shape[k]))
                x[tuple(idx)] = np.nan
    return x, family


def random_axis(func, ndim):
    """None, an int (negative half the time), a tuple, or a bad one (one case in ten)."""
    r = rng.random()
    if r < 0.08:  # bad: out of range, or (lists) repeated
        if func in REDUCTIONS and ndim and rng.random() < 0.5:
            a = int(rng.integers(ndim))
            return ("list", (a, a - ndim))
        return ("one", int(rng.choice([ndim, -ndim - 1, ndim + 2])))
    if r < 0.3 or (func in SCANS + ARGS and r < 0.45):
        return ("none", None)
    if func in REDUCTIONS and r < 0.65:
        axes = [a for a in range(ndim) if rng.random() < 0.5]
        rng.shuffle(axes)
        return ("list", tuple(a - ndim if rng.random() < 0.3 else a for a in axes))
    if ndim == 0:
        return ("one", int(rng.choice([0, -1])))
    a = int(rng.integers(ndim))
    return ("one", a - ndim if rng.random() < 0.4 else a)


def reduced_axes(axis, ndim):
    kind, a = axis
    if kind == "none":
        return tuple(range(ndim))
    if ndim == 0:
        return ()
    return tuple(sorted({x % ndim for x in (a if kind == "list" else (a,))}))


def slice_stats(x, axes):
    """Per result element: count of non-NaN, sum |x| and max |x| over the finite ones."""
    f = x.astype(np.float64)
    finite = np.where(np.isfinite(f), np.abs(f), 0.0)
    cnt = np.sum(~np.isnan(f), axis=axes)
    return np.atleast_1d(cnt), np.atleast_1d(np.sum(finite, axis=axes)), \
        np.atleast_1d(np.max(finite, axis=axes, initial=0.0))


def tolerance(func, dtype, family, x, axes, ddof):
    if func in ("nanmin", "nanmax", "nanargmin", "nanargmax", "nancumsum", "nancumprod"):
        return 0.0, 0.0
    is_float = dtype.startswith("float")
    if func in ("nansum", "nanmean", "nanprod") and (not is_float or
                                                   (family == "grid" and func != "nanprod")):
        return 0.0, 0.0
    eps = float(np.finfo(dtype if is_float else "float64").eps)
    n = int(np.prod([x.shape[a] for a in axes], dtype=np.int64)) if axes else 1
    if x.size == 0:
        return 0.0, 0.0
    cnt, total, biggest = slice_stats(x, axes)
    if func == "nanprod":
        return (n + 1) * eps, 0.0
    if func == "nansum":
        return 0.0, n * eps * float(np.max(total))
    if func == "nanmean":
        return 2 * eps, float(np.max(n * eps * total / np.maximum(cnt, 1)))
    d = (n + 1) * eps * float(np.max(biggest))
    rtol, atol = 4 * max(n, 1) * eps, 3 * max(n, 1) * d * d
    return (rtol, atol) if func == "nanvar" else (rtol, float(np.sqrt(atol)))


def text(v, dtype):
    if dtype.startswith("float"):
        return float(v).hex()
    return str(int(v))


def numpy_call(func, x, axis, keepdims, ddof):
    kw = {}
    if axis[0] != "none":
        kw["axis"] = axis[1]
    if keepdims:
        kw["keepdims"] = True
    if func in ("nanvar", "nanstd"):
        kw["ddof"] = ddof
    return getattr(np, func)(x, **kw)


def case_line(func, dtype):
    shape = random_shape(func)
    x, family = random_values(func, dtype, shape)
    axis = random_axis(func, x.ndim)
    keepdims = func not in SCANS and rng.random() < 0.35
    ddof = int(rng.choice([0, 0, 1, 1, 2, 5, -1])) if func in ("nanvar", "nanstd") else 0
    words = [func, dtype, str(x.ndim)] + [str(e) for e in x.shape]
    words += [text(v, dtype) for v in x.ravel()]
    if axis[0] == "none":
        words.append("none")
    elif axis[0] == "one":
        words += ["one", str(axis[1])]
    else:
        words += ["list", str(len(axis[1]))] + [str(a) for a in axis[1]]
    words += [str(int(keepdims)), str(ddof)]
    try:
        res = np.asarray(numpy_call(func, x, axis, keepdims, ddof))
    except np.AxisError:
        return " ".join(words + ["error", "AxisError"])
    except ValueError:
        return " ".join(words + ["error", "ValueError"])
    rtol, atol = tolerance(func, dtype, family, x, reduced_axes(axis, x.ndim), ddof)
    words += ["ok", res.dtype.name, str(res.ndim)] + [str(e) for e in res.shape]
    words += [text(v, res.dtype.name) for v in res.ravel()]
    words += [repr(rtol), repr(atol)]
    return " ".join(words)


def main():
    lines = []
    for func in REDUCTIONS + ARGS + SCANS:
        for dtype in DTYPES:
            for _ in range(CASES_PER_PAIR):
                lines.append(case_line(func, dtype))
    os.makedirs(os.path.dirname(os.path.abspath(sys.argv[1])), exist_ok=True)
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
