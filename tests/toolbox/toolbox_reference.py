#!/usr/bin/python3
"""NumPy's answers for tests/toolbox/test_numpy.cpp (ctest fixture toolbox.numpy_reference).

Draws random cases (seeded: argv[2] or the default below) for NumPy's everyday toolbox as fusor
has it (expr/shaping.hpp, algo/diff.hpp, expr/triangular.hpp, expr/grids.hpp,
expr/splitting.hpp, algo/joining.hpp, algo/masks.hpp, algo/index_arrays.hpp,
algo/multi_index.hpp, algo/interp.hpp) over every dtype fusor has (bool, int8..int64,
uint8..uint64, float32, float64), shapes of rank 0 to 4 with empty ones, negative axes, the
three operand forms (a tensor, a view: the transpose of the array written, an expression), and
error cases; runs NumPy 1.24 on each and writes inputs and answers (or the fusor exception
NumPy's error maps to, with words its message must contain) as text the C++ test reads:

    case <func> <id>
    p <name> <token>...                          a parameter (axis, k, n, form, sections, ...);
                                                 `none` stands for NumPy's None
    a <name> <dtype> <rank> <dims>... <values>...   a named operand
    e <k> <dtype> <rank> <dims>... <values>...   result k (0, 1, ...: nonzero, split, meshgrid
                                                 and unravel_index give several); for put and
                                                 friends, the destination afterwards
    x <error>                                    the fusor exception expected instead
    m <text>                                     ... whose what() contains <text> (rest of line)
    end

Floats are written with float.hex() (exact) and compared exactly (every function here copies,
subtracts once per step, or interpolates with numpy.interp's own formula). Operand form `view`
means the C++ test passes transpose(a) and NumPy's answer is for a.T; `expr` means an
expression of the same values (cast<T>(a)).

Error mapping (fusor's exception for NumPy's): ValueError is value_error, except shapes that do
not broadcast (choose, ravel_multi_index), which fusor reports as broadcast_error; AxisError is
axis_error, and so is the IndexError "tuple index out of range" of split on a 0-d array;
IndexError is index_error; TypeError of tril/triu on a 0-d array (tri() without N) is
value_error; split's ZeroDivisionError (0 sections) is value_error.

Usage: toolbox_reference.py <output file> [seed]
"""
import os
import sys
import warnings

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from numpy_cases import arr_line, draws, tok  # noqa: E402 (tests/numpy_cases.py)

warnings.simplefilter("ignore")  # nonzero of 0-d arrays is deprecated in 1.24; it still works

OUT = sys.argv[1]
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 20241203
rng = np.random.default_rng(SEED)
irand, pick, chance = draws(rng)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
# Index arrays: every dtype NumPy casts to intp under its 'safe' rule that fusor accepts (the
# C++ test dispatches exactly these).
INDEX_DTYPES = ["int64", "int32", "int16", "int8", "uint8", "uint16", "uint32"]
# Mixed pairs for concatenate's std::tuple form (no 0-d parts: 1.24 promotes those by value).
MIXED = [("int8", "uint8"), ("int32", "float32"), ("bool", "int32"), ("uint64", "int64"),
         ("float32", "float64"), ("uint16", "int8")]

lines = []
count = {}


# ---- shapes and values ----------------------------------------------------------------------------

def extent(lo=0):
    if lo == 0 and chance(0.07):
        return 0
    return irand(max(lo, 1), 4)


def rand_shape(min_rank=0, max_rank=4, max_size=64, lo=0):
    for _ in range(100):
        r = irand(min_rank, max_rank)
        s = tuple(extent(lo) for _ in range(r))
        if int(np.prod(s, dtype=np.int64)) <= max_size:
            return s
    return tuple([1] * min_rank)


def rand_values(dtype, shape, zeros=0.0):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        v = rng.random(n) < rng.uniform(0.2, 0.8)
    elif dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        if chance(0.2):
            v = rng.integers(int(info.min), int(info.max), n, dtype=dtype, endpoint=True)
        elif info.min < 0:
            v = rng.integers(-9, 10, n).astype(dtype)
        else:
            v = rng.integers(0, 20, n).astype(dtype)
    else:
        v = (rng.integers(-64, 65, n) / 8.0).astype(dtype)
        if chance(0.3):
            v = (rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3)).astype(dtype)
        if n and chance(0.2):  # NaN, infinities and negative zero
            for j in rng.integers(0, n, irand(1, 3)):
                v[j] = pick([np.nan, np.inf, -np.inf, -0.0])
    v = np.asarray(v, dtype=dtype)
    if zeros > 0 and n:
        v[rng.random(n) < zeros] = 0
    return v.reshape(shape)


def index_values(dtype, shape, lo, hi):
    """Integers in [lo, hi) of index dtype `dtype` (lo clipped to what it holds)."""
    info = np.iinfo(dtype) if dtype != "bool" else None
    if info is not None:
        lo = max(lo, int(info.min))
        hi = min(hi, int(info.max) + 1)
    n = int(np.prod(shape, dtype=np.int64))
    if hi <= lo:
        return np.zeros(shape, dtype=dtype)
    return rng.integers(lo, hi, n).astype(dtype).reshape(shape)


