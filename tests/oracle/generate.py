#!/usr/bin/python3
"""Writes the NumPy-oracle test headers of fusor: tests/oracle/numpy_cases*.hpp.

    /usr/bin/python3 tests/oracle/generate.py        (from anywhere; paths are relative to this file)

NumPy is the oracle: every expected dtype, shape, value and error below is computed by NumPy,
never by hand. The output is deterministic (one numpy.random.default_rng(20261122) stream, fixed
iteration orders), so running the script twice gives byte-identical headers; commit them.

Sections 1-4 are fixed suites. Section 5 is a random differential test of the reductions, scans
and along-axis operations (numpy_cases_random_reduce_{0,1,2,3}.hpp, one test executable each),
drawn from its own stream, so these options change only those four headers:
    --seed N                  the random cases' seed (default 20261122, the checked-in one)
    --random-reduce-count M   how many random subcases (default 1200, what CI runs)
    --out DIR                 where to write every header (default: this script's folder)
e.g. `/usr/bin/python3 tests/oracle/generate.py --seed 7 --random-reduce-count 5000` rewrites the
four random headers in place for a local run (build and run test_oracle_numpy_random_reduce_*;
`git checkout tests/oracle/numpy_cases_random_reduce_*.hpp` restores CI's); with `--out /tmp/o`
nothing checked in changes. The ctest oracle.up_to_date runs the defaults and requires the
checked-in headers byte for byte.

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
(see `sum_tolerance` and `var_tolerance` below; section 5: `r_tolerance`, which also covers
prod, norm and logsumexp).

Section 5 follows NumPy 1.24 throughout (on a 0-d operand: one integer axis 0 / -1 reduces
nothing for sum, min, ..., norm and logsumexp, but mean/var/std raise AxisError, and so does a
list naming any axis, `{0}`), except where API.md settles otherwise: min/max/argmin/argmax raise
only when a non-empty result would reduce a length-0 axis, while NumPy 1.24 also raises for an
empty result that reduces a length-0 axis (see r_reduction).
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
    "int16": "std::int16_t",
    "int32": "std::int32_t",
    "int64": "std::int64_t",
    "uint8": "std::uint8_t",
    "uint32": "std::uint32_t",
    "uint64": "std::uint64_t",
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
    if np.dtype(dtype).kind in "iu":
        return wide_int_lit(int(v))
    f = float(v)  # float32 -> double is exact
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Inf" if f > 0 else "-Inf"
    return repr(f)  # shortest text that round-trips to exactly this double


def wide_int_lit(i):
    """Any int64 / uint64 value as a C++ literal (the random reductions' wrapping sums and
    products reach the whole 64-bit range; those headers static_assert that long double holds
    every 64-bit integer exactly, which x86-64's 64-bit significand does)."""
    assert -2**63 <= i < 2**64, i
    if -2**31 <= i < 2**31:
        return str(i)
    if abs(i) <= 2**53:
        return str(i) + "LL"
    if i == -2**63:
        return "(-9223372036854775807LL - 1)"
    return str(i) + ("LL" if i < 2**63 else "ULL")


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

OUT_DIR = HERE  # --out DIR


class Header:
    def __init__(self, filename, title):
        self.filename, self.title = filename, title
        self.cases = []

    def head_comment(self):
        """The header's top comment (a subclass writes its own)."""
        return [
            "// " + self.title,
            "//",
            "// GENERATED by tests/oracle/generate.py from NumPy %s -- do not edit by hand." % np.__version__,
            "// Regenerate (deterministic, seed %d):  /usr/bin/python3 tests/oracle/generate.py" % SEED,
            "// Every expected dtype, shape and value was computed by NumPy; where NumPy 1.24 differs",
            "// from /work/shared/API.md (NEP 50 promotion, no float16) generate.py says how it follows",
            "// API.md. Test names read `fusor expression | operand dtypes and shapes | numpy: ...`.",
        ]

    def prologue(self):
        """Code lines between the using-declarations and the first TEST_CASE."""
        return []

    def extra_includes(self):
        """Standard headers after <cstdint>."""
        return []

    def case(self, name, lines):
        assert '"' not in name and "\\" not in name
        self.cases.append('TEST_CASE("%s") {\n%s\n}\n' % (name, "\n".join(lines)))

    def write(self):
        head = self.head_comment() + [
            "#pragma once",
            "",
            "#include <doctest/doctest.h>",
            "",
            "#include <fusor/fusor.hpp>",
            "",
            "#include <cstdint>",
        ] + self.extra_includes() + [
            "",
            '#include "check.hpp"',
            "",
            "namespace {",
            "using oracle::check_tensor;",
            "using oracle::Inf;",
            "using oracle::make;",
            "using oracle::NaN;",
            "",
        ] + self.prologue()
        text = "\n".join(head) + "\n" + "\n".join(self.cases) + "\n} // namespace\n"
        with open(os.path.join(OUT_DIR, self.filename), "w") as f:
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
# 5. Random differential cases: reductions, scans, sort, argsort, topk
#    (numpy_cases_random_reduce_{0,1,2,3}.hpp)
# ------------------------------------------------------------------------------------------

RANDOM_REDUCE_COUNT = 1200  # subcases of a default (CI) run; the project wants >= 1,000 per run
RANDOM_HEADERS = 4  # translation units, so that two cores compile them in parallel
EPS32, EPS64 = EPS["float32"], EPS["float64"]

# (dtype, weight): the common ones more often (integer weights: cards in a deck).
R_DTYPES = [("float32", 4), ("float64", 4), ("int32", 3), ("int64", 3), ("bool", 3), ("int8", 1),
            ("uint8", 1), ("int16", 1), ("uint32", 1), ("uint64", 1)]

# A TEST_CASE draws one family: its values suit the family's functions (weights inside).
#   sums:  sums, means, moments, norms, logsumexp, cumsum: ties, moderate integers, specials
#   order: min/max, arg-reductions, sort, argsort, topk: many ties, NaN, +-inf, -0.0, big ints
#   prod:  products: floats of magnitude near 1 (no overflow in any order), small integers
#   wrap:  integers over their whole range: int64/uint64 sums and products wrap as NumPy's
R_FAMILIES = {
    "sums": (0.40, {"sum": 3, "mean": 2, "var": 1.5, "std": 1.5, "norm": 1.5, "logsumexp": 1.5,
                    "cumsum": 1.5, "count_nonzero": 0.6, "all": 0.4, "any": 0.4}),
    "order": (0.35, {"min": 2, "max": 2, "argmin": 1.5, "argmax": 1.5, "sort": 1.5,
                     "argsort": 1.5, "topk": 2, "all": 0.4, "any": 0.4, "count_nonzero": 0.4}),
    "prod": (0.15, {"prod": 3, "cumprod": 2, "sum": 0.5, "all": 0.4, "any": 0.4,
                    "count_nonzero": 0.3}),
    "wrap": (0.10, {"sum": 2, "prod": 2, "cumsum": 1.5, "cumprod": 1.5, "min": 0.5, "max": 0.5,
                    "argmin": 0.5, "sort": 0.5}),
}
R_REDUCERS = ("sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "all",
              "any", "count_nonzero", "norm", "logsumexp")
R_NUMPY = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "var": np.var, "std": np.std,
           "min": np.min, "max": np.max, "argmin": np.argmin, "argmax": np.argmax, "all": np.all,
           "any": np.any, "count_nonzero": np.count_nonzero}
