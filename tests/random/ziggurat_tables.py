#!/usr/bin/python3
"""Writes include/fusor/random/ziggurat_tables.hpp: the 256-box ziggurat tables of the normal
and the exponential distribution that NumPy's Generator samples with (fusor::random::detail).

    ziggurat_tables.py                 writes the header next to this script's repository
    ziggurat_tables.py OUT             writes the header to OUT
    ziggurat_tables.py --check         fails unless the checked-in header is what this writes
    ziggurat_tables.py --compare-numpy fails unless every entry equals the one NumPy's own
                                       library holds (numpy/random/lib/libnpyrandom.a);
                                       exit code 77 (skipped) when that library is missing

The mathematics (Marsaglia & Tsang, "The ziggurat method for generating random variables",
J. Stat. Software 5(8), 2000). For a decreasing density shape f on [0, inf) -- the normal's
f(x) = exp(-x^2 / 2), the exponential's f(x) = exp(-x) -- cover it with 256 regions of equal
area v: the base region 0 is the box [0, r] x [0, f(r)] plus the tail beyond r, and box i
(1 <= i <= 255) is [0, x_i] x [f(x_i), f(x_(i-1))], with x_255 = r and x_0 = 0. Hence

    v = r f(r) + integral_r^inf f,           x_(i-1) = f^-1(f(x_i) + v / x_i),

and r is the root of "the top box has area v": x_1 (f(0) - f(x_1)) = v. With a b-bit uniform
integer u and a box index i, the sampler's tables are

    k_0 = 2^b r f(r) / v,  k_1 = 0,  k_i = 2^b x_(i-1) / x_i      (accept x = u w_i when u < k_i)
    w_0 = v / f(r) / 2^b,  w_i = x_i / 2^b
    f_0 = 1,               f_i = f(x_i)

with b = 52 (normal, float64), 53 (exponential, float64) and 23 (both, float32).

Matching NumPy bit for bit. The values above are computed here with mpmath (256-bit); NumPy's
tables (numpy/random/src/distributions/ziggurat_constants.h, inherited from randomgen) were not
all made that way, and the samples depend on every bit of w and f. Comparing with the tables
compiled into NumPy 1.24 (--compare-numpy) showed which procedure reproduces each one; all
3072 entries and the six constants now match:

* Exponential, float64: the exact values, rounded to nearest double (w, f). The k table was
  made at 2^52 and doubled (every entry is even although the draw has 53 bits):
  k_i = 2 floor(2^52 x_(i-1) / x_i).
* Exponential, float32: k_i = round(2^23 x_(i-1) / x_i); w and f are the doubles above printed
  with 9 significant digits ("%.8e") and that decimal rounded to float. Rounding the exact
  value to float directly differs in w[226] and f[128], f[154], f[171].
* Normal, float64: NumPy's generator ran the recursion in double precision, from the double
  nearest r and from v = 0.0049286732339746519 (its constant; the exact area is
  0.0049286732339746553..., so the double is 4 ulps low), with x_(i-1) = sqrt(-2 log(f(x_i) +
  v / x_i)), f(x) = exp(-0.5 * x * x), k_i = round-half-even(2^52 * (x_(i-1) / x_i)) and w_0 =
  v / f(r) / 2^52, all in double. (The exact values, rounded, differ from NumPy's in 203 w,
  241 f and 81 k entries, by up to 60 ulps, 15 ulps and 14: each step's rounding error carries
  into the next x.) exp, log and sqrt are rounded correctly here (mpmath), which is what
  glibc gives, with ONE exception: NumPy's generator's exp returned 0x1.5ad29acc85c89p-1 for
  exp(-0x1.8edbf8bb15d43p-2) (that is f(x_38)), one ulp above the correctly rounded
  0x1.5ad29acc85c88p-1; the true value lies 0.498 ulp above the latter, 0.0017 ulp from the
  rounding midpoint, where a libm that is not correctly rounded may go either way. Without
  this one rounding, f[38] differs by 1 ulp and, through the recursion, w[1..37], f[1..37] and
  17 k entries differ (up to 76 ulps). ROUNDED_UP_EXP holds it; the script
  checks that the recursion meets that argument and that it is such a near tie.
* Normal, float32: from the same doubles. k_i = round-half-even(2^23 * (x_(i-1) / x_i)) in
  double; w_i = x_i / 2^23 and f_i printed with 21 significant digits ("%.20e") and that decimal
  rounded to float.
* The tail constants r, 1/r (normal) and r (exponential) are the exact values rounded to nearest
  double and float.

Floats are written as hexadecimal literals, so the compiler reads exactly these bits.
"""
import math
import os
import struct
import sys
from fractions import Fraction

