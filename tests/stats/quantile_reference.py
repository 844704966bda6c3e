#!/usr/bin/python3
"""NumPy's answers for tests/stats/test_quantile.cpp (ctest fixture stats.quantile_reference).

Writes random cases (seed SEED, or the environment's FUSOR_QUANTILE_SEED) of median, nanmedian, quantile, percentile, nanquantile, nanpercentile,
partition and argpartition, one per line, with NumPy 1.24's result (or the exception it raises)
to the file named by argv[1]. The C++ test reads them as data (no generated C++).

Line formats (whitespace separated; floats as float.hex(), so exact; integers in decimal):
  Q fn dtype rank dims... axis_kind axis... keepdims q_kind q... method n data... status result
      axis_kind: N (every axis) | I <axis> | L <count> <axes...>
      q_kind:    - (median forms) | S <q> | L <count> <q...>
      method:    - (not passed: linear) | one of numpy's 13 names
      status:    ok <numpy dtype> <rank> <dims...> <count> <values...>  |  <fusor error type>
  P fn dtype rank dims... axis nkth kth... n data... status [n sorted...]
      status ok is followed by numpy.sort(x, axis) (NaN last), the order partition must agree
      with at every kth; the test checks the property NumPy documents, not NumPy's permutation.

Where fusor deliberately differs from NumPy 1.24 the expectation written here is fusor's:
  - nanquantile / nanpercentile of an input with no element: NumPy returns nanmean's NaN
    without the q axis; fusor keeps the q axis (all NaN). The shape written has the q axis.
  - NumPy's exception types map onto fusor's: ValueError and TypeError (bool subtract in
    quantile interpolation, an empty kth list) -> value_error, AxisError -> axis_error,
    IndexError -> index_error.
  - nanquantile / nanpercentile of float32 over an axis whose first lane is all NaN: NumPy
    rounds every result to float32 (apply_along_axis); the expectation is then NumPy's 1-d
    nanquantile lane by lane, in float64 (lane_by_lane).
  - several axes, or axis=(), on an input with no element: NumPy's _ureduce reshapes to
    (..., -1) and raises ValueError; fusor reduces them as on any other input (merged_by_hand).
  - The discrete quantile methods return the input's dtype in NumPy and float64 in fusor; the
    numpy dtype is written and the values compared as float64 (exact for the data used here).
Data never comes near a float type's maximum (NumPy's nanmedian over a short axis adds the
middle element to itself, which overflows there; fusor does not).
"""
import os
import sys
import warnings

import numpy as np

SEED = 20240603
METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "median_unbiased", "normal_unbiased"]
DISCRETE = ["lower", "higher", "nearest", "inverted_cdf", "closest_observation"]
DTYPES = ["float32", "float64", "int32", "int64", "bool", "uint8"]
FUNCS = ["median", "nanmedian", "quantile", "percentile", "nanquantile", "nanpercentile"]
ERRORS = {ValueError: "value_error", TypeError: "value_error", np.AxisError: "axis_error",
          IndexError: "index_error"}


def error_name(e):
    for cls, name in ERRORS.items():  # AxisError derives from ValueError and IndexError
        if type(e) is cls:
            return name
    if isinstance(e, np.AxisError):
        return "axis_error"
    for cls, name in ERRORS.items():
        if isinstance(e, cls):
            return name
    raise e


def fmt(v):
    return float(v).hex()


def fmt_data(a):
    if a.dtype.kind == "f":
        return [fmt(v) for v in a.ravel().astype(np.float64)]
    return [str(int(v)) for v in a.ravel()]


def random_shape(rng, allow_zero=True):
    rank = int(rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4]))
    lo = 0 if allow_zero and rng.random() < 0.12 else 1
    shape = [int(rng.integers(lo, 6)) for _ in range(rank)]
    return tuple(shape)


