#!/usr/bin/python3
"""NumPy's side of the .npy round trips (tests/io/test_npy.cpp).

    npy_reference.py write DIR   NumPy writes every case into DIR (before the C++ test runs)
    npy_reference.py check DIR   NumPy reads every file the C++ test wrote into DIR/from_fusor

Each case is one dtype x shape x memory order x format version. The values are a formula of
the row-major index k that the C++ test computes too (`expected<T>(k)` there): integers are
k * 2654435761 modulo 2**64 converted (wrapping) to the dtype, bools k % 3 == 0, floats
k / 4 - 3 with NaN at k = 1, -inf at k = 2 and -0.0 at k = 3. Files are named
<dtype>_<shape>_<order>_v<major>.npy, e.g. float32_2x3x4_F_v2.npy; a 0-d shape is "scalar".
"""
import os
import sys

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
SHAPES = [(), (0,), (2, 0, 3), (5,), (3, 4), (2, 3, 4)]


def shape_name(shape):
    return "x".join(str(n) for n in shape) if shape else "scalar"


def values(dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(n, dtype=np.uint64)
    if dtype == "bool":
        flat = (k % 3) == 0
    elif dtype.startswith("float"):
        flat = (k.astype(np.float64) / 4 - 3)
        for i, special in ((1, np.nan), (2, -np.inf), (3, -0.0)):
            if i < n:
                flat[i] = special
        flat = flat.astype(dtype)
    else:
        with np.errstate(over="ignore"):
            flat = (k * np.uint64(2654435761)).astype(dtype)
    return flat.reshape(shape)


def check_array(label, a, want):
    """Exits naming `label` unless `a` has `want`'s dtype, shape, values (NaN equal to NaN) and
    signs of zero."""
    if a.dtype != want.dtype or a.shape != want.shape or not np.array_equal(
            a, want, equal_nan=a.dtype.kind == "f"):
        sys.exit(f"{label}: numpy.load gives {a.dtype} {a.shape} {a!r}, expected "
                 f"{want.dtype} {want.shape} {want!r}")
    if a.dtype.kind == "f" and np.any(np.signbit(a) != np.signbit(want)):
        sys.exit(f"{label}: the sign of a zero differs")


def write(out):
    os.makedirs(out, exist_ok=True)
    for dtype in DTYPES:
        for shape in SHAPES:
            for order in "CF":
                a = values(dtype, shape)
                a = np.array(a, order=order)  # (np.asfortranarray makes a 0-d array 1-d)
                assert a.shape == shape
                for version in ((1, 0), (2, 0), (3, 0)):
                    name = f"{dtype}_{shape_name(shape)}_{order}_v{version[0]}.npy"
                    with open(os.path.join(out, name), "wb") as f:
                        np.lib.format.write_array(f, a, version=version)
    # np.save's exact bytes, which save_npy must reproduce.
    np.save(os.path.join(out, "np_save_float32_3x4.npy"), values("float32", (3, 4)))
    np.save(os.path.join(out, "np_save_bool_scalar.npy"), values("bool", ()))
    np.save(os.path.join(out, "np_save_uint16_5.npy"), values("uint16", (5,)))
    # Big-endian data, which fusor converts.
    np.save(os.path.join(out, "big_endian_int32.npy"), values("int32", (3, 4)).astype(">i4"))
    np.save(os.path.join(out, "big_endian_float64.npy"), values("float64", (5,)).astype(">f8"))


def check(folder):
    folder = os.path.join(folder, "from_fusor")
    names = sorted(os.listdir(folder))
    if not names:
        sys.exit("no files written by fusor in " + folder)
    for name in names:
        dtype, shape_text = name[:-4].split("_")[:2]
        shape = () if shape_text == "scalar" else tuple(int(n) for n in shape_text.split("x"))
        check_array(name, np.load(os.path.join(folder, name)), values(dtype, shape))
    print(f"numpy.load read {len(names)} files written by fusor.save_npy: all equal")


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