import mpmath
from mpmath import mpf

PRECISION = 256  # bits for the exact values; the results are rounded to 53 bits at most
BOXES = 256

# NumPy's generator's area for the normal ziggurat (see the docstring).
NUMPY_NORMAL_V = float("0.0049286732339746519")
# exp(argument) -> result where NumPy's generator's exp is not the correctly rounded value.
ROUNDED_UP_EXP = {float.fromhex("-0x1.8edbf8bb15d43p-2"): float.fromhex("0x1.5ad29acc85c89p-1")}


# ---- exact mathematics ---------------------------------------------------------------------
class Shape:
    """A density shape f with its inverse and the area of its tail beyond r."""

    def __init__(self, name, f, finv, tail):
        self.name, self.f, self.finv, self.tail = name, f, finv, tail


NORMAL = Shape("normal", lambda x: mpmath.exp(-x * x / 2),
               lambda y: mpmath.sqrt(-2 * mpmath.log(y)),
               lambda r: mpmath.sqrt(mpmath.pi / 2) * mpmath.erfc(r / mpmath.sqrt(2)))
EXPONENTIAL = Shape("exponential", lambda x: mpmath.exp(-x), lambda y: -mpmath.log(y),
                    lambda r: mpmath.exp(-r))


def top_box_excess(shape, r):
    """Area of the top box minus v when the boxes are built down from r (< 0: ran out early)."""
    v = r * shape.f(r) + shape.tail(r)
    x = r
    for _ in range(BOXES - 2):  # x_254 ... x_1
        y = shape.f(x) + v / x
        if y >= 1:
            return -(y - 1) - 1  # the boxes reached the top before box 1: r is too small
        x = shape.finv(y)
    return x * (1 - shape.f(x)) - v


def exact_ziggurat(shape, lo, hi):
    """r, v and x_0 ... x_255 of the 256-box ziggurat, r bracketed by [lo, hi]."""
    with mpmath.workprec(80):  # bisection to ~1e-20, then the secant method at full precision
        lo, hi = mpf(lo), mpf(hi)
        for _ in range(66):
            mid = (lo + hi) / 2
            if top_box_excess(shape, mid) < 0:
                lo = mid
            else:
                hi = mid
    r = mpmath.findroot(lambda t: top_box_excess(shape, t), (lo, hi), solver="secant",
                        tol=mpf(2) ** (-2 * PRECISION + 20))
    v = r * shape.f(r) + shape.tail(r)
    xs = [mpf(0)] * BOXES
    xs[BOXES - 1] = r
    for i in range(BOXES - 1, 1, -1):
        xs[i - 1] = shape.finv(shape.f(xs[i]) + v / xs[i])
    assert abs(xs[1] * (1 - shape.f(xs[1])) - v) < mpf(2) ** (-PRECISION + 40)
    return r, v, xs


# ---- rounding ------------------------------------------------------------------------------
def round_binary(q, bits):
    """q (a Fraction) rounded to nearest, ties to even, with a `bits`-bit significand."""
    if q < 0:
        return -round_binary(-q, bits)
    assert q > 0
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    scale = Fraction(2) ** (bits - 1 - e)
    m = q * scale
    n, rest = divmod(m.numerator, m.denominator)
    if 2 * rest > m.denominator or (2 * rest == m.denominator and n % 2 == 1):
        n += 1
    return Fraction(n) / scale


def fraction(x):
    """The exact value of an mpf (man * 2^exp) as a Fraction."""
    sign, man, exp, _ = mpf(x)._mpf_
    value = Fraction(int(man) * 2**exp) if exp >= 0 else Fraction(int(man), 2**-exp)
    return -value if sign else value


