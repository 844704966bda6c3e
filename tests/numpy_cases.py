"""What the NumPy reference scripts that write the shared case format share (the writing side of
tests/numpy_data.hpp): an array as one line, its values as tokens, and the random draws.

Each line is `<kind> <name> <dtype> <rank> <extent>... <value>...`, values in row-major order:
floats as float.hex() (exact, and inf/nan), bools as 0/1, integers in decimal. Used by
contract/contract_reference.py, toolbox/toolbox_reference.py, toolbox/shifting_reference.py and
stats/counting_reference.py, which import it from this folder.
"""
import numpy as np


def tok(v, dtype):
    """One value of an array of NumPy dtype name `dtype` as its token."""
    if dtype in ("float32", "float64"):
        return float(v).hex()
    if dtype == "bool":
        return "1" if v else "0"
    return str(int(v))


def arr_line(kind, name, a, dtype_name=None):
    """Array `a` as a line of kind `kind` (`a` an operand, `e` a result); `dtype_name` the dtype
    written when it is not a's own."""
    a = np.asarray(a)
    vals = " ".join(tok(v, a.dtype.name) for v in a.ravel())
    dims = " ".join(str(d) for d in a.shape)
    return " ".join(t for t in [kind, str(name), dtype_name or a.dtype.name, str(a.ndim), dims, vals]
                    if t)


def draws(rng):
    """The three draws the scripts make from generator `rng`: irand(lo, hi), an int in [lo, hi];
    pick(seq), an element; chance(p), True with probability p."""

    def irand(lo, hi):
        return int(rng.integers(lo, hi + 1))

    def pick(seq):
        return seq[int(rng.integers(0, len(seq)))]

    def chance(p):
        return rng.random() < p

    return irand, pick, chance