# (form, weight): how the reduced operand is made from `a` (and `b`).
R_FORMS = [("plain", 3), ("transpose", 1.5), ("view", 2), ("diagonal", 1), ("flip", 1),
           ("broadcast_to", 1), ("expression", 2), ("view of expression", 1)]
R_MAX_SIZE = 625  # 5^4: the largest operand (broadcast_to stays within it)


def pick(rr, weighted):
    """One key of a list of (key, weight) pairs or a {key: weight} dict."""
    items = list(weighted.items()) if isinstance(weighted, dict) else list(weighted)
    w = np.array([x[1] for x in items], dtype=np.float64)
    return items[int(rr.choice(len(items), p=w / w.sum()))][0]


def r_shape(rr):
    """Rank 0..4 (0-d sometimes), extents 1..5 (1 often) and in one case in ten an extent-0 axis
    (views and broadcast_to make more empty operands out of the others)."""
    rank = int(rr.choice(5, p=[0.1, 0.2, 0.3, 0.25, 0.15]))
    shape = [1 if rr.random() < 0.17 else int(rr.integers(2, 6)) for _ in range(rank)]
    if rank and rr.random() < 0.1:
        shape[int(rr.integers(0, rank))] = 0
    return tuple(shape)


def r_values(rr, family, dtype, shape):
    """Random values of `dtype` for a TEST_CASE of `family` (see R_FAMILIES)."""
    n = int(np.prod(shape, dtype=np.int64))
    dt = np.dtype(dtype)
    if dtype == "bool":
        p = float(rr.choice([0.5, 0.5, 0.2, 0.8, 0.0, 1.0]))  # all-false / all-true sometimes
        return (rr.random(n) < p).reshape(shape)
    # order: ties decide argmin/argmax/argsort/topk, so values come from 3, 5 or 11 integers.
    spread = int(rr.choice([1, 2, 5])) if family == "order" else 5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = 0 if dt.kind == "u" else -spread
        small = rr.integers(lo, lo + 2 * spread + 1, n)
        if family == "prod":
            return rr.integers(0 if dt.kind == "u" else -3, 4, n).astype(dt).reshape(shape)
        if family == "sums":  # moderate: every float64 sum, mean and norm of them is exact
            big_lo, big_hi, p_big = max(int(info.min), -1000), min(int(info.max), 1000), 0.25
        else:  # order, wrap: the whole range (make<> takes long long: uint64 below 2^63)
            big_lo = int(info.min) if dt.itemsize < 8 else (0 if dt.kind == "u" else -2**62)
            big_hi = min(int(info.max), 2**63 - 1)
            p_big = 0.5 if family == "wrap" else 0.2
        big = np.array([int(rr.integers(big_lo, big_hi, endpoint=True)) for _ in range(n)],
                       dtype=object)
        pick_big = rr.random(n) < p_big
        v = [int(b) if pb else int(s) for b, s, pb in zip(big, small, pick_big)]
        return np.array(v, dtype=dt).reshape(shape)
    if family == "prod":  # |x| = exp(N(0, 0.25)): any order of a product of 625 stays in range
        v = np.exp(rr.standard_normal(n) * 0.25) * rr.choice([-1.0, 1.0], n)
        few = rr.random(n) < 0.12
        v = np.where(few, rr.choice([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0], n), v)
        p_small = 0.0
    else:
        v = rr.standard_normal(n) * 4
        p_small = 0.7 if family == "order" else 0.35
    spread = min(spread, 3)
    small = rr.integers(-spread, spread + 1, n).astype(np.float64)
    v = np.where(rr.random(n) < p_small, small, v).astype(dt)
    if rr.random() < (0.6 if family == "order" else 0.3):  # NaN, +-inf, -0.0 in this case
        nan = 0.1 if family == "order" else 0.05  # order: several NaN per lane (first NaN wins)
        u = rr.random(n)
        v[u < nan] = np.nan
        v[(u >= nan) & (u < nan + 0.04)] = np.inf
        v[(u >= nan + 0.04) & (u < nan + 0.08)] = -np.inf
        v[(u >= nan + 0.08) & (u < nan + 0.13)] = -0.0
        v[(u >= nan + 0.13) & (u < nan + 0.16)] = 0.0
    return v.reshape(shape)