def to_double(x):
    """mpf -> the nearest double (through the exact value: one rounding)."""
    return float(round_binary(fraction(x), 53))


def to_float(q):
    """A Fraction, float or decimal string -> the nearest float32 (as a Python float)."""
    f = float(round_binary(Fraction(q), 24))
    assert 2.0**-126 <= f < 2.0**128
    return f


def decimal_to_float(x, digits):
    """x printed with `digits` significant digits, and that decimal rounded to float32: what the
    C compiler makes of NumPy's literal."""
    return to_float("%.*e" % (digits - 1, x))


def cr_exp(x):
    """exp of a double, correctly rounded (NumPy's generator's exp where it differs)."""
    if x in ROUNDED_UP_EXP:
        return ROUNDED_UP_EXP[x]
    return to_double(mpmath.exp(mpf(x)))


def cr_log(x):
    return to_double(mpmath.log(mpf(x)))


# ---- NumPy's procedures --------------------------------------------------------------------
def normal_tables(r_exact, v_exact):
    """The normal family, computed in double precision as NumPy's generator did."""
    r, v = to_double(r_exact), NUMPY_NORMAL_V
    assert abs(v - v_exact) / v_exact < 1e-15
    pdf = lambda x: cr_exp(-0.5 * x * x)
    xs = [0.0] * BOXES  # x_0 = 0 ... x_255 = r, doubles
    xs[BOXES - 1] = r
    for i in range(BOXES - 1, 1, -1):
        xs[i - 1] = math.sqrt(-2 * cr_log(pdf(xs[i]) + v / xs[i]))  # sqrt: correctly rounded
    # The one exp that is not correctly rounded must be a near tie the recursion meets.
    for arg, result in ROUNDED_UP_EXP.items():
        assert any(-0.5 * x * x == arg for x in xs[1:]), "ROUNDED_UP_EXP is not met"
        exact = mpmath.exp(mpf(arg))
        lower = to_double(exact)
        ulp = math.ulp(lower)
        assert result == lower + ulp and abs(float((exact - lower) / ulp) - 0.5) < 0.002
    out = {}
    for suffix, bits in (("", 52), ("_float", 23)):
        scale = 2.0**bits
        k = [round(r * pdf(r) / v * scale)] + [round(xs[i - 1] / xs[i] * scale)
                                                for i in range(1, BOXES)]
        w = [v / pdf(r) / scale] + [x / scale for x in xs[1:]]
        f = [pdf(x) for x in xs]
        if suffix:  # NumPy's float tables are the doubles' 21-digit decimals
            w = [decimal_to_float(x, 21) for x in w]
            f = [decimal_to_float(x, 21) for x in f]
        out["normal_k" + suffix], out["normal_w" + suffix], out["normal_f" + suffix] = k, w, f
    return out


def exponential_tables(r, v, xs):
    """The exponential family, from the exact values."""
    f = lambda x: mpmath.exp(-x)
    out = {}
    ratio = [r * f(r) / v, mpf(0)] + [xs[i - 1] / xs[i] for i in range(2, BOXES)]
    out["exponential_k"] = [2 * int(mpmath.floor(q * mpf(2) ** 52)) for q in ratio]
    out["exponential_k_float"] = [int(mpmath.nint(q * mpf(2) ** 23)) for q in ratio]
    for suffix, bits in (("", 53), ("_float", 23)):
        w = [to_double(v / f(r) / mpf(2) ** bits)] + [to_double(x / mpf(2) ** bits) for x in xs[1:]]
        fe = [1.0] + [to_double(f(x)) for x in xs[1:]]
        if suffix:  # NumPy's float tables are the doubles' 9-digit decimals
            w = [decimal_to_float(x, 9) for x in w]
            fe = [decimal_to_float(x, 9) for x in fe]
        out["exponential_w" + suffix], out["exponential_f" + suffix] = w, fe
    return out