def random_data(rng, shape, dtype, nan_rate):
    size = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        return rng.random(size).reshape(shape) < rng.random()
    if dtype == "uint8":
        return rng.integers(0, 256, size).astype(np.uint8).reshape(shape)
    if dtype in ("int32", "int64"):
        info = np.iinfo(dtype)
        kind = rng.integers(0, 3)
        if kind == 0:  # many ties
            v = rng.integers(-5, 6, size)
        elif kind == 1:
            v = rng.integers(-1000, 1001, size)
        else:  # the whole range: b - a wraps in NumPy's integer subtract, int64 rounds to double
            v = rng.integers(info.min, info.max, size, endpoint=True)
        return v.astype(dtype).reshape(shape)
    kind = rng.integers(0, 3)
    if kind == 0:
        v = rng.integers(-4, 5, size).astype(np.float64)  # ties, and zeros of both signs below
    elif kind == 1:
        v = rng.standard_normal(size) * 10.0 ** rng.integers(-3, 4)
    else:
        v = rng.uniform(-1e6, 1e6, size)
    v = v.astype(dtype)
    special = rng.random(size)
    v[special < 0.05] = -0.0
    v[(special >= 0.05) & (special < 0.07)] = np.inf
    v[(special >= 0.07) & (special < 0.09)] = -np.inf
    v[rng.random(size) < nan_rate] = np.nan
    v = v.reshape(shape)
    if v.ndim >= 1 and v.size > 0 and rng.random() < 0.3:  # an all-NaN lane along some axis
        ax = int(rng.integers(0, v.ndim))
        idx = [slice(None)] * v.ndim
        for k in range(v.ndim):
            if k != ax:
                idx[k] = int(rng.integers(0, v.shape[k]))
        v[tuple(idx)] = np.nan
    return v


def random_axis(rng, rank):
    r = rng.random()
    if r < 0.3 or rank == 0:
        if rank == 0 and rng.random() < 0.15:
            return ("I", 0)  # AxisError on a 0-d operand
        return ("N", None)
    if r < 0.65:
        return ("I", int(rng.integers(-rank, rank)))
    count = int(rng.integers(0, rank + 1))
    axes = [int(a) for a in rng.permutation(rank)[:count]]
    axes = [a - rank if rng.random() < 0.3 else a for a in axes]
    return ("L", axes)


def random_q(rng, percent):
    def one():
        r = rng.random()
        if r < 0.15:
            return 0.0
        if r < 0.3:
            return 1.0
        if r < 0.4:
            return 0.5
        if r < 0.6:  # fractions that land exactly on positions and half positions
            return int(rng.integers(0, 13)) / 12.0
        return float(rng.random())
    if rng.random() < 0.5:
        q = one()
        return ("S", [q * 100.0 if percent else q])
    qs = [one() for _ in range(int(rng.integers(0, 5)))]
    return ("L", [q * 100.0 if percent else q for q in qs])


def quantile_case(rng, fn, dtype, out, forced=None):
    shape = random_shape(rng)
    nan_rate = 0.0 if rng.random() < 0.4 else float(rng.choice([0.05, 0.3, 0.9]))
    if fn.startswith("nan") and rng.random() < 0.2:
        nan_rate = 1.0
    a = random_data(rng, shape, dtype, nan_rate)
    axis_kind, axis = random_axis(rng, len(shape))
    keepdims = bool(rng.random() < 0.3)
    q_kind, q, method = "-", None, "-"
    if "median" not in fn:
        q_kind, q = random_q(rng, "percentile" in fn)
        if rng.random() < 0.9:
            method = str(rng.choice(METHODS))
    if forced:
        a, axis_kind, axis, q_kind, q, method = forced(a, axis_kind, axis, q_kind, q, method)
    write_quantile_case(fn, a, axis_kind, axis, keepdims, q_kind, q, method, out)


def lane_by_lane(f, a, axis_kind, axis, keepdims, q, kwargs):
    """f (nanquantile or nanpercentile) applied to each lane as a 1-d array, stacked as NumPy
    shapes the result. NumPy's own axis form runs apply_along_axis, whose output takes the
    first lane's dtype: float32 when that lane is all NaN, which rounds every other lane's
    float64 quantiles to float32. fusor keeps float64; this is NumPy's 1-d arithmetic for each."""
    kw = {k: v for k, v in kwargs.items() if k == "method"}
    rank = a.ndim
    axes = list(range(rank)) if axis_kind == "N" else [axis] if axis_kind == "I" else axis
    axes = sorted(x % rank for x in axes)
    kept = [k for k in range(rank) if k not in axes]
    lanes = np.transpose(a, kept + axes).reshape([a.shape[k] for k in kept] + [-1])
    flat = lanes.reshape(-1, lanes.shape[-1])
    rows = [np.asarray(f(row, q, **kw), dtype=np.float64) for row in flat]
    qshape = np.shape(q)
    r = np.stack(rows, axis=-1).reshape(qshape + lanes.shape[:-1])
    if keepdims:
        for k in axes:
            r = np.expand_dims(r, len(qshape) + k)
    return r


