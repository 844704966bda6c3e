#!/usr/bin/python3
"""NumPy's answers for tests/contract/test_numpy.cpp (ctest fixture contract.numpy_reference).

Draws random cases (seeded: argv[2] or the default below) for einsum, matmul, dot, vdot, inner,
outer, tensordot and trace over every dtype fusor has (bool, int8..int64, uint8..uint64,
float32, float64; every operand of one dtype, plus a few mixed pairs), runs NumPy 1.24 on each
and writes inputs and answers (or the fusor exception NumPy's error maps to, with the parts of
the message the test looks for) as text the C++ test reads:

    case <func> <id>
    s <subscripts>                               einsum's subscripts: the rest of the line
    p <name> <token>...                          a parameter (tensordot's n or axes_a/axes_b,
                                                 trace's offset, axis1, axis2)
    a <k> <dtype> <rank> <dims>... <values>...   operand k (0, 1, ...)
    e out <dtype> <rank> <dims>... <values>...   the result; <dtype> is NumPy's result dtype
    t <tolerance>...                             float results: one absolute bound per element
    x <error>                                    the fusor exception expected instead
    m <text>                                     ... whose what() contains <text> (rest of line)
    end

Floats are written with float.hex() (exact). Integer and bool results are NumPy's, compared
exactly (integer sums wrap in the result type, bool is or-of-and, as NumPy). Float results are
not NumPy's values but the exact result (see `exact_contract`), with a tolerance per element;
NumPy's own answer is checked here to lie within that tolerance, so the bound is NumPy's too.

Usage: contract_reference.py <output file> [seed]
"""
import math
import os
import sys
import warnings
from fractions import Fraction

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from numpy_cases import arr_line, draws  # noqa: E402 (tests/numpy_cases.py)

warnings.simplefilter("ignore")

OUT = sys.argv[1]
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 20241125
rng = np.random.default_rng(SEED)
irand, pick = draws(rng)[:2]

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
# Mixed pairs (the C++ test dispatches exactly these, in this order of operands). None with a
# 0-d operand: NumPy 1.24 promotes 0-d arrays by value, fusor by dtype only (as NumPy 2).
MIXED = [("int8", "uint8"),      # int16
         ("int32", "float32"),   # float64
         ("bool", "int32"),      # int32
         ("uint64", "int64"),    # float64
         ("int16", "float32"),   # float32
         ("uint16", "int8"),     # int32
         ("bool", "float64"),    # float64
         ("float32", "float64")]  # float64

lines = []
count = {}


# ---- values -------------------------------------------------------------------------------------