class RandomCase:
    """One TEST_CASE being drawn: the array `a` (and `b`, made when an expression needs it)."""

    def __init__(self, rr, family, dtype, shape):
        self.rr, self.family = rr, family
        self.a = r_values(rr, family, dtype, shape)
        self.b = None
        self.lines, self.fns, self.forms, self.stats = [], [], [], []

    def get_b(self):
        """`b` broadcasts to `a`: a suffix of a's shape, some extents 1; mostly a's dtype."""
        if self.b is None:
            rr, a = self.rr, self.a
            k = int(rr.integers(0, a.ndim + 1))
            shape = tuple(1 if rr.random() < 0.4 else e for e in a.shape[a.ndim - k:])
            dtype = a.dtype.name
            if self.family != "wrap" and rr.random() < 0.25:
                dtype = pick(rr, R_DTYPES)
            self.b = r_values(rr, self.family, dtype, shape)
        return self.b


def r_axis_text(axis):
    return "(" + ", ".join(str(x) for x in axis) + ("," if len(axis) == 1 else "") + ")"


def r_view_key(rr, shape):
    """A random basic index of `shape`: all, slices (negative steps too), integers, newaxis."""
    key = []
    rank = len(shape)
    used = rank if rr.random() < 0.8 else int(rr.integers(0, rank + 1))  # trailing axes implied
    for k in range(used):
        e = shape[k]
        if rr.random() < 0.12:
            key.append(None)
        u = rr.random()
        if u < 0.25:
            key.append(All)
        elif u < 0.42 and e > 0:
            key.append(int(rr.integers(-e, e)))
        elif u < 0.55:
            key.append(slice(None, None, -1))
        else:
            def bound():
                return None if rr.random() < 0.4 else int(rr.integers(-7, 8))
            step = rr.choice([None, None, 1, 2, 3, -1, -2, -3])
            key.append(slice(bound(), bound(), None if step is None else int(step)))
    if rr.random() < 0.12 or not key:
        key.insert(int(rr.integers(0, len(key) + 1)), None)
    return tuple(key)


def r_view_texts(key):
    return ", ".join(cpp_index(i) for i in key), ", ".join(np_index(i) for i in key)


def r_remap(rr, kind, x, cpp, npx, np_inner):
    """Applies the view `kind` to (x, its C++ text, its NumPy text). `np_inner` is the NumPy text
    to put inside brackets (parenthesised for an expression). None when `kind` does not fit."""
    r = x.ndim
    if kind == "transpose":
        if r >= 2 and rr.random() < 0.5:
            perm = [int(p) for p in rr.permutation(r)]
            perm = [p - r if rr.random() < 0.25 else p for p in perm]
            text = ", ".join(str(p) for p in perm)
            return (np.transpose(x, [p % r for p in perm]), "fusor::transpose(%s, {%s})" % (cpp, text),
                    "np.transpose(%s, %s)" % (npx, r_axis_text(perm)), "transpose(perm)")
        return np.transpose(x), "fusor::transpose(%s)" % cpp, "np.transpose(%s)" % npx, "transpose"
    if kind == "view":
        key = r_view_key(rr, x.shape)
        c, n = r_view_texts(key)
        return x[to_np_key(key)], "fusor::view(%s, %s)" % (cpp, c), "%s[%s]" % (np_inner, n), "view"
    if kind == "diagonal":
        if r < 2:
            return None
        ax1, ax2 = [int(v) for v in rr.choice(r, 2, replace=False)]
        ax1, ax2 = [v - r if rr.random() < 0.25 else v for v in (ax1, ax2)]
        off = int(rr.integers(-3, 4))
        if rr.random() < 0.15:  # the defaults: offset 0, axes 0 and 1
            return (np.diagonal(x), "fusor::diagonal(%s)" % cpp, "np.diagonal(%s)" % npx, "diagonal")
        return (np.diagonal(x, off, ax1, ax2), "fusor::diagonal(%s, %d, %d, %d)" % (cpp, off, ax1, ax2),
                "np.diagonal(%s, %d, %d, %d)" % (npx, off, ax1, ax2), "diagonal")
    if kind == "flip":
        if r >= 1 and rr.random() < 0.6:
            ax = int(rr.integers(-r, r))
            return np.flip(x, ax), "fusor::flip(%s, %d)" % (cpp, ax), "np.flip(%s, %d)" % (npx, ax), "flip(axis)"
        return np.asarray(np.flip(x)), "fusor::flip(%s)" % cpp, "np.flip(%s)" % npx, "flip"
    if kind == "broadcast_to":
        for _ in range(20):
            target = [int(rr.integers(0, 5)) if (e == 1 and rr.random() < 0.6) else e for e in x.shape]
            lead = int(rr.integers(0 if target != list(x.shape) else 1, 3))
            target = [int(rr.integers(0, 4)) if rr.random() < 0.1 else int(rr.integers(1, 4))
                      for _ in range(lead)] + target
            if int(np.prod(target, dtype=np.int64)) <= R_MAX_SIZE and len(target) <= 5:
                t = tuple(target)
                return (np.broadcast_to(x, t), "fusor::broadcast_to(%s, fusor::shape_t{%s})" % (
                    cpp, ", ".join(str(v) for v in t)), "np.broadcast_to(%s, %s)" % (npx, np_shape(t)),
                    "broadcast_to")
        return None
    raise AssertionError(kind)


def r_expression(case):
    """An element-wise expression of a (and b): (x, C++, NumPy, form name). Promotion by dtype
    (both operands cast to numpy.result_type of the dtypes); `a + 1` as a weak scalar (NEP 50)."""
    rr, a = case.rr, case.a
    kind = pick(rr, [("a * b", 3), ("a + b", 2), ("fusor::abs(a - b)", 2), ("a + 1", 1.5)])
    if kind == "a + 1":
        sd = nep50_scalar_dtype(a.dtype.name, 1)
        return np.asarray(a.astype(sd) + sd.type(1)), "a + 1", "a + 1", "a + 1"
    b = case.get_b()
    r = np.result_type(a.dtype, b.dtype)
    x, y = a.astype(r), b.astype(r)
    if kind == "fusor::abs(a - b)" and r != np.bool_:
        return np.asarray(np.abs(x - y)), kind, "np.abs(a - b)", "abs(a - b)"
    if kind == "a + b":
        return np.asarray(x + y), "a + b", "a + b", "a + b"
    return np.asarray(x * y), "a * b", "a * b", "a * b"


