#!/usr/bin/python3
"""The NumPy program examples/mlp_layer.cpp reproduces: a two-layer perceptron's forward pass
on the Iris flowers.

    mlp_layer.py [data_dir]                   the forward pass with the weights in data_dir
    mlp_layer.py --write-weights [data_dir]   make the weights, write them to data_dir

data_dir defaults to examples/data (beside this script): iris.csv and the weights mlp_W1.npy
(4, 16), mlp_b1.npy (16,), mlp_W2.npy (16, 3), mlp_b2.npy (3,), all float64.

The forward pass: X (150, 4) standardised per feature (population std, ddof=0);
hidden = relu(X @ W1 + b1); logits = hidden @ W2 + b2; a row softmax gives each flower's class
probabilities, the argmax its predicted species (codes in order of first appearance).

--write-weights draws the initial weights from numpy.random.default_rng(0) (He-scaled normals,
zero biases) and fits them with 300 steps of full-batch gradient descent on the mean
cross-entropy, so that the accuracy means something. Its output depends on the BLAS's summation
order, which is why the weights are checked in: both programs read the same bits.
"""
import os
import sys

import numpy as np

HIDDEN = 16
WEIGHTS = ("mlp_W1", "mlp_b1", "mlp_W2", "mlp_b2")


def load_iris(data_dir):
    path = os.path.join(data_dir, "iris.csv")
    X = np.loadtxt(path, delimiter=",", skiprows=1, usecols=(0, 1, 2, 3))
    labels = np.loadtxt(path, delimiter=",", skiprows=1, usecols=4, dtype=str)
    names = list(dict.fromkeys(labels))  # species in order of first appearance
    species = np.array([names.index(s) for s in labels])
    return X, species, names


def standardise(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


def forward(Z, W1, b1, W2, b2):
    """The hidden layer's pre-activation, the hidden layer and the class probabilities."""
    pre = Z @ W1 + b1
    hidden = np.maximum(pre, 0.0)
    logits = hidden @ W2 + b2
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return pre, hidden, e / e.sum(axis=1, keepdims=True)


def write_weights(data_dir, Z, species, classes):
    rng = np.random.default_rng(0)
    W1 = rng.standard_normal((Z.shape[1], HIDDEN)) * np.sqrt(2.0 / Z.shape[1])
    b1 = np.zeros(HIDDEN)
    W2 = rng.standard_normal((HIDDEN, classes)) * np.sqrt(2.0 / HIDDEN)
    b2 = np.zeros(classes)
    Y = np.eye(classes)[species]
    rate = 0.5
    for _ in range(300):
        pre, hidden, P = forward(Z, W1, b1, W2, b2)
        d_logits = (P - Y) / len(Z)  # the gradient of the mean cross-entropy
        d_hidden = (d_logits @ W2.T) * (pre > 0)
        W2 -= rate * (hidden.T @ d_logits)
        b2 -= rate * d_logits.sum(axis=0)
        W1 -= rate * (Z.T @ d_hidden)
        b1 -= rate * d_hidden.sum(axis=0)
    for name, w in zip(WEIGHTS, (W1, b1, W2, b2)):
        np.save(os.path.join(data_dir, name + ".npy"), w)
        print("wrote", os.path.join(data_dir, name + ".npy"), w.shape)


def main():
    args = sys.argv[1:]
    write = "--write-weights" in args
    args = [a for a in args if a != "--write-weights"]
    data_dir = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    X, species, names = load_iris(data_dir)
    Z = standardise(X)
    if write:
        write_weights(data_dir, Z, species, len(names))
        return
    W1, b1, W2, b2 = (np.load(os.path.join(data_dir, name + ".npy")) for name in WEIGHTS)
    _, _, P = forward(Z, W1, b1, W2, b2)
    predicted = P.argmax(axis=1)
    correct = int((predicted == species).sum())
    print(f"Iris two-layer perceptron: {X.shape[0]} flowers, {X.shape[1]} features -> "
          f"{W1.shape[1]} hidden (relu) -> {W2.shape[1]} classes (softmax)")
    print(f"accuracy {correct}/{len(species)} ({correct / len(species):.4f})")
    print("probabilities of the first 5 flowers (" + ", ".join(names) + "):")
    for i in range(5):
        print(f"{i}: " + " ".join(f"{p:.6f}" for p in P[i]))


if __name__ == "__main__":
    main()
