#!/usr/bin/env python3
"""NumPy's answers for tests/laws/test_laws.cpp: every case's result, computed by NumPy from the
same inputs the test builds (counting(shape, salt): ((i * 7 + salt) % 23) - 11, row-major).

    laws_reference.py OUT_FILE

Writes one line per case: `name ndim extents... values...` (values as repr(float)).
"""
import os
import sys

import numpy as np


def counting(shape, salt, modulus=23):
    n = int(np.prod(shape)) if shape else 1
    return (((np.arange(n) * 7 + salt) % modulus) - modulus // 2).astype(np.float64).reshape(shape)


a = counting((3, 4), 1)
b = counting((3, 4), 2)
row = counting((4,), 3)
col = counting((3, 1), 4)
sq = counting((4, 4), 5)

CASES = {
    "leaf": a,
    "view_leaf": a.T,
    "scalar": a * 2.5,
    "elementwise": a * b + row,
    "remap": (a + b).T,
    "reshape_split": (a - b).reshape(3, 2, 2),
    "reshape_copy": (a.T + 1.0).reshape(-1),
    "reduction": np.sum(a * b, axis=1),
    "reduction_inside": a - np.max(a, axis=1, keepdims=True),
    "alias": sq.T + sq,
    "broadcast_held": a * col - 1.0,
    "arg_reduction": np.argmax(a + row, axis=0).astype(np.float64),
}


def main():
    os.makedirs(os.path.dirname(os.path.abspath(sys.argv[1])), exist_ok=True)
    with open(sys.argv[1], "w") as f:
        for name, value in CASES.items():
            v = np.asarray(value, dtype=np.float64)
            f.write(" ".join([name, str(v.ndim)] + [str(e) for e in v.shape]
                             + [repr(float(x)) for x in v.ravel()]) + "\n")


if __name__ == "__main__":
    main()