def r_operand(case):
    """The operand of one subcase: (x, C++ text, NumPy text, form name)."""
    rr, a = case.rr, case.a
    while True:
        form = pick(rr, R_FORMS)
        if form == "plain":
            return a, "a", "a", "plain"
        if form == "expression":
            return r_expression(case)
        if form == "view of expression":
            x, cpp, npx, name = r_expression(case)
            kind = pick(rr, [("transpose", 2), ("view", 2), ("flip", 1), ("diagonal", 1)])
            got = r_remap(rr, kind, x, cpp, npx, "(%s)" % npx)
            if got is None:
                continue
            return got[0], got[1], got[2], "%s of %s" % (got[3].split("(")[0], name)
        got = r_remap(rr, form, a, "a", "a", "a")
        if got is not None:
            return got


def sum_dtype_of(dt):
    """API.md's (and NumPy's) sum/prod/cumsum/cumprod result dtype."""
    if dt.kind == "f":
        return dt
    return np.dtype(np.uint64) if dt.kind == "u" else np.dtype(np.int64)


def float_result_of(dt):
    """mean/var/std/norm/logsumexp: floats keep their type, bool and integers give float64."""
    return dt if dt.kind == "f" else np.dtype(np.float64)


def r_reduced(x, axis):
    """(the reduced axes of x, sorted, and n: the number of elements per result)."""
    if axis is None:
        axes = tuple(range(x.ndim))
    elif x.ndim == 0:
        axes = ()
    else:
        axes = tuple(sorted(v % x.ndim for v in (axis if isinstance(axis, tuple) else (axis,))))
    return axes, int(np.prod([x.shape[v] for v in axes], dtype=np.int64))


def lane_scale(x, axes, f=np.abs):
    """max over results of sum f(x) over the reduced axes, finite elements only, in float64."""
    xf = x.astype(np.float64)
    v = np.where(np.isfinite(xf), f(xf), 0.0)
    s = np.sum(v, axis=axes) if axes else v
    return float(np.max(s)) if np.size(s) else 0.0


def exact_in_float64(x, n, power=1):
    """Integer or bool data whose float64 sums of `power`-th powers, n terms, are all exact."""
    if x.dtype.kind == "f":
        return False
    m = max((abs(int(v)) for v in x.ravel()), default=0)
    return n * m**power < 2**53


def r_tolerance(fn, x, axis, ddof):
    """(rtol, atol) for fusor's value of reduction `fn` of x, or (None, None) when the check is
    exact. S = sum|x| of a result's elements (max over results), M = max|x|, n = elements per
    result, u = eps/2 (unit roundoff) of the type the arithmetic rounds in.

    sum: NumPy adds in the operand's type in its own order (pairwise along the contiguous axis,
      sequential across the others), fusor in double (float32) or compensated double (float64).
      Any order of n - 1 additions is within (n - 1) u S of the true sum (Higham, gamma_{n-1});
      fusor's is within n u64 S, rounded once (u |sum|). So they differ by less than
      eps |want| + n eps S: rtol eps, atol n eps S (a factor 2 to spare). Integers: exact.
    mean: the sum divided by n, one more rounding on each side: rtol 2 eps, atol eps S. Bool and
      integer means are exact when every float64 partial sum is (n max|x| < 2^53: both sides then
      divide the same exact sum by n, correctly rounded); wider integers follow float64.
    var/std: see var_tolerance (rtol 4 n eps: the squares are positive, no cancellation). The two
      sides' means differ (different sums), each by at most n u M from the exact mean m*; since
      sum (x - c)^2 = sum (x - m*)^2 + n (c - m*)^2, that moves var by at most
      n (n u M)^2 / max(n - ddof, 1): atol n (n eps M)^2 / max(n - ddof, 1) (4x margin) for var,
      its square root for std (sqrt(p + q) <= sqrt(p) + sqrt(q)). It matters when the spread is
      ~0: identical continuous values (broadcast_to repeats elements) whose float32 mean is not
      exactly the value. Exact integer means: atol 0.
    norm: both sides square in double (float32 squares are exact there) and add in double:
      NumPy's float64 pairwise sum within (n - 1) u64 of the true sum of squares (all positive:
      relative), fusor's within 2 u64 (compensated, float64) or (n - 1) u64 (double, float32);
      sqrt halves a relative error and rounds (u). float64: rtol (n + 2) eps. float32: each side
      rounds a double within ~n eps64 of the other to float32, so they differ by <= 1 ulp32
      (<= eps32 |v|): rtol eps32 + 2 n eps64. Integers whose sum of squares is exact in float64
      (n max|x|^2 < 2^53): exact (a correctly rounded sqrt of the same exact value).
    logsumexp: in float64 on both sides (fusor: online max rescaling). s = sum exp(x - m) >= 1;
      each term has an absolute error <= 4 u (the subtraction's rounding amplified by exp, at
      most e^d (|d| + 1) u <= u for d <= 0, plus exp's own error, <= 4 ulp for NumPy's SIMD exp,
      see check.hpp), and the n - 1 additions (or rescalings) add <= (n - 1) u s: a relative
      error <= (n + 3) u per side, so log(s) differs by <= (2 n + 6) u = (n + 3) eps64 absolute,
      and m + log(s) rounds once per side: atol 2 (n + 2) eps64, rtol 2 eps of the result type
      (float32: each side rounds to float32 once, <= 1 ulp apart).
    prod: a product's rounding errors are relative: (n - 1) u of the operand's type for NumPy in
      any order (float32 in float32), fusor accumulates in double and rounds once: rtol n eps
      (2x margin). The generator keeps every partial product far from overflow and underflow
      (r_prod_in_range). Integer products (wrapping) are exact.
    n <= 1: every function returns its single element (or 0 / NaN for var) exactly on both sides.
    min, max, argmin, argmax, all, any, count_nonzero and integer sums and products: exact."""
    axes, n = r_reduced(x, axis)
    dt = x.dtype
    if n <= 1 or fn in ("min", "max", "argmin", "argmax", "all", "any", "count_nonzero"):
        return None, None
    if fn in ("sum", "prod") and dt.kind != "f":
        return None, None
    eps = EPS.get(dt.name, EPS64)
    if fn == "sum":
        return eps, n * eps * lane_scale(x, axes)
    if fn == "prod":
        return n * eps, None
    if fn == "mean":
        if exact_in_float64(x, n):
            return None, None
        return 2 * eps, eps * lane_scale(x, axes)
    if fn in ("var", "std"):
        rdt = float_result_of(dt).name
        rtol = var_tolerance(rdt, n)
        if exact_in_float64(x, n):
            return rtol, None
        xf = x.astype(np.float64)
        m = float(np.max(np.abs(xf[np.isfinite(xf)]), initial=0.0))
        atol = n * (n * EPS[rdt] * m) ** 2 / max(n - (ddof or 0), 1)
        return rtol, (atol if fn == "var" else math.sqrt(atol))
    if fn == "norm":
        if exact_in_float64(x, n, power=2):
            return None, None
        if dt == np.float32:
            return EPS32 + 2 * n * EPS64, None
        return (n + 2) * EPS64, None
    if fn == "logsumexp":
        return 2 * EPS[float_result_of(dt).name], 2 * (n + 2) * EPS64
    raise AssertionError(fn)


