#!/usr/bin/python3
"""Writes the NumPy-oracle test headers of fusor: tests/oracle/numpy_cases*.hpp.

    /usr/bin/python3 tests/oracle/generate.py        (from anywhere; paths are relative to this file)

NumPy is the oracle: every expected dtype, shape, value and error below is computed by NumPy,
never by hand. The output is deterministic (one numpy.random.default_rng(20261122) stream, fixed
iteration orders), so running the script twice gives byte-identical headers; commit them.

Sections 1-4 are fixed suites. Section 5 is a random differential test of the reductions, scans
and along-axis operations (numpy_cases_random_reduce_{0,1,2,3}.hpp, one test executable each);
section 6 one of every element-wise operation, every view and assignment with and without
aliasing (numpy_cases_random_elementwise_{0..9}.hpp, one test executable each). Each is drawn
from its own stream, so these options change only those headers:
    --seed N                       the random cases' seed (default 20261122, the checked-in one)
    --random-reduce-count M        how many random section 5 subcases (default 1200, what CI runs)
    --random-elementwise-count M   how many random section 6 subcases (default 2000, what CI runs)
    --out DIR                      where to write every header (default: this script's folder)
e.g. `/usr/bin/python3 tests/oracle/generate.py --seed 7 --random-reduce-count 5000` rewrites the
four random reduction headers in place for a local run (build and run
test_oracle_numpy_random_reduce_*; `git checkout tests/oracle/numpy_cases_random_reduce_*.hpp`
restores CI's), and
    /usr/bin/python3 tests/oracle/generate.py --seed 7 --random-elementwise-count 5000
does the same for section 6 (build and run test_oracle_numpy_random_elementwise_0..9, each part
then holds ~500 subcases and compiles in ~1 min; `git checkout
tests/oracle/numpy_cases_random_elementwise_*.hpp` restores CI's). With `--out /tmp/o` nothing
checked in changes. The ctest oracle.up_to_date runs the defaults and requires the checked-in
headers byte for byte. For the default seed and count, section 6 stops the script unless every
operation, dtype, view, weak scalar kind, exception and integer corner it lists
(EW_REQUIRED_*) occurs at least once; other runs only print what is missing.

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
prod, norm and logsumexp; section 6: check.hpp's rtol_math_* for the math functions).

Section 5 follows NumPy 1.24 throughout (on a 0-d operand: one integer axis 0 / -1 reduces
nothing for sum, min, ..., norm and logsumexp, but mean/var/std raise AxisError, and so does a
list naming any axis, `{0}`), except where API.md settles otherwise: min/max/argmin/argmax raise
only when a non-empty result would reduce a length-0 axis, while NumPy 1.24 also raises for an
empty result that reduces a length-0 axis (see r_reduction).

Section 6 (gen_random_elementwise) evaluates every node of a random expression tree separately
in NumPy, with the dtypes API.md gives it, and follows API.md where NumPy 1.24 does not:
  * every operand is cast to the node's compute dtype first (promotion by dtype; weak scalars as
    above, also as where's branches and clip's bounds, which are weak against clip's x), and
    ufuncs run on arrays of one dtype only (np.clip through its ufunc, isclose on 1-d arrays:
    1.24's value-based rules would otherwise widen 0-d float32 values to float64);
  * math functions of bool / int8 / uint8 give float32; floor, ceil, trunc and round of integers
    and bools return them unchanged (NumPy 2.1; 1.24 gives float64, or float16 for round(bool));
    square of bool, and %, //, power and shifts of two bools, compute in int8 (as NumPy);
  * integer x // 0 and x % 0 are 0, INT_MIN // -1 wraps, shifts by a negative amount or by the
    width or more give 0 (-1 for a negative >> operand): NumPy 1.24's own answers, checked;
  * an integer to a negative integer power: value_error at once for a C++ scalar exponent; for a
    tensor exponent only when the power is the expression's root (fusor throws "when met": a view
    or where above it may skip the element, NumPy computes everything);
  * an integer scalar outside its partner's integer type: value_error when built (NEP 50's
    OverflowError); shapes that do not broadcast: broadcast_error; NumPy's AxisError: axis_error;
    IndexError: index_error, except too many indices / two ellipses: value_error; other
    ValueErrors of views (reshape, squeeze, repeated axes, step 0, diagonal): value_error;
  * fusor's diagonal of a tensor is writable (NumPy's is read-only): assignments through a view
    are computed on an index array (the view applied to arange(d.size)), then stored;
  * `d = e` casts as NumPy's astype; `VIEW(d) = e` drops e's extra leading 1s; `d op= e` follows
    same_kind (what does not compile is never drawn) and e may not add axes; an assignment that
    throws leaves d as it was (checked); aliased right sides are evaluated first (NumPy's rule).
What is not drawn, because its expectation would not be exact: math functions (and float power)
below the root (a few ulp would move floor, ==, casts); their results near overflow or in the
subnormal range (ew_inexact_hazard); float -> integer casts of NaN, inf or out-of-range values and
float64 -> float32 beyond its range (unspecified or undefined); a sign-sensitive operation
(x / 0, arctan2, //, %, power) of a zero that minimum/maximum/fmin/fmax/clip chose between +0
and -0 (NumPy's fmin returns the second, fusor's the first); two construction errors in sibling
operands (C++ evaluates arguments in an unspecified order). Each element-wise node is also
checked against 1.24's experimental NEP 50 mode from the natural NumPy call where that mode
implements NumPy 2 (not for float16 results, integer rounding, isclose, casts, or clip/where with
a scalar).
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


# round(e, decimals): numpy.round with decimals. Fixed inputs (no draws from the shared stream, so
# the headers after this one do not move): halves at the rounded digit, values whose decimal text
# is not their binary value (2.675 is 2.67499..., NumPy's 2.67), signed zeros, NaN and
# infinities, large and tiny magnitudes; integers at and beyond the halves for negative decimals
# (half to even, and int8's wrap when 127 rounds to 130).
ROUND_FLOATS = [2.675, 1.005, 0.125, -0.125, 0.5, 1.5, 2.5, -2.5, 1234.5678, -0.0, 1e-8,
                123456.789, 15.0, 25.0, -35.0, 1e20, np.nan, np.inf, -np.inf]
ROUND_INTS = {
    "int8": [15, 25, -15, -25, 127, -128, 0, 5, 44, 45, 46, -100],
    "int32": [15, 25, -15, 149, 150, 151, 250, 350, -2147483648, 2147483647, 0, 1999999999],
    "int64": [15, 25, -15, 149, 150, 151, 250, 350, 2**53 + 1, -(2**53 + 1), 0, 12345678901],
    "uint8": [15, 25, 250, 255, 0, 5, 149, 150, 151, 44, 45, 46],
    "uint64": [15, 25, 250, 2**62 + 1, 2**53 + 5, 0, 5, 149, 150, 151, 44, 45],
}
ROUND_DECIMALS = [-3, -2, -1, 0, 1, 2, 3, 10, 30]


def gen_round(h):
    for d in ("float32", "float64"):
        a = np.array(ROUND_FLOATS, dtype=d)
        for dec in ROUND_DECIMALS:
            res = np.asarray(np.round(a, dec))
            cpp = "fusor::round(a, %d)" % dec
            h.case("%s | %s | numpy: np.round(a, %d)" % (cpp, described(a), dec),
                   [make_decl("a", a), check_line(cpp, res)])
    for d, vals in ROUND_INTS.items():
        a = np.array(vals, dtype=d)
        for dec in (-2, -1, 0, 2):
            res = np.asarray(np.round(a, dec))
            cpp = "fusor::round(a, %d)" % dec
            h.case("%s | %s | numpy: np.round(a, %d)" % (cpp, described(a), dec),
                   [make_decl("a", a), check_line(cpp, res)])
    # Large |decimals| (float64): the last exact power (22), the first product by 10 past it
    # (23), the last finite factor (308) and the inf factor past it (309, 400: NaN everywhere).
    # float32 is left out there: NumPy 1.24 computes its products in float64 from 39 on.
    a = np.array(ROUND_FLOATS, dtype="float64")
    for dec in (22, 23, 200, 308, 309, 400, -22, -23, -308, -309, -400):
        res = np.asarray(np.round(a, dec))
        cpp = "fusor::round(a, %d)" % dec
        h.case("%s | %s | numpy: np.round(a, %d)" % (cpp, described(a), dec),
               [make_decl("a", a), check_line(cpp, res)])
    # Lazy inside an expression, over a broadcast operand: one loop, NumPy's bits.
    x = np.array([[0.125, 2.675, -1.005]], dtype=np.float64)
    y = np.array([[1.0], [10.0]], dtype=np.float64)
    res = np.asarray(np.round(x * y, 2) + 1.0)
    h.case("fusor::round(x * y, 2) + 1.0 | x %s, y %s | numpy: np.round(x * y, 2) + 1.0" % (
        described(x), described(y)),
        [make_decl("x", x), make_decl("y", y), check_line("fusor::round(x * y, 2) + 1.0", res)])


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
# What sections 5 and 6 share: the headers of random cases (their top comment, coverage tables
# and prologue), the weighted decks their dtypes are dealt from, and the split of the cases
# over the parts.
# ------------------------------------------------------------------------------------------

class RandomPartHeader(Header):
    """Part `part` of `parts` of a family of random headers drawn with `seed` and `count`.
    `stats`: one record per subcase, which the coverage tables count."""

    def __init__(self, filename, title, seed, count, part, parts):
        super().__init__(filename, title)
        self.seed, self.count, self.part, self.parts = seed, count, part, parts
        self.stats = []

    def count_table(self, label, keys, first, more, width):
        """Lines `first label: name count, ...` counting the names `keys(stat)` gives over the
        stats, most frequent first, wrapped before `width` columns onto lines starting `more`."""
        counts = {}
        for s in self.stats:
            for k in keys(s):
                counts[k] = counts.get(k, 0) + 1
        items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        out, cur = [], "%s%s:" % (first, label)
        for name, c in items:
            piece = " %s %d," % (name, c)
            if len(cur) + len(piece) > width:
                out.append(cur)
                cur = more
            cur += piece
        out.append(cur.rstrip(","))
        return out

    def regenerate_comment(self, default, family, tests, option):
        """The top comment's first lines: what generated the part and how to regenerate it
        (`family`: the file name stem, `tests`: the test executables, `option`: the count
        option)."""
        return [
            "// " + self.title,
            "//",
            "// GENERATED by tests/oracle/generate.py from NumPy %s -- do not edit by hand." % np.__version__,
            "// Random differential cases (part %d of %d), seed %d, %d subcases over the %d parts%s." % (
                self.part + 1, self.parts, self.seed, self.count, self.parts,
                " (the checked-in default)" if default else " (NOT the checked-in default)"),
            "// Regenerate (deterministic):  /usr/bin/python3 tests/oracle/generate.py",
            "// Another seed / count, in place (build and run %s, then" % tests,
            "// `git checkout tests/oracle/numpy_cases_%s_*.hpp`), or elsewhere with --out DIR:" % family,
            "//   /usr/bin/python3 tests/oracle/generate.py --seed 7 %s 5000" % option,
        ]

    def extra_includes(self):
        return ["#include <limits>"]

    @staticmethod
    def long_double_prologue(why):
        """The static_assert every random header opens with (`why`: the two comment lines)."""
        return why + [
            "static_assert(std::numeric_limits<long double>::digits >= 64,",
            '              "these expectations need a long double with a 64-bit significand");',
            "",
        ]


def refill(rr, deck, weighted):
    """Refills an empty `deck` with each of `weighted` (card, weight) `weight` times, shuffled by
    `rr`: even rare cards come up once per deck."""
    if not deck:
        cards = [c for c, w in weighted for _ in range(w)]
        deck.extend(cards[i] for i in rr.permutation(len(cards)))


def deal(rr, deck, weighted):
    """The next card of `deck` (refilled first when empty)."""
    refill(rr, deck, weighted)
    return deck.pop()


def split_into_parts(cases, headers, total):
    """Deals `cases` (name, lines, stats) to `headers` in contiguous runs, balanced by the number
    of subcases."""
    done = 0
    for name, lines, stats in cases:
        h = headers[min(len(headers) - 1, done * len(headers) // max(total, 1))]
        h.case(name, lines)
        h.stats += stats
        done += len(stats)


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


class RandomHeader(RandomPartHeader):
    """A header of random cases: its top comment says how to regenerate any seed and count, and
    summarises what it covers."""

    def head_comment(self):
        def table(label, key):
            return self.count_table(label, lambda s: [key(s)], "//   ", "//     ", 100)

        default = self.seed == SEED and self.count == RANDOM_REDUCE_COUNT
        return self.regenerate_comment(default, "random_reduce",
                                       "test_oracle_numpy_random_reduce_0..3",
                                       "--random-reduce-count") + [
            "// Every expected dtype, shape, value and error was computed by NumPy (norm, logsumexp and",
            "// topk from NumPy primitives, as generate.py's section 5 says); tolerances are derived in",
            "// generate.py's r_tolerance. Test names read `fns(operand forms) | dtypes and shapes | numpy`.",
            "//",
            "// Coverage of this part: %d subcases in %d TEST_CASEs (%d expect an exception)" % (
                len(self.stats), len(self.cases), sum(1 for s in self.stats if s[4] != "value")),
        ] + table("function", lambda s: s[0]) + table("dtype of a", lambda s: s[1]) \
            + table("operand form", lambda s: s[2]) + table("axis form", lambda s: s[3]) \
            + table("expected", lambda s: s[4])

    def prologue(self):
        return self.long_double_prologue([
            "// Expected integers span the whole int64 / uint64 range (wrapping sums and products): the",
            "// `long double` check_tensor compares in must hold every 64-bit integer exactly.",
        ])


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
    family_weights = [(f, round(w * 20)) for f, (w, _) in R_FAMILIES.items()]
    while total < count:
        dtype = deal(rr, dtype_deck, R_DTYPES)
        family = deal(rr, family_deck, family_weights)
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
    split_into_parts(cases, headers, total)
    return headers


# ------------------------------------------------------------------------------------------
# 6. Random differential cases: every element-wise operation, every view, assignment and
#    aliasing (numpy_cases_random_elementwise_<i>.hpp)
# ------------------------------------------------------------------------------------------

RANDOM_ELEMENTWISE_COUNT = 2000  # subcases of a default (CI) run
RANDOM_EW_HEADERS = 10  # translation units: each compiles in ~30 s at -O0 (measured)

# (dtype, weight): cards in the deck the leaves' dtypes are dealt from (20 cards).
EW_DTYPES = [("float32", 3), ("float64", 3), ("int32", 2), ("int64", 2), ("bool", 2), ("int8", 2),
             ("uint8", 2), ("int16", 1), ("uint16", 1), ("uint32", 1), ("uint64", 1)]
EW_KIND = {"b": 0, "u": 1, "i": 2, "f": 3}  # same_kind casting: bool < unsigned < signed < float
CPP_TYPE["uint16"] = "std::uint16_t"
F32, F64, I8, I64, BOOL = (np.dtype(n) for n in ("float32", "float64", "int8", "int64", "bool"))
EW_MAX_SIZE = 48  # elements of the largest leaf (rank 5-8 leaves are mostly extent 1)


class EwError(Exception):
    """fusor throws fusor::`exc` here; `what` says what NumPy (or API.md) does."""

    def __init__(self, exc, what):
        super().__init__(exc)
        self.exc, self.what = exc, what


class EwReject(Exception):
    """This draw cannot be checked exactly against NumPy (see the hazards below): draw again."""


class EwInvalid(Exception):
    """This operation does not compile on these operand types (as NumPy's TypeError): another."""


class Ex:
    """A drawn operand. A tensor expression has `dtype` (static, as C++ knows it) and either
    `val` (its NumPy value, exactly that dtype), `err` (the EwError its construction throws) or
    `runtime` (its evaluation throws value_error: an integer power met a negative exponent).
    A weak C++ scalar has val None and `scalar` (Python value) and `ctype` ('int', 'double',
    'bool', 'float', 'int64', 'uint8'). `atom`: its texts need no parentheses as an operand.
    `inexact`: the ulp tolerance (dtype name) when its value comes from a function that NumPy
    and the C library round differently (only ever at the root). `zero_tie`: may hold a zero
    whose sign fusor and NumPy may choose differently (minimum/maximum/fmin/fmax/clip of +0 and
    -0)."""

    def __init__(self, cpp, npx, dtype=None, val=None, atom=True, scalar=None, ctype=None,
                 children=(), op=None, view=None, leaf=None):
        self.cpp, self.npx, self.dtype, self.val = cpp, npx, dtype, val
        self.c_atom = self.n_atom = atom
        self.scalar, self.ctype = scalar, ctype
        self.err, self.runtime, self.inexact, self.zero_tie = None, False, None, False
        self.ops, self.views, self.leaves, self.notes = set(), set(), set(), []
        self.scalars = set()
        for c in children:
            self.ops |= c.ops
            self.views |= c.views
            self.leaves |= c.leaves
            self.scalars |= c.scalars
            self.zero_tie |= c.zero_tie
            self.notes += [n for n in c.notes if n not in self.notes]
        if op:
            self.ops.add(op)
        if view:
            self.views |= set(view) if isinstance(view, (list, tuple, set)) else {view}
        if leaf:
            self.leaves.add(leaf)
        if ctype:
            self.scalars.add(ctype)

    def is_scalar(self):
        return self.dtype is None and self.err is None

    def c_op(self):
        return self.cpp if self.c_atom else "(" + self.cpp + ")"

    def n_op(self):
        return self.npx if self.n_atom else "(" + self.npx + ")"


def ew_note(node, text):
    if text not in node.notes:
        node.notes.append(text)


# ---- dtypes ------------------------------------------------------------------------------

def ew_float_result(d):
    """Math functions: floats keep their type, bool and 8/16-bit integers give float32 (NumPy
    would give float16 for bool and 8-bit ones: API.md's float32), wider integers float64."""
    if d.kind == "f":
        return d
    return F32 if (d == BOOL or d.itemsize <= 2) else F64


def ew_int8_if_bool(d):
    return I8 if d == BOOL else d


def ew_scalar_dtype(s, partner):
    """The dtype a weak C++ scalar takes next to an operand of dtype `partner` (None: no
    partner, the default of its kind): NEP 50 by kind, bool < integer < floating."""
    kind = {"bool": 0, "double": 2, "float": 2}.get(s.ctype, 1)
    default = (BOOL, I64, F64)[kind]
    if partner is None:
        return default
    return partner if kind <= {"b": 0, "u": 1, "i": 1, "f": 2}[partner.kind] else default


def ew_scalar_value(s, d):
    """The scalar as a 0-d array of dtype d; value_error when an integer does not fit (NEP 50:
    OverflowError), checked when the expression is built."""
    if s.ctype not in ("bool", "double", "float") and d.kind in "iu":
        info = np.iinfo(d)
        if not info.min <= s.scalar <= info.max:
            raise EwError("value_error", "the Python int %d is out of bounds for %s (NEP 50: "
                          "OverflowError)" % (s.scalar, d.name))
    return np.array(s.scalar, dtype=d)


# ---- values ------------------------------------------------------------------------------

def ew_values(rr, dtype, shape, extremes, specials, corners=False):
    """Random values of `dtype`: small integers (ties, zeros, shifts and powers that stay
    meaningful), with `extremes` some of the type's extremes (wrap-around); floats a mix of
    small integers, halves (rounding ties), continuous values, fractions in [-1, 1] (arcsin),
    signed zeros, with `specials` NaN and +-inf, and now and then a large value."""
    n = int(np.prod(shape, dtype=np.int64))
    dt = np.dtype(dtype)
    if dt == BOOL:
        return (rr.random(n) < float(rr.choice([0.5, 0.3, 0.7]))).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        top = min(int(info.max), 2**63 - 1)  # make<> takes long long
        if dt.kind == "u":
            small = rr.integers(0, 13, n)
            ext = [top, top - 1, int(info.max) // 2 + 1, 200, 255, 0]
        else:
            small = rr.integers(-9, 10, n)
            ext = [int(info.min), int(info.min) + 1, top, top - 1, -1, -100, 100]
        ext = [v for v in ext if info.min <= v <= top]
        vals = [int(v) for v in small]
        if corners or (extremes and rr.random() < 0.3):  # corners only: INT_MIN // -1, x // 0, wrap
            pool = [int(info.min)] * 2 + [-1, 0, 1, top] if dt.kind == "i" else [0, 1, 2, top, top - 1]
            vals = [int(pool[int(i)]) for i in rr.integers(0, len(pool), n)]
        elif extremes:
            for i in np.flatnonzero(rr.random(n) < 0.2):
                vals[int(i)] = int(ext[int(rr.integers(0, len(ext)))])
        return np.array(vals, dtype=dt).reshape(shape)
    u = rr.random(n)
    v = rr.standard_normal(n) * 2
    v = np.where(u < 0.3, rr.integers(-4, 5, n).astype(np.float64), v)
    v = np.where((u >= 0.3) & (u < 0.42), rr.integers(-4, 4, n) + 0.5, v)
    v = np.where((u >= 0.42) & (u < 0.55), rr.uniform(-1, 1, n), v)
    v = np.where((u >= 0.55) & (u < 0.6), rr.choice([0.0, -0.0], n), v)
    v = np.where((u >= 0.6) & (u < 0.62), rr.choice([-1.0, 1.0], n) * 10.0 ** rr.uniform(3, 6, n), v)
    v = v.astype(dt)
    if specials:
        w = rr.random(n)
        v[w < 0.05] = np.nan
        v[(w >= 0.05) & (w < 0.08)] = np.inf
        v[(w >= 0.08) & (w < 0.11)] = -np.inf
    return v.reshape(shape)


def ew_leaf_shapes(rr, count):
    """Shapes of a TEST_CASE's leaves: suffixes of one base shape with some extents 1 (so that
    they broadcast together): rank 0-4 (0-d now and then, an extent-0 axis one time in ten),
    rank 5-8 one time in twelve. One time in eight one leaf does not broadcast with the base."""
    if rr.random() < 1 / 12:
        rank = int(rr.integers(5, 9))
        base = [2 if rr.random() < 0.3 else 1 for _ in range(rank)]
        base[int(rr.integers(0, rank))] = int(rr.integers(2, 4))
    else:
        rank = int(rr.choice(5, p=[0.08, 0.22, 0.35, 0.25, 0.10]))
        base = [1 if rr.random() < 0.15 else int(rr.integers(2, 5)) for _ in range(rank)]
        if rank and rr.random() < 0.1:
            base[int(rr.integers(0, rank))] = 0
    while int(np.prod(base, dtype=np.int64)) > EW_MAX_SIZE:
        i = int(np.argmax(base))
        base[i] -= 1
    shapes = []
    for k in range(count):
        if k == 0:
            shape = list(base)
        else:
            keep = len(base) - (int(rr.integers(0, len(base) + 1)) if rr.random() < 0.4 else 0)
            shape = [1 if rr.random() < 0.3 else e for e in base[len(base) - keep:]]
        shapes.append(shape)
    if count > 1 and rr.random() < 0.125:
        k = int(rr.integers(1, count))
        grow = [i for i, e in enumerate(shapes[k]) if e != 1]
        if grow:  # an extent of the base's that is not 1: another one that is not 1 either
            i = grow[int(rr.integers(0, len(grow)))]
            shapes[k][i] = 2 if shapes[k][i] in (0, 4) else shapes[k][i] + 1
    return [tuple(s) for s in shapes]


# ---- scalars -----------------------------------------------------------------------------

def ew_scalar(ctx, role, partner):
    """A weak C++ scalar for an operand of `role` next to a partner of dtype `partner` (None:
    unknown / none). Its value fits the partner's integer type unless an error is injected."""
    rr = ctx.rr
    u = rr.random()
    ctype = "int" if u < 0.55 else "double" if u < 0.83 else "bool" if u < 0.93 else \
        ("float", "int64", "uint8")[int(rr.integers(0, 3))]
    if role == "shift" and ctype in ("double", "float"):
        ctype = "int"
    if ctype == "bool":
        v = bool(rr.random() < 0.6)
    elif ctype in ("double", "float"):
        pool = {"power": [2.0, 0.5, -1.5, 3.0, 0.0, -2.0],
                "divisor": [2.0, -1.5, 0.5, 0.0, -0.0, 4.0, 0.25]}.get(
            role, [2.5, -0.5, 0.25, 1.5, -3.0, 0.0, 1.0, -1.0, 0.1, 1e-3, 7.75])
        v = float(pool[int(rr.integers(0, len(pool)))])
        if ctype == "float" and float(np.float32(v)) != v:
            v = 0.5
    else:
        pool = {"shift": [0, 1, 2, 3, 5, 7, 9, 17, 33, 65], "power": [0, 1, 2, 3, 4, 5],
                "divisor": [-3, -2, -1, 0, 1, 2, 3]}.get(role, [-4, -3, -2, -1, 0, 1, 2, 3, 5, 7])
        if ctx.corners:
            pool = {"shift": [-1, 0, 1, 7, 8, 15, 16, 31, 32, 63, 64], "power": [-2, -1, 0, 1, 2, 7],
                    "divisor": [-1, -1, -1, -1, 0, 1]}.get(role, [-1, 0, 1, 127, -128])
        v = int(pool[int(rr.integers(0, len(pool)))])
        if ctype == "uint8":
            v = abs(v)
        if partner is not None and partner.kind == "u" and v < 0 and ctype != "int64":
            v = -v
        if ctx.inject == "scalar" and ctype in ("int", "int64"):
            if role == "power" and rr.random() < 0.5:  # integer ** negative: value_error at once
                v = -int(rr.integers(1, 3))
                ctx.take("scalar")
            elif partner is not None and partner.kind in "iu" and partner != I64:  # out of range
                info = np.iinfo(partner)
                if partner.kind == "u" and (partner.itemsize == 8 or rr.random() < 0.4):
                    v = -int(rr.integers(1, 5))
                else:
                    v = int(info.max) + int(rr.integers(1, 40))
                if abs(v) >= 2**31:
                    ctype = "int64"
                ctx.take("scalar")
    if ctype == "int":
        cpp = str(v)
    elif ctype == "int64":
        cpp = "std::int64_t{%d}" % v
    elif ctype == "uint8":
        cpp = "std::uint8_t{%d}" % v
    elif ctype == "bool":
        cpp = "true" if v else "false"
    elif ctype == "float":
        cpp = repr(v) + "f"
    else:
        cpp = repr(v)
    npx = repr(v)
    return Ex(cpp, npx, scalar=v, ctype=ctype)


# ---- operations --------------------------------------------------------------------------

def _ew(kind, cpp, npx, sem, c_oper=False, n_oper=None, role=None):
    return {"kind": kind, "cpp": cpp, "np": npx, "sem": sem, "c_oper": c_oper,
            "n_oper": c_oper if n_oper is None else n_oper, "role": role}


# C++ spelling -> its text, NumPy's text, the NumPy ufunc (semantics), operator syntax (needs
# parentheses as an operand), the role a scalar operand plays (which values suit it).
EW_OPS = {
    "+": _ew("bin", "{} + {}", "{} + {}", "add", True),
    "-": _ew("bin", "{} - {}", "{} - {}", "subtract", True),
    "*": _ew("bin", "{} * {}", "{} * {}", "multiply", True),
    "/": _ew("bin", "{} / {}", "{} / {}", "true_divide", True, role="divisor"),
    "%": _ew("bin", "{} % {}", "{} % {}", "remainder", True, role="divisor"),
    "mod": _ew("bin", "fusor::mod({}, {})", "np.mod({}, {})", "remainder", role="divisor"),
    "floor_divide": _ew("bin", "fusor::floor_divide({}, {})", "np.floor_divide({}, {})", "floor_divide",
                        role="divisor"),
    "power": _ew("bin", "fusor::power({}, {})", "np.power({}, {})", "power", role="power"),
    "pow": _ew("bin", "fusor::pow({}, {})", "np.power({}, {})", "power", role="power"),
    "==": _ew("bin", "{} == {}", "{} == {}", "equal", True),
    "!=": _ew("bin", "{} != {}", "{} != {}", "not_equal", True),
    "<": _ew("bin", "{} < {}", "{} < {}", "less", True),
    "<=": _ew("bin", "{} <= {}", "{} <= {}", "less_equal", True),
    ">": _ew("bin", "{} > {}", "{} > {}", "greater", True),
    ">=": _ew("bin", "{} >= {}", "{} >= {}", "greater_equal", True),
    "&&": _ew("bin", "{} && {}", "np.logical_and({}, {})", "logical_and", True, False),
    "||": _ew("bin", "{} || {}", "np.logical_or({}, {})", "logical_or", True, False),
    "logical_and": _ew("bin", "fusor::logical_and({}, {})", "np.logical_and({}, {})", "logical_and"),
    "logical_or": _ew("bin", "fusor::logical_or({}, {})", "np.logical_or({}, {})", "logical_or"),
    "logical_xor": _ew("bin", "fusor::logical_xor({}, {})", "np.logical_xor({}, {})", "logical_xor"),
    "&": _ew("bin", "{} & {}", "{} & {}", "bitwise_and", True),
    "|": _ew("bin", "{} | {}", "{} | {}", "bitwise_or", True),
    "^": _ew("bin", "{} ^ {}", "{} ^ {}", "bitwise_xor", True),
    "bitwise_and": _ew("bin", "fusor::bitwise_and({}, {})", "np.bitwise_and({}, {})", "bitwise_and"),
    "bitwise_or": _ew("bin", "fusor::bitwise_or({}, {})", "np.bitwise_or({}, {})", "bitwise_or"),
    "bitwise_xor": _ew("bin", "fusor::bitwise_xor({}, {})", "np.bitwise_xor({}, {})", "bitwise_xor"),
    "<<": _ew("bin", "{} << {}", "{} << {}", "left_shift", True, role="shift"),
    ">>": _ew("bin", "{} >> {}", "{} >> {}", "right_shift", True, role="shift"),
    "left_shift": _ew("bin", "fusor::left_shift({}, {})", "np.left_shift({}, {})", "left_shift", role="shift"),
    "right_shift": _ew("bin", "fusor::right_shift({}, {})", "np.right_shift({}, {})", "right_shift",
                       role="shift"),
    "minimum": _ew("bin", "fusor::minimum({}, {})", "np.minimum({}, {})", "minimum"),
    "maximum": _ew("bin", "fusor::maximum({}, {})", "np.maximum({}, {})", "maximum"),
    "fmin": _ew("bin", "fusor::fmin({}, {})", "np.fmin({}, {})", "fmin"),
    "fmax": _ew("bin", "fusor::fmax({}, {})", "np.fmax({}, {})", "fmax"),
    "arctan2": _ew("bin", "fusor::arctan2({}, {})", "np.arctan2({}, {})", "arctan2"),
    "hypot": _ew("bin", "fusor::hypot({}, {})", "np.hypot({}, {})", "hypot"),
    "unary -": _ew("un", "-{}", "-{}", "negative", True),
    "!": _ew("un", "!{}", "np.logical_not({})", "logical_not", True, False),
    "~": _ew("un", "~{}", "~{}", "invert", True),
    "logical_not": _ew("un", "fusor::logical_not({})", "np.logical_not({})", "logical_not"),
    "invert": _ew("un", "fusor::invert({})", "np.invert({})", "invert"),
    "where": _ew("where", "fusor::where({}, {}, {})", "np.where({}, {}, {})", "where"),
    "clip": _ew("clip", "fusor::clip({}, {}, {})", "np.clip({}, {}, {})", "clip"),
    "isclose": _ew("isclose", "fusor::isclose({}, {}{})", "np.isclose({}, {}{})", "isclose"),
    "cast": _ew("cast", "fusor::cast<{}>({})", "{}.astype(np.{})", "cast"),
}
for _f in ("abs", "square", "sign", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
           "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "floor", "ceil",
           "trunc", "round", "isnan", "isinf", "isfinite"):
    EW_OPS[_f] = _ew("un", "fusor::%s({})" % _f, "np.%s({})" % _f, _f)
# Functions whose last bits NumPy (its own SIMD kernels and SVML, on this machine) and the C
# library fusor calls round differently: compared with check.hpp's rtol_math_*, and only at the
# root of an expression (a few ulp fed into floor, ==, a cast, ... could change a result by 1).
EW_INEXACT = {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "cbrt", "sin", "cos", "tan",
              "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arctan2", "hypot"}  # + float power
EW_ROUNDING = {"floor", "ceil", "trunc", "round"}
EW_COMPARE = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
EW_LOGICAL = {"logical_and", "logical_or", "logical_xor"}
EW_BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}
EW_INT8_BOOL = {"remainder", "floor_divide", "power", "left_shift", "right_shift"}
EW_MINMAX = {"minimum", "maximum", "fmin", "fmax"}
# where the sign of a zero operand changes the value (x / -0.0 is -inf, arctan2(-0.0, -1) is -pi)
EW_ZERO_SIGN = {"true_divide", "floor_divide", "remainder", "arctan2", "power"}
EW_OP_WEIGHTS = dict({k: 1.0 for k in EW_OPS}, **{"+": 2.0, "-": 1.5, "*": 2.0, "/": 1.5, "pow": 0.4,
                                                  "where": 2.0, "cast": 2.0, "clip": 1.5, "isclose": 1.5})
# TEST_CASEs of integer corners (min, -1, 0, 1, max) favour the operations that meet them.
EW_CORNER_OP_WEIGHTS = dict(EW_OP_WEIGHTS, **{k: 6.0 for k in (
    "<<", ">>", "left_shift", "right_shift", "+", "-", "*", "unary -", "abs", "square")},
                            **{k: 10.0 for k in ("floor_divide", "%", "mod", "power")})


def ew_bin_types(sem, da, db):
    """(compute dtype, result dtype) of binary `sem` on dtypes da, db (promotion by dtype only);
    EwInvalid where fusor does not compile (NumPy: TypeError)."""
    p = np.result_type(da, db)
    if sem in EW_COMPARE:
        return p, BOOL
    if sem in EW_LOGICAL:
        return BOOL, BOOL
    if sem == "true_divide":
        r = p if p.kind == "f" else F64
    elif sem in EW_INT8_BOOL:
        r = ew_int8_if_bool(p)
    elif sem in ("arctan2", "hypot"):
        r = ew_float_result(p)
    else:
        r = p
    if sem == "subtract" and r == BOOL:
        raise EwInvalid("bool - bool")
    if sem in EW_BITWISE and r.kind == "f":
        raise EwInvalid("bitwise on floats")
    return r, r


def ew_convert(v, to):
    """v.astype(to), as fusor's conversion (cast<U>, `c = e`, compound assignment), or EwReject
    where the result is not specified: a float -> integer conversion of NaN, +-inf or a value
    outside `to` (NumPy: platform-specific, fusor: defined but unspecified), a finite float64
    beyond float32 (C++: undefined)."""
    v = np.asarray(v)
    if v.dtype.kind == "f" and to.kind in "iu":
        w = v.astype(F64)
        if not np.all(np.isfinite(w)):
            raise EwReject("NaN/inf to integer")
        t = np.trunc(w)
        bits = to.itemsize * 8
        lo, hi = (0.0, 2.0**bits) if to.kind == "u" else (-2.0**(bits - 1), 2.0**(bits - 1))
        if np.any((t < lo) | (t >= hi)):
            raise EwReject("float out of the integer range")
    if v.dtype == F64 and to == F32:
        w = np.abs(v[np.isfinite(v)])
        if np.any(w > float(np.finfo(F32).max)):
            raise EwReject("float64 beyond float32")
    return v.astype(to)


def ew_has_zero(v):
    return v.dtype.kind == "f" and bool(np.any(v == 0))


def ew_zero_tie(x, y):
    """True where x and y are zeros of different signs (min/max/clip may return either)."""
    if x.dtype.kind != "f":
        return False
    x, y = np.broadcast_arrays(x, y)
    return bool(np.any((x == 0) & (y == 0) & (np.signbit(x) != np.signbit(y))))


def ew_inexact_hazard(fn, args, y):
    """EwReject unless every element of y = fn(*args) is far from overflow and underflow, where
    a few ulp decide between a finite value and inf, or a normal and a subnormal (whose ulp is
    no longer relative): the exact value, in higher precision, must be 0, beyond 4 * max (both
    sides round to inf), or between 4 * tiny and max / 4."""
    hi = np.float64 if y.dtype == F32 else np.longdouble
    ref = np.broadcast_to(np.asarray(fn(*[a.astype(hi) for a in args])), y.shape)
    fi = np.finfo(y.dtype)
    big, tiny = hi(fi.max), hi(fi.tiny)
    for r, v in zip(ref.ravel(), y.ravel()):
        if np.isnan(r) or np.isnan(v):
            if not (np.isnan(r) and np.isnan(v)):
                raise EwReject("NaN differs")
        elif np.isinf(r) or abs(r) >= 4 * big:
            if not (np.isinf(v) and (v > 0) == (r > 0)):
                raise EwReject("overflow")
        elif r == 0:
            if v != 0:
                raise EwReject("zero")
        elif not 4 * tiny <= abs(r) <= big / 4:
            raise EwReject("near overflow or underflow")


def ew_weak_check(expected, fn, what):
    """Cross-check with NumPy 1.24's NEP 50 mode (NumPy 2's promotion) from the natural call."""
    try:
        got = weak(fn)
    except (ValueError, TypeError, OverflowError) as err:
        sys.exit("generate.py: NEP 50 cross-check raised for %s: %r" % (what, err))
    if got is not None and not same(expected, got):
        sys.exit("generate.py: NEP 50 cross-check failed for %s:\n%r\n%r" % (what, expected, got))


def ew_arg(x):
    """An operand for a natural NumPy call: the array, or the Python scalar (weak)."""
    return x.scalar if x.is_scalar() else x.val


def ew_node(spec, texts_c, texts_n, dtype, children, op):
    """The node of `op` over `children`; texts_c / texts_n are the operands' texts, each given as
    an Ex (parenthesised when the operator syntax needs it) or as a string."""
    c = spec["cpp"].format(*[(x.c_op() if spec["c_oper"] else x.cpp) if isinstance(x, Ex) else x
                             for x in texts_c])
    n = spec["np"].format(*[(x.n_op() if spec["n_oper"] else x.npx) if isinstance(x, Ex) else x
                            for x in texts_n])
    node = Ex(c, n, dtype, children=children, op=op)
    node.c_atom, node.n_atom = not spec["c_oper"], not spec["n_oper"]
    return node


def ew_fail(node, err):
    node.err = err
    if "out of bounds" in err.what:
        node.ops.add("corner: integer scalar out of range")


def ew_corners(node, sem, x, y):
    """Tags the integer corners this node meets (coverage): x // 0, INT_MIN // -1, shifts by a
    negative amount or by the width or more, wrap-around."""
    if x.dtype.kind not in "iu":
        return
    x, y = np.broadcast_arrays(x, y)
    info = np.iinfo(x.dtype)
    sym = {"floor_divide": "//", "remainder": "%"}.get(sem)
    if sym and np.any(y == 0):
        node.ops.add("corner: integer %s 0" % sym)
    if sym and x.dtype.kind == "i" and np.any((x == info.min) & (y == -1)):
        node.ops.add("corner: INT_MIN %s -1" % sym)
    if sem in ("left_shift", "right_shift"):
        if x.dtype.kind == "i" and np.any(y < 0):
            node.ops.add("corner: shift by a negative amount")
        if np.any(y >= info.bits):
            node.ops.add("corner: shift by the width or more")
    if sem in ("add", "subtract", "multiply") and x.size:
        exact = np.asarray(getattr(np, sem)(x.astype(object), y.astype(object)), dtype=object)
        if any(not info.min <= int(v) <= info.max for v in exact.ravel()):
            node.ops.add("corner: integer wrap-around")


def ew_first_error(node, children):
    """Propagates one child's construction error (two: C++ evaluates the arguments in an
    unspecified order, so which one throws is not defined: draw again)."""
    errs = [c.err for c in children if c.err is not None]
    if len(errs) > 1:
        raise EwReject("two errors")
    if any(c.runtime for c in children):
        raise EwReject("a runtime error below the root")  # a view or where may skip its element
    if errs:
        node.err = errs[0]
        return True
    return False


def ew_broadcast(node, arrays):
    try:
        return np.broadcast_shapes(*[a.shape for a in arrays])
    except ValueError:
        node.err = EwError("broadcast_error", "ValueError: shapes %s do not broadcast" %
                           " ".join(np_shape(a.shape) for a in arrays))
        return None


def ew_apply_bin(op, a, b, root):
    spec = EW_OPS[op]
    sem = spec["sem"]
    da = a.dtype if not a.is_scalar() else ew_scalar_dtype(a, b.dtype)
    db = b.dtype if not b.is_scalar() else ew_scalar_dtype(b, a.dtype)
    comp, r = ew_bin_types(sem, da, db)
    inexact = sem in EW_INEXACT or (sem == "power" and r.kind == "f")
    if inexact and not root:
        raise EwInvalid("inexact below the root")
    node = ew_node(spec, (a, b), (a, b), r, (a, b), op)
    if ew_first_error(node, (a, b)):
        return node
    if sem == "power" and b.is_scalar() and r.kind in "iu" and b.ctype in ("int", "int64") and b.scalar < 0:
        node.err = EwError("value_error", "ValueError: Integers to negative integer powers are not allowed")
        node.ops.add("corner: integer ** negative integer (scalar)")
        return node
    try:
        x = a.val if not a.is_scalar() else ew_scalar_value(a, da)
        y = b.val if not b.is_scalar() else ew_scalar_value(b, db)
    except EwError as err:
        ew_fail(node, err)
        return node
    if ew_broadcast(node, (x, y)) is None:
        return node
    xc, yc = x.astype(comp), y.astype(comp)
    if sem in EW_ZERO_SIGN and ((a.zero_tie and ew_has_zero(xc)) or (b.zero_tie and ew_has_zero(yc))):
        raise EwReject("sign of a zero")
    if sem in EW_LOGICAL:
        val = getattr(np, sem)(x != 0, y != 0)  # non-zero is true, NaN included
    elif sem == "power" and r.kind in "iu":
        try:
            val = np.power(xc, yc)
        except ValueError:
            node.runtime = True
            node.ops.add("corner: integer ** negative integer (tensor)")
            return node
    else:
        val = getattr(np, sem)(xc, yc)
    node.val = np.asarray(val)
    assert node.val.dtype == r, (op, node.val.dtype, r)
    ew_corners(node, sem, xc, yc)
    node.zero_tie = node.zero_tie and r.kind == "f"
    if sem in EW_MINMAX and ew_zero_tie(xc, yc):
        node.zero_tie = True
    if inexact:
        node.inexact = r.name
        ew_inexact_hazard(getattr(np, sem), (xc, yc), node.val)
    if not (sem in ("arctan2", "hypot") and np.result_type(da, db).kind != "f"):  # NumPy: float16
        ew_weak_check(node.val, lambda: np.asarray(getattr(np, sem)(ew_arg(a), ew_arg(b))), node.cpp)
    return node


def ew_apply_un(op, a, root):
    spec = EW_OPS[op]
    sem = spec["sem"]
    d = a.dtype
    if (sem in ("negative", "sign") and d == BOOL) or (sem == "invert" and d.kind == "f"):
        raise EwInvalid(op)
    if sem in ("logical_not", "isnan", "isinf", "isfinite"):
        r = BOOL
    elif sem == "square":
        r = ew_int8_if_bool(d)
    elif sem in EW_INEXACT or sem == "sqrt":
        r = ew_float_result(d)
    else:
        r = d
    inexact = sem in EW_INEXACT
    if inexact and not root:
        raise EwInvalid("inexact below the root")
    node = ew_node(spec, (a,), (a,), r, (a,), op)
    if ew_first_error(node, (a,)):
        return node
    x = a.val
    natural = True
    if sem == "logical_not":
        val = x == 0
    elif sem in ("isnan", "isinf", "isfinite") and d.kind != "f":
        val = np.full(x.shape, sem == "isfinite")
    elif sem in EW_ROUNDING and d.kind != "f":
        val = x.copy()
        if sem != "round" or d == BOOL:
            ew_note(node, "%s of %s keeps %s (NumPy 2.1; 1.24 gives a float)" % (sem, d.name, d.name))
            natural = False
    elif sem in EW_INEXACT or sem == "sqrt" or sem == "square":
        val = getattr(np, sem)(x.astype(r))
        if r == F32 and d.kind != "f" and d.itemsize == 1 and sem != "square":
            ew_note(node, "float32, not NumPy's float16")
            natural = False
    else:
        val = getattr(np, sem)(x)
    node.val = np.asarray(val)
    assert node.val.dtype == r, (op, node.val.dtype, r)
    node.zero_tie = node.zero_tie and r.kind == "f"
    if inexact:
        node.inexact = r.name
        ew_inexact_hazard(getattr(np, sem), (x.astype(r),), node.val)
    if natural:
        ew_weak_check(node.val, lambda: np.asarray(getattr(np, sem)(x)), node.cpp)
    return node


def ew_apply_where(c, x, y):
    spec = EW_OPS["where"]
    dx = x.dtype if not x.is_scalar() else ew_scalar_dtype(x, y.dtype if not y.is_scalar() else None)
    dy = y.dtype if not y.is_scalar() else ew_scalar_dtype(y, x.dtype if not x.is_scalar() else None)
    r = np.result_type(dx, dy)
    node = ew_node(spec, (c, x, y), (c, x, y), r, (c, x, y), "where")
    if ew_first_error(node, (c, x, y)):
        return node
    try:
        xv = x.val if not x.is_scalar() else ew_scalar_value(x, dx)
        yv = y.val if not y.is_scalar() else ew_scalar_value(y, dy)
    except EwError as err:
        ew_fail(node, err)
        return node
    if ew_broadcast(node, (c.val, xv, yv)) is None:
        return node
    node.val = np.asarray(np.where(c.val != 0, xv.astype(r), yv.astype(r)))
    node.zero_tie = node.zero_tie and r.kind == "f"
    if not x.is_scalar() and not y.is_scalar():
        ew_weak_check(node.val, lambda: np.where(c.val, x.val, y.val), node.cpp)
    return node


def ew_apply_clip(x, lo, hi):
    """clip(x, lo, hi): scalar bounds are weak against x (API.md), the type promote(x, lo, hi)."""
    spec = EW_OPS["clip"]
    dl = lo.dtype if not lo.is_scalar() else ew_scalar_dtype(lo, x.dtype)
    dh = hi.dtype if not hi.is_scalar() else ew_scalar_dtype(hi, x.dtype)
    r = np.result_type(np.result_type(x.dtype, dl), dh)
    node = ew_node(spec, (x, lo, hi), (x, lo, hi), r, (x, lo, hi), "clip")
    if ew_first_error(node, (x, lo, hi)):
        return node
    try:
        lv = lo.val if not lo.is_scalar() else ew_scalar_value(lo, dl)
        hv = hi.val if not hi.is_scalar() else ew_scalar_value(hi, dh)
    except EwError as err:
        ew_fail(node, err)
        return node
    if ew_broadcast(node, (x.val, lv, hv)) is None:
        return node
    xr, lr, hr = x.val.astype(r), lv.astype(r), hv.astype(r)
    node.val = np.asarray(np.core.umath.clip(xr, lr, hr))  # the ufunc (np.clip's wrapper has 1.24 quirks)
    assert node.val.dtype == r
    node.zero_tie = node.zero_tie and r.kind == "f"
    if ew_zero_tie(xr, lr) or ew_zero_tie(np.maximum(xr, lr), hr):
        node.zero_tie = True
    if not lo.is_scalar() and not hi.is_scalar():  # (1.24's weak mode is not NEP 50 for scalars here)
        ew_weak_check(node.val, lambda: np.core.umath.clip(x.val, lo.val, hi.val), node.cpp)
    return node


EW_TOLS = [None, None, (1e-3, 1e-2), (0.1, 0.0), (0.0, 0.5), (1e-6, 0.0)]


def ew_apply_isclose(a, b, tol):
    """isclose(a, b[, rtol, atol]) computed in promote(a, b') (b' float64 when b is not floating)
    as NumPy 1.24's np.isclose does on two arrays of that dtype."""
    spec = EW_OPS["isclose"]
    da = a.dtype if not a.is_scalar() else ew_scalar_dtype(a, b.dtype)
    db = b.dtype if not b.is_scalar() else ew_scalar_dtype(b, a.dtype)
    comp = np.result_type(da, db if db.kind == "f" else F64)
    tc = "" if tol is None else ", %r, %r" % tol
    tn = "" if tol is None else ", rtol=%r, atol=%r" % tol
    node = ew_node(spec, (a, b, tc), (a, b, tn), BOOL, (a, b), "isclose")
    if ew_first_error(node, (a, b)):
        return node
    try:
        x = a.val if not a.is_scalar() else ew_scalar_value(a, da)
        y = b.val if not b.is_scalar() else ew_scalar_value(b, db)
    except EwError as err:
        ew_fail(node, err)
        return node
    shape = ew_broadcast(node, (x, y))
    if shape is None:
        return node
    xs = np.broadcast_to(x.astype(comp), shape).reshape(-1)
    ys = np.broadcast_to(y.astype(comp), shape).reshape(-1)
    rtol, atol = tol or (1e-5, 1e-8)
    node.val = np.asarray(np.isclose(xs, ys, rtol=rtol, atol=atol)).reshape(shape)
    node.zero_tie = False
    return node


def ew_apply_cast(x, to):
    spec = EW_OPS["cast"]
    node = ew_node(spec, (CPP_TYPE[to.name], x), (x.n_op(), to.name), to, (x,), "cast")
    if ew_first_error(node, (x,)):
        return node
    node.val = ew_convert(x.val, to)
    node.zero_tie = node.zero_tie and to.kind == "f"
    return node


# ---- views -------------------------------------------------------------------------------

class EwView:
    """One drawn view: `names` (coverage), its C++ and NumPy texts around an operand's texts,
    and `apply` (NumPy's view of an array; raises NumPy's error)."""

    def __init__(self, kind, names, cpp, npx, apply, index=False):
        # the first {} of each text is the operand (a later {} may be an empty braced list)
        self.kind, self.names, self.apply = kind, names, apply
        self.cpp, self.npx = cpp.replace("{}", "\0", 1), npx.replace("{}", "\0", 1)
        self.index = index  # NumPy text is `x[...]`: the operand must be an atom

    def texts(self, x):
        if isinstance(x, Ex):
            return self.cpp.replace("\0", x.cpp), self.npx.replace("\0", x.n_op() if self.index else x.npx)
        return self.cpp.replace("\0", x), self.npx.replace("\0", x)


EW_VIEW_KINDS = [("transpose", 2), ("view", 3), ("flip", 1.5), ("diagonal", 1), ("broadcast_to", 1),
                 ("swapaxes", 1), ("moveaxis", 1), ("expand_dims", 1), ("squeeze", 1.2), ("reshape", 1.5)]
EW_WRITABLE_VIEWS = [(k, w) for k, w in EW_VIEW_KINDS if k != "broadcast_to"]


def ew_list(axes, braces=True):
    return ("{%s}" if braces else "%s") % ", ".join(str(v) for v in axes)


def ew_rand_axis(rr, r, neg=0.3):
    ax = int(rr.integers(0, r))
    return ax - r if rr.random() < neg else ax


def ew_bad_axis(rr, r):
    return r + int(rr.integers(0, 2)) if rr.random() < 0.5 else -r - 1 - int(rr.integers(0, 2))


def ew_view_key(rr, shape, bad):
    """A basic index: slices (negative steps, bounds beyond the extent: clamping), integers
    (negative too), all, newaxis, an ellipsis. `bad`: one defect -- an integer outside its
    axis (index_error), too many indices, a step 0, two ellipses (value_error)."""
    r = len(shape)
    names = {"view"}
    defect = None
    if bad:
        opts = ["too many", "step 0", "two ellipses"] + (["index"] * 2 if r else [])
        defect = opts[int(rr.integers(0, len(opts)))]
    ell = rr.random() < 0.2 or defect == "two ellipses"
    if ell:
        front = int(rr.integers(0, r + 1))
        back = int(rr.integers(0, r - front + 1))
        axes = list(range(front)) + [None] + list(range(r - back, r))
    else:
        n = r if rr.random() < 0.75 else int(rr.integers(0, r + 1))
        axes = list(range(n))
    if defect == "too many":
        axes = list(range(r)) + ["extra"]
    if defect in ("index", "step 0"):
        real = [a for a in axes if isinstance(a, int)]
        if not real:
            axes = list(range(r))
            real = axes
        target = real[int(rr.integers(0, len(real)))] if real else None
    else:
        target = None
    key = []
    for a in axes:
        if rr.random() < 0.1:
            key.append(None)
            names.add("view: newaxis")
        if a is None:
            key.append(Ellipsis)
            names.add("view: ellipsis")
            continue
        if a == "extra":
            key.append(0)
            continue
        e = shape[a]
        if a == target and defect == "index":
            key.append(e + int(rr.integers(0, 2)) if rr.random() < 0.5 else -e - 1 - int(rr.integers(0, 2)))
            continue
        if a == target and defect == "step 0":
            key.append(slice(None, None, 0))
            continue
        u = rr.random()
        if u < 0.2:
            key.append(All)
            names.add("view: all")
        elif u < 0.38 and e > 0:
            key.append(int(rr.integers(-e, e)))
            names.add("view: integer")
        elif u < 0.5:
            key.append(slice(None, None, -1))
            names.add("view: negative step")
        else:
            def bound():
                if rr.random() < 0.35:
                    return None
                return int(rr.integers(-e - 3, e + 4))
            step = [None, None, 1, 2, 3, -1, -2, -3][int(rr.integers(0, 8))]
            s = slice(bound(), bound(), step)
            if step is not None and step < 0:
                names.add("view: negative step")
            if any(v is not None and not -e <= v <= e for v in (s.start, s.stop)):
                names.add("view: clamped slice")
            key.append(s)
    if defect == "two ellipses":
        key.insert(int(rr.integers(0, len(key) + 1)), Ellipsis)
    if not key:
        key.append(None if rr.random() < 0.5 else Ellipsis)
        names.add("view: newaxis" if key[0] is None else "view: ellipsis")
    np_key = to_np_key(key)
    return EwView("view", names, "fusor::view({}, %s)" % ", ".join(cpp_index(i) for i in key),
                  "{}[%s]" % ", ".join(np_index(i) for i in key), lambda x: x[np_key], index=True)


def ew_draw_view(rr, kind, shape, bad=False):
    """A view of `kind` for an operand of `shape`, or None when it does not apply. `bad`: one
    invalid argument (NumPy raises; fusor throws the error API.md maps it to)."""
    r = len(shape)
    size = int(np.prod(shape, dtype=np.int64))
    if kind == "view":
        return ew_view_key(rr, shape, bad)
    if kind == "transpose":
        if bad and r:
            opts = ["range"] + (["repeat", "length"] if r >= 2 else [])
            defect = opts[int(rr.integers(0, len(opts)))]
            perm = [int(v) for v in rr.permutation(r)]
            if defect == "range":
                perm[int(rr.integers(0, r))] = ew_bad_axis(rr, r)
            elif defect == "repeat":
                i, j = rr.choice(r, 2, replace=False)
                perm[int(i)] = perm[int(j)]
            else:
                perm = perm[:-1]
        elif r >= 2 and rr.random() < 0.6:
            perm = [int(v) - r if rr.random() < 0.25 else int(v) for v in rr.permutation(r)]
        else:
            return EwView(kind, {"transpose"}, "fusor::transpose({})", "np.transpose({})",
                          lambda x: np.transpose(x))
        return EwView(kind, {"transpose(axes)"}, "fusor::transpose({}, %s)" % ew_list(perm),
                      "np.transpose({}, %s)" % r_axis_text(perm), lambda x: np.transpose(x, perm))
    if kind == "flip":
        u = rr.random()
        if bad:
            if r >= 1 and rr.random() < 0.4:
                ax = ew_rand_axis(rr, r)
                axes = [ax, ax - r if ax >= 0 else ax + r] if rr.random() < 0.5 else [ax, ax]
                return EwView(kind, {"flip({axes})"}, "fusor::flip({}, %s)" % ew_list(axes),
                              "np.flip({}, %s)" % r_axis_text(axes), lambda x: np.flip(x, tuple(axes)))
            ax = ew_bad_axis(rr, r)
            return EwView(kind, {"flip(axis)"}, "fusor::flip({}, %d)" % ax, "np.flip({}, %d)" % ax,
                          lambda x: np.flip(x, ax))
        if r == 0 or u < 0.3:
            return EwView(kind, {"flip"}, "fusor::flip({})", "np.flip({})", lambda x: np.flip(x))
        if u < 0.7 or r == 1:
            ax = ew_rand_axis(rr, r)
            return EwView(kind, {"flip(axis)"}, "fusor::flip({}, %d)" % ax, "np.flip({}, %d)" % ax,
                          lambda x: np.flip(x, ax))
        k = int(rr.integers(2, r + 1))
        axes = [int(v) - r if rr.random() < 0.25 else int(v) for v in rr.permutation(r)[:k]]
        return EwView(kind, {"flip({axes})"}, "fusor::flip({}, %s)" % ew_list(axes),
                      "np.flip({}, %s)" % r_axis_text(axes), lambda x: np.flip(x, tuple(axes)))
    if kind == "diagonal":
        if r < 2 and not bad:
            return None
        if r < 2:
            off, a1, a2 = 0, 0, 1
        else:
            a1, a2 = [int(v) for v in rr.choice(r, 2, replace=False)]
            a1, a2 = [v - r if rr.random() < 0.25 else v for v in (a1, a2)]
            off = int(rr.integers(-3, 4))
            if bad:
                if rr.random() < 0.5:
                    a2 = a1 if rr.random() < 0.5 else (a1 - r if a1 >= 0 else a1 + r)
                else:
                    a2 = ew_bad_axis(rr, r)
            elif rr.random() < 0.2:
                return EwView(kind, {"diagonal"}, "fusor::diagonal({})", "np.diagonal({})",
                              lambda x: np.diagonal(x))
        return EwView(kind, {"diagonal"}, "fusor::diagonal({}, %d, %d, %d)" % (off, a1, a2),
                      "np.diagonal({}, %d, %d, %d)" % (off, a1, a2), lambda x: np.diagonal(x, off, a1, a2))
    if kind == "broadcast_to":
        for _ in range(20):
            target = [int(rr.integers(0, 4)) if (e == 1 and rr.random() < 0.6) else e for e in shape]
            lead = int(rr.integers(0 if target != list(shape) else 1, 3))
            target = [int(rr.integers(1, 4)) for _ in range(lead)] + target
            if bad:
                big = [i for i, e in enumerate(target) if i >= lead and shape[i - lead] not in (1,)]
                if big and rr.random() < 0.7:
                    i = big[int(rr.integers(0, len(big)))]
                    target[i] = target[i] + 1 if target[i] else 2
                elif r:
                    target = target[lead + 1:]  # fewer axes than the operand
                else:
                    return None
            if int(np.prod(target, dtype=np.int64)) <= 64 and len(target) <= 8:
                t = tuple(target)
                return EwView(kind, {"broadcast_to"}, "fusor::broadcast_to({}, fusor::shape_t{%s})" %
                              ", ".join(str(v) for v in t), "np.broadcast_to({}, %s)" % np_shape(t),
                              lambda x: np.broadcast_to(x, t))
        return None
    if kind == "swapaxes":
        if r == 0 and not bad:
            return None
        i = ew_rand_axis(rr, r) if r else 0
        j = ew_rand_axis(rr, r) if r else 0
        if bad:
            j = ew_bad_axis(rr, r)
            if rr.random() < 0.5:
                i, j = j, i
        return EwView(kind, {"swapaxes"}, "fusor::swapaxes({}, %d, %d)" % (i, j),
                      "np.swapaxes({}, %d, %d)" % (i, j), lambda x: np.swapaxes(x, i, j))
    if kind == "moveaxis":
        if r == 0 and not bad:
            return None
        if r >= 2 and rr.random() < 0.5:
            k = int(rr.integers(1, r + 1))
            src = [int(v) - r if rr.random() < 0.25 else int(v) for v in rr.permutation(r)[:k]]
            dst = [int(v) - r if rr.random() < 0.25 else int(v) for v in rr.permutation(r)[:k]]
            if bad:
                defect = ["range", "repeat", "length"][int(rr.integers(0, 3))]
                if defect == "range":
                    (src if rr.random() < 0.5 else dst)[int(rr.integers(0, k))] = ew_bad_axis(rr, r)
                elif defect == "repeat" and k >= 2:
                    src[1] = src[0]
                else:
                    dst = dst[:-1] if k >= 2 else dst + [(dst[0] + 1) % r]
            return EwView(kind, {"moveaxis({lists})"},
                          "fusor::moveaxis({}, %s, %s)" % (ew_list(src), ew_list(dst)),
                          "np.moveaxis({}, %s, %s)" % (r_axis_text(src), r_axis_text(dst)),
                          lambda x: np.moveaxis(x, src, dst))
        s = ew_rand_axis(rr, r) if r else 0
        d = ew_rand_axis(rr, r) if r else 0
        if bad:
            if rr.random() < 0.5:
                s = ew_bad_axis(rr, r)
            else:
                d = ew_bad_axis(rr, r)
        return EwView(kind, {"moveaxis"}, "fusor::moveaxis({}, %d, %d)" % (s, d),
                      "np.moveaxis({}, %d, %d)" % (s, d), lambda x: np.moveaxis(x, s, d))
    if kind == "expand_dims":
        k = 1 if rr.random() < 0.6 else int(rr.integers(1, 3))
        if r + k > 8:
            return None
        out = r + k
        axes = [int(v) - out if rr.random() < 0.3 else int(v) for v in rr.permutation(out)[:k]]
        if bad:
            if k >= 2 and rr.random() < 0.4:
                axes[1] = axes[0] - out if axes[0] >= 0 else axes[0] + out
            else:
                axes[0] = ew_bad_axis(rr, out)
        if k == 1 and rr.random() < 0.7:
            ax = axes[0]
            return EwView(kind, {"expand_dims"}, "fusor::expand_dims({}, %d)" % ax,
                          "np.expand_dims({}, %d)" % ax, lambda x: np.expand_dims(x, ax))
        return EwView(kind, {"expand_dims({axes})"}, "fusor::expand_dims({}, %s)" % ew_list(axes),
                      "np.expand_dims({}, %s)" % r_axis_text(axes), lambda x: np.expand_dims(x, tuple(axes)))
    if kind == "squeeze":
        ones = [i for i, e in enumerate(shape) if e == 1]
        if bad:
            others = [i for i, e in enumerate(shape) if e != 1]
            u = rr.random()
            if others and u < 0.5:
                ax = others[int(rr.integers(0, len(others)))]
                ax = ax - r if rr.random() < 0.3 else ax
            elif ones and u < 0.65:
                ax = ones[0]
                axes = [ax, ax - r]
                return EwView(kind, {"squeeze({axes})"}, "fusor::squeeze({}, %s)" % ew_list(axes),
                              "np.squeeze({}, axis=%s)" % r_axis_text(axes),
                              lambda x: np.squeeze(x, tuple(axes)))
            else:
                ax = ew_bad_axis(rr, r)
            return EwView(kind, {"squeeze(axis)"}, "fusor::squeeze({}, %d)" % ax,
                          "np.squeeze({}, axis=%d)" % ax, lambda x: np.squeeze(x, ax))
        u = rr.random()
        if not ones or u < 0.4:
            return EwView(kind, {"squeeze"}, "fusor::squeeze({})", "np.squeeze({})", lambda x: np.squeeze(x))
        if len(ones) == 1 or u < 0.75:
            ax = ones[int(rr.integers(0, len(ones)))]
            ax = ax - r if rr.random() < 0.3 else ax
            return EwView(kind, {"squeeze(axis)"}, "fusor::squeeze({}, %d)" % ax,
                          "np.squeeze({}, axis=%d)" % ax, lambda x: np.squeeze(x, ax))
        k = int(rr.integers(2, len(ones) + 1))
        axes = [int(v) - r if rr.random() < 0.3 else int(v) for v in rr.permutation(ones)[:k]]
        return EwView(kind, {"squeeze({axes})"}, "fusor::squeeze({}, %s)" % ew_list(axes),
                      "np.squeeze({}, axis=%s)" % r_axis_text(axes), lambda x: np.squeeze(x, tuple(axes)))
    if kind == "reshape":
        k = int(rr.choice([0, 1, 2, 3, 4], p=[0.05, 0.3, 0.35, 0.2, 0.1]))
        if size == 0:
            k = max(k, 1)
            target = [int(rr.integers(1, 4)) for _ in range(k)]
            target[int(rr.integers(0, k))] = 0
        else:
            if size > 1:
                k = max(k, 1)
            target = [1] * k
            f, m = 2, size
            while m > 1:  # prime factors, each to a random slot
                while m % f == 0:
                    if k:
                        target[int(rr.integers(0, k))] *= f
                    m //= f
                f += 1
        names = {"reshape"}
        if bad and (k < 2 or rr.random() < 0.6):  # the sizes do not match
            i = int(rr.integers(0, k)) if k else None
            if i is None:
                target = [2]
            else:
                target[i] = target[i] + 1 if target[i] != 0 else 2
        elif bad:  # two -1
            i, j = rr.choice(k, 2, replace=False)
            target[int(i)] = target[int(j)] = -1
        elif k and rr.random() < 0.4:
            target[int(rr.integers(0, k))] = -1
            names.add("reshape(-1)")
        t = tuple(target)
        wrap = "fusor::shape_t{%s}" if rr.random() < 0.3 else "{%s}"
        return EwView(kind, names, "fusor::reshape({}, %s)" % (wrap % ", ".join(str(v) for v in t)),
                      "np.reshape({}, %s)" % r_axis_text(t),
                      lambda x: np.reshape(x, t))
    raise AssertionError(kind)


def ew_np_view_error(err, kind):
    """NumPy's error of a view -> the fusor exception API.md names."""
    if isinstance(err, np.AxisError):
        return "axis_error"
    if isinstance(err, IndexError):
        text = str(err)
        return "value_error" if ("too many" in text or "ellipsis" in text) else "index_error"
    if isinstance(err, ValueError):
        return "broadcast_error" if kind == "broadcast_to" else "value_error"
    raise err


def ew_apply_view(x, v):
    c, n = v.texts(x)
    node = Ex(c, n, x.dtype, children=(x,), view=v.names)
    node.inexact = x.inexact
    if ew_first_error(node, (x,)):
        return node
    try:
        node.val = np.asarray(v.apply(x.val))
    except (ValueError, IndexError) as err:  # np.AxisError is both
        exc = ew_np_view_error(err, v.kind)
        node.err = EwError(exc, "%s: %s" % (type(err).__name__, err))
    return node


# ---- drawing subcases --------------------------------------------------------------------

class EwCtx:
    """The current TEST_CASE: its leaves (name -> array) and the one-shot error injection of
    the subcase being drawn (None, "view": one view gets a bad argument, "scalar": one integer
    scalar does not fit its partner, or a negative integer power)."""

    def __init__(self, rr, leaves, corners=False):
        self.rr, self.leaves, self.corners = rr, dict(leaves), corners
        self.weights = {n: 1.0 for n in leaves}
        self.inject = None
        self.op_weights = EW_CORNER_OP_WEIGHTS if corners else EW_OP_WEIGHTS

    def take(self, what):
        if self.inject == what:
            self.inject = "done"
            return True
        return False

    def p_view(self):
        return 0.55 if self.inject == "view" else 0.2


def ew_leaf(ctx):
    x = ew_leaf_node(ctx, pick(ctx.rr, ctx.weights))
    if ctx.rr.random() < ctx.p_view():
        x = ew_view_on(ctx, x)
        if ctx.rr.random() < 0.15:
            x = ew_view_on(ctx, x)
    return x


def ew_leaf_node(ctx, name):
    v = ctx.leaves[name]
    return Ex(name, name, v.dtype, val=v, leaf=name)


def ew_view_on(ctx, x, kinds=None):
    """x under a random view (x itself when none applies)."""
    if x.val is None:
        return x
    for _ in range(6):
        kind = pick(ctx.rr, kinds or EW_VIEW_KINDS)
        bad = ctx.inject == "view"
        v = ew_draw_view(ctx.rr, kind, x.val.shape, bad)
        if v is not None:
            if bad:
                ctx.take("view")
            return ew_apply_view(x, v)
    return x


def ew_expr(ctx, depth, root):
    """A random expression with `depth` levels of operations (0: a leaf, maybe under views)."""
    if depth == 0:
        return ew_leaf(ctx)
    rr = ctx.rr
    for _ in range(30):
        op = pick(rr, ctx.op_weights)
        try:
            node = ew_build(ctx, op, depth, root)
        except EwInvalid:
            continue
        if rr.random() < (0.35 if ctx.inject == "view" else 0.12) and not node.runtime:
            node = ew_view_on(ctx, node)
        return node
    raise EwReject("no operation fits")


def ew_operand_or_scalar(ctx, depth, p_scalar, role, partner):
    if ctx.rr.random() < p_scalar:
        return ew_scalar(ctx, role, partner)
    return ew_expr(ctx, int(ctx.rr.integers(0, depth)), False)


def ew_build(ctx, op, depth, root):
    rr = ctx.rr
    spec = EW_OPS[op]
    kind = spec["kind"]

    def sub(main):
        return ew_expr(ctx, depth - 1 if main else int(rr.integers(0, depth)), False)

    if kind == "un":
        return ew_apply_un(op, sub(True), root)
    if kind == "cast":
        return ew_apply_cast(sub(True), np.dtype(pick(rr, EW_DTYPES)))
    if kind == "bin":
        t = sub(True)
        if rr.random() < (0.6 if ctx.corners else 0.3):
            if rr.random() < 0.3:
                return ew_apply_bin(op, ew_scalar(ctx, None, t.dtype), t, root)
            return ew_apply_bin(op, t, ew_scalar(ctx, spec["role"], t.dtype), root)
        o = sub(False)
        return ew_apply_bin(op, t, o, root) if rr.random() < 0.5 else ew_apply_bin(op, o, t, root)
    if kind == "where":
        c = sub(rr.random() < 0.5)
        x = None if rr.random() < 0.3 else sub(rr.random() < 0.5)
        y = None if rr.random() < 0.3 else sub(x is None)
        x = x or ew_scalar(ctx, None, y.dtype if y is not None else None)
        y = y or ew_scalar(ctx, None, x.dtype)
        return ew_apply_where(c, x, y)
    if kind == "clip":
        x = sub(True)
        lo = ew_scalar(ctx, None, x.dtype) if rr.random() < 0.6 else sub(False)
        hi = ew_scalar(ctx, None, x.dtype) if rr.random() < 0.6 else sub(False)
        return ew_apply_clip(x, lo, hi)
    if kind == "isclose":
        a = sub(True)
        u = rr.random()
        if u < 0.35 and a.err is None and not a.runtime:  # b close to a: some true, some false
            eps = [1e-6, 1e-4, 1e-9, 0.5, 1e-3][int(rr.integers(0, 5))]
            b = ew_apply_bin("+", a, Ex(repr(eps), repr(eps), scalar=eps, ctype="double"), False)
        elif u < 0.55:
            b = ew_scalar(ctx, None, a.dtype)
        else:
            b = sub(False)
        if rr.random() < 0.2 and not b.is_scalar():
            a, b = b, a
        return ew_apply_isclose(a, b, EW_TOLS[int(rr.integers(0, len(EW_TOLS)))])
    raise AssertionError(kind)


def ew_clean(text):
    return " ".join(str(text).replace('"', "'").replace("\\", "/").split())


def ew_expected_np(node):
    t = node.npx
    if node.notes:
        t += " [API.md: " + "; ".join(node.notes) + "]"
    return t


def ew_rtol(*dtypes):
    names = [d for d in dtypes if d]
    if not names:
        return None
    return "oracle::rtol_math_" + ("f32" if "float32" in names else "f64")


def ew_draw_expr(ctx, negative_power=False):
    rr = ctx.rr
    depth = int(rr.choice([0, 1, 2, 3], p=[0.05, 0.38, 0.33, 0.24]))
    if negative_power:  # an integer to a negative integer power: value_error (at once for a scalar)
        x = ew_expr(ctx, int(rr.integers(0, 2)), False)
        if rr.random() < 0.5:
            v = -int(rr.integers(1, 3))
            e = Ex(str(v), str(v), scalar=v, ctype="int")
        else:
            e = ew_expr(ctx, int(rr.integers(0, 2)), False)
        node = ew_apply_bin("power" if rr.random() < 0.7 else "pow", x, e, True)
        depth = 1
    else:
        node = ew_expr(ctx, depth, True)
    if depth == 0 and not node.views:
        node = ew_view_on(ctx, node)
    if node.err is not None:
        return [subcase_throws(node.cpp, ew_clean(ew_expected_np(node) + " raises " + node.err.what),
                               node.err.exc)], node, node.err.exc
    if node.runtime:
        return [subcase_throws(node.cpp, ew_clean(ew_expected_np(node) + " raises ValueError: Integers to "
                                                  "negative integer powers are not allowed"), "value_error")], \
            node, "value_error"
    return [subcase(node.cpp, ew_clean(ew_expected_np(node)), node.val, ew_rtol(node.inexact))], node, "value"


def ew_same_valued(ctx, x):
    """An expression of x with x's values (or nearly): array_equal / allclose often true."""
    rr = ctx.rr
    u = int(rr.integers(0, 7))
    if u == 0:
        return ew_apply_bin("*", x, Ex("1", "1", scalar=1, ctype="int"), False)
    if u == 1:
        v = ew_draw_view(rr, "transpose", x.val.shape)
        return ew_apply_view(ew_apply_view(x, v), v) if v.names == {"transpose"} else ew_apply_view(x, v)
    if u == 2 and x.val.ndim:
        ax = ew_rand_axis(rr, x.val.ndim)
        v = EwView("flip", {"flip(axis)"}, "fusor::flip({}, %d)" % ax, "np.flip({}, %d)" % ax,
                   lambda arr: np.flip(arr, ax))
        return ew_apply_view(ew_apply_view(x, v), v)
    if u == 3:
        return ew_apply_cast(x, F64)
    if u == 4:
        return ew_apply_un("abs", x, False)
    if u == 5:
        eps = [1e-7, 1e-3, 0.0][int(rr.integers(0, 3))]
        return ew_apply_bin("+", x, Ex(repr(eps), repr(eps), scalar=eps, ctype="double"), False)
    t = x.val.shape
    v = EwView("reshape", {"reshape"}, "fusor::reshape({}, {%s})" % ", ".join(str(e) for e in t),
               "np.reshape({}, %s)" % r_axis_text(t), lambda arr: np.reshape(arr, t))
    return ew_apply_view(x, v)


def ew_draw_bool(ctx):
    """array_equal(x, y) or allclose(x, y[, rtol, atol]): one bool, checked with CHECK."""
    rr = ctx.rr
    x = ew_expr(ctx, int(rr.integers(0, 3)), False)
    which = "array_equal" if rr.random() < 0.5 else "allclose"
    u = rr.random()
    if u < 0.5 and x.err is None and not x.runtime:
        y = ew_same_valued(ctx, x)
    elif which == "allclose" and u < 0.6:
        y = ew_scalar(ctx, None, x.dtype)
    else:
        y = ew_expr(ctx, int(rr.integers(0, 3)), False)
    if rr.random() < 0.3 and not y.is_scalar():
        x, y = y, x
    if which == "array_equal":
        cpp = "fusor::array_equal(%s, %s)" % (x.cpp, y.cpp)
        npx = "np.array_equal(%s, %s)" % (x.npx, y.npx)
        node = Ex(cpp, npx, BOOL, children=(x, y), op=which)
        if not ew_first_error(node, (x, y)):
            p = np.result_type(x.dtype, y.dtype)
            node.val = np.array(np.array_equal(x.val.astype(p), y.val.astype(p)))
    else:
        tol = EW_TOLS[int(rr.integers(0, len(EW_TOLS)))]
        iso = ew_apply_isclose(x, y, tol)
        tc = "" if tol is None else ", %r, %r" % tol
        tn = "" if tol is None else ", rtol=%r, atol=%r" % tol
        node = Ex("fusor::allclose(%s, %s%s)" % (x.cpp, y.cpp, tc),
                  "np.allclose(%s, %s%s)" % (x.npx, y.npx, tn),
                  BOOL, children=(iso,), op=which)
        node.ops.discard("isclose")
        node.err = iso.err
        if iso.err is None:
            node.val = np.array(bool(np.all(iso.val)))
    if node.err is not None:
        exc = node.err.exc
        return ['    ORACLE_BOOL_SUBCASE_THROWS(%s, "%s", fusor::%s);' % (
            node.cpp, ew_clean(ew_expected_np(node) + " raises " + node.err.what), exc)], node, exc
    want = "true" if bool(node.val) else "false"
    return ['    ORACLE_BOOL_SUBCASE(%s, "%s", %s);' % (node.cpp, ew_clean(ew_expected_np(node)), want)], \
        node, "value"


EW_COMPOUND = [("+=", "add"), ("-=", "subtract"), ("*=", "multiply"), ("/=", "true_divide"),
               ("%=", "remainder"), ("&=", "bitwise_and"), ("|=", "bitwise_or"), ("^=", "bitwise_xor"),
               ("<<=", "left_shift"), (">>=", "right_shift")]


def ew_shift_alias(rr, shape):
    """(destination, source) views of d that overlap along one axis: d[k:] = d[:-k],
    d[:-k] = d[k:], d[::-1] = d, d[k:] = d[n-k-1::-1] (along axis `ax`, all before it)."""
    axes = [i for i, e in enumerate(shape) if e >= 2]
    if not axes:
        return None
    ax = axes[int(rr.integers(0, len(axes)))]
    n = shape[ax]
    k = int(rr.integers(1, n))
    pairs = [(slice(k, None), slice(None, -k)), (slice(None, -k), slice(k, None)),
             (slice(None, None, -1), All), (slice(k, None), slice(n - k - 1, None, -1))]
    dst, src = pairs[int(rr.integers(0, len(pairs)))]

    def view_of(s):
        key = tuple([All] * ax + [s])
        np_key = to_np_key(key)
        names = {"view"} | ({"view: all"} if ax or s is All else set())
        if s is not All and s.step is not None and s.step < 0:
            names.add("view: negative step")
        return EwView("view", names, "fusor::view({}, %s)" % ", ".join(cpp_index(i) for i in key),
                      "{}[%s]" % ", ".join(np_index(i) for i in key), lambda x: x[np_key], index=True)
    return view_of(dst), view_of(src)


def ew_alias_template(sub, d0):
    """(form, destination view, right side, name) of one of the classic aliased assignments:
    d = VIEW(d) op d (`a = transpose(a) + a`), d op= VIEW(d) (`a += transpose(a)`), flip(d) = f(d)
    (assignment through a flip of itself), d[k:] = d[:-k] and its variants (ew_shift_alias)."""
    rr = sub.rr
    shape = d0.shape
    r = len(shape)
    k = int(rr.integers(0, 4))
    if k == 3:
        pair = ew_shift_alias(rr, shape)
        if pair is None:
            raise EwReject("no axis to shift")
        return "view =", pair[0], ew_apply_view(ew_leaf_node(sub, "d"), pair[1]), "d[k:] = d[:-k] and variants"
    views = [EwView("flip", {"flip"}, "fusor::flip({})", "np.flip({})", lambda x: np.flip(x))]
    if r:
        ax = ew_rand_axis(rr, r)
        views.append(EwView("flip", {"flip(axis)"}, "fusor::flip({}, %d)" % ax, "np.flip({}, %d)" % ax,
                            lambda x: np.flip(x, ax)))
    if k < 2:
        transposable = tuple(reversed(shape))
        try:
            ok = np.broadcast_shapes(shape, transposable) == shape
        except ValueError:
            ok = False
        if ok or rr.random() < 0.25:  # (else a broadcast_error: d unchanged)
            views = [EwView("transpose", {"transpose"}, "fusor::transpose({})", "np.transpose({})",
                            lambda x: np.transpose(x))] * 3 + views
    v = views[int(rr.integers(0, len(views)))]
    d = ew_leaf_node(sub, "d")
    if k == 0:
        for _ in range(10):
            op = ["+", "*", "-", "maximum", "fmin", "<", "&", "floor_divide"][int(rr.integers(0, 8))]
            try:
                return "=", None, ew_apply_bin(op, ew_apply_view(d, v), d, False), "d = VIEW(d) op d"
            except EwInvalid:
                continue
        raise EwReject("no operation fits")
    if k == 1:
        return "compound", None, ew_apply_view(d, v), "d op= VIEW(d)"
    rhs = d
    if rr.random() < 0.5:
        rhs = ew_apply_bin("*" if rr.random() < 0.5 else "+", d, Ex("2", "2", scalar=2, ctype="int"), False)
    dest = views[-1] if rr.random() < 0.5 else views[0]
    return "view =", dest, rhs, "flip(d) = f(d)"


def ew_draw_assign(ctx):
    """`d = e`, `VIEW(d) = e`, `d op= e`, `VIEW(d) op= e` on d, a copy of a leaf; with aliasing
    (e reads d) about half the time: NumPy's answer is as if e were evaluated first."""
    rr = ctx.rr
    src = pick(rr, ctx.weights)
    d0 = ctx.leaves[src]
    t = d0.dtype
    alias = rr.random() < 0.45
    form = pick(rr, [("=", 0.3), ("view =", 0.3), ("compound", 0.4)])
    dview = None
    sub = EwCtx(rr, dict(ctx.leaves, d=d0))
    sub.weights["d"] = 3.0 if alias else 0.0
    sub.inject = ctx.inject
    rhs = None
    tag = None
    if alias and rr.random() < 0.55:  # the classic forms, each sure to occur
        form, dview, rhs, tag = ew_alias_template(sub, d0)
    if dview is None and rhs is None and (form == "view =" or (form == "compound" and rr.random() < 0.4)):
        for _ in range(6):
            bad = sub.inject == "view" and rr.random() < 0.5
            dview = ew_draw_view(rr, pick(rr, EW_WRITABLE_VIEWS), d0.shape, bad)
            if dview is not None:
                if bad:
                    sub.take("view")
                break
        if dview is None and form == "view =":
            form = "="
    if form == "compound":  # the operator: one that compiles for d and e (same_kind, no bool -, ...)
        if rhs is not None:
            pass
        elif rr.random() < 0.2:
            rhs = ew_scalar(sub, None, t)
        else:
            rhs = ew_expr(sub, int(rr.integers(0, 3)), False)
        dr = rhs.dtype if not rhs.is_scalar() else ew_scalar_dtype(rhs, t)
        fits = []
        for cop, sem in EW_COMPOUND:
            try:
                if EW_KIND[ew_bin_types(sem, t, dr)[1].kind] <= EW_KIND[t.kind]:
                    fits.append((cop, sem))
            except EwInvalid:
                pass
        if not fits:
            raise EwReject("no compound assignment compiles")
        cop, sem = fits[int(rr.integers(0, len(fits)))]
    elif rhs is None:
        if rr.random() < 0.08:
            rhs = ew_scalar(sub, None, None)
        else:
            rhs = ew_expr(sub, int(rr.choice([0, 1, 2, 3], p=[0.2, 0.4, 0.25, 0.15])), True)
    if alias and "d" not in rhs.leaves:
        raise EwReject("not aliased")
    if rhs.runtime:
        raise EwReject("a runtime error may leave d half-written")
    if rhs.inexact and t.kind != "f":
        raise EwReject("an inexact value cast to an integer")
    op_text = cop if form == "compound" else "="
    dest_c, dest_n = ("d", "d") if dview is None else dview.texts("d")
    if dview is not None and not dview.index:
        dest_n += "[...]"
    elif dview is None and form == "=" and rhs.is_scalar():
        dest_n = "d[...]"
    stmt_c = "%s %s %s" % (dest_c, op_text, rhs.cpp)
    np_rhs = rhs.npx
    if form == "=" and dview is None and not rhs.is_scalar():
        np_rhs = "np.asarray(%s).astype(np.%s)" % (rhs.npx, t.name)
    stmt_n = "d = %s.copy(); %s %s %s" % (src, dest_n, op_text, np_rhs)
    node = Ex(stmt_c, stmt_n, t, children=(rhs,), op="alias " + op_text if alias else None)
    node.ops.add(("compound " if form == "compound" else "") + op_text + (" to a view" if dview else ""))
    if alias:
        node.ops.add("aliasing")
    if tag:
        node.ops.add("aliasing: " + tag)
    if dview is not None:
        node.views |= {"dest " + n for n in dview.names}
    node.leaves.add(src)
    errs = [rhs.err] if rhs.err is not None else []
    idx = None
    if dview is not None:
        try:
            idx = np.asarray(dview.apply(np.arange(d0.size).reshape(d0.shape)))
        except (ValueError, IndexError) as err:
            errs.append(EwError(ew_np_view_error(err, dview.kind), "%s: %s" % (type(err).__name__, err)))
    if len(errs) > 1:
        raise EwReject("two errors")
    new = None
    if not errs:
        try:
            new = ew_assign_value(rhs, d0, t, form, idx, sem if form == "compound" else None)
        except EwError as err:
            ew_fail(node, err)
            errs.append(err)
    notes = " [API.md: diagonal(d) is writable]" if dview is not None and dview.kind == "diagonal" else ""
    notes += "".join(" [API.md: %s]" % n for n in rhs.notes)
    decl = "        auto d = %s;" % src
    if errs:
        err = errs[0]
        name = "auto d = %s; %s throws fusor::%s, d unchanged | numpy: %s%s raises %s" % (
            src, stmt_c, err.exc, stmt_n, notes, err.what)
        lines = ['    SUBCASE("%s") {' % ew_clean(name), decl,
                 "        CHECK_THROWS_AS(%s, fusor::%s);" % (stmt_c, err.exc),
                 "        check_tensor(d, \"%s\", %s," % (t.name, cpp_shape(d0.shape))
                 + tail_text(d0, 21, None, None), "    }"]
        return lines, node, err.exc
    name = "auto d = %s; %s | numpy: %s%s" % (src, stmt_c, stmt_n, notes)
    rtol = ew_rtol(rhs.inexact, t.name if rhs.inexact else None)
    lines = ['    SUBCASE("%s") {' % ew_clean(name), decl, "        %s;" % stmt_c,
             "        check_tensor(d, \"%s\", %s," % (t.name, cpp_shape(new.shape))
             + tail_text(new, 21, rtol, None), "    }"]
    return lines, node, "value"


def ew_assign_value(rhs, d0, t, form, idx, sem):
    """d after the assignment (NumPy: the right side first, then the store), or EwError."""
    if rhs.is_scalar():
        y = ew_scalar_value(rhs, ew_scalar_dtype(rhs, t)) if form == "compound" else np.array(rhs.scalar)
        if form != "compound" and rhs.ctype not in ("double", "float", "bool") and t.kind in "iu" and \
                not np.iinfo(t).min <= rhs.scalar <= np.iinfo(t).max:
            raise EwReject("an integer scalar stored out of range")
    else:
        y = rhs.val
    if form == "=" and idx is None:
        if rhs.is_scalar():
            return np.full(d0.shape, ew_convert(y, t), dtype=t)
        return ew_convert(y, t)
    cur = d0 if idx is None else d0.reshape(-1)[idx]
    if form != "compound":  # VIEW(d) = e: e broadcasts to the view (extra leading 1s dropped)
        v = y
        while v.ndim > cur.ndim and v.shape[0] == 1:
            v = v[0]
        try:
            if v.ndim > cur.ndim or np.broadcast_shapes(cur.shape, v.shape) != cur.shape:
                raise ValueError
        except ValueError:
            raise EwError("broadcast_error", "ValueError: could not broadcast input array from shape %s into "
                          "shape %s" % (np_shape(y.shape), np_shape(cur.shape)))
        vals = ew_convert(np.broadcast_to(v, cur.shape), t)
    else:  # op=: e broadcasts to d (or the view) without adding axes
        try:
            if y.ndim > cur.ndim or np.broadcast_shapes(cur.shape, y.shape) != cur.shape:
                raise ValueError
        except ValueError:
            raise EwError("broadcast_error", "ValueError: non-broadcastable output operand with shape %s "
                          "doesn't match the broadcast shape" % np_shape(cur.shape))
        comp, r = ew_bin_types(sem, t, y.dtype)
        cc, yc = cur.astype(comp), y.astype(comp)
        if sem in EW_ZERO_SIGN and rhs.zero_tie and ew_has_zero(yc):
            raise EwReject("sign of a zero")
        vals = ew_convert(np.asarray(getattr(np, sem)(cc, yc)), t)
    out = d0.reshape(-1).copy()
    if idx is None:
        return vals.reshape(d0.shape)
    out[idx.reshape(-1)] = np.asarray(vals).reshape(-1)
    return out.reshape(d0.shape)


# ---- TEST_CASEs, headers, coverage -------------------------------------------------------

EW_REQUIRED_OPS = set(EW_OPS) - {"pow"} | {"array_equal", "allclose", "=", "= to a view",
                                           "compound += to a view", "aliasing"} | {
    "aliasing: " + t for t in ("d = VIEW(d) op d", "d op= VIEW(d)", "flip(d) = f(d)",
                               "d[k:] = d[:-k] and variants")} | {
    "compound " + c for c, _ in EW_COMPOUND}
EW_REQUIRED_VIEWS = {"transpose", "transpose(axes)", "view", "view: negative step", "view: clamped slice",
                     "view: integer", "view: newaxis", "view: ellipsis", "view: all", "flip", "flip(axis)",
                     "flip({axes})", "diagonal", "broadcast_to", "swapaxes", "moveaxis", "moveaxis({lists})",
                     "expand_dims", "expand_dims({axes})", "squeeze", "squeeze(axis)", "squeeze({axes})",
                     "reshape", "reshape(-1)", "dest view", "dest transpose", "dest flip", "dest diagonal",
                     "dest squeeze", "dest reshape"}
EW_REQUIRED_OTHER = {"scalar int", "scalar double", "scalar bool", "broadcast_error", "axis_error",
                     "value_error", "index_error"} | {"corner: " + c for c in (
    "integer // 0", "integer % 0", "INT_MIN // -1", "INT_MIN % -1", "shift by a negative amount",
    "shift by the width or more", "integer wrap-around", "integer ** negative integer (tensor)",
    "integer ** negative integer (scalar)", "integer scalar out of range")}


def ew_stat(kind, node, expected, ctx):
    dtypes = {ctx.leaves[n].dtype.name for n in node.leaves if n in ctx.leaves}
    return {"kind": kind, "ops": sorted(node.ops), "views": sorted(node.views), "dtypes": sorted(dtypes),
            "result": node.dtype.name if node.dtype is not None else "-", "scalars": sorted(node.scalars),
            "expected": expected}


class ElementwiseHeader(RandomPartHeader):
    """A header of section 6: its top comment says how to regenerate any seed and count and what
    the part covers; its last TEST_CASE prints the same tables (doctest MESSAGE)."""

    def __init__(self, filename, seed, count, part, parts):
        super().__init__(filename, "NumPy-oracle cases: random element-wise expressions, views, assignment",
                         seed, count, part, parts)

    def tables(self):
        def table(label, key):
            return self.count_table(label, key, "  ", "     ", 96)
        head = "%d subcases in %d TEST_CASEs (%d expect an exception)" % (
            len(self.stats), len(self.cases), sum(1 for s in self.stats if s["expected"] != "value"))
        return [head] + table("subcase kind", lambda s: [s["kind"]]) \
            + table("operation (subcases using it)",
                    lambda s: [o for o in s["ops"] if not o.startswith("corner")]) \
            + table("integer corner", lambda s: [o[8:] for o in s["ops"] if o.startswith("corner")]) \
            + table("dtype of the tensors read", lambda s: s["dtypes"]) \
            + table("result dtype", lambda s: [s["result"]]) \
            + table("view", lambda s: s["views"]) + table("weak scalar", lambda s: s["scalars"]) \
            + table("expected", lambda s: [s["expected"]])

    def head_comment(self):
        default = self.seed == SEED and self.count == RANDOM_ELEMENTWISE_COUNT
        return self.regenerate_comment(default, "random_elementwise",
                                       "test_oracle_numpy_random_elementwise_*",
                                       "--random-elementwise-count") + [
            "// Every expected dtype, shape, value and error was computed by NumPy following API.md (section 6",
            "// of generate.py says how). Subcase names read `fusor code | numpy: the same in NumPy`.",
            "//",
            "// Coverage of this part (the last TEST_CASE prints it):",
        ] + ["//" + (" " if line[:1] != " " else "") + line for line in self.tables()]

    def prologue(self):
        return self.long_double_prologue([
            "// Expected integers span the whole int64 / uint64 range (wrap-around): the `long double`",
            "// check_tensor compares in must hold every 64-bit integer exactly.",
        ]) + [
            "// `d = d`, `d &= d`: self-assignment is a deliberate aliasing case, not a slip.",
            "#if defined(__clang__)",
            "#pragma clang diagnostic ignored \"-Wself-assign-overloaded\"",
            "#endif",
            "",
            "// array_equal / allclose answer one bool: a SUBCASE named `EXPR | numpy: NUMPY` checks it.",
            "#define ORACLE_BOOL_SUBCASE(EXPR, NUMPY, WANT)                                               \\",
            '    SUBCASE(#EXPR " | numpy: " NUMPY) {                                                      \\',
            "        CHECK((EXPR) == (WANT));                                                             \\",
            "    }",
            "#define ORACLE_BOOL_SUBCASE_THROWS(EXPR, NUMPY, EXC)                                         \\",
            '    SUBCASE(#EXPR " throws " #EXC " | numpy: " NUMPY) {                                      \\',
            "        CHECK_THROWS_AS(static_cast<void>(EXPR), EXC);                                       \\",
            "    }",
            "",
        ]

    def write(self):
        lines = ["    MESSAGE(\"random element-wise cases, part %d of %d (seed %d):\\n\"" % (
            self.part + 1, self.parts, self.seed)]
        tab = self.tables()
        for i, line in enumerate(tab):
            lines.append('            "%s%s"%s' % (line, "\\n" if i + 1 < len(tab) else "",
                                                   ");" if i + 1 == len(tab) else ""))
        self.case("coverage of random element-wise part %d of %d (counts of subcases)" % (
            self.part + 1, self.parts), lines)
        return super().write()


def gen_random_elementwise(seed, count):
    """Random differential cases for every element-wise operation of API.md, every view, and
    assignment (`d = e`, `VIEW(d) = e`, `d op= e`, with and without aliasing), split over
    RANDOM_EW_HEADERS headers (numpy_cases_random_elementwise_<i>.hpp, one executable each).

    A TEST_CASE declares 2-3 tensors a, b, c of dtypes dealt from a deck (EW_DTYPES: all eleven)
    and shapes that broadcast together (ew_leaf_shapes: 0-d, extent 0, extent 1, rank 5-8 now
    and then; one time in eight one that does not), then 8-14 subcases: 76% an expression tree
    (ew_expr: 1-3 levels of operations, EW_OPS, over the tensors and weak C++ scalars -- int,
    double, bool, float, int64_t, uint8_t -- with views, ew_draw_view, on tensors and on
    sub-expressions), 6% array_equal / allclose, 18% an assignment (ew_draw_assign). One subcase
    in eight is made to throw (a bad view argument, a scalar out of its partner's range, a
    negative integer power, shapes that do not broadcast). One TEST_CASE in seven holds integer
    corners only (min, -1, 0, 1, max) and favours //, %, power, shifts and wrapping arithmetic.
    NumPy computes every expectation (see the module docstring for how it follows API.md).

    Uses its own numpy.random.default_rng((seed, 6)) stream: `--seed` and
    `--random-elementwise-count` change only these headers."""
    rr = np.random.default_rng((seed, 6))
    cases = []  # (name, lines, stats)
    total = 0
    deck = []
    while total < count:
        n_leaves = 2 if rr.random() < 0.45 else 3
        shapes = ew_leaf_shapes(rr, n_leaves)
        leaves = {}
        corners = rr.random() < 1 / 7  # integers only, each element one of min, -1, 0, 1, max
        ints = ["int8", "int16", "int32", "int64", "uint8", "int8", "int16", "int32", "int64", "uint64"]
        for name, shape in zip("abc", shapes):
            refill(rr, deck, EW_DTYPES)
            if corners:
                dtype = leaves["a"].dtype.name if leaves and rr.random() < 0.6 else \
                    ints[int(rr.integers(0, len(ints)))]
                leaves[name] = ew_values(rr, dtype, shape, True, False, corners=True)
            else:
                leaves[name] = ew_values(rr, deck.pop(), shape, rr.random() < 0.5, rr.random() < 0.5)
        ctx = EwCtx(rr, leaves, corners)
        want = min(int(rr.integers(8, 15)), count - total)
        lines, stats, ops = [], [], []
        while len(stats) < want:
            kind = pick(rr, [("expression", 0.76), ("array_equal / allclose", 0.06), ("assignment", 0.18)])
            want_error = rr.random() < (0.25 if corners else 0.125)
            negative_power = corners and kind == "expression" and rr.random() < 0.1
            want_error = want_error or negative_power
            for attempt in range(80):
                ctx.inject = None
                if want_error:
                    ctx.inject = [None, "view", "view", "scalar"][int(rr.integers(0, 4))]
                try:
                    if kind == "expression":
                        got, node, expected = ew_draw_expr(ctx, negative_power)
                    elif kind == "assignment":
                        got, node, expected = ew_draw_assign(ctx)
                    else:
                        got, node, expected = ew_draw_bool(ctx)
                except EwReject:
                    continue
                if attempt < 60 and (expected != "value") != want_error:
                    continue
                if any(line in lines for line in got if "SUBCASE" in line):
                    continue
                break
            else:
                continue
            if kind == "assignment" and "aliasing" in node.ops:
                kind = "assignment with aliasing"
            lines += got
            stats.append(ew_stat(kind, node, expected, ctx))
            for op in sorted(node.ops):
                if op in EW_OPS and op not in ops:
                    ops.append(op)
        total += len(stats)
        decls = [make_decl(n, v) for n, v in leaves.items()]
        shown = ops if len(ops) <= 6 else ops[:6] + ["..."]
        name = "random element-wise %d: %s | %s | numpy: see each SUBCASE" % (
            len(cases), " ".join(shown), ", ".join("%s %s" % (n, described(v)) for n, v in leaves.items()))
        cases.append((name, decls + lines, stats))
    headers = [ElementwiseHeader("numpy_cases_random_elementwise_%d.hpp" % i, seed, count, i, RANDOM_EW_HEADERS)
               for i in range(RANDOM_EW_HEADERS)]
    split_into_parts(cases, headers, total)
    ew_check_coverage([s for h in headers for s in h.stats], seed == SEED and count == RANDOM_ELEMENTWISE_COUNT)
    return headers


def ew_check_coverage(stats, required):
    """Every operation, dtype, view and error of the lists above appears in the CI run (an
    error there: change the seed or the weights); for other runs, a note of what is missing."""
    seen = set()
    for s in stats:
        seen |= set(s["ops"]) | set(s["views"]) | set(s["dtypes"]) | {"scalar " + c for c in s["scalars"]}
        seen |= {"dest " + v[5:].split("(")[0].split(":")[0] for v in s["views"] if v.startswith("dest ")}
        seen.add(s["expected"])
    want = EW_REQUIRED_OPS | EW_REQUIRED_VIEWS | EW_REQUIRED_OTHER | {d for d, _ in EW_DTYPES}
    missing = sorted(want - seen)
    if missing and required:
        sys.exit("generate.py: the random element-wise cases miss %s" % ", ".join(missing))
    if missing:
        print("note: this run's random element-wise cases miss %s" % ", ".join(missing), file=sys.stderr)


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
    ap.add_argument("--random-elementwise-count", type=int, default=RANDOM_ELEMENTWISE_COUNT, metavar="M",
                    help="random element-wise/view/assignment subcases, over %d headers (default "
                         "%%(default)s, CI's count)" % RANDOM_EW_HEADERS)
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
                                         "where, round with decimals"),
         [gen_unary, gen_scalars, gen_where, gen_round]),
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
    for h in gen_random_elementwise(args.seed, args.random_elementwise_count):
        n, size = h.write()
        print("%-40s %4d test cases, %7d bytes, %4d subcases" % (h.filename, n, size, len(h.stats)))
    # NumPy's float64 and float32 math (exp, cosh, power ...) is vectorised per processor
    # (AVX-512, AVX2 ...) and its last bits differ between those paths, so the headers are
    # byte for byte reproducible only where NumPy takes the same paths: check_up_to_date.cmake
    # compares this line first.
    with open(os.path.join(OUT_DIR, "numpy_host.txt"), "w") as f:
        f.write(numpy_host() + "\n")


def numpy_host():
    """NumPy's version and the processor paths it dispatches to on this machine."""
    from numpy.core._multiarray_umath import __cpu_baseline__, __cpu_dispatch__, __cpu_features__
    active = sorted(f for f in __cpu_dispatch__ if __cpu_features__.get(f))
    return "NumPy %s; baseline %s; dispatch %s" % (
        np.__version__, " ".join(__cpu_baseline__), " ".join(active))


if __name__ == "__main__":
    main()
