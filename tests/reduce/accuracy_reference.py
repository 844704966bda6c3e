#!/usr/bin/python3
"""Writes the data and the exactly rounded references of tests/reduce/test_accuracy.cpp.

Usage: accuracy_reference.py OUT_DIR

OUT_DIR/accuracy_data.f64   10^6 float64 values 1e9 + N(0, 1), little-endian
                            (random.Random(20261123).gauss: deterministic for a seed)
OUT_DIR/accuracy_reference.txt  their mean and variance (ddof 0), one per line, as repr()

The mean is math.fsum(x) / n: fsum is the correctly rounded sum, so the mean is within one
rounding of exact. The variance is math.fsum((x - mean)**2) / n: each deviation is exact
(x and mean are within a factor of two of each other, Sterbenz's lemma), each square is
rounded once, the sum is correctly rounded; the mean's own rounding moves the variance only to
second order (the deviations sum to ~0). Both are good to ~1e-16 relative: far inside the
test's 1e-12.
"""
import math
import os
import random
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = random.Random(20261123)
xs = [1e9 + rng.gauss(0.0, 1.0) for _ in range(10**6)]
with open(os.path.join(out, "accuracy_data.f64"), "wb") as f:
    f.write(struct.pack("<%dd" % len(xs), *xs))
n = len(xs)
mean = math.fsum(xs) / n
var = math.fsum((x - mean) ** 2 for x in xs) / n
with open(os.path.join(out, "accuracy_reference.txt"), "w") as f:
    f.write("%r\n%r\n" % (mean, var))