def r_prod_in_range(x):
    """True when no partial product of x's finite non-zero elements, in any order, leaves
    [e^-80, e^80] (float32's normal range is [e^-87.3, e^88.7]; float64's far wider)."""
    xf = np.abs(x.astype(np.float64).ravel())
    xf = xf[np.isfinite(xf) & (xf != 0)]
    logs = np.log(xf)
    return float(np.sum(logs[logs > 0])) < 80 and float(np.sum(logs[logs < 0])) > -80


def r_check_axes(x, axis):
    """Raises NumPy's error for a bad `axis` of x (AxisError, or ValueError for a repeat)."""
    np.sum(np.zeros(x.shape, dtype=bool), axis=axis)


def r_norm(x, axis, keepdims):
    r_check_axes(x, axis)
    res = np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=axis, keepdims=keepdims))
    return np.asarray(res).astype(float_result_of(x.dtype))


def r_logsumexp(x, axis, keepdims):
    """scipy.special.logsumexp's value, in float64: m + log(sum(exp(x - m))), m the maximum;
    all -inf (or nothing) -> -inf, any +inf -> +inf, any NaN -> NaN."""
    r_check_axes(x, axis)
    axes, n = r_reduced(x, axis)
    xf = x.astype(np.float64)
    out_keep = np.sum(np.zeros(x.shape), axis=axes, keepdims=True).shape if x.ndim else ()
    if n == 0:
        res = np.full(out_keep, -np.inf)
    elif not axes:
        res = xf.copy()
    else:
        m = np.max(xf, axis=axes, keepdims=True)
        m_safe = np.where(np.isfinite(m), m, 0.0)
        res = m_safe + np.log(np.sum(np.exp(xf - m_safe), axis=axes, keepdims=True))
    if not keepdims and x.ndim:
        res = res.reshape(np.sum(np.zeros(x.shape), axis=axes).shape)
    return np.asarray(res).astype(float_result_of(x.dtype))


def r_topk(x, k, axis):
    """(values, indices) of topk along axis: per lane, sorted by (not NaN, -value, index)."""
    ax = axis % x.ndim
    moved = np.moveaxis(x, ax, -1)
    vals = np.empty(moved.shape[:-1] + (k,), dtype=x.dtype)
    idx = np.empty(moved.shape[:-1] + (k,), dtype=np.int64)
    for pos in np.ndindex(*moved.shape[:-1]):
        lane = moved[pos]

        def key(i):
            v = lane[i].item()
            if isinstance(v, float) and math.isnan(v):
                return (0, 0.0, i)
            return (1, -v, i)
        order = sorted(range(lane.shape[0]), key=key)[:k]
        vals[pos] = lane[order]
        idx[pos] = order
    return np.moveaxis(vals, -1, ax), np.moveaxis(idx, -1, ax)


def r_draw_axis(rr, fn, r):
    """An axis argument for reduction `fn` of a rank-r operand: None, an int, or a list (tuple;
    argmin/argmax take no list). Out-of-range axes and repeats sometimes (errors)."""
    single_only = fn in ("argmin", "argmax")
    u = rr.random()
    if u < 0.28:
        return None, "none"
    if u < 0.62 or single_only:
        if rr.random() < 0.07:  # out of range (a 0-d operand takes 0 and -1, as rank 1)
            return (max(r, 1) if rr.random() < 0.5 else -max(r, 1) - 1), "bad axis"
        if r == 0:
            return int(rr.choice([0, -1])), "axis"
        ax = int(rr.integers(-r, r))
        return ax, "axis" if ax >= 0 else "negative axis"
    if u < 0.68:
        return (), "{}"
    if r == 0:  # NumPy refuses any listed axis of a 0-d operand (unlike a plain axis 0)
        return ((int(rr.choice([0, -1])),) if rr.random() < 0.25 else ()), "list on 0-d"
    k = int(rr.integers(1, r + 1))
    axes = [int(v) for v in rr.permutation(r)[:k]]
    axes = [v - r if rr.random() < 0.3 else v for v in axes]
    what = "list"
    if rr.random() < 0.08:
        v = axes[int(rr.integers(0, len(axes)))]
        axes.insert(int(rr.integers(0, len(axes) + 1)), v - r if v >= 0 and rr.random() < 0.5 else v)
        what = "repeated axes"
    elif rr.random() < 0.05:
        axes.insert(int(rr.integers(0, len(axes) + 1)), r + int(rr.integers(0, 2)))
        what = "bad axis in list"
    return tuple(axes), what


