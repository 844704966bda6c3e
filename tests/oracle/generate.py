#!/usr/bin/python3
"""Writes the NumPy-oracle test headers of fusor: tests/oracle/numpy_cases*.hpp.

    /usr/bin/python3 tests/oracle/generate.py        (from anywhere; paths are relative to this file)

NumPy is the oracle: every expected dtype, shape, value and error below is computed by NumPy,
never by hand. The output is deterministic (one numpy.random.default_rng(20261122) stream, fixed
iteration orders), so running the script twice gives byte-identical headers; commit them.

What NumPy 1.24 (the Debian python3-numpy this is written against) does differently from the
contract in /work/shared/API.md, and how each expectation is made to follow API.md:
  * Promotion by dtype only (NumPy 2 / NEP 50). NumPy 1.24's default "legacy" promotion looks at
    the *values* of 0-d arrays (int32 (3,) + int64 () -> int32). So every tensor (+) tensor case
    casts both operands to numpy.result_type(dtype_a, dtype_b) first and then applies the ufunc,
    which is exactly what promotion by dtype means.
  * Weak C++ scalars (NEP 50): the scalar is converted to the dtype API.md gives it (the tensor's
    dtype when the scalar's kind is not above the tensor's, else int64 / float64) and combined as
    a 0-d value of that dtype, e.g. float32_arr * np.float32(2.5).
  * No float16: math functions of bool compute np.exp(x.astype(np.float32)) (API.md: float32).
  * As a cross-check, every element-wise case is also evaluated with NumPy's experimental NEP 50
    mode (np._set_promotion_state("weak"), present in 1.24) straight from the natural expression
    (Python scalars included); the script stops if the two disagree on dtype or values. (Not for
    np.where with a Python-scalar branch: where is not a ufunc and 1.24's weak mode leaves its
    scalar strong, while API.md makes every C++ scalar weak.)

Tolerances: exact everywhere (NaN == NaN) except exp/log (a few ulp, see check.hpp) and
floating-point sums, means and variances, where the summation order legitimately differs
(see `sum_tolerance` and `var_tolerance` below).
"""

import math
import os
import sys
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261122
rng = np.random.default_rng(SEED)

DTYPES = ["bool", "int32", "int64", "float32", "float64"]
CPP_TYPE = {
    "bool": "bool",
    "int8": "std::int8_t",
    "int32": "std::int32_t",
    "int64": "std::int64_t",
    "float32": "float",
    "float64": "double",
}
INTS = ("int8", "int32", "int64")
FLOATS = ("float32", "float64")
EPS = {"float32": float(np.finfo(np.float32).eps), "float64": float(np.finfo(np.float64).eps)}

warnings.simplefilter("ignore")  # NumPy's RuntimeWarnings (x / 0, mean of nothing, ...)
np.seterr(all="ignore")


# ------------------------------------------------------------------------------------------
# Text of values, shapes and tensors
# ------------------------------------------------------------------------------------------

def lit(v, dtype):
    """An exact C++ literal for one value of `dtype` (NaN / Inf are oracle:: constants)."""
    if dtype == "bool":
        return "true" if bool(v) else "false"
    if dtype in INTS:
        i = int(v)
        assert abs(i) <= 2**53, "integers must stay exact in a double"
        return str(i) if -2**31 <= i < 2**31 else str(i) + "LL"
    f = float(v)  # float32 -> double is exact
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Inf" if f > 0 else "-Inf"
    return repr(f)  # shortest text that round-trips to exactly this double


def values_text(arr, indent):
    """`{v0, v1, ...}`, wrapped at ~100 columns."""
    dtype = arr.dtype.name
    items = [lit(v, dtype) for v in np.asarray(arr).ravel()]
    lines, cur = [], ""
    for it in items:
        piece = it if not cur else ", " + it
        if cur and len(cur) + len(piece) > 100 - indent:
            lines.append(cur + ",")
            cur = it
        else:
            cur += piece
    lines.append(cur)
    if len(lines) == 1:
        return "{" + lines[0] + "}"
    pad = "\n" + " " * indent
    return "{" + pad.join(lines) + "}"


def cpp_shape(shape):
    return "{" + ", ".join(str(s) for s in shape) + "}"


def np_shape(shape):
    """NumPy's compact tuple form: (2,3), (3,), ()."""
    if len(shape) == 1:
        return "(%d,)" % shape[0]
    return "(" + ",".join(str(s) for s in shape) + ")"


def described(arr):
    return arr.dtype.name + np_shape(arr.shape)


def make_decl(name, arr, indent=4):
    head = " " * indent + "const auto %s = make<%s>(%s, " % (name, CPP_TYPE[arr.dtype.name],
                                                           cpp_shape(arr.shape))
    one_line = head + values_text(arr, 0) + ");"
    if len(one_line) <= 100 and "\n" not in one_line:
        return one_line
    return head.rstrip() + "\n" + " " * (indent + 8) + values_text(arr, indent + 9) + ");"