def rand_values(dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return (rng.random(n) < rng.uniform(0.2, 0.8)).reshape(shape)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        if rng.random() < 0.2:  # the whole range: products and sums wrap around
            v = rng.integers(int(info.min), int(info.max), n, dtype=dtype, endpoint=True)
        elif info.min < 0:
            v = rng.integers(-6, 7, n).astype(dtype)
        else:
            v = rng.integers(0, 10, n).astype(dtype)
        return v.reshape(shape)
    kind = irand(0, 2)
    if kind == 0:
        v = rng.standard_normal(n) * 10 ** rng.uniform(-2, 2)
    elif kind == 1:  # mixed magnitudes: sums with cancellation
        v = rng.uniform(-1, 1, n) * 10.0 ** rng.integers(-3, 4, n)
    else:  # a grid of exact binary fractions
        v = rng.integers(-16, 17, n) / 8.0
    return v.astype(dtype).reshape(shape)


# ---- the exact reference ------------------------------------------------------------------------
#
# Float results are checked against the exact value, not against NumPy's, with an error bound
# per result element. Let u = eps/2 be the result type's unit roundoff, S = sum |p| over the K
# exact products p = a*b*... an element sums (S is that same contraction of the operands'
# magnitudes, computed exactly here), m the number of operands.
#
# One loop (every contraction of one or two operands, and einsum's one-loop path for more):
# fusor forms each product in the result type (m - 1 roundings, relative error <= u each),
# sums the K products in double (pairwise or compensated: at most K u_double <= K u relative
# to the sum of magnitudes; a BLAS with FMA: at most K u) and rounds the sum to the result
# type once (u). To first order |fusor - exact| <= (m - 1 + K + 1) u S, and the exact value
# written here (rounded to float64) is off by at most u_double |exact| <= u S more: in all
# (m + K + 1) u S = (m + K + 1)/2 eps S, which for m <= 2 is at most (K + 2) eps S.
#
# Three or more tensors of one type (einsum's pairwise path, contracted in a greedy order):
# m - 1 steps, each a two-operand contraction whose result is stored in the result type.
# Step j sums K_j products (each summed label is summed in exactly one step, so the K_j
# multiply to K) and adds at most (1 + K_j + 1) u times the magnitudes it sums; an earlier
# step's error, carried through the later products, is bounded by the same u S measure. So
# the error is at most (sum_j (K_j + 2) + 1) u S <= (K + 3(m - 1)) u S, since
# sum K_j <= prod K_j + (steps - 1) when every K_j >= 1 (a K_j of 0 makes the result 0,
# exactly). Both cases are within
#
#     tol = (K + 2 + 2 max(0, m - 2)) * eps(result dtype) * S
#
# which is (K + 2) eps S for one or two operands and for trace (one factor per term: m = 1,
# K the diagonal's length). NumPy accumulates in the result type (einsum's sum-of-products
# loops, pairwise sums, or a BLAS with FMA): within K u S of the exact value, inside the same
# bound, which Case.result asserts for every case. A sum of no terms (K = 0) is exactly 0
# with tolerance 0.


def to_exact(a):
    """An object array of exact values: Fraction for floats, int for integers and bool."""
    out = np.empty(a.shape, dtype=object)
    flat = out.reshape(-1)
    for i, v in enumerate(a.ravel()):
        flat[i] = Fraction(float(v)) if a.dtype.kind == "f" else int(v)
    return out


def exact_contract(ops, labels, out_labels):
    """The contraction of `ops` (already cast to the result dtype), labelled as einsum labels
    them: labels[k] names each axis of ops[k] (a label twice in one operand is its diagonal, an
    extent-1 axis under a longer label broadcasts), out_labels the result's axes, every other
    label is summed. Returns (sums, abs_sums, K): object arrays of the exact sums of the
    products and of their magnitudes, and the number of products each element sums."""
    ext = {}
    order = list(out_labels)
    for op, ls in zip(ops, labels):
        assert op.ndim == len(ls), (op.shape, ls)
        for n, l in zip(op.shape, ls):
            if l not in order:
                order.append(l)
            if ext.get(l, 1) == 1:
                ext[l] = n
            else:
                assert n in (1, ext[l]), (l, n, ext[l])
    space = tuple(ext[l] for l in order)
    grid = np.indices(space) if space else None
    prod = None
    for op, ls in zip(ops, labels):
        x = to_exact(op)
        if op.ndim == 0:
            v = np.empty(space, dtype=object)
            v.fill(x[()])
        else:
            idx = tuple(np.zeros(space, dtype=np.intp) if n == 1 else grid[order.index(l)]
                        for n, l in zip(op.shape, ls))
            v = x[idx]
        prod = v if prod is None else prod * v
    summed = tuple(range(len(out_labels), len(space)))
    K = int(np.prod(space[len(out_labels):], dtype=np.int64))
    if summed:
        sums = np.sum(prod, axis=summed)
        abs_sums = np.sum(np.abs(prod), axis=summed)
    else:
        sums, abs_sums = prod, np.abs(prod)
    return np.asarray(sums, dtype=object), np.asarray(abs_sums, dtype=object), K


def wrap(v, dtype):
    """An exact integer as the integer dtype holds it (two's complement wrap-around)."""
    bits = np.dtype(dtype).itemsize * 8
    v %= 1 << bits
    if np.dtype(dtype).kind == "i" and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


class Case:
    def __init__(self, func):
        count[func] = count.get(func, 0) + 1
        self.func = func
        self.rows = [f"case {func} {count[func]}"]

    def s(self, subscripts):
        self.rows.append("s " + subscripts)

    def p(self, name, *tokens):
        self.rows.append(" ".join(["p", name] + [str(t) for t in tokens]))

    def operands(self, ops):
        for k, op in enumerate(ops):
            self.rows.append(arr_line("a", str(k), op))

    def error(self, name, *needles):
        self.rows.append("x " + name)
        for n in needles:
            self.rows.append("m " + n)
        self.end()

    def result(self, r, sums, abs_sums, K, m=2):
        """NumPy's result r checked against the exact sums of K products of m factors; writes
        the expectation (and the tolerance, for floats)."""
        r = np.asarray(r)
        where = f"{self.rows[0]}: {self.rows[1:]}"[:2000]
        assert r.shape == sums.shape, (where, r.shape, sums.shape)
        dt = r.dtype
        if dt.kind == "f":
            eps = Fraction(float(np.finfo(dt).eps))
            want = np.empty(r.shape, dtype=np.float64)
            tol = np.empty(r.shape, dtype=np.float64)
            for i in np.ndindex(r.shape):
                exact = Fraction(sums[i])
                t = (K + 2 + 2 * max(0, m - 2)) * eps * Fraction(abs_sums[i])
                assert abs(Fraction(float(r[i])) - exact) <= t, (where, i, float(r[i]), exact, t)
                want[i] = float(exact)
                tol[i] = float(t)
                if Fraction(tol[i]) < t:  # rounded up, never down
                    tol[i] = math.nextafter(tol[i], math.inf)
            self.rows.append(arr_line("e", "out", want, dt.name))
            self.rows.append(" ".join(["t"] + [float(t).hex() for t in tol.ravel()]))
        else:
            for i in np.ndindex(r.shape):
                w = bool(sums[i]) if dt.kind == "b" else wrap(int(sums[i]), dt)
                assert w == (bool(r[i]) if dt.kind == "b" else int(r[i])), (where, i, w, r[i])
            self.rows.append(arr_line("e", "out", r))
        self.end()

    def end(self):
        self.rows.append("end")
        lines.extend(self.rows)


def finish(c, ops, call, labels, out_labels):
    """Writes the operands, runs NumPy (call()) and writes its result against the exact one."""
    c.operands(ops)
    r = np.asarray(call())
    cast = [op.astype(r.dtype) for op in ops]
    c.result(r, *exact_contract(cast, labels, out_labels), m=len(ops))


def compact(shape):
    """A shape as NumPy's messages print it: (2,3), (3,)."""
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def own(prefix, n):
    return [f"{prefix}{i}" for i in range(n)]


# ---- einsum -------------------------------------------------------------------------------------

LETTERS = "abcdefghij"


def einsum_case(dtypes, max_space=2500, allow_0d=True):
    """Random subscripts over len(dtypes) operands: diagonals (a letter twice in an operand),
    '...' (right-aligned, with extent-1 broadcasting), 0-d operands, extent-1 letters that
    broadcast, implicit or explicit output."""
    nops = len(dtypes)
    for _ in range(1000):
        nlab = irand(1, 5)
        pool = list(LETTERS) + (["A", "B"] if rng.random() < 0.2 else [])
        letters = [str(l) for l in rng.choice(pool, nlab, replace=False)]
        ext = {l: int(rng.choice([0, 1, 2, 3, 4], p=[0.03, 0.12, 0.3, 0.35, 0.2])) for l in letters}
        ell = [irand(1, 3) for _ in range(irand(0, 2))] if rng.random() < 0.3 else None
        terms, shapes, labels = [], [], []
        for k in range(nops):
            r = irand(1, 3) if rng.random() > 0.1 else 0
            if not allow_0d:
                r = max(r, 1)
            replace = r > len(letters) or rng.random() < 0.3
            named = [str(l) for l in rng.choice(letters, r, replace=replace)]
            shape = []
            for l in named:
                n = ext[l]
                if named.count(l) == 1 and n != 1 and rng.random() < 0.08:
                    n = 1  # a letter of extent 1 here broadcasts against the others
                shape.append(n)
            term = list(named)
            lab = list(named)
            if ell is not None and (rng.random() < 0.7 or k == 0):
                covered = irand(0, len(ell))
                dims = [ell[j] if rng.random() > 0.25 else 1
                        for j in range(len(ell) - covered, len(ell))]
                at = irand(0, len(named))
                term.insert(at, "...")
                lab[at:at] = [("E", j) for j in range(len(ell) - covered, len(ell))]
                shape[at:at] = dims
            terms.append(term)
            shapes.append(tuple(shape))
            labels.append(lab)
        space = 1
        seen = set()
        for lab, shape in zip(labels, shapes):
            for l, n in zip(lab, shape):
                if l not in seen:
                    seen.add(l)
                    space *= max(n, 1)
        if space <= max_space:
            break
    # The ellipsis' axes in the result: as many as the longest ellipsis covers.
    ell_rank = max((sum(1 for l in lab if isinstance(l, tuple)) for lab in labels), default=0)
    ell_labels = [("E", j) for j in range(len(ell) - ell_rank, len(ell))] if ell else []
    used = [l for lab in labels for l in lab if isinstance(l, str)]
    if rng.random() < 0.35:
        out_terms = None
        out = ell_labels + sorted(l for l in set(used) if used.count(l) == 1)
    else:
        distinct = sorted(set(used))
        rng.shuffle(distinct)
        out = distinct[: irand(0, len(distinct))]
        out_terms = list(out)
        if ell is not None and (ell_rank > 0 or rng.random() < 0.5):
            at = irand(0, len(out))
            out_terms.insert(at, "...")
            out[at:at] = ell_labels
    sep = " " if rng.random() < 0.05 else ""
    subs = ",".join(sep.join(t) for t in terms)
    if out_terms is not None:
        subs += "->" + "".join(out_terms)
    ops = [rand_values(dt, shape) for dt, shape in zip(dtypes, shapes)]
    c = Case("einsum")
    c.s(subs)
    finish(c, ops, lambda: np.einsum(subs, *ops), labels, out)


def einsum_transpose_case(dtype):
    """A pure transpose (or identity): one operand, no letter repeated, none summed."""
    r = irand(1, 4)
    letters = [str(l) for l in rng.choice(list(LETTERS), r, replace=False)]
    shape = tuple(irand(0 if rng.random() < 0.05 else 1, 4) for _ in range(r))
    perm = [letters[i] for i in rng.permutation(r)]
    c = Case("einsum")
    if rng.random() < 0.3:  # implicit: the letters sorted, "ji" is a transpose
        subs, out = "".join(perm), sorted(perm)
        labels = perm
    elif rng.random() < 0.3:  # with an ellipsis in front
        subs = "..." + "".join(letters) + "->..." + "".join(perm)
        shape = (irand(1, 3),) + shape
        labels = [("E", 0)] + letters
        out = [("E", 0)] + perm
    else:
        subs, out, labels = "".join(letters) + "->" + "".join(perm), perm, letters
    ops = [rand_values(dtype, shape)]
    c.s(subs)
    finish(c, ops, lambda: np.einsum(subs, *ops), [labels], out)


def einsum_fixed(subs, ops, labels, out):
    c = Case("einsum")
    c.s(subs)
    finish(c, ops, lambda: np.einsum(subs, *ops), labels, out)


# ---- matmul, dot, inner, vdot, outer, tensordot, trace ------------------------------------------

def ext(lo=1, hi=4):
    return irand(0, hi) if rng.random() < 0.06 else irand(lo, hi)


def matmul_case(da, db, allow_1d=True):
    ra = pick([1, 2, 2, 3, 4]) if allow_1d else pick([2, 3, 4])
    rb = pick([1, 2, 2, 3, 4]) if allow_1d else pick([2, 3, 4])
    n, k, m = ext(), ext(), ext()
    nb = max(ra - 2, rb - 2, 0)
    batch = [ext(1, 3) for _ in range(nb)]
    def side(rank, core):
        own_batch = batch[nb - max(rank - 2, 0):] if rank > 2 else []
        own_batch = [b if rng.random() > 0.25 else 1 for b in own_batch]  # broadcast batch axes
        labs = [("B", j) for j in range(nb - len(own_batch), nb)]
        return tuple(own_batch) + core[0], labs + core[1]
    sa, la = side(ra, ((k,), ["k"]) if ra == 1 else ((n, k), ["n", "k"]))
    sb, lb = side(rb, ((k,), ["k"]) if rb == 1 else ((k, m), ["k", "m"]))
    out = [("B", j) for j in range(nb)] + (["n"] if ra >= 2 else []) + (["m"] if rb >= 2 else [])
    a, b = rand_values(da, sa), rand_values(db, sb)
    finish(Case("matmul"), [a, b], lambda: np.matmul(a, b), [la, lb], out)


def dot_case(da, db, allow_0d=True):
    ra = irand(0 if allow_0d else 1, 3)
    rb = irand(0 if allow_0d else 1, 3)
    k = ext()
    sa = [ext() for _ in range(ra)]
    sb = [ext() for _ in range(rb)]
    la, lb = own("a", ra), own("b", rb)
    if ra and rb:
        sa[-1] = k
        la[-1] = "k"
        j = 0 if rb == 1 else rb - 2
        sb[j] = k
        lb[j] = "k"
    out = [l for l in la if l != "k"] + [l for l in lb if l != "k"]
    a, b = rand_values(da, tuple(sa)), rand_values(db, tuple(sb))
    finish(Case("dot"), [a, b], lambda: np.dot(a, b), [la, lb], out)


def inner_case(da, db, allow_0d=True):
    ra = irand(0 if allow_0d else 1, 3)
    rb = irand(0 if allow_0d else 1, 3)
    k = ext()
    sa = [ext() for _ in range(ra)]
    sb = [ext() for _ in range(rb)]
    la, lb = own("a", ra), own("b", rb)
    if ra and rb:
        sa[-1] = sb[-1] = k
        la[-1] = lb[-1] = "k"
    out = [l for l in la if l != "k"] + [l for l in lb if l != "k"]
    a, b = rand_values(da, tuple(sa)), rand_values(db, tuple(sb))
    finish(Case("inner"), [a, b], lambda: np.inner(a, b), [la, lb], out)


def factor_shape(size, rank):
    """A random shape of `rank` axes holding `size` elements."""
    if rank == 0:
        return ()
    dims = [1] * rank
    left = size
    for i in range(rank - 1):
        divisors = [d for d in range(1, left + 1) if left % d == 0] if left else [0, 1, 2]
        dims[i] = pick(divisors)
        left = left // dims[i] if dims[i] else left
    dims[-1] = left if all(dims[:-1]) else irand(0, 3)
    if size == 0 and 0 not in dims:
        dims[pick(range(rank))] = 0
    return tuple(dims)


def vdot_case(da, db, allow_0d=True):
    size = pick([0, 1, 2, 3, 4, 6, 8, 12, 24])
    ra = irand(0 if (allow_0d and size == 1) else 1, 3)
    rb = irand(0 if (allow_0d and size == 1) else 1, 3)
    a = rand_values(da, factor_shape(size, ra))
    b = rand_values(db, factor_shape(size, rb))
    assert a.size == b.size == size
    c = Case("vdot")
    c.operands([a, b])
    r = np.asarray(np.vdot(a, b))
    c.result(r, *exact_contract([a.ravel().astype(r.dtype), b.ravel().astype(r.dtype)],
                                [["k"], ["k"]], []))


def outer_case(da, db, allow_0d=True):
    a = rand_values(da, tuple(ext() for _ in range(irand(0 if allow_0d else 1, 2))))
    b = rand_values(db, tuple(ext() for _ in range(irand(0 if allow_0d else 1, 2))))
    c = Case("outer")
    c.operands([a, b])
    r = np.asarray(np.outer(a, b))
    c.result(r, *exact_contract([a.ravel().astype(r.dtype), b.ravel().astype(r.dtype)],
                                [["i"], ["j"]], ["i", "j"]))


def tensordot_n_case(da, db, allow_0d=True):
    ra = irand(0 if allow_0d else 1, 4)
    rb = irand(0 if allow_0d else 1, 4)
    n = irand(0, min(ra, rb, 3))
    summed = [ext() for _ in range(n)]
    sa = [ext() for _ in range(ra - n)] + summed
    sb = summed + [ext() for _ in range(rb - n)]
    la = own("a", ra - n) + own("k", n)
    lb = own("k", n) + own("b", rb - n)
    out = own("a", ra - n) + own("b", rb - n)
    a, b = rand_values(da, tuple(sa)), rand_values(db, tuple(sb))
    c = Case("tensordot")
    c.p("n", n)
    finish(c, [a, b], lambda: np.tensordot(a, b, n), [la, lb], out)


def tensordot_axes_case(da, db, allow_0d=True):
    ra = irand(0 if allow_0d else 1, 4)
    rb = irand(0 if allow_0d else 1, 4)
    n = irand(0, min(ra, rb, 3))
    xa = [int(x) for x in rng.permutation(ra)[:n]]
    xb = [int(x) for x in rng.permutation(rb)[:n]]
    sa = [ext() for _ in range(ra)]
    sb = [ext() for _ in range(rb)]
    la, lb = own("a", ra), own("b", rb)
    for i, (x, y) in enumerate(zip(xa, xb)):
        sb[y] = sa[x]
        la[x] = lb[y] = f"k{i}"
    # Negative axes count from the end.
    pa = [x - ra if rng.random() < 0.35 else x for x in xa]
    pb = [y - rb if rng.random() < 0.35 else y for y in xb]
    out = [l for l in la if not l.startswith("k")] + [l for l in lb if not l.startswith("k")]
    a, b = rand_values(da, tuple(sa)), rand_values(db, tuple(sb))
    c = Case("tensordot")
    c.p("axes_a", *pa)
    c.p("axes_b", *pb)
    finish(c, [a, b], lambda: np.tensordot(a, b, (pa, pb)), [la, lb], out)


def trace_case(dtype):
    r = irand(2, 4)
    shape = tuple(ext(1, 5) for _ in range(r))
    a = rand_values(dtype, shape)
    offset = irand(-4, 4) if rng.random() < 0.6 else 0
    axis1, axis2 = [int(x) for x in rng.permutation(r)[:2]]
    if rng.random() < 0.3:
        axis1 -= r
    if rng.random() < 0.3:
        axis2 -= r
    if rng.random() < 0.3:
        axis1, axis2 = 0, 1  # numpy's defaults
    trace_fixed(a, offset, axis1, axis2)


def trace_fixed(a, offset, axis1, axis2):
    c = Case("trace")
    c.p("offset", offset)
    c.p("axis1", axis1)
    c.p("axis2", axis2)
    c.operands([a])
    r = np.asarray(np.trace(a, offset, axis1, axis2))
    # The diagonal as the last axis (numpy.diagonal), summed: one factor per term.
    d = np.diagonal(a, offset, axis1, axis2).astype(r.dtype)
    rest = own("r", d.ndim - 1)
    c.result(r, *exact_contract([d], [rest + ["k"]], rest), m=1)


# ---- special cases: wrap-around and bool --------------------------------------------------------

def special_cases():
    u8, i8, i16, i32, i64, u64 = np.uint8, np.int8, np.int16, np.int32, np.int64, np.uint64
    A = np.array
    # uint8 200 * 2 = 400 wraps to 144; as matmul, dot, outer, einsum and vdot.
    a, b = A([200], u8), A([2], u8)
    finish(Case("matmul"), [a, b], lambda: np.matmul(a, b), [["k"], ["k"]], [])
    finish(Case("dot"), [a, b], lambda: np.dot(a, b), [["k"], ["k"]], [])
    einsum_fixed("i,i", [a, b], [["i"], ["i"]], [])
    c = Case("outer")
    c.operands([a, b])
    c.result(np.outer(a, b), *exact_contract([a, b], [["i"], ["j"]], ["i", "j"]))
    c = Case("vdot")
    c.operands([a, b])
    c.result(np.asarray(np.vdot(a, b)), *exact_contract([a, b], [["k"], ["k"]], []))
    # Sums that wrap: int8 100 + 100 = -56 (einsum keeps int8, unlike sum), uint8 700 = 188.
    einsum_fixed("i->", [A([100, 100], i8)], [["i"]], [])
    einsum_fixed("ij,jk->ik", [A([[200, 100]], u8), A([[2], [3]], u8)],
                 [["i", "j"], ["j", "k"]], ["i", "k"])
    a, b = A([30000, 30000], i16), A([2, 1], i16)
    finish(Case("dot"), [a, b], lambda: np.dot(a, b), [["k"], ["k"]], [])
    einsum_fixed("i,i", [A([2**30, 2**30], i32), A([2, 2], i32)], [["i"], ["i"]], [])
    a, b = A([[2**63]], u64), A([[2]], u64)
    finish(Case("matmul"), [a, b], lambda: np.matmul(a, b), [["n", "k"], ["k", "m"]], ["n", "m"])
    a, b = A([2**62, 2**62, -2**62], i64), A([2, 2, 3], i64)
    finish(Case("inner"), [a, b], lambda: np.inner(a, b), [["k"], ["k"]], [])
    a, b = A([[127, -128], [-128, 127]], i8), A([[127, 127], [-128, 127]], i8)
    c = Case("tensordot")
    c.p("n", 2)
    finish(c, [a, b], lambda: np.tensordot(a, b, 2), [["k0", "k1"], ["k0", "k1"]], [])
    # int8 x uint8 promotes to int16, and wraps there: -128 * 255 * 3 = -97920.
    a, b = A([-128, -128, -128], i8), A([255, 255, 255], u8)
    einsum_fixed("i,i", [a, b], [["i"], ["i"]], [])
    finish(Case("matmul"), [a, b], lambda: np.matmul(a, b), [["k"], ["k"]], [])
    # trace sums as sum does: int8 -> int64 (200, no wrap), uint8 -> uint64, bool -> int64.
    trace_fixed(A([[100, 0], [0, 100]], i8), 0, 0, 1)
    trace_fixed(A([[200, 1], [1, 200]], u8), 0, 0, 1)
    trace_fixed(A([[True, True], [False, True]]), 0, 0, 1)
    # bool contractions are or-of-and.
    t = A([[True, True], [False, True]])
    einsum_fixed("ij,jk->ik", [t, t], [["i", "j"], ["j", "k"]], ["i", "k"])
    finish(Case("matmul"), [t, t], lambda: np.matmul(t, t), [["n", "k"], ["k", "m"]], ["n", "m"])
    einsum_fixed("ii", [t], [["i", "i"]], [])
    # 0-d operands, empty subscripts, a 0-d result from four operands.
    z = A(3, i16)
    einsum_fixed("", [z], [[]], [])
    einsum_fixed("->", [z], [[]], [])
    einsum_fixed(",", [z, A(-7, i16)], [[], []], [])
    einsum_fixed(",ij->ji", [A(2.5), np.arange(6.0).reshape(2, 3)], [[], ["i", "j"]], ["j", "i"])
    x = np.arange(1, 5, dtype=np.float32)
    einsum_fixed("i,i,i,i", [x, x, x, x], [["i"]] * 4, [])
    # Extent-1 letters broadcast (numpy.einsum without optimize): j is 1 in one operand.
    einsum_fixed("ij,jk->ik", [np.ones((2, 1)), np.arange(12.0).reshape(3, 4)],
                 [["i", "j"], ["j", "k"]], ["i", "k"])
    einsum_fixed("ii,i->i", [A([[2]], i32), A([1, 2, 3], i32)], [["i", "i"], ["i"]], ["i"])
    # Uppercase letters come first in the implicit output (character codes).
    einsum_fixed("bA,Ab",
                 [np.arange(6, dtype=i32).reshape(2, 3), np.arange(6, dtype=i32).reshape(3, 2)],
                 [["b", "A"], ["A", "b"]], [])
    einsum_fixed("aB", [np.arange(6, dtype=i32).reshape(2, 3)], [["a", "B"]], ["B", "a"])
    # Zero-size axes: a summed extent 0 gives zeros, a kept extent 0 an empty result.
    einsum_fixed("ij,jk", [np.zeros((3, 0), np.float32), np.zeros((0, 2), np.float32)],
                 [["i", "j"], ["j", "k"]], ["i", "k"])
    a, b = np.zeros((0, 3), i64), np.ones((3, 2), i64)
    finish(Case("matmul"), [a, b], lambda: np.matmul(a, b), [["n", "k"], ["k", "m"]], ["n", "m"])
    # trace with an offset past the end: an empty diagonal, 0.
    trace_fixed(np.ones((2, 3), np.float64), 5, 0, 1)
    trace_fixed(np.ones((2, 3), np.uint16), -3, 1, 0)


def gemm_cases():
    """Float products above fusor's BLAS threshold (16*16*16 multiply-adds, plan/gemm.hpp):
    with FUSOR_BLAS these run as sgemm/dgemm (a transposed operand as a flag, batch axes per
    call), and three operands as a greedy chain of such steps."""
    def mat(dt, *shape):
        return rand_values(dt, shape)
    for dt in ("float32", "float64"):
        a, b = mat(dt, 20, 17), mat(dt, 17, 19)
        finish(Case("matmul"), [a, b], lambda: np.matmul(a, b), [["n", "k"], ["k", "m"]],
               ["n", "m"])
        at = mat(dt, 17, 20)
        einsum_fixed("ji,jk->ik", [at, b], [["j", "i"], ["j", "k"]], ["i", "k"])
        a, b = mat(dt, 3, 1, 16, 17), mat(dt, 2, 17, 16)
        finish(Case("matmul"), [a, b], lambda: np.matmul(a, b),
               [["B0", "B1", "n", "k"], ["B1", "k", "m"]], ["B0", "B1", "n", "m"])
        a, b = mat(dt, 18, 20), mat(dt, 20, 16)
        finish(Case("dot"), [a, b], lambda: np.dot(a, b), [["a0", "k"], ["k", "b1"]],
               ["a0", "b1"])
        a, b = mat(dt, 16, 4, 5), mat(dt, 4, 5, 17)
        c = Case("tensordot")
        c.p("n", 2)
        finish(c, [a, b], lambda: np.tensordot(a, b, 2), [["a0", "k0", "k1"], ["k0", "k1", "b0"]],
               ["a0", "b0"])
        x, y, z = mat(dt, 16, 17), mat(dt, 17, 16), mat(dt, 16, 18)
        einsum_fixed("ij,jk,kl->il", [x, y, z], [["i", "j"], ["j", "k"], ["k", "l"]], ["i", "l"])
        einsum_fixed("bij,bjk->bik", [mat(dt, 2, 16, 17), mat(dt, 2, 17, 16)],
                     [["b", "i", "j"], ["b", "j", "k"]], ["b", "i", "k"])


# ---- errors -------------------------------------------------------------------------------------
#
# Each error case: NumPy must raise (checked here), the C++ test expects the fusor exception
# named, and its message to contain each needle. Needles in `shared` are NumPy's words too (the
# letter, the operand, the sizes NumPy's message names) and are checked against NumPy's
# message here; the others are fusor's additions (the position in the subscripts, the sizes
# when NumPy names only the shapes). The mapping: NumPy's ValueError is value_error, except
# matmul's batch axes that do not broadcast, which fusor reports as broadcast_error; AxisError
# is axis_error; tensordot's IndexError ("tuple index out of range", an axis in the lists
# outside the operand) is axis_error, as fusor documents; tensordot(a, b, n) with n above a
# rank is value_error, as fusor documents (NumPy: IndexError or its shape-mismatch ValueError).

def error_case(func, ops, call, error, shared=(), fusor_only=(), subs=None, params=(),
               numpy_types=(ValueError,)):
    c = Case(func)
    if subs is not None:
        c.s(subs)
    for name, *tokens in params:
        c.p(name, *tokens)
    c.operands(ops)
    try:
        call()
    except numpy_types as e:
        msg = str(e)
        for n in shared:
            assert n in msg, (func, subs, n, msg)
    else:
        raise AssertionError(f"NumPy did not raise: {func} {subs} {[o.shape for o in ops]}")
    c.error(error, *shared, *fusor_only)


def error_cases():
    f = np.ones
    def es(subs, *ops, shared=(), fusor_only=(), error="value_error"):
        error_case("einsum", list(ops), lambda: np.einsum(subs, *ops), error, shared, fusor_only,
                   subs=subs)
    # The subscripts string itself.
    es("ij,j#->i", f((2, 3)), f(3), shared=("'#'",), fusor_only=("position 4",))
    es("i1", f(3), shared=("'1'",), fusor_only=("position 1",))
    es("ij->i_", f((2, 3)), shared=("'_'",), fusor_only=("position 5",))
    es("i.j,j", f((2, 3)), f(3), shared=("'.'", "ellipsis"), fusor_only=("position 1",))
    es("..i", f(3), shared=("ellipsis",), fusor_only=("position 0",))
    es("i...j...", f((2, 3, 4)), fusor_only=("ellipsis", "position 5"))
    # (NumPy 1.24 words these two the wrong way round: "more operands provided" when there
    # are fewer operands than terms, and "fewer" when there are more; fusor says what happened.)
    es("ij,jk", f((2, 3)), fusor_only=("fewer operands", "\"ij,jk\""))
    es("ij", f((2, 3)), f(3), fusor_only=("more operands", "\"ij\""))
    es("i,j,k", f(1), f(2), fusor_only=("fewer operands",))
    es("ij->ii", f((2, 3)), shared=("output subscript 'i' multiple times",))
    es("ij,jk->ik->k", f((2, 3)), f((3, 4)), fusor_only=("'-'",))
    es("ij->k", f((2, 3)), shared=("output subscript 'k' which never appeared",))
    es("ij,jk->iK", f((2, 3)), f((3, 4)), shared=("output subscript 'K' which never appeared",))
    # Subscripts against the operands' ranks.
    es("ijk", f((2, 3)), shared=(), fusor_only=("operand 0", "has 2 dimensions", "name 3"))
    es("i,ijk", f(3), f((3, 4)), fusor_only=("operand 1", "has 2 dimensions", "name 3"))
    es("i...jk", f((2, 3)), fusor_only=("operand 0", "name 3"))
    es("i", f((2, 3)), shared=("no '...' ellipsis",), fusor_only=("operand 0", "has 2 dimensions"))
    es("ij,j", f((2, 3)), f((3, 1)), shared=("no '...' ellipsis",), fusor_only=("operand 1",))
    es("...i->i", f((2, 3)), shared=("output has more dimensions", "no '...' ellipsis"))
    es("...i,...i->", f((2, 3)), f(3), shared=("output has more dimensions",))
    # Extents that disagree (NumPy names the shapes; fusor also the letter and both sizes).
    es("ij,jk", f((2, 3)), f((4, 5)), fusor_only=("'j'", "size 3", "size 4", "(2, 3)", "(4, 5)"))
    es("i,i", f(3), f(4), fusor_only=("'i'", "size 3", "size 4"))
    es("ij,jk,kl->il", f((2, 3)), f((3, 4)), f((5, 2)), fusor_only=("'k'", "size 4", "size 5"))
    es("...,...", f(2), f(3), fusor_only=("size 2", "size 3"))
    es("...i,...i", f((2, 3)), f((4, 3)), fusor_only=("size 2", "size 4"))
    # A diagonal whose two extents differ.
    es("ii", f((2, 3)), shared=("operand 0", "index 'i'", "(2 != 3)"))
    es("i,jj->ij", f(2), f((3, 4)), shared=("operand 1", "index 'j'", "(3 != 4)"))
    es("ii->i", f((1, 3)), shared=("index 'i'", "(1 != 3)"))

    # matmul
    def mm(a, b, error="value_error", shared=(), fusor_only=()):
        error_case("matmul", [a, b], lambda: np.matmul(a, b), error, shared, fusor_only)
    mm(np.array(2.0), f(3), shared=("Input operand 0 does not have enough dimensions",))
    mm(f((3, 2)), np.array(2.0), shared=("Input operand 1 does not have enough dimensions",))
    mm(f((2, 3)), f((4, 5)), shared=("core dimension 0", "(size 4 is different from 3)"))
    mm(f(3), f(4), shared=("(size 4 is different from 3)",))
    mm(f((2, 5, 3)), f(4), shared=("(size 4 is different from 3)",))
    mm(f(2), f((3, 5, 4)), shared=("(size 5 is different from 2)",))
    mm(f((2, 2, 3)), f((3, 3, 4)), error="broadcast_error", shared=("(2,2,3)", "(3,3,4)"))
    mm(f((4, 2, 1, 3)), f((3, 2, 3, 2)), error="broadcast_error", shared=("(4,2,1,3)", "(3,2,3,2)"))
    mm(np.ones((2, 3), np.int8), np.ones((2, 3), np.int8), shared=("(size 2 is different from 3)",))
    # dot: NumPy's message word for word.
    for a, b in [(f((2, 3)), f((4, 5))), (f((2, 3, 4)), f((5, 6))), (f(3), f(4)),
                 (f((2, 3)), f(2))]:
        try:
            np.dot(a, b)
        except ValueError as e:
            error_case("dot", [a, b], lambda: np.dot(a, b), "value_error", (str(e),))
        else:
            raise AssertionError(f"NumPy did not raise: dot {a.shape} {b.shape}")
    # inner: NumPy's message names b's shape with its last axis moved first ("shapes (2,3) and
    # (5,4) not aligned: 3 (dim 1) != 5 (dim 0)" for b of shape (4,5)); fusor names the shapes
    # as given and both last axes. Both name the two sizes.
    def inner_error(a, b, sizes):
        error_case("inner", [a, b], lambda: np.inner(a, b), "value_error", ("not aligned",),
                   (sizes, compact(a.shape), compact(b.shape)))
    inner_error(f((2, 3)), f((4, 5)), "3 (dim 1) != 5 (dim 1)")
    inner_error(f(3), f((3, 4)), "3 (dim 0) != 4 (dim 1)")
    inner_error(f((2, 0)), f(1), "0 (dim 1) != 1 (dim 0)")
    a = np.ones((2, 3), np.int32)
    b = np.ones((2, 4), np.int32)
    error_case("dot", [a, b], lambda: np.dot(a, b), "value_error",
               ("shapes (2,3) and (2,4) not aligned: 3 (dim 1) != 2 (dim 0)",))
    # vdot: sizes that differ.
    for a, b in [(f((2, 3)), f(5)), (f(4), f((2, 3))),
                 (np.ones(0, np.uint8), np.ones(1, np.uint8))]:
        error_case("vdot", [a, b], lambda: np.vdot(a, b), "value_error",
                   (f"array of size {b.size}", f"shape ({a.size},)"))
    # tensordot
    def td(a, b, n=None, axes=None, error="value_error", shared=(), fusor_only=(),
           numpy_types=(ValueError,)):
        params = [("n", n)] if axes is None else [("axes_a", *axes[0]), ("axes_b", *axes[1])]
        error_case("tensordot", [a, b], lambda: np.tensordot(a, b, n if axes is None else axes),
                   error, shared, fusor_only, params=params, numpy_types=numpy_types)
    td(f((2, 3)), f((4, 5)), n=1, shared=("shape-mismatch for sum",),
       fusor_only=("size 3", "size 4"))
    td(f((2, 3, 4)), f((3, 5)), n=2, shared=("shape-mismatch for sum",))
    td(f((2, 3)), f((4, 3)), axes=([1], [0]), shared=("shape-mismatch for sum",),
       fusor_only=("size 3", "size 4"))
    td(f((2, 3)), f((3, 2)), axes=([0, 1], [0, 1]), shared=("shape-mismatch for sum",))
    td(f((2, 3)), f((3, 2)), axes=([-1], [-1]), shared=("shape-mismatch for sum",))
    td(f((2, 3)), f((3, 2)), axes=([0, 1], [1]), shared=("shape-mismatch for sum",))
    td(f((3, 3)), f((3, 3)), axes=([0, 0], [0, 1]), fusor_only=("repeated axis",))
    td(f((2, 3)), f((3, 2)), axes=([2], [0]), error="axis_error", fusor_only=("axis 2",),
       numpy_types=(IndexError,))
    td(f((2, 3)), f((3, 2)), axes=([1], [-3]), error="axis_error", fusor_only=("axis -3",),
       numpy_types=(IndexError,))
    td(f(3), f((3, 4)), n=2, fusor_only=("cannot sum 2 axes", "(3,)", "(3,4)"),
       numpy_types=(IndexError,))
    td(f((3, 4)), f(4), n=3, fusor_only=("cannot sum 3 axes",), numpy_types=(IndexError,))
    # trace: as diagonal.
    def tr(a, offset, axis1, axis2, error, shared=(), fusor_only=(), numpy_types=(ValueError,)):
        error_case("trace", [a], lambda: np.trace(a, offset, axis1, axis2), error, shared,
                   fusor_only, params=[("offset", offset), ("axis1", axis1), ("axis2", axis2)],
                   numpy_types=numpy_types)
    tr(f((3, 3)), 0, 0, 0, "value_error", shared=("axis1 and axis2 cannot be the same",))
    tr(f((3, 3)), 0, 1, -1, "value_error", shared=("axis1 and axis2 cannot be the same",))
    tr(f((3, 3)), 0, 0, 2, "axis_error", shared=("axis 2 is out of bounds",),
       numpy_types=(np.AxisError,))
    tr(f((2, 3, 4)), 1, -4, 1, "axis_error", shared=("axis -4 is out of bounds",),
       numpy_types=(np.AxisError,))
    tr(f(3), 0, 0, 1, "value_error", shared=("at least two dimensions",))


# ---- the run ------------------------------------------------------------------------------------

def main():
    special_cases()
    gemm_cases()
    error_cases()
    for dt in DTYPES:
        for _ in range(6):
            einsum_case([dt])
        for _ in range(2):
            einsum_transpose_case(dt)
        for _ in range(11):
            einsum_case([dt, dt])
        for _ in range(5):
            einsum_case([dt] * 3)
        for _ in range(3):
            einsum_case([dt] * 4)
        for _ in range(8):
            matmul_case(dt, dt)
        for _ in range(5):
            dot_case(dt, dt)
        for _ in range(3):
            vdot_case(dt, dt)
        for _ in range(4):
            inner_case(dt, dt)
        for _ in range(3):
            outer_case(dt, dt)
        for _ in range(4):
            tensordot_n_case(dt, dt)
        for _ in range(4):
            tensordot_axes_case(dt, dt)
        for _ in range(5):
            trace_case(dt)
    for da, db in MIXED:
        for _ in range(3):
            einsum_case([da, db], max_space=800, allow_0d=False)
            matmul_case(da, db)
        dot_case(da, db, allow_0d=False)
        vdot_case(da, db, allow_0d=False)
        inner_case(da, db, allow_0d=False)
        outer_case(da, db, allow_0d=False)
        tensordot_n_case(da, db, allow_0d=False)
        tensordot_axes_case(da, db, allow_0d=False)
    os.makedirs(os.path.dirname(os.path.abspath(OUT)), exist_ok=True)
    tmp = OUT + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"# numpy {np.__version__} seed {SEED}\n")
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, OUT)
    print(f"{sum(count.values())} cases written to {OUT}: {count}")


main()