def r_empty_result_shape(fn, x, axis, keepdims):
    """The shape of an empty result of min/max/argmin/argmax (else None): the axes were valid
    and NumPy raised only for the length-0 axis it reduces (API.md's rule allows that)."""
    if fn not in ("min", "max", "argmin", "argmax"):
        return None
    try:
        shape = np.sum(np.zeros(x.shape), axis=axis, keepdims=keepdims).shape
    except (ValueError, np.AxisError):
        return None
    return shape if int(np.prod(shape, dtype=np.int64)) == 0 else None


def r_np_error(err):
    if isinstance(err, np.AxisError):
        return "AxisError", "axis_error"
    if isinstance(err, ValueError):
        return "ValueError", "value_error"
    raise err


def r_reduction(case, fn, x, cpp_x, np_x):
    """The subcase lines of one random reduction of x."""
    rr = case.rr
    axis, axis_form = r_draw_axis(rr, fn, x.ndim)
    keepdims = rr.random() < 0.4
    ddof = None
    if fn in ("var", "std"):
        ddof = [None, 0, 1, 1, 2][int(rr.integers(0, 5))]
        _, n = r_reduced(x, axis) if axis_form not in ("bad axis", "repeated axes", "bad axis in list",
                                                       "list on 0-d") else ((), 0)
        if n >= 2 and ddof and ddof >= n and not exact_in_float64(x, n):
            # n - ddof <= 0 divides by 0: inf, or NaN when the spread is exactly 0, which inexact
            # means decide differently on the two sides (see r_tolerance): keep n - ddof >= 1.
            ddof = 1
    # C++ text: axes, then the options in either order.
    args = [cpp_x]
    if isinstance(axis, tuple):
        text = ", ".join(str(v) for v in axis)
        args.append(("fusor::shape_t{%s}" if rr.random() < 0.25 else "{%s}") % text)
    elif axis is not None:
        args.append(str(axis))
    opts = (["fusor::keepdims"] if keepdims else []) + (["fusor::ddof{%d}" % ddof] if ddof is not None else [])
    if rr.random() < 0.5:
        opts.reverse()
    cname = fn
    if fn == "std":
        cname = "stddev" if rr.random() < 0.3 else "std"
    cpp = "fusor::%s(%s)" % (cname, ", ".join(args + opts))
    kw = []
    if axis is not None:
        kw.append("axis=%s" % (r_axis_text(axis) if isinstance(axis, tuple) else axis))
    if keepdims:
        kw.append("keepdims=True")
    if ddof:
        kw.append("ddof=%d" % ddof)
    tail = "".join(", " + k for k in kw)
    if fn == "norm":
        npx = "np.sqrt(np.sum(%s.astype(np.float64)**2%s))" % (
            "(%s)" % np_x if np_x in ("a * b", "a + b", "a + 1") else np_x, tail)
        if x.dtype == np.float32:
            npx += ".astype(np.float32)"
    elif fn == "logsumexp":
        npx = "scipy.special.logsumexp(%s%s) in float64" % (np_x, tail)
    else:
        npx = "np.%s(%s%s)" % (fn, np_x, tail)
    try:
        if fn == "norm":
            res = r_norm(x, axis, keepdims)
        elif fn == "logsumexp":
            res = r_logsumexp(x, axis, keepdims)
        else:
            kwargs = {"axis": axis, "keepdims": keepdims}
            if ddof:
                kwargs["ddof"] = ddof
            res = np.asarray(R_NUMPY[fn](x, **kwargs))
    except (ValueError, np.AxisError) as err:
        name, exc = r_np_error(err)
        shape = r_empty_result_shape(fn, x, axis, keepdims) if exc == "value_error" else None
        if shape is None:
            return [subcase_throws(cpp, npx + " raises " + name, exc)], [(fn, axis_form, exc)]
        # API.md: no identity is an error only when a non-empty result would reduce a length-0
        # axis; NumPy 1.24 raises for an empty result too when a reduced axis has length 0.
        res = np.zeros(shape, dtype=np.int64 if fn in ("argmin", "argmax") else x.dtype)
        npx += " raises ValueError; API.md: an empty result is fine, so this empty one"
    want = {"sum": sum_dtype_of, "prod": sum_dtype_of, "mean": float_result_of, "var": float_result_of,
            "std": float_result_of, "norm": float_result_of, "logsumexp": float_result_of}
    if fn in want and res.dtype != want[fn](x.dtype):
        sys.exit("generate.py: np.%s of %s gave %s" % (fn, x.dtype, res.dtype))
    rtol, atol = r_tolerance(fn, x, axis, ddof)
    if rtol is None and atol is not None:
        rtol = 0.0
    return [subcase(cpp, npx, res, rtol, atol)], [(fn, axis_form, "value")]


