#!/usr/bin/python3
"""The NumPy program examples/bootstrap.cpp reproduces (docs/statistics.md quotes it).

    bootstrap.py [path.csv] [resamples]
"""
import sys

import numpy as np

path = sys.argv[1] if len(sys.argv) > 1 else "examples/data/iris.csv"
resamples = int(sys.argv[2]) if len(sys.argv) > 2 else 10001
petal_length = np.loadtxt(path, delimiter=",", skiprows=1, usecols=2)
labels = np.loadtxt(path, delimiter=",", skiprows=1, usecols=4, dtype=str)

rng = np.random.default_rng(42)
for name in dict.fromkeys(labels):  # species in order of first appearance
    x = petal_length[labels == name]
    samples = rng.choice(x, size=(resamples, x.size))  # with replacement
    means = samples.mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    print(f"{name:<16} n={x.size}  mean {x.mean():.4f}  95% CI [{lo:.4f}, {hi:.4f}]")
