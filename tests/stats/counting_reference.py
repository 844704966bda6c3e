#!/usr/bin/python3
"""NumPy's answers for tests/stats/test_counting.cpp (ctest fixture stats.counting_reference).

Generates random cases (seeded: argv[2] or the default below) for histogram,
histogram_bin_edges, bincount, digitize, searchsorted, isin, unique, average, ptp, cov and
corrcoef, runs NumPy 1.24 on each and writes inputs and results (or the fusor exception NumPy's
error maps to) as text the C++ test reads:

    case <func> <id>
    p <name> <token>...                      a parameter
    a <name> <dtype> <rank> <dims>... <values>...   an input array
    g <name> <dtype> <n> <A> <B> <M> <D> <C>  a generated 1-d input: k = (i*A + B) % M,
                                             value = k / D + C (float64), then cast
    e <name> <dtype> <rank> <dims>... <values>...   an expected output
    t <name> <tolerance>                     an absolute tolerance for that output (else exact)
    x <error>                                the fusor exception expected instead
    end

Floats are written with float.hex() (exact), NaN and infinities as nan / inf / -inf.
Usage: counting_reference.py <output file> [seed]
"""
import os
import sys
import warnings

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from numpy_cases import arr_line  # noqa: E402 (tests/numpy_cases.py)

warnings.simplefilter("ignore")

OUT = sys.argv[1]
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 20240601
rng = np.random.default_rng(SEED)

DTYPES = ["float32", "float64", "int32", "int64", "uint8", "bool"]
lines = []
count = {}


def error_name(e):
    if isinstance(e, np.AxisError):
        return "axis_error"
    if isinstance(e, IndexError):
        return "index_error"
    if isinstance(e, (ValueError, TypeError, ZeroDivisionError)):
        return "value_error"
    raise e


class Case:
    def __init__(self, func):
        count[func] = count.get(func, 0) + 1
        self.rows = [f"case {func} {count[func]}"]

    def p(self, name, *tokens):
        self.rows.append(" ".join(["p", name] + [str(t) for t in tokens]))

    def a(self, name, array):
        self.rows.append(arr_line("a", name, array))

    def g(self, name, dtype, n, A, B, M, D, C):
        self.rows.append(f"g {name} {dtype} {n} {A} {B} {M} {float(D).hex()} {float(C).hex()}")
        k = (np.arange(n, dtype=np.int64) * A + B) % M
        v = k.astype(np.float64) / D + C
        return v.astype(dtype)

    def run(self, f, tol=None):
        """Runs f(); it returns {name: array}. Errors become an x line."""
        try:
            out = f()
        except Exception as e:  # noqa: BLE001 (mapped or re-raised)
            self.rows.append("x " + error_name(e))
        else:
            for name, value in out.items():
                self.rows.append(arr_line("e", name, np.asarray(value)))
            for name, t in (tol or {}).items():
                if name in out:
                    t = t(out[name]) if callable(t) else t
                    self.rows.append(f"t {name} {float(t).hex()}")
        self.rows.append("end")
        lines.extend(self.rows)


def rand_shape(max_rank=3, max_extent=6, allow_empty=True):
    rank = int(rng.integers(0, max_rank + 1))
    lo = 0 if allow_empty and rng.random() < 0.15 else 1
    return tuple(int(rng.integers(lo, max_extent + 1)) for _ in range(rank))


def rand_values(dtype, shape, special=False):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.random(n).reshape(shape) < 0.5
    if dtype == "uint8":
        return rng.integers(0, 256 if rng.random() < 0.5 else 12, n).astype(np.uint8).reshape(shape)
    if dtype in ("int32", "int64"):
        span = [5, 100, 10**6][int(rng.integers(0, 3))]
        return rng.integers(-span, span, n).astype(dtype).reshape(shape)
    kind = int(rng.integers(0, 3))
    if kind == 0:
        v = rng.standard_normal(n) * 10 ** rng.uniform(-2, 3)
    elif kind == 1:  # on a grid: values land on edges and repeat
        v = rng.integers(-20, 21, n) / 4.0
    else:
        v = rng.uniform(-1, 1, n) + 1e6 * (rng.random() < 0.2)
    v = v.astype(dtype)
    if special and n > 0:
        for _ in range(int(rng.integers(1, 3))):
            v[int(rng.integers(0, n))] = [np.nan, np.inf, -np.inf][int(rng.integers(0, 3))]
    return v.reshape(shape)