def r_along_axis(case, fn, x, cpp_x, np_x):
    """The subcase lines of a random scan (cumsum, cumprod) or sort, argsort, topk of x."""
    rr = case.rr
    r = x.ndim
    u = rr.random()
    if u < 0.35 and fn != "topk":
        axis, axis_form = None, "none"
    elif u < 0.42 or (fn == "topk" and u < 0.5):
        axis, axis_form = None, "default axis"
    elif u < 0.5:
        axis = max(r, 1) if rr.random() < 0.5 else -max(r, 1) - 1  # 0-d: scans ravel to rank 1
        axis_form = "bad axis"
    else:
        axis = int(rr.integers(-r, r)) if r else int(rr.choice([0, -1]))
        axis_form = "axis" if axis >= 0 else "negative axis"
    if fn in ("cumsum", "cumprod", "sort", "argsort"):
        if fn in ("sort", "argsort") and axis_form == "none":
            axis_form = "default axis"
        cpp = "fusor::%s(%s%s)" % (fn, cpp_x, "" if axis is None else ", %d" % axis)
        extra = ", kind='stable'" if fn == "argsort" else ""
        npx = "np.%s(%s%s%s)" % (fn, np_x, "" if axis is None else ", axis=%d" % axis, extra)
        try:
            if fn == "cumsum":
                res = np.cumsum(x, axis=axis)
            elif fn == "cumprod":
                res = np.cumprod(x, axis=axis)
            elif fn == "sort":
                res = np.sort(x, axis=-1 if axis is None else axis)
            else:
                res = np.argsort(x, axis=-1 if axis is None else axis, kind="stable")
        except (ValueError, np.AxisError) as err:
            name, exc = r_np_error(err)
            return [subcase_throws(cpp, npx + " raises " + name, exc)], [(fn, axis_form, exc)]
        res = np.asarray(res)
        if fn in ("cumsum", "cumprod") and res.dtype != sum_dtype_of(x.dtype):
            sys.exit("generate.py: np.%s of %s gave %s" % (fn, x.dtype, res.dtype))
        return [subcase(cpp, npx, res)], [(fn, axis_form, "value")]
    # topk: k in [0, extent] (k outside it: value_error); a 0-d operand: axis_error.
    ax_norm = None
    if r and axis_form != "bad axis":
        ax_norm = (-1 if axis is None else axis) % r
    extent = x.shape[ax_norm] if ax_norm is not None else 1
    if axis_form != "bad axis" and r and rr.random() < 0.1:
        k = -1 if rr.random() < 0.4 else extent + 1
    else:
        k = int(rr.integers(0, extent + 1)) if rr.random() < 0.25 else min(extent, int(rr.integers(1, 4)))
    cpp = "fusor::topk(%s, %d%s)" % (cpp_x, k, "" if axis is None else ", %d" % axis)
    npd = "%s, %d, axis=%d" % (np_x, k, -1 if axis is None else axis)
    if r == 0 or axis_form == "bad axis":
        return ([subcase_throws(cpp + ".values", "topk(%s): axis out of range, as np.sort raises AxisError" % npd,
                                "axis_error")], [(fn, axis_form, "axis_error")])
    if not 0 <= k <= extent:
        return ([subcase_throws(cpp + ".values", "topk(%s): k outside [0, %d]" % (npd, extent), "value_error")],
                [(fn, axis_form, "value_error")])
    vals, idx = r_topk(x, k, ax_norm)
    how = " (per lane by NaN first, then -value, then index)"
    return ([subcase(cpp + ".values", "topk(%s).values%s" % (npd, how), vals),
             subcase(cpp + ".indices", "topk(%s).indices%s" % (npd, how), idx)],
            [(fn, axis_form, "value"), (fn, axis_form, "value")])


def r_subcase(case):
    """Draws one function, operand and axis for the current TEST_CASE; appends its lines."""
    rr = case.rr
    fn = pick(rr, R_FAMILIES[case.family][1])
    for _ in range(50):
        x, cpp_x, np_x, form = r_operand(case)
        if fn == "prod" and x.dtype.kind == "f" and not r_prod_in_range(x):
            continue
        break
    else:
        fn = "sum"
    if fn in R_REDUCERS:
        lines, stats = r_reduction(case, fn, x, cpp_x, np_x)
    else:
        lines, stats = r_along_axis(case, fn, x, cpp_x, np_x)
    if any(line in case.lines for line in lines):
        return 0  # the same subcase again: draw another
    case.lines += lines
    case.stats += [(f, case.a.dtype.name, form, ax, out) for f, ax, out in stats]
    if fn not in case.fns:
        case.fns.append(fn)
    if form not in case.forms:
        case.forms.append(form)
    return len(lines)


class RandomHeader(Header):
    """A header of random cases: its top comment says how to regenerate any seed and count, and
    summarises what it covers."""

    def __init__(self, filename, title, seed, count, part, parts):
        super().__init__(filename, title)
        self.seed, self.count, self.part, self.parts = seed, count, part, parts
        self.stats = []

    def head_comment(self):
        def table(label, key):
            counts = {}
            for s in self.stats:
                counts[key(s)] = counts.get(key(s), 0) + 1
            items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            out, cur = [], "//   %s:" % label
            for name, c in items:
                piece = " %s %d," % (name, c)
                if len(cur) + len(piece) > 100:
                    out.append(cur)
                    cur = "//     "
                cur += piece
            out.append(cur.rstrip(","))
            return out

        default = self.seed == SEED and self.count == RANDOM_REDUCE_COUNT
        return [
            "// " + self.title,
            "//",
            "// GENERATED by tests/oracle/generate.py from NumPy %s -- do not edit by hand." % np.__version__,
            "// Random differential cases (part %d of %d), seed %d, %d subcases over the %d parts%s." % (
                self.part + 1, self.parts, self.seed, self.count, self.parts,
                " (the checked-in default)" if default else " (NOT the checked-in default)"),
            "// Regenerate (deterministic):  /usr/bin/python3 tests/oracle/generate.py",
            "// Another seed / count, in place (build and run test_oracle_numpy_random_reduce_0..3, then",
            "// `git checkout tests/oracle/numpy_cases_random_reduce_*.hpp`), or elsewhere with --out DIR:",
            "//   /usr/bin/python3 tests/oracle/generate.py --seed 7 --random-reduce-count 5000",
            "// Every expected dtype, shape, value and error was computed by NumPy (norm, logsumexp and",
            "// topk from NumPy primitives, as generate.py's section 5 says); tolerances are derived in",
            "// generate.py's r_tolerance. Test names read `fns(operand forms) | dtypes and shapes | numpy`.",
            "//",
            "// Coverage of this part: %d subcases in %d TEST_CASEs (%d expect an exception)" % (
                len(self.stats), len(self.cases), sum(1 for s in self.stats if s[4] != "value")),
        ] + table("function", lambda s: s[0]) + table("dtype of a", lambda s: s[1]) \
            + table("operand form", lambda s: s[2]) + table("axis form", lambda s: s[3]) \
            + table("expected", lambda s: s[4])

    def extra_includes(self):
        return ["#include <limits>"]

    def prologue(self):
        return [
            "// Expected integers span the whole int64 / uint64 range (wrapping sums and products): the",
            "// `long double` check_tensor compares in must hold every 64-bit integer exactly.",
            "static_assert(std::numeric_limits<long double>::digits >= 64,",
            '              "these expectations need a long double with a 64-bit significand");',
            "",
        ]