def merged_by_hand(fn, a, axis, keepdims, q_arg, method):
    """NumPy's answer for several reduced axes (or none) of an input with no element, as fusor
    gives it: NumPy's _ureduce merges the reduced axes with reshape(..., -1), which raises
    ValueError when there is no element; here they are merged by hand (kept axes first, then one
    axis of the reduced elements) and NumPy reduces that one axis."""
    rank = a.ndim
    axes = sorted(x % rank for x in axis)
    kept = [k for k in range(rank) if k not in axes]
    n = int(np.prod([a.shape[k] for k in axes]))
    b = np.transpose(a, kept + axes).reshape([a.shape[k] for k in kept] + [n])
    r = numpy_answer(fn, b, "I", -1, False, q_arg, method)
    if keepdims:
        for k in axes:
            r = np.expand_dims(r, np.ndim(q_arg) + k)
    return r


def numpy_answer(fn, a, axis_kind, axis, keepdims, q_arg, method):
    """NumPy's result of the case (raises what NumPy raises), where fusor deliberately differs
    replaced by fusor's answer built from NumPy's (see the module docstring)."""
    kwargs = {"keepdims": keepdims}
    if axis_kind != "N":
        kwargs["axis"] = tuple(axis) if axis_kind == "L" else axis
    if method != "-":
        kwargs["method"] = method
    qargs = [] if q_arg is None else [q_arg]
    try:
        r = np.asarray(getattr(np, fn)(a, *qargs, **kwargs))
    except ValueError as e:
        if "cannot reshape" not in str(e):
            raise
        return merged_by_hand(fn, a, axis, keepdims, q_arg, method)
    if fn.startswith("nanq") or fn.startswith("nanp"):
        if a.size == 0 and np.ndim(q_arg) == 1:  # fusor keeps the q axis
            r = np.full((len(q_arg),) + r.shape, np.nan)
        elif r.dtype == np.float32 and method not in DISCRETE and not np.isnan(r).all():
            r = lane_by_lane(getattr(np, fn), a, axis_kind, axis, keepdims, q_arg, kwargs)
    return r


def write_quantile_case(fn, a, axis_kind, axis, keepdims, q_kind, q, method, out):
    q_arg = None
    if q_kind != "-":
        q_arg = q[0] if q_kind == "S" else np.array(q, dtype=np.float64)
    tokens = ["Q", fn, str(a.dtype), str(a.ndim)] + [str(d) for d in a.shape]
    tokens.append(axis_kind)
    if axis_kind == "I":
        tokens.append(str(axis))
    elif axis_kind == "L":
        tokens += [str(len(axis))] + [str(v) for v in axis]
    tokens.append("1" if keepdims else "0")
    tokens.append(q_kind)
    if q_kind == "S":
        tokens.append(fmt(q[0]))
    elif q_kind == "L":
        tokens += [str(len(q))] + [fmt(v) for v in q]
    tokens.append(method)
    tokens += [str(a.size)] + fmt_data(a)
    try:
        r = numpy_answer(fn, a, axis_kind, axis, keepdims, q_arg, method)
        tokens += ["ok", str(r.dtype), str(r.ndim)] + [str(d) for d in r.shape]
        tokens += [str(r.size)] + [fmt(v) for v in r.ravel().astype(np.float64)]
    except Exception as e:  # noqa: BLE001 -- every NumPy error is an expected outcome
        tokens.append(error_name(e))
    out.append(" ".join(tokens))