def all_tables():
    mpmath.mp.prec = PRECISION
    r_n, v_n, _ = exact_ziggurat(NORMAL, 3.5, 3.8)
    r_e, v_e, xs_e = exact_ziggurat(EXPONENTIAL, 7.5, 7.9)
    tables = normal_tables(r_n, v_n)
    tables.update(exponential_tables(r_e, v_e, xs_e))
    constants = {
        "normal_r": to_double(r_n),
        "normal_inv_r": to_double(1 / r_n),
        "exponential_r": to_double(r_e),
        "normal_r_float": to_float(fraction(r_n)),
        "normal_inv_r_float": to_float(fraction(1 / r_n)),
        "exponential_r_float": to_float(fraction(r_e)),
    }
    for name, values in tables.items():
        assert len(values) == BOXES, name
        if "_k" in name:
            limit = 2 ** (23 if name.endswith("_float") else 53)
            assert all(0 <= k < limit for k in values), name
    return tables, constants, (r_n, v_n, r_e, v_e)


# ---- the header ----------------------------------------------------------------------------
ORDER = ["normal_k", "normal_w", "normal_f", "normal_k_float", "normal_w_float", "normal_f_float",
         "exponential_k", "exponential_w", "exponential_f", "exponential_k_float",
         "exponential_w_float", "exponential_f_float"]


def c_type(name):
    if "_k" in name:
        return "std::uint32_t" if name.endswith("_float") else "std::uint64_t"
    return "float" if name.endswith("_float") else "double"


def literal(name, value):
    if "_k" in name:
        return "0x%06X" % value if name.endswith("_float") else "0x%014X" % value
    if not name.endswith("_float"):
        return value.hex()
    mantissa, exponent = value.hex().split("p")  # float: 6 hex digits carry its 24 bits
    assert mantissa[10:].strip("0") == ""
    return "%sp%sf" % (mantissa[:10], exponent)


HEADER_TOP = """\
// fusor/random/ziggurat_tables.hpp: the 256-box ziggurat tables of NumPy's normal and
// exponential samplers (numpy.random.Generator.standard_normal, standard_exponential).
// GENERATED by tests/random/ziggurat_tables.py -- do not edit; run
//     /usr/bin/python3 tests/random/ziggurat_tables.py
// to rewrite it (ctest random.ziggurat_tables_up_to_date checks it is current, and
// random.ziggurat_tables_match_numpy compares every entry with NumPy's library).
//
// Marsaglia & Tsang (2000): 256 regions of equal area v under f (normal: exp(-x^2/2),
// exponential: exp(-x)); x_255 = r, x_(i-1) = f^-1(f(x_i) + v / x_i), x_0 = 0. With a b-bit
// draw u in box i: accept u * w[i] when u < k[i]; k[0] = 2^b r f(r) / v, k[1] = 0,
// k[i] = 2^b x_(i-1) / x_i; w[0] = v / f(r) / 2^b, w[i] = x_i / 2^b; f[0] = 1, f[i] = f(x_i).
// b = 52 (normal), 53 (exponential), 23 (the _float tables, 32-bit draws).
//   normal:      r = {r_n}
//                v = {v_n}
//   exponential: r = {r_e}
//                v = {v_e}
// NumPy's tables are not all these exact values rounded: the script's docstring says which
// procedure (precision, rounding, the constants NumPy's generator used) gives each table.
#pragma once

#include <cstdint>

namespace fusor::random::detail::ziggurat {{

// clang-format off"""


def header(tables, constants, exact):
    r_n, v_n, r_e, v_e = exact
    lines = HEADER_TOP.format(r_n=mpmath.nstr(r_n, 30), v_n=mpmath.nstr(v_n, 30),
                              r_e=mpmath.nstr(r_e, 30), v_e=mpmath.nstr(v_e, 30)).split("\n")
    for name, value in constants.items():
        ctype = "float" if name.endswith("_float") else "double"
        lines.append("inline constexpr %s %s = %s;" % (ctype, name, literal(name, value)))
    per_line = {"std::uint64_t": 4, "std::uint32_t": 8, "double": 4, "float": 4}
    for name in ORDER:
        values = tables[name]
        ctype = c_type(name)
        lines.append("")
        lines.append("inline constexpr %s %s[%d] = {" % (ctype, name, BOXES))
        n = per_line[ctype]
        for i in range(0, BOXES, n):
            lines.append("    " + ", ".join(literal(name, v) for v in values[i:i + n]) + ",")
        lines.append("};")
    lines += ["// clang-format on", "", "} // namespace fusor::random::detail::ziggurat", ""]
    return "\n".join(lines)


