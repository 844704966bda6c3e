#!/usr/bin/python3
"""NumPy's answers for tests/toolbox/test_shifting.cpp (ctest fixture toolbox.shifting_reference).

Draws random cases (seeded: argv[2] or the default below) for pad, roll, tile and repeat
(algo/padding.hpp, algo/shifting.hpp, built from algo/segments.hpp) over every dtype fusor has,
shapes of rank 0 to 4 with empty axes, negative axes and shifts, pads wider than the axis in
every mode, the operand forms (a tensor; its transpose, a view; a[::-2], a strided view with a
negative step; an expression of the same values), and error cases; runs NumPy 1.24 on each and
writes inputs and answers (or the fusor exception NumPy's error maps to, with words its message
must contain) in the format of toolbox_reference.py:

    case <func> <id>
    p <name> <token>...                          a parameter; `none` stands for NumPy's None
    a <name> <dtype> <rank> <dims>... <values>...   a named operand (x)
    e 0 <dtype> <rank> <dims>... <values>...     the result
    x <error>                                    the fusor exception expected instead
    m <text>                                     ... whose what() contains <text>
    end

Parameters: `form` (tensor, view, strided, expr); pad: `mode`, `width` (a shape token list:
`<rank> <dims>... <values>...`, NumPy's pad_width as an array), `constants` (none, or the same
array form of constant_values); roll: `shift` and `axis` (`s <v>` a scalar, `l <v>...` a list,
`none`); tile: `reps` (`s <v>` or `l <v>...`); repeat: `repeats` (`s <v>` or `l <v>...`),
`axis` (an int or none).

Floats are written with float.hex() and compared exactly (every function here copies).
Error mapping: ValueError is value_error, AxisError is axis_error.

Usage: shifting_reference.py <output file> [seed]
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from numpy_cases import arr_line, draws, tok  # noqa: E402 (tests/numpy_cases.py)

OUT = sys.argv[1]
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 20241125
rng = np.random.default_rng(SEED)
irand, pick, chance = draws(rng)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
FORMS = ["tensor", "tensor", "view", "strided", "expr"]

lines = []
count = {}


def rand_shape(min_rank=0, max_rank=4, max_size=48):
    for _ in range(100):
        r = irand(min_rank, max_rank)
        s = tuple(0 if chance(0.07) else irand(1, 4) for _ in range(r))
        if int(np.prod(s, dtype=np.int64)) <= max_size:
            return s
    return tuple([1] * min_rank)


def rand_values(dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        v = rng.random(n) < 0.5
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
        if n and chance(0.2):
            for j in rng.integers(0, n, irand(1, 3)):
                v[j] = pick([np.nan, np.inf, -np.inf, -0.0])
    return np.asarray(v, dtype=dtype).reshape(shape)


def rand_axis(rank):
    a = irand(0, rank - 1)
    return a - rank if chance(0.5) else a


class Case:
    def __init__(self, func):
        count[func] = count.get(func, 0) + 1
        self.rows = [f"case {func} {count[func]}"]

    def p(self, name, *tokens):
        self.rows.append(" ".join(["p", name] + [str(t) for t in tokens]))
        return self

    def a(self, name, arr):
        self.rows.append(arr_line("a", name, arr))
        return self

    def result(self, r):
        self.rows.append(arr_line("e", 0, np.asarray(r)))
        self.end()

    def error(self, name, needles):
        self.rows.append("x " + name)
        for n in needles:
            self.rows.append("m " + n)
        self.end()

    def end(self):
        self.rows.append("end")
        lines.extend(self.rows)


ERRORS = {ValueError: "value_error", np.AxisError: "axis_error"}


def run(c, call, needles=(), fusor_only=(), own_words=True):
    """Runs call(); writes its result, or the error it raised with the needles (each must be in
    NumPy's message; fusor_only ones are fusor's words only)."""
    try:
        r = call()
    except (ValueError, np.AxisError) as e:
        name = "axis_error" if isinstance(e, np.AxisError) else "value_error"
        if not needles and own_words:  # not drawn as an error case: NumPy's own words
            # (AxisError's up to "for array of dimension", fusor's "for tensor of rank")
            needles = [str(e).split(" for ")[0] if name == "axis_error" else str(e)]
        for n in needles:
            assert n in str(e), (c.rows[0], n, str(e))
        c.error(name, list(needles) + list(fusor_only))
        return
    assert not needles, (c.rows, "NumPy did not raise")  # (a tile that may raise need not)
    c.result(r)


def operand(c, dt, min_rank=0, shape=None):
    """Writes x and its form; returns the array NumPy works on."""
    a = rand_values(dt, shape if shape is not None else rand_shape(min_rank))
    forms = FORMS if a.ndim > 0 else ["tensor", "expr"]
    form = pick(forms)
    c.p("form", form)
    c.a("x", a)
    if form == "view":
        return a.T
    if form == "strided":
        return a[::-2]
    return a


def array_tokens(v):
    v = np.asarray(v)
    return [v.ndim] + list(v.shape) + [int(t) if v.dtype.kind in "iu" else t for t in v.ravel()]


# ---- pad ------------------------------------------------------------------------------------------

def rand_width(n, wide):
    return irand(0, 2 * n + 3) if wide else irand(0, 2)


def pad_case(dt, mode=None, wide=None):
    c = Case("pad")
    x = operand(c, dt)
    mode = mode or pick(MODES)
    wide = chance(0.5) if wide is None else wide
    r = x.ndim
    ext = max(x.shape) if r else 1
    form = pick(["int", "pair", "axes", "axes", "one"] if r else ["int", "pair"])
    if form == "int":
        w = np.array(rand_width(ext, wide))
    elif form == "one":
        w = np.array([rand_width(ext, wide)])
    elif form == "pair":
        w = np.array([rand_width(ext, wide), rand_width(ext, wide)])
    else:
        w = np.array([[rand_width(n, wide), rand_width(n, wide)] for n in x.shape]).reshape(r, 2)
    c.p("mode", mode).p("width", *array_tokens(w))
    kw = {}
    if mode == "constant" and chance(0.7):
        shape = pick([(), (2,), (r, 2)] if r else [(), (2,)])
        v = rand_values(dt, shape)
        if dt.startswith("float"):
            v = np.nan_to_num(v, nan=1.5, posinf=2.0, neginf=-2.0)
        c.p("constants", *[v.ndim] + list(v.shape) + [tok(t, dt) for t in v.ravel()])
        kw["constant_values"] = v
    else:
        c.p("constants", "none")
    run(c, lambda: np.pad(x, w, mode, **kw))


def pad_error_cases(dt):
    # negative width
    c = Case("pad")
    x = operand(c, dt, 1)
    c.p("mode", pick(MODES)).p("width", 1, 2, 1, -1).p("constants", "none")
    run(c, lambda: np.pad(x, [1, -1]), ["index can't contain negative values"])
    # a width list of the wrong length
    c = Case("pad")
    x = operand(c, dt, 1, (2, 3))
    c.p("mode", "constant").p("width", 1, 3, 1, 2, 3).p("constants", "none")
    run(c, lambda: np.pad(x, [1, 2, 3]), ["operands could not be broadcast", "(3,)", "(2,2)"])
    # per-axis widths for the wrong rank
    c = Case("pad")
    x = operand(c, dt, 1, (2, 3, 1))
    c.p("mode", "edge").p("width", 2, 2, 2, 1, 2, 3, 4).p("constants", "none")
    run(c, lambda: np.pad(x, [[1, 2], [3, 4]], "edge"), ["operands could not be broadcast",
                                                          "(2,2)", "(3,2)"])
    # an empty axis extended by a mode other than constant
    c = Case("pad")
    x = operand(c, dt, 1, (2, 0, 3))
    mode = pick(MODES[1:])
    c.p("mode", mode).p("width", 0, 1).p("constants", "none")
    run(c, lambda: np.pad(x, 1, mode), ["can't extend empty axis 1"])
    # constant_values with another mode
    c = Case("pad")
    x = operand(c, dt, 1, (3,))
    mode = pick(MODES[1:])
    c.p("mode", mode).p("width", 0, 1).p("constants", 0, tok(1, dt))
    run(c, lambda: np.pad(x, 1, mode, constant_values=1),
        ["unsupported keyword arguments for mode '" + mode + "'", "constant_values"])
    # constant values that do not broadcast
    c = Case("pad")
    x = operand(c, dt, 1, (3,))
    c.p("mode", "constant").p("width", 0, 1).p("constants", 1, 3, tok(1, dt), tok(0, dt),
                                                 tok(1, dt))
    run(c, lambda: np.pad(x, 1, constant_values=np.array([1, 0, 1], dtype=dt)),
        ["operands could not be broadcast", "(3,)", "(1,2)"])


# ---- roll -----------------------------------------------------------------------------------------

def roll_case(dt, error=False):
    c = Case("roll")
    x = operand(c, dt)
    r = x.ndim
    n = max(x.size, 1)
    kind = pick(["flat", "flat_list", "axis", "axes", "axes", "shifts"] if r else ["flat",
                                                                                  "flat_list"])

    def sh():
        return irand(-2 * n - 3, 2 * n + 3)

    if kind == "flat":
        s = sh()
        c.p("shift", "s", s).p("axis", "none")
        return run(c, lambda: np.roll(x, s))
    if kind == "flat_list":
        s = [sh() for _ in range(irand(1, 3))]
        c.p("shift", "l", *s).p("axis", "none")
        return run(c, lambda: np.roll(x, s))
    if kind == "axis":
        s, a = sh(), rand_axis(r)
        if error:
            a = pick([r, -r - 1, r + 2])
        c.p("shift", "s", s).p("axis", "s", a)
        return run(c, lambda: np.roll(x, s, a), ["is out of bounds"] if error else ())
    if kind == "axes":
        m = irand(0, 3) if not error else irand(1, 3)
        axes = [rand_axis(r) for _ in range(m)]  # repeats allowed: shifts add up
        s = sh()
        if error:
            axes[-1] = pick([r, -r - 1])
        c.p("shift", "s", s).p("axis", "l", *axes)
        return run(c, lambda: np.roll(x, s, tuple(axes)), ["is out of bounds"] if error else ())
    m = irand(1, 3)
    axes = [rand_axis(r) for _ in range(m)]
    shifts = [sh() for _ in range(m if not error else m + 1)]
    if chance(0.3) and not error:
        axes = [rand_axis(r)]
    c.p("shift", "l", *shifts).p("axis", "l", *axes)
    needles = ["shape mismatch: objects cannot be broadcast to a single shape"] if error else ()
    if error and len(axes) == 1:
        return run(c, lambda: np.roll(x, shifts, tuple(axes)))
    return run(c, lambda: np.roll(x, shifts, tuple(axes)), needles)


# ---- tile -----------------------------------------------------------------------------------------

def tile_case(dt, error=False):
    c = Case("tile")
    x = operand(c, dt)
    m = irand(0, 4)
    reps = [irand(0, 3) if chance(0.8) else 1 for _ in range(m)]
    if error and m == 0:
        reps = [1]
    if error:
        reps[irand(0, len(reps) - 1)] = -irand(1, 2)
    if m == 1 and chance(0.5):
        c.p("reps", "s", reps[0])
        arg = reps[0]
    else:
        c.p("reps", "l", *reps)
        arg = tuple(reps)
    # NumPy's words depend on where its loop meets the negative rep (see tile_segments); both
    # of fusor's messages say "negative".
    fusor_only = ["negative"] if error else ()
    return run(c, lambda: np.tile(x, arg), (), fusor_only, own_words=not error)


# ---- repeat ---------------------------------------------------------------------------------------

def repeat_case(dt, error=None):
    c = Case("repeat")
    x = operand(c, dt, shape=(3, 2) if error == "negative_list" else None)
    r = x.ndim
    axis = None if (chance(0.3) or (r == 0 and chance(0.5))) else rand_axis(max(r, 1))
    n = x.size if axis is None else (x.shape[axis] if r else 1)
    scalar = chance(0.4)
    if scalar:
        reps = irand(0, 3)
    else:
        reps = [irand(0, 3) for _ in range(n)] if not chance(0.1) else [irand(0, 3)]
    needles = ()
    if error == "negative_list":
        scalar = False
        reps = [irand(0, 3) for _ in range(n)]
        reps[irand(0, n - 1)] = -1
        needles = ["repeats may not contain negative values"]
    elif error == "negative":
        if scalar or len(reps) == 1:
            reps = -irand(1, 2) if scalar else [-1]
            # NumPy broadcasts the count over the axis: an empty one has nothing to refuse
            needles = ["negative dimensions are not allowed"] if n else ()
        elif n >= 2:
            reps[irand(0, n - 1)] = -1
            needles = ["repeats may not contain negative values"]
        else:
            reps = -1
            scalar = True
            needles = ["negative dimensions are not allowed"] if n else ()
    elif error == "length":
        scalar = False
        reps = [1] * (n + pick([1, 2]) if n != 0 else 2)
        needles = ["operands could not be broadcast together with shape"]
    elif error == "axis":
        axis = pick([max(r, 1), -max(r, 1) - 1])
        needles = ["is out of bounds"]
    if scalar:
        c.p("repeats", "s", reps)
    else:
        c.p("repeats", "l", *reps)
    c.p("axis", "none" if axis is None else axis)
    return run(c, lambda: np.repeat(x, reps, axis), needles)


def main():
    for dt in DTYPES:
        for mode in MODES:
            pad_case(dt, mode, wide=True)
            pad_case(dt, mode, wide=False)
        for _ in range(4):
            pad_case(dt)
            roll_case(dt)
            roll_case(dt)
            tile_case(dt)
            repeat_case(dt)
            repeat_case(dt)
    for dt in DTYPES[::2]:
        pad_error_cases(dt)
        roll_case(dt, error=True)
        tile_case(dt, error=True)
        for kind in ("negative", "negative_list", "length", "axis"):
            repeat_case(dt, kind)
    # 0-d operands of every function
    for dt in ("int32", "float64", "bool"):
        for func in ("pad", "roll", "tile", "repeat"):
            c = Case(func)
            x = rand_values(dt, ())
            c.p("form", pick(["tensor", "expr"])).a("x", x)
            if func == "pad":
                c.p("mode", pick(MODES)).p("width", 0, 3).p("constants", "none")
                run(c, lambda: np.pad(x, 3, "reflect"))
            elif func == "roll":
                c.p("shift", "s", -4).p("axis", "none")
                run(c, lambda: np.roll(x, -4))
            elif func == "tile":
                c.p("reps", "l", 2, 3)
                run(c, lambda: np.tile(x, (2, 3)))
            else:
                c.p("repeats", "s", 3).p("axis", pick(["none", 0, -1]))
                run(c, lambda: np.repeat(x, 3, None if c.rows[-1].endswith("none")
                                         else int(c.rows[-1].split()[-1])))
    os.makedirs(os.path.dirname(os.path.abspath(OUT)), exist_ok=True)
    tmp = OUT + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(f"# numpy {np.__version__} seed {SEED}\n")
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, OUT)
    print(f"{sum(count.values())} cases written to {OUT}: {count}")


main()