def gen_random_reduce(seed, count):
    """Random differential cases for reductions, scans and along-axis operations, split over
    RANDOM_HEADERS headers (numpy_cases_random_reduce_<i>.hpp, each its own test executable).

    Every TEST_CASE draws a family (R_FAMILIES: which functions and which values suit them), a
    dtype (R_DTYPES), a shape (rank 0..4, extents 0..5) and the array `a`; then 10-20 subcases,
    each drawing a function of the family, an operand form (R_FORMS: `a`, a view of it --
    transpose, view(...) with slices / integers / newaxis, diagonal, flip, broadcast_to -- an
    element-wise expression of `a` and `b` (b broadcast to a), or a view of such an expression)
    and an axis form (none, one axis, negative too, a list in any order, `{}`, out of range,
    repeated; keepdims; ddof for var/std). NumPy computes every expectation and every error
    (AxisError -> fusor::axis_error, ValueError -> fusor::value_error).

    Uses its own numpy.random.default_rng((seed, 5)) stream, so the other headers never depend on
    it: `--seed` and `--random-reduce-count` change only these headers."""
    rr = np.random.default_rng((seed, 5))
    cases = []  # (name, lines, stats)
    total = 0
    # Dtypes and families are dealt from shuffled decks holding each in proportion to its weight
    # (R_DTYPES: 22 cards; families: 20), so that even the rare ones come up every deck.
    dtype_deck, family_deck = [], []
    while total < count:
        if not dtype_deck:
            dtype_deck = [d for d, w in R_DTYPES for _ in range(w)]
            dtype_deck = [dtype_deck[i] for i in rr.permutation(len(dtype_deck))]
        if not family_deck:
            family_deck = [f for f, (w, _) in R_FAMILIES.items() for _ in range(round(w * 20))]
            family_deck = [family_deck[i] for i in rr.permutation(len(family_deck))]
        dtype, family = dtype_deck.pop(), family_deck.pop()
        if family == "wrap" and np.dtype(dtype).kind not in "iu":
            family = "sums"
        case = RandomCase(rr, family, dtype, r_shape(rr))
        want = min(int(rr.integers(10, 21)), count - total)
        while len(case.lines) < want:
            r_subcase(case)
        total += len(case.lines)
        decls = [make_decl("a", case.a)] + ([make_decl("b", case.b)] if case.b is not None else [])
        operands = described(case.a) + ("" if case.b is None else ", b " + described(case.b))
        forms = case.forms if len(case.forms) <= 5 else case.forms[:5] + ["..."]
        name = "random %d: %s(%s) | a %s | numpy: %s, see each SUBCASE" % (
            len(cases), "/".join(case.fns), ", ".join(forms), operands,
            "/".join("np." + f if f in R_NUMPY or f in ("cumsum", "cumprod", "sort", "argsort") else f
                     for f in case.fns))
        cases.append((name, decls + case.lines, case.stats))
    headers = [RandomHeader("numpy_cases_random_reduce_%d.hpp" % i,
                            "NumPy-oracle cases: random reductions, scans, sort/argsort/topk",
                            seed, count, i, RANDOM_HEADERS) for i in range(RANDOM_HEADERS)]
    done = 0
    for name, lines, stats in cases:  # contiguous runs of cases, balanced by subcases
        h = headers[min(RANDOM_HEADERS - 1, done * RANDOM_HEADERS // max(total, 1))]
        h.case(name, lines)
        h.stats += stats
        done += len(stats)
    return headers


# ------------------------------------------------------------------------------------------

def parse_args(argv):
    import argparse
    ap = argparse.ArgumentParser(
        description="Writes tests/oracle/numpy_cases*.hpp (NumPy is the oracle). With no option: "
                    "the checked-in headers, byte for byte.")
    ap.add_argument("--seed", type=int, default=SEED,
                    help="seed of the random reduction/scan/sort cases (default %%(default)s; the "
                         "fixed suites always use %d)" % SEED)
    ap.add_argument("--random-reduce-count", type=int, default=RANDOM_REDUCE_COUNT, metavar="M",
                    help="random reduction/scan/sort subcases, over %d headers (default "
                         "%%(default)s, CI's count)" % RANDOM_HEADERS)
    ap.add_argument("--out", default=HERE, metavar="DIR",
                    help="folder to write the headers to (default: this script's folder)")
    return ap.parse_args(argv)


def main(argv=None):
    global OUT_DIR
    args = parse_args(argv)
    OUT_DIR = args.out
    os.makedirs(OUT_DIR, exist_ok=True)
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
        print("%-34s %4d test cases, %7d bytes" % (h.filename, n, size))
    for h in gen_random_reduce(args.seed, args.random_reduce_count):
        n, size = h.write()
        print("%-34s %4d test cases, %7d bytes, %4d subcases" % (h.filename, n, size, len(h.stats)))


if __name__ == "__main__":
    main()