# ---- NumPy's own tables, read from its static library (for --compare-numpy) ----------------
NUMPY_NAMES = {  # ours -> NumPy's symbol
    "normal_k": "ki_double", "normal_w": "wi_double", "normal_f": "fi_double",
    "normal_k_float": "ki_float", "normal_w_float": "wi_float", "normal_f_float": "fi_float",
    "exponential_k": "ke_double", "exponential_w": "we_double", "exponential_f": "fe_double",
    "exponential_k_float": "ke_float", "exponential_w_float": "we_float",
    "exponential_f_float": "fe_float",
}


def ar_member(path, member):
    """The bytes of one member of a System V ar archive (GNU long-name table supported)."""
    data = open(path, "rb").read()
    assert data[:8] == b"!<arch>\n"
    pos, names = 8, b""
    while pos + 60 <= len(data):
        head = data[pos:pos + 60]
        name, size = head[:16].decode().strip(), int(head[48:58].decode())
        body = data[pos + 60:pos + 60 + size]
        if name == "//":
            names = body
        elif name.startswith("/") and name[1:].isdigit():
            start = int(name[1:])
            name = names[start:names.index(b"/\n", start)].decode()
        if name.rstrip("/") == member:
            return body
        pos += 60 + size + (size & 1)
    raise KeyError(member)


def elf_symbols(obj):
    """{name: bytes} of every object symbol of a little-endian ELF64 relocatable file."""
    assert obj[:4] == b"\x7fELF" and obj[4] == 2 and obj[5] == 1
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    out = {}
    for sh_name, sh_type, _, _, off, size, link, _, _, entsize in sections:
        if sh_type != 2:  # SHT_SYMTAB
            continue
        strtab = sections[link]
        for j in range(size // entsize):
            st_name, st_info, _, st_shndx, st_value, st_size = struct.unpack_from(
                "<IBBHQQ", obj, off + j * entsize)
            if st_info & 0xF != 1 or st_shndx == 0 or st_shndx >= len(sections):  # STT_OBJECT
                continue
            s = obj[strtab[4] + st_name:obj.index(b"\0", strtab[4] + st_name)].decode()
            base = sections[st_shndx][4] + st_value
            out[s] = obj[base:base + st_size]
    return out


def compare_numpy(tables):
    import numpy
    lib = os.path.join(os.path.dirname(numpy.random.__file__), "lib", "libnpyrandom.a")
    if not os.path.exists(lib):
        print("skipped: %s not found" % lib)
        return 77
    symbols = elf_symbols(ar_member(lib, "distributions.o"))
    bad = 0
    for ours, theirs in NUMPY_NAMES.items():
        raw = symbols[theirs]
        code = {"std::uint64_t": "Q", "std::uint32_t": "I", "double": "d",
                "float": "f"}[c_type(ours)]
        numpy_values = struct.unpack("<%d%s" % (BOXES, code), raw)
        for i, (mine, np_value) in enumerate(zip(tables[ours], numpy_values)):
            if mine != np_value:
                bad += 1
                print("%s[%d]: ours %r, NumPy's %r" % (ours, i, mine, np_value))
    print("numpy %s, %s: %d of %d entries differ" % (numpy.__version__, lib, bad, 12 * BOXES))
    return 1 if bad else 0


def main(argv):
    tables, constants, exact = all_tables()
    text = header(tables, constants, exact)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    default = os.path.join(repo, "include", "fusor", "random", "ziggurat_tables.hpp")
    if argv[1:2] == ["--compare-numpy"]:
        return compare_numpy(tables)
    if argv[1:2] == ["--check"]:
        current = open(default).read() if os.path.exists(default) else ""
        if current != text:
            print("%s is not what %s writes; rerun it" % (default, argv[0]))
            return 1
        print("%s is up to date" % default)
        return 0
    path = argv[1] if len(argv) > 1 else default
    with open(path, "w") as out:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