def fmt_tol(x):
    """A tolerance as short text, rounded up (never tighter than computed): 2 significant digits."""
    x = float(x)
    if x == 0.0:
        return "0.0"
    e = math.floor(math.log10(x)) - 1
    m = math.ceil(x / 10.0**e - 1e-9)
    t = "%d.%de%d" % (m // 10, m % 10, e + 1)
    assert float(t) >= x * (1 - 1e-12), (t, x)
    return t


def check_line(cpp_expr, result, indent=4, rtol=None, atol=None):
    """check_tensor(fusor::eval(EXPR), dtype, shape, {values}[, rtol[, atol]]);"""
    result = np.asarray(result)
    s = " " * indent + 'check_tensor(fusor::eval(%s), "%s", %s,' % (
        cpp_expr, result.dtype.name, cpp_shape(result.shape))
    return s + tail_text(result, indent + 13, rtol, atol)


def tail_text(result, indent, rtol, atol):
    """` {values}[, rtol[, atol]]);` on the same line when it fits, else on the next."""
    t = ""
    if rtol is not None:
        t += ", " + (rtol if isinstance(rtol, str) else fmt_tol(rtol))
        if atol is not None:
            t += ", " + fmt_tol(atol)
    one = values_text(result, 0)
    if "\n" not in one and len(one) + len(t) + 2 <= 100 - indent:
        return "\n" + " " * indent + one + t + ");"
    return "\n" + " " * indent + values_text(result, indent + 1) + t + ");"


def throws_line(cpp_expr, exc, indent=4):
    return " " * indent + "CHECK_THROWS_AS(fusor::eval(%s), fusor::%s);" % (cpp_expr, exc)


def subcase(cpp_expr, np_expr, result, rtol=None, atol=None):
    """ORACLE_SUBCASE(EXPR, "numpy expr", dtype, shape, {values}[, rtol[, atol]]); (check.hpp)"""
    result = np.asarray(result)
    s = '    ORACLE_SUBCASE(%s, "%s", "%s", %s,' % (cpp_expr, np_expr, result.dtype.name,
                                                 cpp_shape(result.shape))
    return s + tail_text(result, 19, rtol, atol)


def subcase_throws(cpp_expr, np_expr, exc):
    return '    ORACLE_SUBCASE_THROWS(%s, "%s", fusor::%s);' % (cpp_expr, np_expr, exc)


# ------------------------------------------------------------------------------------------
# Random inputs
# ------------------------------------------------------------------------------------------

def rand_array(dtype, shape, specials=True, int_range=9, big_ints=True):
    """Random values of `dtype`: negatives and zeros always; integers sometimes large (so that
    int32 products wrap, as NumPy's do); floats a mix of continuous values and small integers
    (so that == and ties happen) plus, with `specials`, a few NaN and +-inf."""
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        v = rng.integers(0, 2, n).astype(bool)
    elif dtype in INTS:
        small = rng.integers(-int_range, int_range + 1, n)
        big = rng.integers(-10**6, 10**6 + 1, n)
        pick = rng.random(n) < (0.15 if big_ints else 0.0)
        v = np.where(pick, big, small).astype(dtype)
    else:
        cont = rng.standard_normal(n) * 4
        small = rng.integers(-3, 4, n).astype(np.float64)
        pick = rng.random(n) < 0.4
        v = np.where(pick, small, cont).astype(dtype)
        if specials:
            u = rng.random(n)
            v = v.copy()
            v[u < 0.05] = np.nan
            v[(u >= 0.05) & (u < 0.08)] = np.inf
            v[(u >= 0.08) & (u < 0.11)] = -np.inf
    return v.reshape(shape)


# ------------------------------------------------------------------------------------------
# NumPy helpers
# ------------------------------------------------------------------------------------------

def same(x, y):
    """Same dtype, shape and values (NaN equal to NaN)."""
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if x.dtype.kind == "f":
        return bool(np.all((x == y) | (np.isnan(x) & np.isnan(y))))
    return bool(np.all(x == y))


def weak(fn):
    """Evaluates fn() under NumPy's experimental NEP 50 promotion (None if unavailable)."""
    if not hasattr(np, "_set_promotion_state"):
        return None
    old = np._get_promotion_state()
    np._set_promotion_state("weak")
    try:
        return np.asarray(fn())
    finally:
        np._set_promotion_state(old)


def cross_check(expected, weak_fn, what):
    got = weak(weak_fn)
    if got is not None and not same(expected, got):
        sys.exit("generate.py: NEP 50 cross-check failed for %s:\n%r\n%r" % (what, expected, got))


def nep50_scalar_dtype(dtype, scalar):
    """The dtype API.md gives a weak C++ scalar next to a tensor of `dtype` (NEP 50 by kind:
    bool < integer < floating; the tensor wins unless the scalar's kind is above it)."""
    rank = {"b": 0, "i": 1, "u": 1, "f": 2}
    skind = "b" if isinstance(scalar, bool) else ("f" if isinstance(scalar, float) else "i")
    if rank[skind] <= rank[np.dtype(dtype).kind]:
        return np.dtype(dtype)
    return np.dtype({"b": "bool", "i": "int64", "f": "float64"}[skind])


# ------------------------------------------------------------------------------------------
# Output files
# ------------------------------------------------------------------------------------------

class Header:
    def __init__(self, filename, title):
        self.filename, self.title = filename, title
        self.cases = []

    def case(self, name, lines):
        assert '"' not in name and "\\" not in name
        self.cases.append('TEST_CASE("%s") {\n%s\n}\n' % (name, "\n".join(lines)))

    def write(self):
        head = [
            "// " + self.title,
            "//",
            "// GENERATED by tests/oracle/generate.py from NumPy %s -- do not edit by hand." % np.__version__,
            "// Regenerate (deterministic, seed %d):  /usr/bin/python3 tests/oracle/generate.py" % SEED,
            "// Every expected dtype, shape and value was computed by NumPy; where NumPy 1.24 differs",
            "// from /work/shared/API.md (NEP 50 promotion, no float16) generate.py says how it follows",
            "// API.md. Test names read `fusor expression | operand dtypes and shapes | numpy: ...`.",
            "#pragma once",
            "",
            "#include <doctest/doctest.h>",
            "",
            "#include <fusor/fusor.hpp>",
            "",
            "#include <cstdint>",
            "",
            '#include "check.hpp"',
            "",
            "namespace {",
            "using oracle::check_tensor;",
            "using oracle::Inf;",
            "using oracle::make;",
            "using oracle::NaN;",
            "",
        ]
        text = "\n".join(head) + "\n" + "\n".join(self.cases) + "\n} // namespace\n"
        with open(os.path.join(HERE, self.filename), "w") as f:
            f.write(text)
        return len(self.cases), len(text)


# ------------------------------------------------------------------------------------------
# 1. Element-wise binary operations (numpy_cases.hpp)
# ------------------------------------------------------------------------------------------

SHAPES = [(), (1,), (3,), (2, 3), (2, 1), (1, 3), (4, 1, 3), (2, 0), (0, 3), (1, 0)]

BINARY = [  # (C++ expression, NumPy expression, ufunc, symbol between operand descriptions)
    ("a + b", "a + b", np.add, "+"),
    ("a - b", "a - b", np.subtract, "-"),
    ("a * b", "a * b", np.multiply, "*"),
    ("a / b", "a / b", np.true_divide, "/"),
    ("a == b", "a == b", np.equal, "=="),
    ("a != b", "a != b", np.not_equal, "!="),
    ("a < b", "a < b", np.less, "<"),
    ("a <= b", "a <= b", np.less_equal, "<="),
    ("a > b", "a > b", np.greater, ">"),
    ("a >= b", "a >= b", np.greater_equal, ">="),
    ("fusor::minimum(a, b)", "np.minimum(a, b)", np.minimum, ","),
    ("fusor::maximum(a, b)", "np.maximum(a, b)", np.maximum, ","),
]


def compatible_pairs():
    pairs = []
    for sa in SHAPES:
        for sb in SHAPES:
            try:
                np.broadcast_shapes(sa, sb)
                pairs.append((sa, sb))
            except ValueError:
                pass
    return pairs


def evaluated_cases(h, title, arrays, cases):
    """One TEST_CASE over `arrays` (name -> array) with a SUBCASE per (C++ expression, NumPy
    expression[, rtol[, atol]]); the NumPy text is evaluated as written, so the name cannot drift
    from what was computed. A NumPy error becomes CHECK_THROWS_AS of the fusor error it maps to."""
    env = dict(arrays, np=np)
    lines = [make_decl(n, v) for n, v in arrays.items()]
    for c in cases:
        cpp, npx, tol = c[0], c[1], c[2:]
        try:
            res = np.asarray(eval(npx, env))
        except np.AxisError:
            lines.append(subcase_throws(cpp, npx + " raises AxisError", "axis_error"))
            continue
        except IndexError:
            lines.append(subcase_throws(cpp, npx + " raises IndexError", "index_error"))
            continue
        except ValueError as err:
            exc = "broadcast_error" if "broadcast" in str(err) else "value_error"
            lines.append(subcase_throws(cpp, npx + " raises ValueError", exc))
            continue
        lines.append(subcase(cpp, npx, res, *tol))
    h.case("%s | %s | numpy: see each SUBCASE" % (
        title, ", ".join("%s %s" % (n, described(v)) for n, v in arrays.items())), lines)


def gen_binary(h):
    pairs = compatible_pairs()
    order = rng.permutation(len(pairs))
    k = 0
    for cpp, npx, fn, sym in BINARY:
        for da in DTYPES:
            for db in DTYPES:
                if fn is np.subtract and da == db == "bool":
                    continue  # bool - bool must not compile (NumPy: TypeError)
                sa, sb = pairs[order[k % len(pairs)]]
                k += 1
                a, b = rand_array(da, sa), rand_array(db, sb)
                r = np.result_type(a.dtype, b.dtype)  # promotion by dtype only
                res = np.asarray(fn(a.astype(r), b.astype(r)))
                cross_check(res, lambda: fn(a, b), cpp)
                name = "%s | %s %s %s | numpy: %s" % (cpp, described(a), sym, described(b), npx)
                h.case(name, [make_decl("a", a), make_decl("b", b), check_line(cpp, res)])
    # Operands that are views (transposed, negative and non-unit strides) and larger shapes,
    # so that the loops are neither contiguous nor coalescible.
    a, b = rand_array("float32", (5, 17)), rand_array("float64", (17, 5))
    c, e = rand_array("int64", (6, 1, 7)), rand_array("int32", (5, 7))
    evaluated_cases(h, "binary operations on views and larger operands", {"a": a, "b": b, "c": c, "e": e}, [
        ("a + fusor::transpose(b)", "a + b.T"),
        ("fusor::transpose(a) * b", "a.T * b"),
        ("fusor::view(a, fusor::slice(fusor::none, fusor::none, -1), fusor::slice(1, fusor::none, 3)) - "
         "fusor::view(fusor::transpose(b), 2, fusor::slice(1, fusor::none, 3))", "a[::-1, 1::3] - b.T[2, 1::3]"),
        ("fusor::maximum(fusor::transpose(a), b) >= b", "np.maximum(a.T, b) >= b"),
        ("c + e", "c + e"),
        ("c / e", "c / e"),
        ("fusor::transpose(c, {2, 0, 1}) < fusor::view(fusor::transpose(e), fusor::all, fusor::newaxis)",
         "np.transpose(c, (2, 0, 1)) < e.T[:, None]"),
        ("fusor::minimum(fusor::view(c, fusor::slice(fusor::none, fusor::none, -2)), e)",
         "np.minimum(c[::-2], e)"),
    ])

    # Shapes that do not broadcast: NumPy raises ValueError, fusor broadcast_error.
    bad = [((3,), (2,)), ((2, 3), (3, 2)), ((2, 0), (3,)), ((0,), (2,)), ((4, 1, 3), (2, 2))]
    for i, (sa, sb) in enumerate(bad):
        cpp, npx, fn, sym = BINARY[(3 * i) % len(BINARY)]
        da, db = DTYPES[i % 5], DTYPES[(i + 3) % 5]
        a, b = rand_array(da, sa), rand_array(db, sb)
        try:
            fn(a, b)
            sys.exit("generate.py: expected a broadcast error for %s %s" % (sa, sb))
        except ValueError:
            pass
        name = "%s throws broadcast_error | %s %s %s | numpy: ValueError" % (
            cpp, described(a), sym, described(b))
        h.case(name, [make_decl("a", a), make_decl("b", b), throws_line(cpp, "broadcast_error")])


# ------------------------------------------------------------------------------------------
# 2. Unary operations, weak scalars, where (numpy_cases_unary.hpp)
# ------------------------------------------------------------------------------------------

UNARY = [  # (C++ expression, NumPy expression, function, transcendental?)
    ("-a", "-a", np.negative, False),
    ("fusor::abs(a)", "np.abs(a)", np.abs, False),
    ("fusor::exp(a)", "np.exp(a)", np.exp, True),
    ("fusor::log(a)", "np.log(a)", np.log, True),
    ("fusor::sqrt(a)", "np.sqrt(a)", np.sqrt, False),  # IEEE: correctly rounded, exact check
    ("fusor::square(a)", "np.square(a)", np.square, False),
]
UNARY_SHAPES = [(2, 3), (5,), (), (4, 1, 3), (0, 3), (3, 1)]


def unary_input(dtype, shape):
    a = rand_array(dtype, shape)
    if dtype in FLOATS and a.size >= 4:
        # Domain edges: log(0) = -inf, log/sqrt of a negative = NaN, exp overflow.
        flat = a.reshape(-1)
        flat[rng.integers(0, a.size)] = 0.0
        flat[rng.integers(0, a.size)] = rng.choice([100.0, 1000.0, -200.0])
    return a


def gen_unary(h):
    k = 0
    for cpp, npx, fn, transcendental in UNARY:
        for d in DTYPES:
            if fn is np.negative and d == "bool":
                continue  # -bool must not compile (NumPy: TypeError)
            for _ in range(2):
                shape = UNARY_SHAPES[k % len(UNARY_SHAPES)]
                k += 1
                a = unary_input(d, shape)
                note = ""
                if d == "bool" and fn in (np.exp, np.log, np.sqrt):
                    # NumPy gives float16; API.md: float32 (fusor has no float16).
                    res = np.asarray(fn(a.astype(np.float32)))
                    note = " (float32, not NumPy's float16)"
                else:
                    res = np.asarray(fn(a))
                rtol = None
                if transcendental:
                    rtol = "oracle::rtol_transcendental_" + ("f32" if res.dtype == np.float32 else "f64")
                name = "%s | %s | numpy: %s%s" % (cpp, described(a), npx, note)
                h.case(name, [make_decl("a", a), check_line(cpp, res, rtol=rtol)])
    # Integer wrap-around at the extremes: -INT_MIN and abs(INT_MIN) are INT_MIN, as NumPy.
    a = np.array([-2**31, 2**31 - 1, 0, -1, 46341, -46341], dtype=np.int32)
    for cpp, npx, fn in (("-a", "-a", np.negative), ("fusor::abs(a)", "np.abs(a)", np.abs),
                         ("fusor::square(a)", "np.square(a)", np.square), ("a + a", "a + a", np.add)):
        res = np.asarray(fn(a) if fn is not np.add else a + a)
        h.case("%s wraps | %s at the extremes | numpy: %s" % (cpp, described(a), npx),
               [make_decl("a", a), check_line(cpp, res)])


SCALAR_EXPRS = [  # (C++ expression, NumPy expression, scalar, f(a_cast, scalar_0d))
    ("a + 1", "a + 1", 1, lambda x, s: x + s),
    ("a * 2.5", "a * 2.5", 2.5, lambda x, s: x * s),
    ("a / 2", "a / 2", 2, lambda x, s: x / s),
    ("2.0 - a", "2.0 - a", 2.0, lambda x, s: s - x),
    ("a > 0", "a > 0", 0, lambda x, s: x > s),
    ("fusor::maximum(a, 0)", "np.maximum(a, 0)", 0, lambda x, s: np.maximum(x, s)),
    ("a - 1", "a - 1", 1, lambda x, s: x - s),
    ("a == 3", "a == 3", 3, lambda x, s: x == s),
    ("a + true", "a + True", True, lambda x, s: x + s),
    ("a * 2.5f", "a * 2.5", 2.5, lambda x, s: x * s),  # a C++ float scalar is weak too
    ("a + std::int64_t{5}", "a + 5", 5, lambda x, s: x + s),  # so is a C++ int64 scalar
]
SCALAR_SHAPES = [(2, 3), (), (4,), (2, 1, 3), (0,)]


def gen_scalars(h):
    k = 0
    for cpp, npx, scalar, fn in SCALAR_EXPRS:
        for d in DTYPES:
            if cpp == "a - 1" and d == "bool":
                continue  # bool - int is fine in NumPy (int64); keep the list short
            shape = SCALAR_SHAPES[k % len(SCALAR_SHAPES)]
            k += 1
            a = rand_array(d, shape)
            sd = nep50_scalar_dtype(d, scalar)
            common = np.result_type(a.dtype, sd)
            res = np.asarray(fn(a.astype(common), common.type(scalar)))
            cross_check(res, lambda: fn(a, scalar), cpp)
            name = "%s | %s with a weak %s scalar (-> %s) | numpy (NEP 50): %s" % (
                cpp, described(a), type(scalar).__name__, sd.name, npx)
            h.case(name, [make_decl("a", a), check_line(cpp, res)])
    # An integer scalar that does not fit the tensor's integer type: NEP 50 OverflowError,
    # API.md value_error when the expression is built.
    a = rand_array("int32", (3,))
    try:
        weak(lambda: a + 3000000000)
        overflow = False
    except OverflowError:
        overflow = True
    if overflow or weak(lambda: 0) is None:
        h.case("a + 3000000000LL throws value_error | int32(3,) | numpy (NEP 50): OverflowError",
               [make_decl("a", a), throws_line("a + 3000000000LL", "value_error")])


WHERE_CASES = [  # (cond shape, x dtype and shape, y dtype and shape)
    ((2, 3), ("float64", (2, 3)), ("float64", (3,))),
    ((2, 1), ("int32", (1, 3)), ("float32", (2, 3))),
    ((3,), ("int64", (2, 1)), ("int32", ())),
    ((4, 1, 3), ("float32", (2, 3)), ("float32", (1,))),
    ((), ("bool", (3,)), ("int64", (2, 1))),
    ((2, 0), ("float64", (1,)), ("int32", (2, 1))),
    ((1, 3), ("bool", (2, 3)), ("bool", (2, 1))),
    ((2, 3), ("int32", (2, 3)), ("float64", ())),
]


def gen_where(h):
    for cs, (dx, sx), (dy, sy) in WHERE_CASES:
        c = rand_array("bool", cs)
        x, y = rand_array(dx, sx), rand_array(dy, sy)
        r = np.result_type(x.dtype, y.dtype)
        res = np.asarray(np.where(c, x.astype(r), y.astype(r)))
        cross_check(res, lambda: np.where(c, x, y), "where")
        name = "fusor::where(c, x, y) | c %s, x %s, y %s | numpy: np.where(c, x, y)" % (
            described(c), described(x), described(y))
        h.case(name, [make_decl("c", c), make_decl("x", x), make_decl("y", y),
                      check_line("fusor::where(c, x, y)", res)])
    # A non-bool condition: non-zero is true.
    for dc in ("int32", "float64"):
        c = rand_array(dc, (2, 3), specials=False)
        x, y = rand_array("int64", (3,)), rand_array("float32", (2, 1))
        r = np.result_type(x.dtype, y.dtype)
        res = np.asarray(np.where(c, x.astype(r), y.astype(r)))
        h.case("fusor::where(c, x, y) | c %s (non-zero is true), x %s, y %s | numpy: np.where(c, x, y)" % (
            described(c), described(x), described(y)),
            [make_decl("c", c), make_decl("x", x), make_decl("y", y), check_line("fusor::where(c, x, y)", res)])
    # A computed condition and a weak scalar branch.
    for d, s in (("float32", 0.5), ("int32", 0.5), ("int64", 7), ("float64", -1)):
        x = rand_array(d, (2, 3))
        sd = nep50_scalar_dtype(d, s)
        r = np.result_type(x.dtype, sd)
        res = np.asarray(np.where(x > 0, x.astype(r), r.type(s)))
        # No NEP 50 cross-check here: np.where is not a ufunc and 1.24's experimental weak mode
        # still promotes its Python scalar as float64; API.md makes every C++ scalar weak.
        cpp = "fusor::where(x > 0, x, %r)" % s
        name = "%s | x %s, weak %s scalar (-> %s) | numpy (NEP 50): np.where(x > 0, x, %r)" % (
            cpp, described(x), type(s).__name__, sd.name, s)
        h.case(name, [make_decl("x", x), check_line(cpp, res)])


# ------------------------------------------------------------------------------------------
# 3. Reductions (numpy_cases_reduce.hpp)
# ------------------------------------------------------------------------------------------

def sum_tolerance(dtype, x, axis, divide_by_count=False):
    """(rtol, atol) for a floating sum or mean of x over axis, or None when exact.

    fusor accumulates float32 in double (error <= eps32/2 of the result plus a negligible
    double-rounding term); NumPy sums float32 in float32, pairwise along the contiguous axis
    (8 accumulators from 8 elements up) and sequentially across the others. With at most 24
    elements here no float32 partial sum goes through more than ~8 roundings, so NumPy is within
    8 * eps32 * sum|x| ~ 1e-6 * sum|x| of the true sum: rtol 1e-6 with atol 1e-6 * sum|x| (the
    scale: a sum of mixed signs may cancel to far below its error).
    float64: both sides round in float64 in different orders; each is within (n - 1) * eps * sum|x|
    of the true sum, so they differ by at most 2 n eps sum|x| (n = elements per result): a few
    ulp times n. Integers and bools are exact (the values are small); so is a mean of them
    (an exact float64 sum divided by n, correctly rounded on both sides)."""
    if dtype not in FLOATS:
        return None
    axes = tuple(range(x.ndim)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    axes = tuple(a % x.ndim for a in axes) if x.ndim else ()
    n = int(np.prod([x.shape[a] for a in axes], dtype=np.int64)) if axes else 1
    finite = np.where(np.isfinite(x), np.abs(x.astype(np.float64)), 0.0)
    scale = np.sum(finite, axis=axes) if axes else finite
    scale = float(np.max(scale)) if np.size(scale) else 0.0
    if divide_by_count and n:
        scale /= n
    rtol = 1e-6 if dtype == "float32" else 2 * max(n, 1) * EPS["float64"]
    return rtol, rtol * scale


def var_tolerance(result_dtype, n):
    """rtol of var/std (and of the hand-written variance expression): both sides compute the
    mean, the deviations and their squares in the result dtype and sum the squares; the squares
    are all positive, so no cancellation: each side is within ~(n + 2) eps of the true value
    (the mean's own rounding enters only to second order, since the deviations sum to ~0).
    4 n eps covers both with a margin (float32, n = 24: 1.1e-5; float64: 2.1e-14)."""
    return 4 * max(n, 1) * EPS[result_dtype]


RED_AXES = {
    (5,): [None, 0, -1, (0,)],
    (3, 4): [None, 0, 1, -1, -2, (0, 1), (1, 0), ()],
    (2, 3, 4): [None, 0, 1, 2, -1, -3, (0, 2), (1, 2), (0, 1, 2), (-1, 0), ()],
}
REDUCERS = [  # (fusor name, numpy function, takes lists of axes, has ddof)
    ("sum", np.sum, True, False),
    ("mean", np.mean, True, False),
    ("min", np.min, True, False),
    ("max", np.max, True, False),
    ("argmin", np.argmin, False, False),
    ("argmax", np.argmax, False, False),
    ("var", np.var, True, True),
    ("stddev", np.std, True, True),
]


def cpp_reduction(fn, operand, axis, keepdims, ddof=None, ddof_first=False):
    args = [operand]
    if isinstance(axis, tuple):
        args.append("{" + ", ".join(str(a) for a in axis) + "}")
    elif axis is not None:
        args.append(str(axis))
    opts = []
    if keepdims:
        opts.append("fusor::keepdims")
    if ddof is not None:
        opts.append("fusor::ddof{%d}" % ddof)
    if ddof_first:
        opts.reverse()
    return "fusor::%s(%s)" % (fn, ", ".join(args + opts))


def np_reduction(npname, operand, axis, keepdims, ddof=None):
    args = [operand]
    if axis is not None:
        args.append("axis=%r" % (axis,))
    if keepdims:
        args.append("keepdims=True")
    if ddof:
        args.append("ddof=%d" % ddof)
    return "np.%s(%s)" % (npname, ", ".join(args))


def reduction_input(fn, dtype, shape):
    if dtype in INTS:
        return rand_array(dtype, shape, int_range=5, big_ints=False)  # [-5, 5]: ties
    if dtype == "bool" or fn in ("min", "max", "argmin", "argmax"):
        return rand_array(dtype, shape, specials=False)  # floats: many small integers, ties
    return (rng.standard_normal(shape) * 4).astype(dtype)  # sums: full-precision values


def reduction_check(fn, npfn, a, axis, keepdims, ddof, variant, operand="a"):
    """The ORACLE_SUBCASE line of one reduction of `a`."""
    npname = {"stddev": "std"}.get(fn, fn)
    kw = {"axis": axis, "keepdims": keepdims}
    if ddof:
        kw["ddof"] = ddof
    cpp = cpp_reduction(fn, operand, axis, keepdims, ddof, ddof_first=variant % 3 == 2)
    npx = np_reduction(npname, operand, axis, keepdims, ddof)
    try:
        res = np.asarray(npfn(a, **kw))
    except np.AxisError:  # (a ValueError too): fusor::axis_error
        return subcase_throws(cpp, npx + " raises AxisError", "axis_error")
    except ValueError:
        return subcase_throws(cpp, npx + " raises ValueError", "value_error")
    rtol = atol = None
    if fn in ("sum", "mean"):
        tol = sum_tolerance(a.dtype.name, a, axis, divide_by_count=fn == "mean")
        if tol:
            rtol, atol = tol
    elif fn in ("var", "stddev") and res.size:
        axes = tuple(range(a.ndim)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
        n = int(np.prod([a.shape[x] for x in axes], dtype=np.int64)) if axes else 1
        rtol = var_tolerance(res.dtype.name, n)
    return subcase(cpp, npx, res, rtol, atol)


def gen_reductions(h):
    for fn, npfn, multi, has_ddof in REDUCERS:
        for d in DTYPES:
            for shape, variants in RED_AXES.items():
                a = reduction_input(fn, d, shape)
                lines = [make_decl("a", a)]
                v = 0
                for axis in variants:
                    if isinstance(axis, tuple) and not multi:
                        continue
                    if axis == () and fn not in ("sum", "max", "var"):
                        continue  # reduces nothing: a copy; three reducers are enough
                    for keepdims in ((False, True) if axis is None else (v % 2 == 1,)):
                        ddof = None
                        if has_ddof:  # ddof 0 (sometimes left implicit) and 1, apart from keepdims
                            ddof = (v // 2) % 2
                            if ddof == 0 and v % 3 == 0:
                                ddof = None
                        lines.append(reduction_check(fn, npfn, a, axis, keepdims, ddof, v))
                        v += 1
                name = "%s(a, axes...) | %s | numpy: np.%s(a, axis=...)" % (
                    fn, described(a), {"stddev": "std"}.get(fn, fn))
                h.case(name, lines)


def gen_nan_reductions(h):
    """NaN and infinities: min/max propagate NaN, argmin/argmax report the first NaN; sums."""
    for d in FLOATS:
        for shape in ((5,), (3, 4), (2, 3, 4)):
            a = rand_array(d, shape, specials=False)
            flat = a.reshape(-1)
            # Two NaNs in the first row (first-NaN rule) and infinities elsewhere.
            nan_at = rng.choice(min(a.shape[-1], a.size), size=2, replace=False)
            flat[nan_at] = np.nan
            flat[rng.integers(0, a.size)] = np.inf
            flat[rng.integers(0, a.size)] = -np.inf
            axes = [None] + list(range(-1, a.ndim))
            for fn, npfn in (("min", np.min), ("max", np.max), ("argmin", np.argmin),
                             ("argmax", np.argmax), ("sum", np.sum), ("mean", np.mean)):
                lines = [make_decl("a", a)]
                for i, axis in enumerate(axes):
                    lines.append(reduction_check(fn, npfn, a, axis, i % 2 == 1, None, 0))
                h.case("%s(a, axis) with NaN and inf | %s | numpy: np.%s(a, axis=...)" % (
                    fn, described(a), fn), lines)
    # All-equal and all -inf / +inf runs: argmax/argmin must still report the first index.
    for d, vals in (("float64", [-np.inf, -np.inf, -np.inf, 1.0, -np.inf, -np.inf]),
                    ("float32", [np.inf, 2.0, np.inf, np.inf, np.inf, np.inf]),
                    ("int32", [-2**31, -2**31, 5, -2**31, 2**31 - 1, 2**31 - 1]),
                    ("int64", [7, 7, 7, 7, 7, 7])):
        a = np.array(vals, dtype=d).reshape(2, 3)
        lines = [make_decl("a", a)]
        for fn, npfn in (("argmin", np.argmin), ("argmax", np.argmax), ("min", np.min), ("max", np.max)):
            for axis in (None, 0, 1):
                lines.append(reduction_check(fn, npfn, a, axis, False, None, 0))
        h.case("arg/min/max ties at the type's extremes | %s | numpy: np.argmax(a, axis=...)" %
               described(a), lines)


def gen_expr_reductions(h):
    for da, db, sb in (("int32", "int32", (3, 4)), ("float32", "float32", (3, 4)),
                       ("float64", "int32", (4,)), ("bool", "bool", (3, 4)), ("int64", "float64", (3, 1))):
        a, b = rand_array(da, (3, 4), specials=False), rand_array(db, sb, specials=False)
        prod = a * b
        res = np.asarray(np.sum(prod, axis=1))
        tol = sum_tolerance(prod.dtype.name, prod, 1)
        cpp = "fusor::sum(a * b, 1)"
        h.case("%s | %s * %s | numpy: np.sum(a * b, axis=1)" % (cpp, described(a), described(b)),
               [make_decl("a", a), make_decl("b", b),
                check_line(cpp, res, rtol=tol[0] if tol else None, atol=tol[1] if tol else None)])
    for da, db in (("float64", "float64"), ("int32", "int64"), ("float32", "float32"), ("int32", "float32")):
        a = rand_array(da, (2, 3, 4), specials=da == "float64" and db == "float64")
        b = rand_array(db, (3, 4), specials=False)
        res = np.asarray(np.max(np.abs(a - b)))
        for cpp, npx, r in (("fusor::max(fusor::abs(a - b))", "np.max(np.abs(a - b))", res),
                            ("fusor::argmax(fusor::abs(a - b), -1)", "np.argmax(np.abs(a - b), axis=-1)",
                             np.argmax(np.abs(a - b), axis=-1))):
            h.case("%s | %s - %s | numpy: %s" % (cpp, described(a), described(b), npx),
                   [make_decl("a", a), make_decl("b", b), check_line(cpp, r)])
    for d, shape in (("float64", (5, 3)), ("float32", (4, 3)), ("int32", (4, 3))):
        x = reduction_input("var", d, shape)
        res = np.asarray(np.mean(np.square(x - np.mean(x, 0, keepdims=True)), 0))
        cpp = "fusor::mean(fusor::square(x - fusor::mean(x, 0, fusor::keepdims)), 0)"
        npx = "np.mean(np.square(x - np.mean(x, 0, keepdims=True)), 0)"
        h.case("%s | x %s | numpy: %s" % (cpp, described(x), npx),
               [make_decl("x", x), check_line(cpp, res, rtol=var_tolerance(res.dtype.name, shape[0]))])
    # Softmax along axis 1 (API.md's example): exp (a few ulp), a positive sum of 4 and one
    # division: each side within ~(5 + 4 + 1) eps of the true value; rtol 16 eps.
    for d in FLOATS:
        x = (rng.standard_normal((3, 4)) * 3).astype(d)
        p = np.exp(x - np.max(x, 1, keepdims=True))
        res = np.asarray(p / np.sum(p, 1, keepdims=True))
        cpp_p = "fusor::exp(x - fusor::max(x, 1, fusor::keepdims))"
        h.case("softmax: p / fusor::sum(p, 1, fusor::keepdims), p = %s | x %s | numpy: same" % (cpp_p, described(x)),
               [make_decl("x", x), "    const auto p = %s; // lazy: p is read twice" % cpp_p,
                check_line("p / fusor::sum(p, 1, fusor::keepdims)", res, rtol=16 * EPS[d])])
    # A reduction of a view of a tensor and of a view of an expression.
    a, b = rand_array("int32", (3, 4), specials=False), rand_array("int32", (4, 3), specials=False)
    for cpp, npx, r in (
            ("fusor::sum(fusor::transpose(a) * b, 0)", "np.sum(a.T * b, axis=0)", np.sum(a.T * b, axis=0)),
            ("fusor::max(fusor::transpose(a + fusor::transpose(b)), 1)", "np.max((a + b.T).T, axis=1)",
             np.max((a + b.T).T, axis=1)),
            ("fusor::argmin(fusor::view(a, fusor::slice(fusor::none, fusor::none, -1), fusor::all), 0)",
             "np.argmin(a[::-1, :], axis=0)", np.argmin(a[::-1, :], axis=0))):
        h.case("%s | a %s, b %s | numpy: %s" % (cpp, described(a), described(b), npx),
               [make_decl("a", a), make_decl("b", b), check_line(cpp, np.asarray(r))])


def gen_view_reductions(h):
    """Reductions of views (transposed, reversed, strided) and of broadcast expressions: the flat
    index of argmax/argmin follows the view's logical order, not memory order."""
    a = rand_array("float64", (3, 4), specials=False)
    a.reshape(-1)[[5, 9]] = np.nan
    t = rand_array("float64", (3, 4), specials=False)
    b = rand_array("int32", (4,), specials=False)
    c = (rng.standard_normal((2, 3, 4)) * 4).astype(np.float32)
    rev = "fusor::slice(fusor::none, fusor::none, -1)"
    cases = [
        ("fusor::argmax(fusor::transpose(t))", "np.argmax(t.T)"),
        ("fusor::argmin(fusor::view(t, %s, %s))" % (rev, rev), "np.argmin(t[::-1, ::-1])"),
        ("fusor::argmax(fusor::transpose(t), 0)", "np.argmax(t.T, axis=0)"),
        ("fusor::argmin(fusor::transpose(t), 1, fusor::keepdims)", "np.argmin(t.T, axis=1, keepdims=True)"),
        ("fusor::argmax(fusor::transpose(a))", "np.argmax(a.T)"),
        ("fusor::argmin(fusor::transpose(a), -1)", "np.argmin(a.T, axis=-1)"),
        ("fusor::max(fusor::view(t, fusor::all, fusor::slice(fusor::none, fusor::none, -2)), 0)",
         "np.max(t[:, ::-2], axis=0)"),
        ("fusor::argmax(t + b)", "np.argmax(t + b)"),
        ("fusor::argmin(t * b, 0)", "np.argmin(t * b, axis=0)"),
        ("fusor::argmax(fusor::view(b, fusor::newaxis) + fusor::view(t, fusor::all, 0, fusor::newaxis), 1)",
         "np.argmax(b[None] + t[:, 0, None], axis=1)"),
        ("fusor::min(fusor::diagonal(t, 1))", "np.min(np.diagonal(t, 1))"),
        ("fusor::max(a, {0, 1}, fusor::keepdims)", "np.max(a, axis=(0, 1), keepdims=True)"),
        ("fusor::sum(t, 2)", "np.sum(t, axis=2)"),
        ("fusor::argmax(t, -3)", "np.argmax(t, axis=-3)"),
        ("fusor::sum(t, {0, 0})", "np.sum(t, axis=(0, 0))"),
        ("fusor::sum(fusor::transpose(t), 1)", "np.sum(t.T, axis=1)") + sum_tolerance("float64", t.T, 1),
        ("fusor::mean(fusor::transpose(c, {1, 0, 2}), {0, 2})", "np.mean(np.transpose(c, (1, 0, 2)), axis=(0, 2))")
        + sum_tolerance("float32", np.transpose(c, (1, 0, 2)), (0, 2), divide_by_count=True),
        ("fusor::sum(fusor::view(c, fusor::ellipsis, fusor::slice(fusor::none, fusor::none, -3)), -1)",
         "np.sum(c[..., ::-3], axis=-1)") + sum_tolerance("float32", c[..., ::-3], -1),
    ]
    cases += [
        ("fusor::var(t, 0, fusor::ddof{3})", "np.var(t, axis=0, ddof=3)"),
        ("fusor::stddev(t, 0, fusor::ddof{4})", "np.std(t, axis=0, ddof=4)"),
        ("fusor::var(t, -1, fusor::ddof{3})", "np.var(t, axis=-1, ddof=3)", var_tolerance("float64", 4)),
    ]
    evaluated_cases(h, "reductions of views and of broadcast expressions", {"a": a, "t": t, "b": b, "c": c}, cases)
    m = rand_array("int32", (3, 5), specials=False)
    centred = np.transpose(m - np.mean(m, 1, keepdims=True))
    evaluated_cases(h, "a reduction of a view of an expression that holds a reduction", {"m": m}, [
        ("fusor::sum(fusor::transpose(m - fusor::mean(m, 1, fusor::keepdims)), 0)",
         "np.sum(np.transpose(m - np.mean(m, 1, keepdims=True)), axis=0)") + sum_tolerance("float64", centred, 0),
        ("fusor::argmax(fusor::transpose(m - fusor::mean(m, 1, fusor::keepdims)), 0)",
         "np.argmax(np.transpose(m - np.mean(m, 1, keepdims=True)), axis=0)"),
        ("fusor::max(fusor::view(m - fusor::min(m, 0), fusor::slice(fusor::none, fusor::none, -1)), 1, fusor::keepdims)",
         "np.max((m - np.min(m, 0))[::-1], axis=1, keepdims=True)"),
    ])
    # 0-d operands: NumPy accepts axis 0 / -1 there (and reduces nothing), not axis 1.
    z, i = np.array(2.5), np.array(-7, dtype=np.int32)
    evaluated_cases(h, "reductions of 0-d tensors", {"z": z, "i": i}, [
        ("fusor::sum(z)", "np.sum(z)"),
        ("fusor::sum(i, 0)", "np.sum(i, axis=0)"),
        ("fusor::max(z, -1)", "np.max(z, axis=-1)"),
        ("fusor::argmax(z)", "np.argmax(z)"),
        ("fusor::argmin(i, 0)", "np.argmin(i, axis=0)"),
        ("fusor::mean(i)", "np.mean(i)"),
        ("fusor::var(z)", "np.var(z)"),
        ("fusor::sum(z, fusor::keepdims)", "np.sum(z, keepdims=True)"),
        ("fusor::sum(z, 1)", "np.sum(z, axis=1)"),
    ])


def gen_empty_reductions(h):
    for d, shape in (("float64", (0, 3)), ("int32", (0, 3)), ("float32", (2, 0)), ("bool", (0, 3))):
        a = np.zeros(shape, dtype=d)
        lines = [make_decl("a", a)]
        for fn, npfn in (("sum", np.sum), ("mean", np.mean), ("max", np.max), ("min", np.min),
                         ("argmax", np.argmax), ("argmin", np.argmin), ("var", np.var)):
            for axis in (None, 0, 1):
                for keepdims in (False, True):
                    lines.append(reduction_check(fn, npfn, a, axis, keepdims, None, 0))
        h.case("reductions of an empty tensor | %s | numpy: np.sum/mean/max/min/argmax/argmin/var" %
               described(a), lines)


# ------------------------------------------------------------------------------------------
# 4. Views (numpy_cases_views.hpp)
# ------------------------------------------------------------------------------------------

class All:
    """fusor::all as a view index (numpy's `:`)."""


def cpp_index(i):
    if i is None:
        return "fusor::newaxis"
    if i is Ellipsis:
        return "fusor::ellipsis"
    if i is All:
        return "fusor::all"
    if isinstance(i, slice):
        def b(x):
            return "fusor::none" if x is None else str(x)
        if i.start is None and i.step is None:
            return "fusor::slice(%s)" % b(i.stop)  # slice(n) is :n
        if i.step is None:
            return "fusor::slice(%s, %s)" % (b(i.start), b(i.stop))
        return "fusor::slice(%s, %s, %s)" % (b(i.start), b(i.stop), b(i.step))
    return str(i)


def np_index(i):
    if i is None:
        return "None"
    if i is Ellipsis:
        return "..."
    if i is All:
        return ":"
    if isinstance(i, slice):
        s = ("" if i.start is None else str(i.start)) + ":" + ("" if i.stop is None else str(i.stop))
        if i.step is not None:
            s += ":" + str(i.step)
        return s
    return str(i)


def to_np_key(idx):
    return tuple(slice(None) if i is All else i for i in idx)


VIEW_CASES = {
    (10,): [(slice(8, 2, -3),), (slice(-2, None),), (slice(None, None, -1),), (slice(10, None),),
            (slice(-100, 100),), (slice(None, None, 3),), (slice(3),), (slice(-3),), (slice(5, 1),),
            (slice(1, -1, 2),), (slice(100, -100, -4),), (-1,), (3,), (None, slice(2, 6)),
            (Ellipsis,), (slice(None, None, -1), None), (slice(None, -20, -1),), (slice(-20, None, -1),),
            (slice(5, None, -2),), (slice(None, 5, -2),), (slice(-3, -1),), (slice(0, 10, 100),),
            (slice(-1, -11, -1),), (slice(9, -11, -4),)],
    (3, 4): [(1,), (-1, slice(None, None, -2)), (None, All, 1), (Ellipsis, 0), (0, Ellipsis, None),
             (slice(1, None), slice(None, None, -1)), (slice(None, None, -1), slice(3, 0, -2)),
             (All, slice(10, 20)), (2, -4), (slice(-1, -4, -1), None, Ellipsis)],
    (2, 3, 4): [(slice(1, None), 2, None, All, Ellipsis), (Ellipsis, slice(None, None, -1)),
                (0, Ellipsis, -1), (None, 1, None, slice(None, None, 2), None),
                (slice(None, None, -1), slice(1, 3), slice(3, None, -3)), (-1, -1, -1),
                (All, All, All, None), (slice(0, 0), 1)],
}


def gen_views(h):
    for shape in ((3, 4), (2, 3, 4), (3, 3, 2)):
        for d in ("int32", "float64"):
            a = rand_array(d, shape)
            lines = [make_decl("a", a)]
            perms = [None] + ([(1, 0)] if len(shape) == 2 else [(1, 0, 2), (-1, 0, 1), (2, 0, 1)])
            for p in perms:
                cpp = "fusor::transpose(a)" if p is None else "fusor::transpose(a, {%s})" % ", ".join(map(str, p))
                npx = "np.transpose(a)" if p is None else "np.transpose(a, %r)" % (p,)
                res = np.transpose(a) if p is None else np.transpose(a, [x % len(shape) for x in p])
                lines.append(subcase(cpp, npx, res))
            h.case("transpose | %s | numpy: np.transpose" % described(a), lines)
    diag = {
        (3, 3): [(0, 0, 1), (1, 0, 1), (-1, 0, 1), (2, 0, 1), (3, 0, 1), (5, 0, 1), (-5, 0, 1), (1, 1, 0)],
        (3, 4): [(0, 0, 1), (1, 0, 1), (3, 0, 1), (4, 0, 1), (-2, 0, 1), (-3, 0, 1), (2, -1, -2)],
        (2, 3, 4): [(0, 0, 1), (1, 1, 2), (0, 0, 2), (-1, 2, 0), (2, -1, -2), (10, 0, 1), (-1, 1, 2),
                    (-2, 2, 1)],
    }
    for shape, specs in diag.items():
        for d in ("int64", "float32"):
            a = rand_array(d, shape)
            lines = [make_decl("a", a)]
            for off, ax1, ax2 in specs:
                cpp = "fusor::diagonal(a, %d, %d, %d)" % (off, ax1, ax2)
                npx = "np.diagonal(a, %d, %d, %d)" % (off, ax1, ax2)
                res = np.diagonal(a, off, ax1, ax2)
                lines.append(subcase(cpp, npx, res))
            lines.append(subcase("fusor::diagonal(a)", "np.diagonal(a)", np.diagonal(a)))
            h.case("diagonal | %s | numpy: np.diagonal(a, offset, axis1, axis2)" % described(a), lines)
    for shape, keys in VIEW_CASES.items():
        if shape == (10,):
            a = np.arange(10, dtype=np.int64)
            decl = make_decl("a", a)
        else:
            a = rand_array("float64" if len(shape) == 2 else "int32", shape)
            decl = make_decl("a", a)
        lines = [decl]
        for key in keys:
            cpp = "fusor::view(a, %s)" % ", ".join(cpp_index(i) for i in key)
            npx = "a[%s]" % ", ".join(np_index(i) for i in key)
            res = a[to_np_key(key)]
            lines.append(subcase(cpp, npx, res))
        h.case("view | %s | numpy: basic indexing a[...]" % described(a), lines)
    # Index errors: NumPy IndexError -> fusor index_error; too many indices -> value_error
    # (API.md's settled detail; NumPy raises IndexError there).
    a = rand_array("int32", (3, 4))
    lines = [make_decl("a", a)]
    for key, exc in (((3,), "index_error"), ((0, -5), "index_error"), ((0, 0, 0), "value_error")):
        try:
            a[key]
            sys.exit("generate.py: expected IndexError for %r" % (key,))
        except IndexError:
            pass
        cpp = "fusor::view(a, %s)" % ", ".join(cpp_index(i) for i in key)
        lines.append(subcase_throws(cpp, "a[%s] raises IndexError" % ", ".join(np_index(i) for i in key), exc))
    h.case("view out of range | int32(3,4) | numpy: IndexError", lines)
    # Bad view arguments (NumPy AxisError -> axis_error, ValueError -> value_error) and 0-d views.
    m, v, z = rand_array("int32", (3, 4)), rand_array("float64", (4,)), np.array(1.5)
    evaluated_cases(h, "bad view arguments and views of 0-d tensors", {"m": m, "v": v, "z": z}, [
        ("fusor::transpose(m, {0, 0})", "np.transpose(m, (0, 0))"),
        ("fusor::transpose(m, {0, 2})", "np.transpose(m, (0, 2))"),
        ("fusor::transpose(m, {0})", "np.transpose(m, (0,))"),
        ("fusor::transpose(m, {-1, -2})", "np.transpose(m, (-1, -2))"),
        ("fusor::diagonal(m, 0, 1, 1)", "np.diagonal(m, 0, 1, 1)"),
        ("fusor::diagonal(m, 0, 0, 2)", "np.diagonal(m, 0, 0, 2)"),
        ("fusor::diagonal(m, 0, -1, -2)", "np.diagonal(m, 0, -1, -2)"),
        ("fusor::diagonal(v)", "np.diagonal(v)"),
        ("fusor::view(v, fusor::slice(fusor::none, fusor::none, 0))", "v[::0]"),
        ("fusor::transpose(v)", "np.transpose(v)"),
        ("fusor::transpose(z)", "np.transpose(z)"),
        ("fusor::view(z, fusor::newaxis)", "z[None]"),
        ("fusor::view(z, fusor::ellipsis)", "z[...]"),
        ("fusor::view(z, fusor::newaxis, fusor::ellipsis, fusor::newaxis)", "z[None, ..., None]"),
        ("fusor::view(z + v, fusor::slice(1, fusor::none, 2))", "(z + v)[1::2]"),
    ])
    # Views of expressions (lazy remaps) and views of views.
    a, b = rand_array("float64", (2, 3)), rand_array("int32", (3,))
    c = rand_array("float32", (2, 3, 4))
    for cpp, npx, r, ops in (
            ("fusor::transpose(a + b)", "np.transpose(a + b)", np.transpose(a + b), "ab"),
            ("fusor::diagonal(a * b, 1)", "np.diagonal(a * b, 1)", np.diagonal(a * b, 1), "ab"),
            ("fusor::view(a - b, fusor::slice(fusor::none, fusor::none, -1), 1)", "(a - b)[::-1, 1]",
             (a - b)[::-1, 1], "ab"),
            ("fusor::transpose(fusor::view(c, fusor::slice(fusor::none, fusor::none, -1), fusor::slice(1, 3)), {2, 0, 1})",
             "np.transpose(c[::-1, 1:3], (2, 0, 1))", np.transpose(c[::-1, 1:3], (2, 0, 1)), "c"),
            ("fusor::diagonal(fusor::transpose(c + c), 1, 0, 2)", "np.diagonal((c + c).T, 1, 0, 2)",
             np.diagonal((c + c).T, 1, 0, 2), "c"),
            ("fusor::view(fusor::exp(c), 1, fusor::slice(fusor::none, fusor::none, -2))",
             "np.exp(c)[1, ::-2]", np.exp(c)[1, ::-2], "c"),
            ("fusor::view(a, fusor::slice(fusor::none, fusor::none, -1)) + fusor::view(b, fusor::newaxis)",
             "a[::-1] + b[None]", a[::-1] + b[None], "ab"),
            ("fusor::diagonal(fusor::view(a, fusor::slice(fusor::none, fusor::none, -1)), 1)",
             "np.diagonal(a[::-1], 1)", np.diagonal(a[::-1], 1), "a"),
            ("fusor::diagonal(fusor::transpose(a), -1)", "np.diagonal(a.T, -1)", np.diagonal(a.T, -1), "a"),
            ("fusor::diagonal(a + b, 5)", "np.diagonal(a + b, 5)", np.diagonal(a + b, 5), "ab"),
            ("fusor::view(a * b, fusor::slice(5, 2))", "(a * b)[5:2]", (a * b)[5:2], "ab"),
            ("fusor::transpose(fusor::view(a + b, fusor::slice(fusor::none, fusor::none, -1)))",
             "np.transpose((a + b)[::-1])", np.transpose((a + b)[::-1]), "ab"),
            ("fusor::diagonal(fusor::view(c * c, 1), 0)", "np.diagonal((c * c)[1], 0)",
             np.diagonal((c * c)[1], 0), "c"),
            ("fusor::view(fusor::transpose(c - c), -1, fusor::ellipsis, fusor::slice(fusor::none, fusor::none, -1))",
             "(c - c).T[-1, ..., ::-1]", (c - c).T[-1, ..., ::-1], "c"),
            ("fusor::where(fusor::transpose(a) > 0, fusor::view(b, fusor::all, fusor::newaxis), fusor::transpose(a))",
             "np.where(a.T > 0, b[:, None], a.T)", np.where(a.T > 0, b[:, None], a.T), "ab")):
        decls = [make_decl(n, {"a": a, "b": b, "c": c}[n]) for n in ops]
        rtol = "oracle::rtol_transcendental_f32" if "exp" in cpp else None
        h.case("%s | %s | numpy: %s" % (cpp, ", ".join("%s %s" % (n, described({"a": a, "b": b, "c": c}[n]))
                                                           for n in ops), npx),
               decls + [check_line(cpp, np.asarray(r), rtol=rtol)])


# ------------------------------------------------------------------------------------------

def main():
    headers = [
        (Header("numpy_cases.hpp", "NumPy-oracle cases: element-wise binary operations "
                                   "(+ - * /, comparisons, minimum, maximum)"), [gen_binary]),
        (Header("numpy_cases_unary.hpp", "NumPy-oracle cases: unary functions, weak C++ scalars, "
                                         "where"), [gen_unary, gen_scalars, gen_where]),
        (Header("numpy_cases_reduce.hpp", "NumPy-oracle cases: reductions"),
         [gen_reductions, gen_nan_reductions, gen_expr_reductions, gen_view_reductions,
          gen_empty_reductions]),
        (Header("numpy_cases_views.hpp", "NumPy-oracle cases: transpose, diagonal, view(...)"),
         [gen_views]),
    ]
    for h, gens in headers:
        for g in gens:
            g(h)
        n, size = h.write()
        print("%-26s %4d test cases, %7d bytes" % (h.filename, n, size))


if __name__ == "__main__":
    main()