def compact(shape):
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def spaced(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


# ---- cases ------------------------------------------------------------------------------------------

class Case:
    def __init__(self, func):
        count[func] = count.get(func, 0) + 1
        self.func = func
        self.rows = [f"case {func} {count[func]}"]

    def p(self, name, *tokens):
        self.rows.append(" ".join(["p", name] + [str(t) for t in tokens]))
        return self

    def a(self, name, arr):
        self.rows.append(arr_line("a", name, arr))
        return self

    def result(self, *outs):
        for k, r in enumerate(outs):
            self.rows.append(arr_line("e", k, np.asarray(r)))
        self.end()

    def error(self, name, needles):
        self.rows.append("x " + name)
        for n in needles:
            self.rows.append("m " + n)
        self.end()

    def end(self):
        self.rows.append("end")
        lines.extend(self.rows)


def expect_error(c, call, error, shared=(), fusor_only=(), numpy_types=(ValueError,)):
    """NumPy must raise one of numpy_types from call(), its message holding every `shared`
    needle; the case expects `error` with the shared and the fusor-only needles."""
    try:
        call()
    except numpy_types as e:
        msg = str(e)
        for n in shared:
            assert n in msg, (c.rows[0], n, msg)
    else:
        raise AssertionError(f"NumPy did not raise: {c.rows}"[:3000])
    c.error(error, list(shared) + list(fusor_only))


FORMS = ["tensor", "tensor", "view", "expr"]


def with_form(c, a, form=None):
    """Writes operand x and its form; returns the array NumPy works on."""
    form = form or pick(FORMS)
    c.p("form", form)
    c.a("x", a)
    return a.T if form == "view" else a


def axis_token(axis):
    return "none" if axis is None else str(axis)


def rand_axis(rank):
    """An axis in [-rank, rank), as often negative as not."""
    a = irand(0, rank - 1)
    return a - rank if chance(0.5) else a


# ---- views and lazy expressions ------------------------------------------------------------------

def unary_view_case(func, dt, min_rank):
    c = Case(func)
    a = rand_values(dt, rand_shape(min_rank))
    x = with_form(c, a)
    c.result(getattr(np, func)(x))


def rot90_case(dt):
    c = Case("rot90")
    a = rand_values(dt, rand_shape(2))
    x = with_form(c, a)
    r = x.ndim
    while True:
        a0, a1 = rand_axis(r), rand_axis(r)
        if a0 != a1 and abs(a0 - a1) != r:
            break
    k = irand(-5, 5)
    c.p("k", k).p("axes", a0, a1)
    c.result(np.rot90(x, k, (a0, a1)))


def ravel_like_case(func, dt):
    c = Case(func)
    a = rand_values(dt, rand_shape(0))
    x = with_form(c, a)
    if func == "ravel":
        c.result(np.ravel(x))
    elif func == "flatten":
        c.result(x.flatten())
    else:
        c.result(getattr(np, func)(x))


def diff_case(dt):
    c = Case("diff")
    a = rand_values(dt, rand_shape(1))
    x = with_form(c, a)
    axis = rand_axis(x.ndim)
    n = pick([0, 1, 1, 1, 2, 2, 3, 5])
    c.p("n", n).p("axis", axis)
    c.result(np.diff(x, n, axis))


def diff_edges_case(dt):
    c = Case("diff_edges")
    a = rand_values(dt, rand_shape(1))
    c.a("x", a)
    axis = rand_axis(a.ndim)
    n = pick([1, 1, 2, 3])  # n = 0: NumPy returns x untouched, fusor x converted (see diff)
    c.p("n", n).p("axis", axis)
    kw = {}
    for edge in ("prepend", "append"):
        kind = pick(["none", "array", "array", "int", "float"])
        if kind == "none":
            c.p(edge, "none")
            continue
        if kind == "array":
            s = list(a.shape)
            s[axis] = irand(0, 2)
            v = rand_values(dt, tuple(s)) if chance(0.8) else rand_values(dt, ())
            c.p(edge, "array")
            c.a(edge, v)
        elif kind == "int":
            v = irand(-3, 3) if not dt.startswith("uint") else irand(0, 3)
            c.p(edge, "int", v)
        else:
            v = irand(-12, 12) / 4.0
            c.p(edge, "float", float(v).hex())
        kw[edge] = v
    c.result(np.diff(a, n, axis, **kw))


def tri_case(func, dt):
    c = Case(func)
    a = rand_values(dt, rand_shape(1))
    x = with_form(c, a)
    k = irand(-3, 3)
    c.p("k", k)
    c.result(getattr(np, func)(x, k))


def meshgrid_case(dt):
    c = Case("meshgrid")
    n = pick([1, 2, 2, 2, 3])
    xs = [rand_values(dt, rand_shape(0, 2, max_size=5)) for _ in range(n)]
    for k, x in enumerate(xs):
        c.a(k, x)
    ix = pick(["xy", "ij", "default"])
    c.p("indexing", ix)
    c.result(*np.meshgrid(*xs, indexing="xy" if ix == "default" else ix))


def indices_case():
    c = Case("indices")
    s = rand_shape(0, 4)
    c.p("shape", *s)
    c.result(np.indices(s))


# ---- masks ----------------------------------------------------------------------------------------

def nonzero_case(func, dt):
    c = Case(func)
    a = rand_values(dt, rand_shape(0), zeros=rng.uniform(0, 0.8))
    if func in ("nonzero", "where1"):
        x = with_form(c, a)
        c.result(*np.nonzero(x))
    else:
        c.a("x", a)
        c.result(getattr(np, func)(a))


def condition_dtype(dt):
    return pick(["bool", "bool", dt])


def compress_case(dt):
    c = Case("compress")
    a = rand_values(dt, rand_shape(0))
    axis = None if (a.ndim == 0 or chance(0.25)) else rand_axis(a.ndim)
    n = a.size if axis is None else a.shape[axis]
    length = irand(0, n + 2)
    cond = rand_values(condition_dtype(dt), (length,), zeros=0.3)
    cond[n:] = 0  # past the axis: false (a true one there is an error case)
    c.a("condition", cond).a("x", a).p("axis", axis_token(axis))
    c.result(np.compress(cond, a, axis))


def extract_case(dt):
    c = Case("extract")
    a = rand_values(dt, rand_shape(0))
    cs = a.shape if chance(0.6) else rand_shape(0, 2, max_size=a.size + 2)
    cond = rand_values(condition_dtype(dt), cs, zeros=0.3)
    flat = cond.reshape(-1)
    flat[a.size:] = 0
    c.a("condition", cond).a("x", a)
    c.result(np.extract(cond, a))


def put_values(dt, size):
    return rand_values(dt, pick([(), (irand(1, 5),), (irand(1, 3), 2)]))


def putmask_case(dt, func):
    c = Case(func)
    a = rand_values(dt, rand_shape(0))
    ms = a.shape if chance(0.8) or a.ndim == 0 else (a.size,)
    mask = rand_values(condition_dtype(dt), ms, zeros=0.4)
    v = put_values(dt, a.size)
    c.a("x", a).a("mask", mask).a("values", v)
    out = a.copy()
    getattr(np, func)(out, mask, v)
    c.result(out)


# ---- index arrays ---------------------------------------------------------------------------------

def take_case(dt):
    c = Case("take")
    a = rand_values(dt, rand_shape(0))
    x = with_form(c, a)
    # Views and expressions with int64 indices only (the C++ test instantiates the index dtypes
    # with tensors: the index path does not depend on the operand's form).
    idt = pick(INDEX_DTYPES) if c.rows[1] == "p form tensor" else "int64"
    axis = None if chance(0.3) or x.ndim == 0 else rand_axis(x.ndim)
    n = x.size if axis is None else x.shape[axis]
    scalar = chance(0.15)
    ishape = () if scalar else rand_shape(0, 2, max_size=6)
    lo = -n if not idt.startswith("uint") else 0
    idx = index_values(idt, ishape, lo, n) if n > 0 else np.zeros((0,), idt)
    c.a("indices", idx).p("axis", axis_token(axis)).p("scalar", int(scalar and idx.ndim == 0))
    c.result(np.take(x, idx, axis))


def take_along_case(dt):
    c = Case("take_along_axis")
    flat = chance(0.2)
    a = rand_values(dt, rand_shape(1, lo=1) if not flat else rand_shape(0))
    c.a("x", a)
    idt = pick(INDEX_DTYPES)
    if flat:
        n = a.size
        ishape = (irand(0, 5),) if n > 0 else (0,)
        c.p("axis", "none")
        lo = -n if not idt.startswith("uint") else 0
        idx = index_values(idt, ishape, lo, n)
        c.a("indices", idx)
        c.result(np.take_along_axis(a, idx, None))
        return
    axis = rand_axis(a.ndim)
    ishape = [pick([d, d, 1]) for d in a.shape]
    ishape[axis] = irand(0, 4)
    n = a.shape[axis]
    lo = -n if not idt.startswith("uint") else 0
    idx = index_values(idt, tuple(ishape), lo, n)
    c.a("indices", idx).p("axis", axis)
    c.result(np.take_along_axis(a, idx, axis))


def put_case(dt):
    c = Case("put")
    a = rand_values(dt, rand_shape(0))
    idt = pick(INDEX_DTYPES)
    n = a.size
    lo = -n if not idt.startswith("uint") else 0
    idx = index_values(idt, rand_shape(0, 2, max_size=6), lo, n) if n else np.zeros(0, idt)
    v = put_values(dt, n)
    c.a("x", a).a("indices", idx).a("values", v)
    out = a.copy()
    np.put(out, idx, v)
    c.result(out)


def put_along_case(dt):
    c = Case("put_along_axis")
    a = rand_values(dt, rand_shape(1, lo=1))
    idt = pick(INDEX_DTYPES)
    axis = rand_axis(a.ndim)
    ishape = [pick([d, d, 1]) for d in a.shape]
    ishape[axis] = irand(1, 3)
    n = a.shape[axis]
    lo = -n if not idt.startswith("uint") else 0
    idx = index_values(idt, tuple(ishape), lo, n)
    out_shape = [max(d, i) if d == 1 or i == 1 else d for d, i in zip(a.shape, ishape)]
    out_shape[axis] = ishape[axis]
    vshape = [pick([d, 1]) for d in out_shape]
    if chance(0.3):
        vshape = []
    v = rand_values(dt, tuple(vshape))
    c.a("x", a).a("indices", idx).a("values", v).p("axis", axis)
    out = a.copy()
    np.put_along_axis(out, idx, v, axis)
    c.result(out)


def choose_case(dt):
    c = Case("choose")
    n = irand(1, 4)
    base = rand_shape(0, 3, max_size=24)
    def stretch(s):
        s = [d if not chance(0.3) else 1 for d in s]
        drop = irand(0, len(s)) if chance(0.3) else 0
        return tuple(s[drop:])
    idt = pick(INDEX_DTYPES)
    idx = index_values(idt, stretch(base), 0, n)
    choices = [rand_values(dt, stretch(base)) for _ in range(n)]
    c.a("index", idx)
    for k, ch in enumerate(choices):
        c.a(f"c{k}", ch)
    c.p("form", pick(["list", "vector"]))
    c.result(np.choose(idx, choices))


def unravel_case():
    c = Case("unravel_index")
    shape = rand_shape(0, 4, lo=1)
    size = int(np.prod(shape, dtype=np.int64))
    idt = pick(["int64", "int32", "uint8", "int16"])
    scalar = chance(0.2)
    ishape = () if scalar or not shape else rand_shape(0, 2, max_size=6)
    idx = index_values(idt, ishape, 0, size)
    c.a("indices", idx).p("shape", *shape).p("scalar", int(scalar))
    c.result(*np.unravel_index(idx, shape))


def ravel_multi_case():
    c = Case("ravel_multi_index")
    dims = rand_shape(1, 4, lo=1)
    base = rand_shape(0, 2, max_size=6)
    idt = pick(["int64", "int32"])
    arrays = []
    for k, d in enumerate(dims):
        s = tuple(b if not chance(0.3) else 1 for b in base)
        arr = index_values(idt, s, 0, d)
        arrays.append(arr)
        c.a(f"m{k}", arr)
    c.p("dims", *dims).p("form", pick(["list", "vector"]) if idt == "int64" else "vector")
    c.result(np.ravel_multi_index(tuple(arrays), dims))


def ndindex_case():
    c = Case("ndindex")
    s = rand_shape(0, 4, max_size=30)
    c.p("shape", *s)
    got = list(np.ndindex(*s))
    c.result(np.array(got, dtype=np.int64).reshape(len(got), len(s)))


def interp_case(dt):
    c = Case("interp")
    numeric = dt != "bool"
    same = numeric and chance(0.4)
    n = irand(1, 6)
    periodic = chance(0.2)
    if same:
        info = np.iinfo(dt) if dt.startswith(("int", "uint")) else None
        lo = 0 if dt.startswith("uint") else -20
        hi = 40
        xp = np.sort(rng.choice(np.arange(lo, hi), n, replace=False)).astype(dt)
        fp = rand_values(dt, (n,))
        x = rand_values(dt, rand_shape(0, 3, max_size=24))
        if info is not None:
            x = index_values(dt, x.shape, lo - 3, hi + 3)
    else:
        xp = np.sort(rng.choice(np.arange(-40, 40), n, replace=False) / 4.0)
        fp = rng.integers(-64, 65, n) / 8.0
        if chance(0.1):
            fp[irand(0, n - 1)] = pick([np.inf, -np.inf, np.nan])
        x = rand_values(dt, rand_shape(0, 3, max_size=24))
        if numeric and not dt.startswith(("int", "uint")):
            x = (rng.integers(-48, 49, x.size) / 4.0).astype(dt).reshape(x.shape)
            if x.size and chance(0.3):
                x.reshape(-1)[0] = pick([np.nan, np.inf, -np.inf])
    if periodic:
        xp = np.unique(xp.astype(np.float64) % 13.0)  # distinct modulo the period
        fp = rng.integers(-64, 65, len(xp)) / 8.0
        if same:
            xp = xp.astype(np.float64)
    scalar = chance(0.1)
    if scalar:  # the C++ test passes x.item(), a number of x's type
        x = x.reshape(-1)[:1].reshape(()) if x.size else rand_values(dt, ())
    c.a("x", x).a("xp", xp).a("fp", fp).p("scalar", int(scalar))
    kw = {}
    for edge in ("left", "right"):
        if chance(0.3):
            kw[edge] = pick([-100.5, 7.0, np.nan])
            c.p(edge, float(kw[edge]).hex())
        else:
            c.p(edge, "none")
    if periodic:
        kw["period"] = pick([13.0, -13.0])
        c.p("period", float(kw["period"]).hex())
    else:
        c.p("period", "none")
    c.result(np.interp(x, xp, fp, **kw))


# ---- joining and splitting ------------------------------------------------------------------------

def parts_for(func, dt):
    """Random parts that join: shapes that agree off the axis (after the func's adjustment)."""
    n = irand(1, 4)
    if func == "stack":
        s = rand_shape(0, 3, max_size=16)
        return [rand_values(dt, s) for _ in range(n)], rand_axis(len(s) + 1)
    if func == "concatenate":
        if chance(0.2):
            return [rand_values(dt, rand_shape(0, 3, max_size=12)) for _ in range(n)], None
        s = list(rand_shape(1, 3, max_size=16))
        axis = rand_axis(len(s))
        parts = []
        for _ in range(n):
            t = list(s)
            t[axis] = irand(0, 3)
            parts.append(rand_values(dt, tuple(t)))
        return parts, axis
    if func == "hstack":
        if chance(0.4):  # 0-d and 1-d: joined on axis 0
            return [rand_values(dt, pick([(), (irand(0, 3),)])) for _ in range(n)], None
        s = list(rand_shape(2, 3, max_size=16))
        out = []
        for _ in range(n):
            t = list(s)
            t[1] = irand(0, 3)
            out.append(rand_values(dt, tuple(t)))
        return out, None
    if func == "vstack":
        r = pick([0, 1, 1, 2, 2, 3])
        s = list(rand_shape(r, r, max_size=16))
        out = []
        for _ in range(n):
            if r <= 1:
                out.append(rand_values(dt, tuple(s) if r == 1 else ()))
            else:
                t = list(s)
                t[0] = irand(0, 3)
                out.append(rand_values(dt, tuple(t)))
        if r == 1 and chance(0.3):  # (k,) parts with (m, k) parts
            out.append(rand_values(dt, (irand(0, 3), s[0])))
        return out, None
    if func == "dstack":
        r = pick([0, 1, 2, 2, 3])
        s = list(rand_shape(r, r, max_size=16))
        out = []
        for _ in range(n):
            if r <= 2:
                out.append(rand_values(dt, tuple(s)))
            else:
                t = list(s)
                t[2] = irand(0, 3)
                out.append(rand_values(dt, tuple(t)))
        return out, None
    # column_stack: 1-d parts of length m and (m, k...) parts
    m = extent()
    out = []
    for _ in range(n):
        kind = pick(["1d", "2d", "3d"])
        if kind == "1d":
            out.append(rand_values(dt, (m,)))
        elif kind == "2d":
            out.append(rand_values(dt, (m, irand(0, 3))))
        else:
            out.append(rand_values(dt, (m, irand(0, 2), 2)))
    if all(p.ndim != 3 for p in out) or all(p.ndim == 3 for p in out):
        return out, None
    return [p for p in out if p.ndim != 3] or [rand_values(dt, (m,))], None


def join_case(func, dt):
    c = Case(func)
    parts, axis = parts_for(func, dt)
    for k, p in enumerate(parts):
        c.a(k, p)
    c.p("form", pick(["list", "vector"]) if len(parts) <= 3 else "vector")
    if func in ("concatenate", "stack"):
        c.p("axis", axis_token(axis))
        c.result(getattr(np, func)(parts, axis=axis))
    else:
        c.result(getattr(np, func)(parts))


def mixed_concatenate_case(da, db):
    c = Case("concatenate")
    s = list(rand_shape(1, 3, max_size=12))
    axis = None if chance(0.2) else rand_axis(len(s))
    parts = []
    for dt in (da, db):
        t = list(s)
        if axis is not None:
            t[axis] = irand(0, 3)
        parts.append(rand_values(dt, tuple(t)))
    for k, p in enumerate(parts):
        c.a(k, p)
    c.p("form", "tuple").p("axis", axis_token(axis))
    c.result(np.concatenate(parts, axis=axis))


def split_case(func, dt):
    c = Case(func)
    min_rank = {"hsplit": 1, "vsplit": 2, "dsplit": 3}.get(func, 1)
    a = rand_values(dt, rand_shape(min_rank))
    axis = {"hsplit": 1 if a.ndim > 1 else 0, "vsplit": 0, "dsplit": 2}.get(func)
    if func in ("split", "array_split"):
        x = with_form(c, a)
        axis = rand_axis(x.ndim)
    else:
        c.a("x", a)
        x = a
    n = x.shape[axis]
    if chance(0.5):
        if func == "array_split":
            k = irand(1, 5)
        else:
            divisors = [d for d in range(1, max(n, 1) + 1) if n % d == 0] if n else [1, 2, 3]
            k = pick(divisors)
        c.p("sections", k)
        spec = k
    else:
        spec = [irand(-n - 1, n + 1) for _ in range(irand(0, 3))]
        if chance(0.5):
            spec.sort()
        c.p("indices", *spec)
    if func in ("split", "array_split"):
        c.p("axis", axis)
        c.result(*getattr(np, func)(x, spec, axis))
    else:
        c.result(*getattr(np, func)(x, spec))


# ---- advanced indexing through view(...) -----------------------------------------------------------
# `view(x, idx...)` with masks and index arrays (algo/advanced_indexing.hpp). A case names its
# index list as a pattern of kinds, one letter each (the C++ test has one call per pattern):
# m a mask, a an index array, s a slice, i an integer, A all, n newaxis, d an ellipsis; and the
# list itself as tokens: m<k> / a<k> (operands m<k> / i<k>), s:<start>:<stop>:<step> (n for
# None), i:<int>, all, new, dots. `iform` is the form of the first index operand (tensor, view:
# the transpose of the array written, expr: an expression of the same values). view_read reads
# the selection, view_write assigns `values` (or the scalar `scalar`) to it, view_iadd adds
# `values` to it; for both the result is the destination afterwards (`form` view: the transpose
# of the array written is indexed, as NumPy's a.T[idx] = v).

VIEW_PATTERNS = ["m", "a", "aa", "sa", "as", "asa", "ia", "aAi", "na", "da", "ad", "sm", "ma",
                 "md", "aia"]
WRITE_PATTERNS = ["m", "a", "aa", "sa", "asa", "ia", "sm", "da", "md"]


def slice_token(sl):
    t = lambda v: "n" if v is None else str(v)
    return f"s:{t(sl.start)}:{t(sl.stop)}:{t(sl.step)}"


def rand_slice(n):
    start = None if chance(0.4) else irand(-n - 1, n + 1)
    stop = None if chance(0.4) else irand(-n - 1, n + 1)
    step = pick([None, None, 1, 2, -1, -2, 3])
    return slice(start, stop, step)


def sub_shape(b):
    """A shape that broadcasts to b: leading axes dropped, some extents 1."""
    s = list(b[irand(0, len(b)):]) if b and chance(0.3) else list(b)
    return tuple(1 if (d and chance(0.25)) else d for d in s)


def index_layout(pattern, lead_mask_rank):
    """How many operand axes the pattern's items consume, and the mask's rank."""
    return sum(1 for k in pattern if k in "asiA") + (lead_mask_rank if "m" in pattern else 0)


def draw_view_index(pattern, dt_idx, xshape_for):
    """Draws the operand shape (through xshape_for) and the index list: (tokens, operands,
    numpy index tuple)."""
    r_extra = irand(0, 1)
    k = 0
    if "m" in pattern:
        k = irand(0, 2) if pattern == "m" else irand(1, 2)
    consumed = index_layout(pattern, k)
    rank = min(consumed + r_extra, 4) if "d" in pattern or chance(0.6) else consumed
    rank = max(rank, consumed)
    shape = []
    # Axes an integer or array indexes get an extent >= 1 (an empty axis has no valid index).
    kinds = []
    for ch in pattern:
        if ch == "m":
            kinds += ["m"] * k
        elif ch in "asiA":
            kinds.append(ch)
    if "d" in pattern:
        pos = pattern.index("d")
        before = sum(1 for ch in pattern[:pos] if ch in "asiA") + (k if "m" in pattern[:pos] else 0)
        kinds = kinds[:before] + ["A"] * (rank - consumed) + kinds[before:]
    else:
        kinds += ["A"] * (rank - consumed)
    for kind in kinds:
        shape.append(irand(1, 4) if kind in "ai" else extent())
    while int(np.prod(shape, dtype=np.int64)) > 96:
        shape[shape.index(max(shape))] -= 1
    X = xshape_for(tuple(shape))
    b = tuple(irand(1, 3) if not chance(0.08) else 0 for _ in range(irand(0, 2)))
    tokens, operands, index = [], [], []
    axis, n_arrays, first_operand = 0, 0, None
    for ch in pattern:
        if ch == "m":
            m = rng.random(X.shape[axis:axis + k]) < rng.uniform(0.2, 0.8)
            m = np.asarray(m, dtype=bool)
            tokens.append("m0")
            operands.append(("m0", m))
            index.append(m)
            axis += k
        elif ch == "a":
            n = X.shape[axis]
            ishape = sub_shape(b)
            lo = -n if not dt_idx.startswith("uint") else 0
            arr = index_values(dt_idx, ishape, lo, n)
            name = f"i{n_arrays}"
            n_arrays += 1
            tokens.append(f"a{name[1:]}")
            operands.append((name, arr))
            index.append(arr)
            axis += 1
        elif ch == "s":
            sl = rand_slice(X.shape[axis])
            tokens.append(slice_token(sl))
            index.append(sl)
            axis += 1
        elif ch == "i":
            n = X.shape[axis]
            v = irand(-n, n - 1)
            tokens.append(f"i:{v}")
            index.append(v)
            axis += 1
        elif ch == "A":
            tokens.append("all")
            index.append(slice(None))
            axis += 1
        elif ch == "n":
            tokens.append("new")
            index.append(None)
        elif ch == "d":
            tokens.append("dots")
            index.append(Ellipsis)
            axis = X.ndim - (consumed - axis)
    return X, tokens, operands, tuple(index)


def index_operand_form(pattern):
    return pick(["tensor", "tensor", "view", "expr"]) if pattern in ("m", "a") else "tensor"


def write_index(c, pattern, tokens, operands, iform, dt_idx):
    c.p("pattern", pattern).p("idx", *tokens).p("iform", iform)
    for name, arr in operands:
        # iform view: the C++ test passes transpose(written), so write the transpose.
        first = name in ("m0", "i0")
        c.a(name, arr.T if (first and iform == "view") else arr)


def view_read_case(dt, pattern):
    for _ in range(50):
        c = Case("view_read")
        count["view_read"] -= 1
        form = pick(FORMS)
        dt_idx = pick(INDEX_DTYPES + ["uint64"]) if pattern == "a" and form == "tensor" else "int64"
        holder = {}

        def xshape_for(shape):
            a = rand_values(dt, shape[::-1] if form == "view" else shape)
            holder["a"] = a
            return a.T if form == "view" else a
        X, tokens, operands, index = draw_view_index(pattern, dt_idx, xshape_for)
        try:
            want = X[index]
        except IndexError:
            continue
        count["view_read"] += 1
        c.p("form", form).a("x", holder["a"])
        iform = index_operand_form(pattern) if dt_idx == "int64" else "tensor"
        write_index(c, pattern, tokens, operands, iform, dt_idx)
        c.result(want)
        return
    raise AssertionError("no valid index drawn for " + pattern)


def view_write_case(dt, pattern, func="view_write"):
    for _ in range(50):
        c = Case(func)
        count[func] -= 1
        form = pick(["tensor", "tensor", "view"])
        holder = {}

        def xshape_for(shape):
            a = rand_values(dt, shape[::-1] if form == "view" else shape)
            holder["a"] = a
            return a.T if form == "view" else a
        X, tokens, operands, index = draw_view_index(pattern, "int64", xshape_for)
        out = holder["a"].copy()
        target = out.T if form == "view" else out
        try:
            r = target[index]
        except IndexError:
            continue
        whole = pattern == "m" and operands[0][1].ndim == X.ndim
        if whole:
            vshape = pick([(), (1,), (r.size,), (r.size,)])
        else:
            vshape = pick([(), r.shape, r.shape, sub_shape(r.shape), (1,) + r.shape])
        scalar = func == "view_write" and vshape == () and chance(0.5)
        v = rand_values(dt, vshape)
        try:
            if func == "view_write":
                target[index] = v
            else:
                target[index] += v
        except (IndexError, ValueError):
            continue
        count[func] += 1
        c.p("form", form).a("x", holder["a"])
        write_index(c, pattern, tokens, operands, "tensor", "int64")
        if scalar:
            c.p("scalar", tok(v[()], dt))
        else:
            c.a("values", v)
        c.result(out)
        return
    raise AssertionError("no valid index drawn for " + pattern)


def view_error_cases():
    f = lambda s, dt="float64": np.arange(int(np.prod(s)), dtype=dt).reshape(s)
    i64 = lambda v: np.asarray(v, dtype=np.int64)
    b = lambda v: np.asarray(v, dtype=bool)

    def err(func, x, pattern, tokens, operands, call, error, words, numpy_types=(IndexError,),
            values=None):
        c = Case(func)
        c.p("form", "tensor").a("x", x)
        write_index(c, pattern, tokens, operands, "tensor", "int64")
        if values is not None:
            c.a("values", values)
        expect_error(c, call, error, words, (), numpy_types)

    def rd(x, pattern, tokens, operands, index, words, error="index_error", types=(IndexError,)):
        err("view_read", x, pattern, tokens, operands, lambda: x[index], error, words, types)

    def wr(x, pattern, tokens, operands, index, v, words, error="value_error",
           types=(ValueError,)):
        def call():
            y = x.copy()
            y[index] = v
        err("view_write", x, pattern, tokens, operands, call, error, words, types, v)

    x3, x6, x23 = f(3), f(6), f((2, 3))
    m2 = b([True, False])
    rd(x3, "m", ["m0"], [("m0", m2)], m2,
       ("boolean index did not match indexed array along dimension 0; dimension is 3 but "
        "corresponding boolean dimension is 2",))
    rd(x23, "sm", ["s:n:n:n", "m0"], [("m0", m2)], (slice(None), m2),
       ("boolean index did not match indexed array along dimension 1; dimension is 3 but "
        "corresponding boolean dimension is 2",))
    m22 = b([[True, False], [False, True]])
    rd(x23, "m", ["m0"], [("m0", m22)], m22,
       ("boolean index did not match indexed array along dimension 1; dimension is 3 but "
        "corresponding boolean dimension is 2",))
    rd(x3, "m", ["m0"], [("m0", b([[True] * 3] * 3))], b([[True] * 3] * 3),
       ("too many indices for array: array is 1-dimensional, but 2 were indexed",))
    rd(x3, "md", ["m0", "dots"], [("m0", b([[True] * 3] * 3))], (b([[True] * 3] * 3), Ellipsis),
       ("too many indices for array: array is 1-dimensional, but 2 were indexed",))
    rd(x23, "ma", ["m0", "a0"], [("m0", b([True, True])), ("i0", i64([0, 1, 2]))],
       (b([True, True]), i64([0, 1, 2])),
       ("shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)",))
    for idx, words in [([0, 7], "index 7 is out of bounds for axis 0 with size 6"),
                       ([-7], "index -7 is out of bounds for axis 0 with size 6"),
                       ([[1], [6]], "index 6 is out of bounds for axis 0 with size 6")]:
        rd(x6, "a", ["a0"], [("i0", i64(idx))], i64(idx), (words,))
    rd(x23, "sa", ["s:n:n:n", "a0"], [("i0", i64([3]))], (slice(None), i64([3])),
       ("index 3 is out of bounds for axis 1 with size 3",))
    rd(x23, "ia", ["i:2", "a0"], [("i0", i64([0]))], (2, i64([0])),
       ("index 2 is out of bounds for axis 0 with size 2",))
    rd(x23, "ia", ["i:-3", "a0"], [("i0", i64([0]))], (-3, i64([0])),
       ("index -3 is out of bounds for axis 0 with size 2",))
    rd(x23, "aa", ["a0", "a1"], [("i0", i64([0, 1])), ("i1", i64([0, 1, 2]))],
       (i64([0, 1]), i64([0, 1, 2])),
       ("shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)",))
    rd(x23, "aia", ["a0", "i:0", "a1"], [("i0", i64([0])), ("i1", i64([0]))],
       (i64([0]), 0, i64([0])),
       ("too many indices for array: array is 2-dimensional, but 3 were indexed",))
    rd(x3, "aa", ["a0", "a1"], [("i0", i64([0])), ("i1", i64([0]))], (i64([0]), i64([0])),
       ("too many indices for array: array is 1-dimensional, but 2 were indexed",))
    rd(f(()), "a", ["a0"], [("i0", i64([0]))], i64([0]),
       ("too many indices for array: array is 0-dimensional, but 1 were indexed",))
    rd(x23, "as", ["a0", "s:n:n:0"], [("i0", i64([0]))], (i64([0]), slice(None, None, 0)),
       ("slice step cannot be zero",), "value_error", (ValueError,))
    # writes: the value must fit the selection
    m3 = b([True, False, True])
    wr(x3, "m", ["m0"], [("m0", m3)], m3, f(3),
       ("NumPy boolean array indexing assignment cannot assign 3 input values to the 2 output "
        "values where the mask is true",))
    wr(x23, "m", ["m0"], [("m0", x23 > 1)], x23 > 1, f((2, 2)),
       ("NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has "
        "2 dimensions",), types=(TypeError,))
    wr(x23, "m", ["m0"], [("m0", m2)], m2, f(2),
       ("shape mismatch: value array of shape (2,) could not be broadcast to indexing result of "
        "shape (1,3)",))
    wr(x6, "a", ["a0"], [("i0", i64([0, 1, 1]))], i64([0, 1, 1]), f(2),
       ("shape mismatch: value array of shape (2,) could not be broadcast to indexing result of "
        "shape (3,)",))
    wr(x23, "sa", ["s:n:n:n", "a0"], [("i0", i64([0, 2]))], (slice(None), i64([0, 2])), f((3, 2)),
       ("shape mismatch: value array of shape (3,2) could not be broadcast to indexing result of "
        "shape (2,2)",))
    wr(x6, "a", ["a0"], [("i0", i64([0, 1, 6]))], i64([0, 1, 6]), f(3),
       ("index 6 is out of bounds for axis 0 with size 6",), "index_error", (IndexError,))
    wr(x23, "aa", ["a0", "a1"], [("i0", i64([1, 0])), ("i1", i64([0, -4]))],
       (i64([1, 0]), i64([0, -4])), f(()),
       ("index -4 is out of bounds for axis 1 with size 3",), "index_error", (IndexError,))


# ---- errors ---------------------------------------------------------------------------------------

def error_cases():
    f = lambda s, dt="float64": np.ones(s, dtype=dt)
    i64 = lambda v: np.asarray(v, dtype=np.int64)

    def err(func, operands, params, call, error, shared=(), fusor_only=(),
            numpy_types=(ValueError,)):
        c = Case(func)
        for name, *tokens in params:
            c.p(name, *tokens)
        for name, arr in operands:
            c.a(name, arr)
        expect_error(c, call, error, shared, fusor_only, numpy_types)

    x2 = f((2, 3))
    # views
    err("flipud", [("x", f(()))], [("form", "tensor")], lambda: np.flipud(f(())), "value_error",
        ("Input must be >= 1-d",))
    err("fliplr", [("x", f(3))], [("form", "tensor")], lambda: np.fliplr(f(3)), "value_error",
        ("Input must be >= 2-d",))
    err("fliplr", [("x", f(()))], [("form", "expr")], lambda: np.fliplr(f(())), "value_error",
        ("Input must be >= 2-d",))
    for axes, words in [((0, 0), "Axes must be different"), ((1, -1), "Axes must be different"),
                        ((0, 2), "Axes must be different"), ((0, 3), "out of range"),
                        ((-3, 1), "out of range"), ((0, 1, 2), "len(axes) must be 2")]:
        err("rot90", [("x", x2)], [("form", "tensor"), ("k", 1), ("axes", *axes)],
            lambda: np.rot90(x2, 1, axes), "value_error", (words,))
    err("rot90", [("x", f(3))], [("form", "view"), ("k", 1), ("axes", 0, 1)],
        lambda: np.rot90(f(3)), "value_error", ("Axes must be different",))
    err("diff", [("x", f(()))], [("form", "tensor"), ("n", 1), ("axis", -1)],
        lambda: np.diff(f(())), "value_error", ("at least one dimensional",))
    err("diff", [("x", x2)], [("form", "tensor"), ("n", -1), ("axis", -1)],
        lambda: np.diff(x2, -1), "value_error", ("order must be non-negative but got -1",))
    err("diff", [("x", x2)], [("form", "expr"), ("n", 1), ("axis", 2)],
        lambda: np.diff(x2, 1, 2), "axis_error", ("axis 2 is out of bounds",),
        numpy_types=(np.AxisError,))
    err("diff", [("x", x2)], [("form", "tensor"), ("n", 1), ("axis", -3)],
        lambda: np.diff(x2, 1, -3), "axis_error", ("axis -3 is out of bounds",),
        numpy_types=(np.AxisError,))
    p = f((2, 2))
    err("diff_edges", [("x", x2), ("prepend", p)],
        [("n", 1), ("axis", 0), ("prepend", "array"), ("append", "none")],
        lambda: np.diff(x2, 1, 0, prepend=p), "value_error",
        ("must match exactly", "along dimension 1"), ("(2, 2)", "(2, 3)"))
    for func in ("tril", "triu"):
        err(func, [("x", f(()))], [("form", "tensor"), ("k", 0)],
            lambda: getattr(np, func)(f(())), "value_error", (), ("at least 1 dimension",),
            numpy_types=(TypeError,))
    err("indices", [], [("shape", 2, -1)], lambda: np.indices((2, -1)), "value_error",
        ("negative dimensions are not allowed",))
    # masks
    err("compress", [("condition", np.ones((1, 2), bool)), ("x", f(3))], [("axis", "none")],
        lambda: np.compress(np.ones((1, 2), bool), f(3)), "value_error",
        ("condition must be a 1-d array",))
    err("compress", [("condition", np.ones((), bool)), ("x", f(3))], [("axis", 0)],
        lambda: np.compress(np.ones((), bool), f(3), 0), "value_error",
        ("condition must be a 1-d array",))
    c4 = np.array([1, 0, 1, 1], bool)
    err("compress", [("condition", c4), ("x", f(3))], [("axis", 0)],
        lambda: np.compress(c4, f(3), 0), "index_error",
        ("index 3 is out of bounds for axis 0 with size 3",), numpy_types=(IndexError,))
    err("compress", [("condition", c4), ("x", x2)], [("axis", -1)],
        lambda: np.compress(c4, x2, -1), "index_error",
        ("index 3 is out of bounds for axis 1 with size 3",), numpy_types=(IndexError,))
    err("compress", [("condition", c4), ("x", x2)], [("axis", 2)],
        lambda: np.compress(c4, x2, 2), "axis_error", ("axis 2 is out of bounds",),
        numpy_types=(np.AxisError,))
    c7 = np.array([0, 0, 1, 0, 0, 0, 1], np.float64)
    err("extract", [("condition", c7), ("x", x2)], [],
        lambda: np.extract(c7, x2), "index_error",
        ("index 6 is out of bounds for axis 0 with size 6",), numpy_types=(IndexError,))
    for func, word in (("putmask", "putmask: mask and data must be the same size"),
                       ("place", "place: mask and data must be the same size")):
        m = np.ones(5, bool)
        err(func, [("x", x2), ("mask", m), ("values", f(2))], [],
            lambda: getattr(np, func)(x2.copy(), m, f(2)), "value_error", (word,))
    mt = x2 > 0
    err("place", [("x", x2), ("mask", mt), ("values", f(0))], [],
        lambda: np.place(x2.copy(), mt, f(0)), "value_error", ("Cannot insert from an empty array!",))
    # index arrays
    for idx, axis, words in [([7], "none", "index 7 is out of bounds for axis 0 with size 6"),
                             ([-7], "none", "index -7 is out of bounds for axis 0 with size 6"),
                             ([0, 3], 1, "index 3 is out of bounds for axis 1 with size 3"),
                             ([[-4]], -1, "index -4 is out of bounds for axis 1 with size 3"),
                             ([2], 0, "index 2 is out of bounds for axis 0 with size 2")]:
        ax = None if axis == "none" else axis
        err("take", [("x", x2), ("indices", i64(idx))],
            [("form", "tensor"), ("axis", axis), ("scalar", 0)],
            lambda: np.take(x2, i64(idx), ax), "index_error", (words,), numpy_types=(IndexError,))
    err("take", [("x", x2), ("indices", i64([0]))], [("form", "tensor"), ("axis", 2), ("scalar", 0)],
        lambda: np.take(x2, i64([0]), 2), "axis_error", ("axis 2 is out of bounds",),
        numpy_types=(np.AxisError,))
    e20 = f((2, 0))
    err("take", [("x", e20), ("indices", i64([0]))], [("form", "tensor"), ("axis", 1), ("scalar", 0)],
        lambda: np.take(e20, i64([0]), 1), "index_error",
        ("cannot do a non-empty take from an empty axes",), numpy_types=(IndexError,))
    ta = [(i64([[0], [2]]), 1, None, None),
          (i64([[5]]), 1, "index_error", "index 5 is out of bounds for axis 1 with size 3"),
          (i64([[0, 2], [1, 1], [0, 0]]), 1, "index_error", "shape mismatch"),
          (i64([0, 1]), 1, "value_error", "must have the same number of dimensions"),
          (i64([[0]]), 2, "axis_error", "axis 2 is out of bounds"),
          (i64([[0, 5]]), "none", "value_error", "must have the same number of dimensions"),
          (i64([0, 6]), "none", "index_error", "index 6 is out of bounds")]
    for idx, axis, error, words in ta:
        if error is None:
            continue
        ax = None if axis == "none" else axis
        types = {"index_error": (IndexError,), "axis_error": (np.AxisError,),
                 "value_error": (ValueError,)}[error]
        err("take_along_axis", [("x", x2), ("indices", idx)], [("axis", axis)],
            lambda: np.take_along_axis(x2, idx, ax), error, (words,), numpy_types=types)
    err("put", [("x", x2), ("indices", i64([0, 7])), ("values", f(1))], [],
        lambda: np.put(x2.copy(), i64([0, 7]), f(1)), "index_error",
        ("index 7 is out of bounds for axis 0 with size 6",), numpy_types=(IndexError,))
    err("put", [("x", x2), ("indices", i64([-7, 0])), ("values", f(2))], [],
        lambda: np.put(x2.copy(), i64([-7, 0]), f(2)), "index_error",
        ("index -7 is out of bounds for axis 0 with size 6",), numpy_types=(IndexError,))
    pa = [(i64([[0], [2]]), f(2), 1, "value_error",
           "value array of shape (2,) could not be broadcast to indexing result of shape (2,1)",
           ("(2,)", "(2, 1)")),
          (i64([[0, 3]]), f((1, 2)), 1, "index_error", "index 3 is out of bounds for axis 1 with size 3", ()),
          (i64([[0, 9]]), f((1, 3)), 1, "value_error", "could not be broadcast to indexing result", ()),
          (i64([[0, 2], [1, 1], [0, 0]]), f(()), 1, "index_error", "shape mismatch", ()),
          (i64([0, 1]), f(()), 0, "value_error", "must have the same number of dimensions", ()),
          (i64([[0]]), f(()), -3, "axis_error", "axis -3 is out of bounds", ())]
    for idx, v, axis, error, words, extra in pa:
        types = {"index_error": (IndexError,), "axis_error": (np.AxisError,),
                 "value_error": (ValueError,)}[error]
        shared = (words,) if "(2,1)" not in words else ("could not be broadcast to indexing result",)
        err("put_along_axis", [("x", x2), ("indices", idx), ("values", v)], [("axis", axis)],
            lambda: np.put_along_axis(x2.copy(), idx, v, axis), error, shared, extra,
            numpy_types=types)
    err("choose", [("index", i64([0, 1, 2])), ("c0", f(3)), ("c1", f(3))], [("form", "list")],
        lambda: np.choose(i64([0, 1, 2]), [f(3), f(3)]), "value_error",
        ("invalid entry in choice array",))
    err("choose", [("index", i64([[0], [-1]])), ("c0", f(3)), ("c1", f(3))], [("form", "vector")],
        lambda: np.choose(i64([[0], [-1]]), [f(3), f(3)]), "value_error",
        ("invalid entry in choice array",))
    err("choose", [("index", i64([0, 1])), ("c0", f(3)), ("c1", f(3))], [("form", "list")],
        lambda: np.choose(i64([0, 1]), [f(3), f(3)]), "broadcast_error", (),
        ("could not be broadcast", "(2,)", "(3,)"))
    err("unravel_index", [("indices", i64([5, 6]))], [("shape", 2, 3), ("scalar", 0)],
        lambda: np.unravel_index(i64([5, 6]), (2, 3)), "value_error",
        ("index 6 is out of bounds for array with size 6",))
    err("unravel_index", [("indices", i64(-1))], [("shape", 2, 3), ("scalar", 1)],
        lambda: np.unravel_index(-1, (2, 3)), "value_error",
        ("index -1 is out of bounds for array with size 6",))
    err("unravel_index", [("indices", i64(0))], [("shape", 2, 0), ("scalar", 0)],
        lambda: np.unravel_index(i64(0), (2, 0)), "value_error",
        ("index 0 is out of bounds for array with size 0",))
    err("unravel_index", [("indices", i64([0]))], [("shape",), ("scalar", 0)],
        lambda: np.unravel_index(i64([0]), ()), "value_error",
        ("multiple indices are not supported for 0d arrays",))
    err("ravel_multi_index", [("m0", i64([1, 0])), ("m1", i64([3, 1]))],
        [("dims", 2, 3), ("form", "list")],
        lambda: np.ravel_multi_index((i64([1, 0]), i64([3, 1])), (2, 3)), "value_error",
        ("invalid entry in coordinates array",))
    err("ravel_multi_index", [("m0", i64([1, 0])), ("m1", i64([-1, 1]))],
        [("dims", 2, 3), ("form", "vector")],
        lambda: np.ravel_multi_index((i64([1, 0]), i64([-1, 1])), (2, 3)), "value_error",
        ("invalid entry in coordinates array",))
    err("ravel_multi_index", [("m0", i64([1, 0]))], [("dims", 2, 3), ("form", "vector")],
        lambda: np.ravel_multi_index((i64([1, 0]),), (2, 3)), "value_error",
        ("parameter multi_index must be a sequence of length 2",))
    err("ravel_multi_index", [("m0", i64([1, 0])), ("m1", i64([1, 2, 0]))],
        [("dims", 2, 3), ("form", "list")],
        lambda: np.ravel_multi_index((i64([1, 0]), i64([1, 2, 0])), (2, 3)), "broadcast_error",
        ("(2,) (3,)",))
    err("ndindex", [], [("shape", 2, -1)], lambda: list(np.ndindex(2, -1)), "value_error",
        ("negative dimensions are not allowed",))
    xp, fp = f(3), f(3)
    for kw, words in [({"period": 0.0}, "period must be a non-zero value"),
                      ({}, "fp and xp are not of the same length")]:
        fp_ = f(2) if not kw else fp
        err("interp", [("x", f(2)), ("xp", xp), ("fp", fp_)],
            [("scalar", 0), ("left", "none"), ("right", "none"),
             ("period", float(kw["period"]).hex() if kw else "none")],
            lambda: np.interp(f(2), xp, fp_, **kw), "value_error", (words,))
    err("interp", [("x", f(2)), ("xp", f(0)), ("fp", f(0))],
        [("scalar", 0), ("left", "none"), ("right", "none"), ("period", "none")],
        lambda: np.interp(f(2), f(0), f(0)), "value_error", ("array of sample points is empty",))
    err("interp", [("x", f(2)), ("xp", f((1, 2))), ("fp", f((1, 2)))],
        [("scalar", 0), ("left", "none"), ("right", "none"), ("period", "none")],
        lambda: np.interp(f(2), f((1, 2)), f((1, 2))), "value_error", ())
    err("interp", [("x", f(2)), ("xp", f(3)), ("fp", f(2))],
        [("scalar", 0), ("left", "none"), ("right", "none"), ("period", float(5).hex())],
        lambda: np.interp(f(2), f(3), f(2), period=5), "value_error",
        ("fp and xp are not of the same length",))
    # joining: NumPy's words (fusor says "tensor" nowhere in these: the same sentences), and
    # fusor's own additions (both shapes, the axis).
    def join_err(func, parts, axis, error, shared, fusor_only=(), numpy_types=(ValueError,)):
        params = [("form", "vector")] + ([("axis", axis_token(axis))]
                                         if func in ("concatenate", "stack") else [])
        ops = [(k, p_) for k, p_ in enumerate(parts)]
        call = (lambda: getattr(np, func)(parts, axis=axis)) if func in ("concatenate", "stack") \
            else (lambda: getattr(np, func)(parts))
        err(func, ops, params, call, error, shared, fusor_only, numpy_types)
    join_err("concatenate", [f((2, 3)), f((2, 4))], 0, "value_error",
             ("all the input array dimensions except for the concatenation axis must match exactly",
              "along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4"),
             ("(2, 3)", "(2, 4)", "axis 0"))
    join_err("concatenate", [f((2, 3)), f((2, 3)), f((3, 2))], -1, "value_error",
             ("along dimension 0, the array at index 0 has size 2 and the array at index 2 has size 3",),
             ("(2, 3)", "(3, 2)", "axis 1"))
    join_err("concatenate", [f((2, 3)), f(2)], 0, "value_error",
             ("all the input arrays must have same number of dimensions",
              "the array at index 0 has 2 dimension(s) and the array at index 1 has 1 dimension(s)"))
    join_err("concatenate", [f(()), f(())], 0, "value_error",
             ("zero-dimensional arrays cannot be concatenated",))
    join_err("concatenate", [f((2, 3)), f((2, 3))], 2, "axis_error", ("axis 2 is out of bounds",),
             numpy_types=(np.AxisError,))
    join_err("concatenate", [f((2, 3))], -3, "axis_error", ("axis -3 is out of bounds",),
             numpy_types=(np.AxisError,))
    join_err("stack", [f((2, 3)), f((2, 4))], 0, "value_error",
             ("all input arrays must have the same shape",), ("(2, 3)", "(2, 4)"))
    join_err("stack", [f((2, 3)), f((2, 3))], 3, "axis_error", ("axis 3 is out of bounds",),
             numpy_types=(np.AxisError,))
    join_err("stack", [f((2, 3)), f((2, 3))], -4, "axis_error", ("axis -4 is out of bounds",),
             numpy_types=(np.AxisError,))
    join_err("hstack", [f(2), f((2, 3))], None, "value_error",
             ("must have same number of dimensions",))
    join_err("hstack", [f((2, 1)), f((3, 3))], None, "value_error",
             ("along dimension 0, the array at index 0 has size 2 and the array at index 1 has size 3",))
    join_err("vstack", [f(()), f(2)], None, "value_error",
             ("along dimension 1, the array at index 0 has size 1 and the array at index 1 has size 2",))
    join_err("dstack", [f(()), f(2)], None, "value_error",
             ("along dimension 1, the array at index 0 has size 1 and the array at index 1 has size 2",))
    join_err("column_stack", [f(()), f(2)], None, "value_error",
             ("along dimension 0, the array at index 0 has size 1 and the array at index 1 has size 2",))
    join_err("column_stack", [f(3), f((3, 2)), f((3, 2, 1))], None, "value_error",
             ("must have same number of dimensions",))
    for func in ("concatenate", "stack", "hstack", "vstack", "dstack", "column_stack"):
        join_err(func, [], 0, "value_error", ("need at least one array to",))
    # splitting
    a6 = np.arange(6.0)
    for func, spec, axis, error, words, types in [
            ("split", 4, 0, "value_error", "array split does not result in an equal division", (ValueError,)),
            ("split", 0, 0, "value_error", None, (ZeroDivisionError,)),
            ("split", -2, 0, "value_error", "number sections must be larger than 0", (ValueError,)),
            ("array_split", 0, 0, "value_error", "number sections must be larger than 0", (ValueError,)),
            ("split", 2, 1, "axis_error", None, (IndexError,)),
            ("array_split", 2, -2, "axis_error", None, (IndexError,))]:
        c = Case(func)
        c.p("form", "tensor").p("sections", spec).p("axis", axis).a("x", a6)
        expect_error(c, lambda: getattr(np, func)(a6, spec, axis), error,
                     (words,) if words else (),
                     ("number sections must be larger than 0",) if types == (ZeroDivisionError,) else
                     ((f"axis {axis} is out of bounds",) if error == "axis_error" else ()),
                     numpy_types=types)
    c = Case("split")
    c.p("form", "tensor").p("sections", 1).p("axis", 0).a("x", np.array(3.0))
    expect_error(c, lambda: np.split(np.array(3.0), 1), "axis_error", (),
                 ("axis 0 is out of bounds",), numpy_types=(IndexError,))
    for func, arr, words in [("hsplit", np.array(3.0), "hsplit only works on arrays of 1 or more dimensions"),
                             ("vsplit", a6, "vsplit only works on arrays of 2 or more dimensions"),
                             ("dsplit", f((2, 3)), "dsplit only works on arrays of 3 or more dimensions"),
                             ("hsplit", f((2, 4)), "array split does not result in an equal division")]:
        c = Case(func)
        c.p("sections", 3).a("x", arr)
        expect_error(c, lambda: getattr(np, func)(arr, 3), "value_error", (words,))


# ---- the run ----------------------------------------------------------------------------------------

def main():
    error_cases()
    for _ in range(20):
        indices_case()
        ndindex_case()
        unravel_case()
        ravel_multi_case()
    for dt in DTYPES:
        for _ in range(3):
            unary_view_case("flipud", dt, 1)
            unary_view_case("fliplr", dt, 2)
            rot90_case(dt)
            diff_case(dt)
            tri_case("tril", dt)
            tri_case("triu", dt)
            take_case(dt)
            take_along_case(dt)
            put_case(dt)
            put_along_case(dt)
            choose_case(dt)
            nonzero_case("nonzero", dt)
            interp_case(dt)
            join_case("concatenate", dt)
            join_case("stack", dt)
            split_case("split", dt)
            split_case("array_split", dt)
        for _ in range(2):
            diff_edges_case(dt)
            meshgrid_case(dt)
            compress_case(dt)
            extract_case(dt)
            putmask_case(dt, "putmask")
            putmask_case(dt, "place")
            join_case("hstack", dt)
            join_case("vstack", dt)
            join_case("dstack", dt)
            join_case("column_stack", dt)
            for func in ("ravel", "flatten", "atleast_1d", "atleast_2d", "atleast_3d"):
                ravel_like_case(func, dt)
            for func in ("where1", "argwhere", "flatnonzero"):
                nonzero_case(func, dt)
        split_case("hsplit", dt)
        split_case("vsplit", dt)
        split_case("dsplit", dt)
    for da, db in MIXED:
        for _ in range(2):
            mixed_concatenate_case(da, db)
    view_error_cases()
    for dt in DTYPES:
        for pattern in VIEW_PATTERNS:
            view_read_case(dt, pattern)
        for pattern in WRITE_PATTERNS:
            view_write_case(dt, pattern)
        if dt != "bool":
            for pattern in ("m", "a", "aa", "sa"):
                view_write_case(dt, pattern, "view_iadd")
    os.makedirs(os.path.dirname(os.path.abspath(OUT)), exist_ok=True)
    tmp = OUT + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(f"# numpy {np.__version__} seed {SEED}\n")
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, OUT)
    print(f"{sum(count.values())} cases written to {OUT}: {count}")


main()