def partition_case(rng, fn, dtype, out, shape=None):
    shape = random_shape(rng) if shape is None else shape
    a = random_data(rng, shape, dtype, 0.0 if rng.random() < 0.5 else 0.2)
    rank = a.ndim
    if rank == 0:
        axis = int(rng.choice([-1, 0, 1]))
    else:
        axis = int(rng.integers(-rank, rank)) if rng.random() < 0.95 else rank
    n = 1 if rank == 0 else a.shape[axis % rank] if -rank <= axis < rank else 1
    count = int(rng.integers(1, 4))
    kth = [int(rng.integers(-n, n)) if n > 0 else 0 for _ in range(count)]
    if rng.random() < 0.08:
        kth[0] = n + int(rng.integers(0, 2)) if rng.random() < 0.5 else -n - 1
    tokens = ["P", fn, str(a.dtype), str(rank)] + [str(d) for d in a.shape]
    tokens += [str(axis), str(len(kth))] + [str(k) for k in kth]
    tokens += [str(a.size)] + fmt_data(a)
    try:
        getattr(np, fn)(a, kth if len(kth) > 1 else kth[0], axis=axis)
        s = np.sort(a.reshape(1) if rank == 0 else a, axis=axis)
        tokens += ["ok", str(s.size)] + fmt_data(s)
    except Exception as e:  # noqa: BLE001
        tokens.append(error_name(e))
    out.append(" ".join(tokens))


def main():
    warnings.simplefilter("ignore")  # NumPy's RuntimeWarnings (all-NaN slices, inf - inf)
    seed = int(os.environ.get("FUSOR_QUANTILE_SEED", SEED))
    rng = np.random.default_rng(seed)
    out = []
    for i in range(720):
        quantile_case(rng, FUNCS[i % len(FUNCS)], DTYPES[(i // len(FUNCS)) % len(DTYPES)], out)
    # Every method on one lane length per parity, scalar and list q, with and without NaN.
    for method in METHODS:
        for dtype in ("float64", "float32", "int64"):
            for n in (1, 2, 5, 6):
                def force(a, ak, ax, qk, q, m, n=n, method=method):
                    b = random_data(rng, (3, n), dtype, 0.0)
                    return b, "I", -1, "L", [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0], method
                quantile_case(rng, "quantile", dtype, out, force)
                quantile_case(rng, "nanquantile", dtype, out, force)
    # Long lanes: nanmedian takes apply_along_axis (not np.ma) past 600 elements.
    for fn in ("median", "nanmedian", "quantile", "nanquantile"):
        for dtype in ("float32", "float64", "int32"):
            def force(a, ak, ax, qk, q, m, fn=fn):
                b = random_data(rng, (3, 640), dtype, 0.05)
                qk, q = ("-", None) if "median" in fn else ("L", [0.3, 0.5, 0.99])
                return b, "I", 1, qk, q, "-" if "median" in fn else "hazen"
            quantile_case(rng, fn, dtype, out, force)
    # Errors: q outside the range, NaN q, bad and repeated axes, empty lanes, bool interpolation.
    x = np.arange(12.0).reshape(3, 4)
    for fn, q in (("quantile", [1.5]), ("quantile", [-0.1]), ("percentile", [100.5]),
                  ("nanpercentile", [-1.0]), ("nanquantile", [float("nan")])):
        write_quantile_case(fn, x, "N", None, False, "S", q, "-", out)
        write_quantile_case(fn, x, "I", 1, False, "L", [0.5] + q, "-", out)
    for fn in FUNCS:
        q_kind, q = ("-", None) if "median" in fn else ("S", [0.5])
        write_quantile_case(fn, x, "I", 2, False, q_kind, q, "-", out)
        write_quantile_case(fn, x, "I", -3, False, q_kind, q, "-", out)
        write_quantile_case(fn, x, "L", [1, -1], False, q_kind, q, "-", out)
        write_quantile_case(fn, np.array(2.0), "I", 0, False, q_kind, q, "-", out)
        write_quantile_case(fn, np.zeros((3, 0)), "I", 1, False, q_kind, q, "-", out)
        write_quantile_case(fn, np.zeros((0, 0)), "N", None, True, q_kind, q, "-", out)
        write_quantile_case(fn, np.array([True, False, True]), "N", None, False, q_kind, q,
                            "-" if "median" in fn else "midpoint", out)
    for i in range(150):
        partition_case(rng, ("partition", "argpartition")[i % 2], DTYPES[(i // 2) % 6], out)
    for i in range(24):  # lanes long enough for the quickselect rounds (not only insertion)
        shape = (2, int(rng.integers(17, 400))) if i % 2 else (int(rng.integers(17, 400)), 3)
        partition_case(rng, ("partition", "argpartition")[i % 2], DTYPES[i % 6], out, shape)
    os.makedirs(os.path.dirname(os.path.abspath(sys.argv[1])), exist_ok=True)
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"quantile_reference.py: {len(out)} cases (seed {seed}) -> {sys.argv[1]}")


if __name__ == "__main__":
    main()