def rand_weights(dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return (rng.random(n) < 0.6).reshape(shape)
    if dtype in ("int32", "int64"):
        return rng.integers(-20, 50, n).astype(dtype).reshape(shape)
    return (rng.uniform(-1, 3, n) * 3).astype(dtype).reshape(shape)


EPS = {"float32": float(np.finfo(np.float32).eps), "float64": float(np.finfo(np.float64).eps)}


def widened(edges):
    # fusor returns the edges of a number of bins as float64 always: NumPy's float32 edges (for
    # float32 data) widened exactly, the same values.
    return np.asarray(edges, np.float64)


def count_form(r):
    return {"hist": r[0], "edges": widened(r[1])}


# ---- histogram, bins as a number -------------------------------------------------------------
def histogram_count_case(x=None, dtype=None):
    c = Case("histogram")
    dtype = dtype or DTYPES[int(rng.integers(0, len(DTYPES)))]
    if x is None:
        x = rand_values(dtype, rand_shape(), special=rng.random() < 0.1)
        c.a("x", x)
    bins = int(rng.integers(1, 25)) if rng.random() < 0.95 else int(rng.integers(-1, 1))
    c.p("bins", bins)
    kw = {}
    r = rng.random()
    finite = x[np.isfinite(x)] if x.dtype.kind == "f" else x.ravel()
    if r < 0.45:
        if finite.size and rng.random() < 0.7:
            lo, hi = float(np.min(finite)), float(np.max(finite))
            lo, hi = lo + (hi - lo) * rng.uniform(-0.2, 0.4), hi - (hi - lo) * rng.uniform(-0.2, 0.4)
        else:
            lo, hi = sorted(rng.uniform(-5, 5, 2).tolist())
        if rng.random() < 0.1:
            lo, hi = hi, lo
        if rng.random() < 0.05:
            hi = float("inf")
        if rng.random() < 0.05:
            hi = lo
        if rng.random() < 0.1 and x.dtype == np.float32:  # decimal bounds that float32 rounds
            lo, hi = -0.1, 0.7
        kw["range"] = (lo, hi)
        c.p("range", float(lo).hex(), float(hi).hex())
    if rng.random() < 0.3:
        kw["density"] = True
        c.p("density", 1)
    wdt = None
    if rng.random() < 0.45:
        wdt = ["float64", "float32", "int64", "bool"][int(rng.integers(0, 4))]
        w = rand_weights(wdt, x.shape)
        if rng.random() < 0.05 and x.ndim > 0 and x.size > 0:
            w = w.ravel()[:-1]  # another shape: ValueError
        c.a("w", w)
        kw["weights"] = w
    tol = {}
    if kw.get("density") and wdt in ("float64", "float32"):
        # fusor sums the histogram with its own (more exact) sum; NumPy pairwise in the weights'
        # type: the total may differ by a few units in the last place of the weights' type.
        tol["hist"] = lambda h: 16 * EPS[wdt] * float(np.abs(h).max(initial=0.0))
    c.run(lambda: count_form(np.histogram(x, bins, **kw)), tol)
    # histogram_bin_edges on the same arguments
    if rng.random() < 0.25:
        c2 = Case("histogram_bin_edges")
        c2.a("x", x)
        c2.p("bins", bins)
        if "range" in kw:
            c2.p("range", float(kw["range"][0]).hex(), float(kw["range"][1]).hex())
        c2.run(lambda: {"edges": widened(np.histogram_bin_edges(x, bins, range=kw.get("range")))})


# ---- histogram, explicit edges ----------------------------------------------------------------
def histogram_edges_case():
    c = Case("histogram")
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
    x = rand_values(dtype, rand_shape(), special=rng.random() < 0.15)
    c.a("x", x)
    bdt = ["float64", "float32", "int64"][int(rng.integers(0, 3))]
    nb = int(rng.integers(0, 10))
    finite = x[np.isfinite(x)].astype(np.float64) if x.dtype.kind == "f" else x.astype(np.float64).ravel()
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (-3.0, 3.0)
    if rng.random() < 0.5 and finite.size:
        edges = np.sort(rng.choice(finite, nb)).astype(bdt)  # edges on data values
    else:
        edges = np.sort(rng.uniform(lo - 1, hi + 1, nb)).astype(bdt)
    if nb > 2 and rng.random() < 0.2:
        edges[1] = edges[0]  # a repeated edge
    if nb > 2 and rng.random() < 0.08:
        edges = edges[::-1].copy()  # decreasing: ValueError
    if nb > 0 and bdt != "int64" and rng.random() < 0.08:
        edges[-1] = np.nan  # NaN last: NumPy counts NaN data in the last bin
    if rng.random() < 0.04:
        edges = edges.reshape(1, -1)  # not 1-d
    c.a("edges", edges)
    kw = {}
    if rng.random() < 0.3:
        kw["density"] = True
        c.p("density", 1)
    tol = {}
    if rng.random() < 0.45:
        wdt = ["float64", "float32", "int64"][int(rng.integers(0, 3))]
        w = rand_weights(wdt, x.shape)
        c.a("w", w)
        kw["weights"] = w
        if wdt != "int64":
            # NumPy differences cumulative sums of the weights sorted by value (in the weights'
            # type); fusor sums each bin directly: equal to within the cumulative sum's rounding.
            sums_tol = 4 * EPS[wdt] * (np.abs(w).sum() + 1) * (x.size + 1)
            tol["hist"] = sums_tol
            if kw.get("density"):  # the same error, through n / width / total

                def density_tol(h):
                    try:
                        n = np.histogram(x, edges, weights=w)[0].astype(np.float64)
                        widths = np.diff(edges).astype(np.float64)
                        widths = widths[widths > 0]
                        return sums_tol * (1 + np.abs(n).sum() / max(abs(n.sum()), 1e-300)) / max(
                            abs(n.sum()) * widths.min(initial=np.inf), 1e-300)
                    except ValueError:
                        return 0.0

                tol["hist"] = density_tol
    c.run(lambda: dict(zip(("hist", "edges"), np.histogram(x, edges, **kw))), tol)


def histogram_big_cases():
    """Large generated inputs: several of NumPy's 65536-value blocks and fusor's chunks."""
    for dtype, wdt, rng_kw in [
        ("float32", None, None),
        ("float32", "float32", (-0.3, 0.9)),
        ("float64", "float64", None),
        ("float32", "float64", (-1.0, 1.0)),
        ("int64", "int64", None),
        ("uint8", None, (10, 200)),
    ]:
        c = Case("histogram")
        n = 200003
        if dtype.startswith("float"):
            x = c.g("x", dtype, n, 40503, 17, 100003, 50001.5, -1.0)
        else:
            x = c.g("x", dtype, n, 7919, 3, 251, 1.0, 0.0)
        bins = 100 if dtype != "uint8" else 37
        c.p("bins", bins)
        kw = {}
        if rng_kw:
            kw["range"] = rng_kw
            c.p("range", float(rng_kw[0]).hex(), float(rng_kw[1]).hex())
        if wdt:
            w = c.g("w", wdt, n, 7919, 5, 1009, 7.0 if wdt != "int64" else 1.0, -20.0)
            kw["weights"] = w
        c.run(lambda: count_form(np.histogram(x, bins, **kw)))


# ---- bincount ----------------------------------------------------------------------------------
def bincount_case():
    c = Case("bincount")
    dtype = ["int32", "int64", "uint8", "bool"][int(rng.integers(0, 4))]
    n = int(rng.integers(0, 30))
    if dtype == "bool":
        x = rng.random(n) < 0.5
    else:
        x = rng.integers(0, int(rng.integers(1, 40)), n).astype(dtype)
    if dtype in ("int32", "int64") and n and rng.random() < 0.08:
        x[int(rng.integers(0, n))] = -1
    if rng.random() < 0.04:
        x = x.reshape(1, -1)
    c.a("x", x)
    minlength = int(rng.integers(0, 50)) if rng.random() < 0.4 else 0
    if rng.random() < 0.04:
        minlength = -1
    c.p("minlength", minlength)
    kw = {"minlength": minlength}
    if rng.random() < 0.5:
        wdt = ["float64", "float32", "int64", "bool"][int(rng.integers(0, 4))]
        w = rand_weights(wdt, (x.size,))
        if rng.random() < 0.05:
            w = np.append(w, w[:1])
        c.a("w", w)
        kw["weights"] = w
    def f():
        out = np.bincount(x, **kw)
        if "weights" in kw and x.size == 0:
            # NumPy returns int64 zeros for an empty x even with weights; fusor's result type
            # does not depend on sizes: float64 zeros.
            out = out.astype(np.float64)
        return {"out": out}

    c.run(f)


# ---- digitize, searchsorted ----------------------------------------------------------------------
def sorted_values(dtype, n):
    v = np.sort(rand_values(dtype, (n,)))
    if n > 2 and rng.random() < 0.3:
        v[1] = v[0]
    return v


def digitize_case():
    c = Case("digitize")
    xdt = ["float32", "float64", "int32", "int64", "uint8"][int(rng.integers(0, 5))]
    bdt = ["float64", "float32", "int64"][int(rng.integers(0, 3))]
    x = rand_values(xdt, rand_shape(), special=rng.random() < 0.2)
    bins = sorted_values(bdt, int(rng.integers(0, 9)))
    r = rng.random()
    if r < 0.3:
        bins = bins[::-1].copy()
    elif r < 0.35 and bins.size:
        bins[:] = bins[0]
    elif r < 0.4 and bins.size > 2:
        bins[[0, -1]] = bins[[-1, 0]]
    if rng.random() < 0.03:
        bins = bins.reshape(1, -1)
    right = int(rng.random() < 0.5)
    c.a("x", x)
    c.a("bins", bins)
    c.p("right", right)
    c.run(lambda: {"out": np.digitize(x, bins, right=bool(right))})


def searchsorted_case():
    c = Case("searchsorted")
    adt = ["float32", "float64", "int32", "int64", "uint8"][int(rng.integers(0, 5))]
    vdt = ["float32", "float64", "int32", "int64", "uint8"][int(rng.integers(0, 5))]
    n = int(rng.integers(0, 12))
    a = sorted_values(adt, n)
    if adt.startswith("float") and n and rng.random() < 0.2:
        a[-1] = np.nan
    v = rand_values(vdt, rand_shape(), special=rng.random() < 0.2)
    side = ["left", "right"][int(rng.integers(0, 2))]
    kw = {"side": side}
    bad_sorter = False
    if rng.random() < 0.35:
        perm = rng.permutation(n)
        a = a[perm]
        sorter = np.argsort(a, kind="stable").astype(["int64", "int32"][int(rng.integers(0, 2))])
        if rng.random() < 0.1:
            sorter = sorter[:-1] if n else np.array([0])
        elif rng.random() < 0.1 and n:
            sorter[0] = n
            bad_sorter = True
        c.a("sorter", sorter)
        kw["sorter"] = sorter
    if rng.random() < 0.03:
        a = a.reshape(1, -1)
    c.a("a", a)
    c.a("v", v)
    c.p("side", side)

    def f():
        if bad_sorter and a.ndim == 1:
            # NumPy checks only the sorter entries its binary search reads (and may answer
            # without raising); fusor checks every entry first.
            raise ValueError("Sorter index out of range.")
        return {"out": np.searchsorted(a, v, **kw)}

    c.run(f)


# ---- isin, unique ------------------------------------------------------------------------------
def isin_case():
    c = Case("isin")
    edt = ["float32", "float64", "int32", "int64", "uint8", "bool"][int(rng.integers(0, 6))]
    tdt = ["float64", "int64", "uint8", edt][int(rng.integers(0, 4))]
    if "float32" in (edt, tdt) and "float64" in (edt, tdt):
        tdt = edt  # NumPy compares float32 with float64 values in either type, by path
    e = rand_values(edt, rand_shape(), special=rng.random() < 0.2)
    pool = e.ravel()[: int(rng.integers(0, e.size + 1))].astype(np.float64) if e.size else np.zeros(0)
    extra = rng.integers(-5, 260, int(rng.integers(0, 6))).astype(np.float64)
    t = np.concatenate([pool, extra])
    if tdt != "float64":
        t = t[np.isfinite(t)]
        if tdt == "uint8":
            t = t[(t >= 0) & (t <= 255)]
        t = np.trunc(t).astype(tdt)
    else:
        t = t.astype(tdt)
    if rng.random() < 0.2 and t.size:
        t = t.reshape(1, -1)
    invert = int(rng.random() < 0.3)
    c.a("element", e)
    c.a("test", t)
    c.p("invert", invert)
    c.run(lambda: {"out": np.isin(e, t, invert=bool(invert))})


def unique_case():
    c = Case("unique")
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
    shape = rand_shape()
    x = rand_values(dtype, shape, special=rng.random() < 0.2)
    if dtype.startswith("float") and x.size:
        x = np.where(x == 0, 0.0, x).astype(dtype)  # no -0.0: its sign after unique is NumPy's sort's
        if rng.random() < 0.5:
            x = (np.round(x.astype(np.float64)) % 4).astype(dtype)  # many repeats
    elif x.dtype.kind in "iu" and rng.random() < 0.6:
        x = (x % 4).astype(dtype)
    c.a("x", x)
    flags = [int(rng.random() < 0.5) for _ in range(3)]
    c.p("flags", *flags)
    kw = dict(return_index=bool(flags[0]), return_inverse=bool(flags[1]), return_counts=bool(flags[2]))
    axis = None
    if rng.random() < 0.4:
        axis = int(rng.integers(-x.ndim - 1, x.ndim + 1)) if x.ndim else 0
        c.p("axis", axis)
    names = ["values"] + [n for n, f in zip(("indices", "inverse", "counts"), flags) if f]

    def f():
        r = np.unique(x, axis=axis, **kw)
        r = r if isinstance(r, tuple) else (r,)
        return dict(zip(names, r))

    c.run(f)


# ---- average, ptp, cov, corrcoef ---------------------------------------------------------------
def average_case():
    c = Case("average")
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
    x = rand_values(dtype, rand_shape(max_extent=5))
    c.a("x", x)
    axis = None
    r = rng.random()
    if r < 0.4 and x.ndim:
        axis = int(rng.integers(-x.ndim, x.ndim))
        if rng.random() < 0.05:
            axis = x.ndim + 1
        c.p("axis", axis)
    elif r < 0.55 and x.ndim >= 2:
        axis = tuple(int(a) for a in rng.choice(x.ndim, 2, replace=False))
        c.p("axes", *axis)
    kw = {}
    wdt = None
    if rng.random() < 0.6:
        wdt = ["float64", "float32", "int32", "bool"][int(rng.integers(0, 4))]
        if isinstance(axis, int) and 0 <= axis < x.ndim and rng.random() < 0.5:
            w = rand_weights(wdt, (x.shape[axis],))
        elif isinstance(axis, int) and axis >= x.ndim and rng.random() < 0.5:
            w = rand_weights(wdt, (x.shape[0],))
        else:
            w = rand_weights(wdt, x.shape)
        if rng.random() < 0.05:
            w = np.zeros_like(w)
        if wdt != "bool":
            w = np.abs(w)
        c.a("w", w)
        kw["weights"] = w
    if rng.random() < 0.3:
        kw["returned"] = True
        c.p("returned", 1)
    if rng.random() < 0.25:
        kw["keepdims"] = True
        c.p("keepdims", 1)

    def f():
        r = np.average(x, axis=axis, **kw)
        if kw.get("returned"):
            return {"average": r[0], "sum_of_weights": r[1]}
        return {"average": r}

    # fusor's sums accumulate float32 in float64 and float64 compensated; NumPy's are pairwise
    # in the result type: they agree to a few units of the result type's last place, scaled by
    # the magnitude of what is summed.
    rt = np.result_type(x.dtype, np.float64 if x.dtype.kind in "biu" else x.dtype,
                        kw["weights"].dtype if "weights" in kw else x.dtype)
    if "weights" not in kw and x.dtype.kind in "biu":
        rt = np.dtype(np.float64)
    eps = EPS["float32" if rt == np.float32 else "float64"]
    mag = float(np.abs(x.astype(np.float64)).max()) if x.size else 1.0
    tol = 16 * eps * (mag + 1) * max(x.size, 1)
    wsum_tol = 16 * eps * (float(np.abs(kw["weights"].astype(np.float64)).sum()) + 1) if "weights" in kw else 0.0
    c.run(f, {"average": tol, "sum_of_weights": wsum_tol})


def ptp_case():
    c = Case("ptp")
    dtype = ["float32", "float64", "int32", "int64", "uint8"][int(rng.integers(0, 5))]
    x = rand_values(dtype, rand_shape(), special=rng.random() < 0.1)
    if dtype == "int32" and rng.random() < 0.3:
        x = rng.integers(-2**31, 2**31 - 1, x.shape).astype(np.int32)  # wraps
    c.a("x", x)
    axis = None
    if rng.random() < 0.5:
        axis = int(rng.integers(-max(x.ndim, 1), max(x.ndim, 1) + (rng.random() < 0.1)))
        c.p("axis", axis)
    elif rng.random() < 0.3 and x.ndim >= 2:
        axis = tuple(int(a) for a in rng.choice(x.ndim, 2, replace=False))
        c.p("axes", *axis)
    keep = int(rng.random() < 0.3)
    c.p("keepdims", keep)
    c.run(lambda: {"out": np.ptp(x, axis=axis, keepdims=bool(keep))})


def cov_case(func):
    c = Case(func)
    dtype = ["float64", "float32", "int32", "uint8", "bool"][int(rng.integers(0, 5))]
    rank = int(rng.integers(0, 3)) if rng.random() > 0.03 else 3
    shape = tuple(int(rng.integers(1 if rng.random() < 0.9 else 0, 6)) for _ in range(rank))
    x = rand_values(dtype, shape)
    c.a("x", x)
    rowvar = int(rng.random() < 0.7)
    c.p("rowvar", rowvar)
    y = None
    if rng.random() < 0.3:
        yshape = shape
        if rank == 2:
            ky = int(rng.integers(1, 4))
            yshape = (ky, shape[1]) if rowvar else (shape[0], ky)
        if rng.random() < 0.05 and yshape:
            yshape = yshape[:-1] + (yshape[-1] + 1,)
        y = rand_values(dtype, yshape)
        c.a("y", y)
    kw = {}
    if func == "cov":
        bias = int(rng.random() < 0.3)
        c.p("bias", bias)
        kw["bias"] = bool(bias)
        if rng.random() < 0.3:
            kw["ddof"] = int(rng.integers(0, 4))
            c.p("ddof", kw["ddof"])
    X = np.array(x if x.ndim <= 2 else np.zeros((0, 0)), ndmin=2, dtype=np.float64)
    if not rowvar and X.shape[0] != 1:
        X = X.T
    if y is not None and X.shape[0]:
        Y = np.array(y, ndmin=2, dtype=np.float64)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        if Y.ndim == 2 and Y.shape[1] == X.shape[1]:
            X = np.concatenate([X, Y])
    # The products' sums: NumPy's BLAS dot against fusor's compensated sum, and the means'
    # rounding: both within a few units of float64's last place of sum |x_i||x_j|.
    absx = np.abs(X)
    tol = 64 * EPS["float64"] * float((absx @ absx.T).max() if absx.size else 0.0) + 1e-300
    if func == "corrcoef":
        tol = 1e-9
    f = np.cov if func == "cov" else np.corrcoef
    c.run(lambda: {"out": f(x, y, rowvar=bool(rowvar), **kw)}, {"out": tol})


def special_cases():
    """The corners of NumPy's histogram arithmetic, each on purpose."""
    def hist(x, bins, **kw):
        c = Case("histogram")
        c.a("x", x)
        c.p("bins", bins)
        if "range" in kw:
            c.p("range", float(kw["range"][0]).hex(), float(kw["range"][1]).hex())
        c.run(lambda: count_form(np.histogram(x, bins, **kw)))

    f32 = np.float32
    hist(np.array([2**62, 2**62], np.int64), 3)  # v +- 0.5 rounds back to v: IndexError
    hist(np.array([2**62, 2**62 + 1, 2**62 + 3], np.int64), 4)  # distinct, one double
    hist(np.array([3e38, 3e38], f32), 5)  # widened edges still fit float32
    hist(np.array([3.39e38, -3.39e38, 0], f32), 7)  # the float32 width overflows to inf
    hist(np.array([0, 1, 2, 3], f32), 4, range=(0, 1e39))  # a bound beyond float32: float64 edges
    hist(np.array([0, 5e-39, 1e-38, 2e-39], f32), 10, range=(0, 1e-38))  # norm beyond float32
    hist(np.array([-0.1, 0.7, 0.1, 0.3, 0.5], f32), 8, range=(-0.1, 0.7))  # bounds float32 rounds
    hist(np.array([1, 1, 1], np.uint8), 2)
    hist(np.array([0, 255, 7], np.uint8), 255)
    hist(np.array([-5, 5, 0], np.int32), 1, range=(-5, -5))
    hist(np.array([np.nan, 1.0]), 3, range=(0, 2))  # NaN ignored with a range
    hist(np.array([np.nan, 1.0]), 3)  # autodetected range of [nan, nan]
    hist(np.linspace(0, 1, 101), 100)  # values on the edges
    hist(np.linspace(0, 1, 101).astype(f32), 100)
    hist(np.arange(-1000, 1000, 0.37, dtype=np.float64), 17, range=(-999.3, 999.9))
    c = Case("average")
    c.a("x", np.ones((2, 3)))
    c.p("axis", 5)
    c.a("w", np.ones(3))
    c.run(lambda: {"average": np.average(np.ones((2, 3)), axis=5, weights=np.ones(3))})


def main():
    special_cases()
    for _ in range(90):
        histogram_count_case()
    for _ in range(60):
        histogram_edges_case()
    histogram_big_cases()
    for _ in range(40):
        bincount_case()
    for _ in range(40):
        digitize_case()
    for _ in range(45):
        searchsorted_case()
    for _ in range(40):
        isin_case()
    for _ in range(60):
        unique_case()
    for _ in range(60):
        average_case()
    for _ in range(30):
        ptp_case()
    for _ in range(30):
        cov_case("cov")
    for _ in range(20):
        cov_case("corrcoef")
    os.makedirs(os.path.dirname(os.path.abspath(OUT)), exist_ok=True)
    tmp = OUT + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"# numpy {np.__version__} seed {SEED}\n")
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, OUT)
    print(f"{sum(count.values())} cases written to {OUT}: {count}")


main()
