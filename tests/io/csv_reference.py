#!/usr/bin/python3
"""NumPy's side of the CSV round trips (tests/io/test_csv.cpp).

    csv_reference.py write DIR   NumPy writes every case into DIR (before the C++ test runs)
    csv_reference.py check DIR   NumPy reads every file the C++ test wrote into DIR/from_fusor

Round trips: for every dtype x shape, numpy.savetxt writes <dtype>_<shape>.csv (floats with its
default fmt '%.18e', integers and bools with fmt='%d', as fusor.save_csv does) and
numpy.loadtxt(..., ndmin=2) reads it back into <dtype>_<shape>.npy, which must equal the values
(NumPy's own round trip) and is what fusor.load_csv must give. The C++ test writes the same values
with save_csv into from_fusor/; `check` requires numpy.loadtxt to read them back exactly and the
bytes to equal numpy.savetxt's.

Parsing cases: parse_<name>.csv are hand-written texts (spellings of numbers, comments, "\\r\\n",
skiprows, usecols, ndmin, integer corners); cases.txt lists each with the arguments given to
numpy.loadtxt, whose result is saved as parse_<name>.npy for load_csv to match:
    <name> <dtype> <skiprows> <usecols, comma-separated, or -> <ndmin>
"""
import io
import os
import sys
import warnings

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
SHAPES = [(3, 4), (5,), (1, 4), (4, 1), (7, 3)]


def shape_name(shape):
    return "x".join(str(n) for n in shape)


def values(dtype, shape):
    """Values that exercise the text formats: integer extremes and wrapped products; floats
    spread over 60 decades with NaN, +-inf, -0.0, the largest, the smallest normal and the
    smallest subnormal value of the dtype."""
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(n, dtype=np.uint64)
    if dtype == "bool":
        flat = (k % 3) == 0
    elif dtype.startswith("float"):
        x = k.astype(np.float64)
        flat = ((x + 1) / 7 * 10.0 ** ((k * 37) % 61 - 30.0)).astype(dtype)
        flat[1::2] *= -1
        info = np.finfo(dtype)
        specials = [np.nan, -np.inf, -0.0, np.inf, info.max, info.tiny,
                    info.smallest_subnormal, -info.max]
        for i, s in enumerate(specials[:n]):
            flat[i] = s
    else:
        with np.errstate(over="ignore"):
            flat = (k * np.uint64(2654435761)).astype(dtype)
        info = np.iinfo(dtype)
        for i, s in enumerate([info.min, info.max, 0][:n]):
            flat[i] = s
    return flat.reshape(shape)


def fmt(dtype):
    return "%.18e" if dtype.startswith("float") else "%d"


def savetxt_bytes(a, dtype):
    f = io.BytesIO()
    np.savetxt(f, a, fmt=fmt(dtype), delimiter=",")
    return f.getvalue()


# name: (text, dtype, skiprows, usecols, ndmin)
PARSE_CASES = {
    "spellings": ("nan,NaN,inf,-inf,+inf,Infinity,-Infinity,INF,nAn,+nan,-nan,iNfInItY\n",
                  "float64", 0, None, 2),
    "numbers": (" 1.5 ,\t-2,.5,5.,1E+2,1e-310,4.9e-324,2.5e-324,1e400,-1e400,1e-400,-1e-400,"
                "0.1,+3,-0,0.30000000000000004,123456789012345678901234567890\n",
                "float64", 0, None, 2),
    # float32 cells are parsed as double and rounded to float, as NumPy does (twice rounded):
    # 1.00000005960464477550 is 1.0f through the double, 1.0000001f parsed directly. Around
    # FLT_MAX the rounding is IEEE's: below the midpoint between FLT_MAX and 2^128,
    # 0x1.ffffffp127 = 3.40282356779733661637e38, to FLT_MAX; from it on, to inf.
    "float32": ("1.00000005960464477550,0.1,3.4028235e38,3.40282356e38,3.4028235677973362e38,"
                "3.4028235677973366e38,3.40282357e38,1e39,-1e39,-3.4028235677973362e38,1.4e-45,"
                "7e-46,1e-46,1e-310,nan,-inf,1e400\n", "float32", 0, None, 2),
    "layout": ("# a comment line\n1,2,3 # a trailing comment\n\n4 , 5 ,6\r\n#\n"
               "\t7,\t8 ,9\t\n10,11,12", "float64", 0, None, 2),
    "skiprows_usecols": ("sepal,petal,x,y,label\n# skipped as a comment\n1,2,3,4,setosa\n"
                         "5,6,7,8,virginica\n", "float64", 1, [0, -2, 0], 2),
    "skiprows_counts_comments": ("# one\n# two\nname,value\n1,2\n3,4\n", "int32", 3, None, 2),
    "int64": ("+5, -3,007,-0,-9223372036854775808,9223372036854775807\n", "int64", 0, None, 2),
    "int8": ("-128,127,0,-0,+12\n", "int8", 0, None, 2),
    "uint8": ("0,255,-0,+7\n", "uint8", 0, None, 2),
    "uint64": ("18446744073709551615,0,9223372036854775808\n", "uint64", 0, None, 2),
    "uint32": ("4294967295,1\n2,3\n", "uint32", 0, [1], 2),
    "bool": ("0,1,2,-1,+0,00\n", "bool", 0, None, 2),
    "row_ndmin0": ("1,2,3\n", "float64", 0, None, 0),
    "row_ndmin1": ("1,2,3\n", "float64", 0, None, 1),
    "row_ndmin2": ("1,2,3\n", "float64", 0, None, 2),
    "column_ndmin0": ("1\n2\n3\n", "int16", 0, None, 0),
    "column_ndmin1": ("1\n2\n3\n", "int16", 0, None, 1),
    "column_ndmin2": ("1\n2\n3\n", "int16", 0, None, 2),
    "one_ndmin0": ("7\n", "float32", 0, None, 0),
    "one_ndmin1": ("7\n", "float32", 0, None, 1),
    "one_ndmin2": ("7\n", "float32", 0, None, 2),
    "usecol_ndmin0": ("1,2\n3,4\n", "float64", 0, [1], 0),
    "empty_ndmin0": ("# nothing but a comment\n", "float64", 0, None, 0),
    "empty_ndmin1": ("", "float64", 0, None, 1),
    "empty_ndmin2": ("", "float64", 0, None, 2),
    "empty_usecols": ("# nothing\n", "float64", 0, [0, 1], 0),
    "empty_after_skip": ("a,b\n", "uint16", 1, None, 2),
}


def write(out):
    os.makedirs(out, exist_ok=True)
    for dtype in DTYPES:
        for shape in SHAPES:
            a = values(dtype, shape)
            name = os.path.join(out, f"{dtype}_{shape_name(shape)}")
            with open(name + ".csv", "wb") as f:
                f.write(savetxt_bytes(a, dtype))
            back = np.loadtxt(name + ".csv", dtype=dtype, delimiter=",", ndmin=2)
            want = a.reshape(a.shape[0], -1)
            if back.shape != want.shape or not np.array_equal(
                    back, want, equal_nan=dtype.startswith("float")):
                sys.exit(f"{name}.csv: numpy.loadtxt does not give back what numpy.savetxt wrote")
            np.save(name + ".npy", back)
    with open(os.path.join(out, "cases.txt"), "w") as cases:
        for case, (text, dtype, skiprows, usecols, ndmin) in PARSE_CASES.items():
            path = os.path.join(out, f"parse_{case}.csv")
            with open(path, "w", newline="") as f:
                f.write(text)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "input contained no data"
                a = np.loadtxt(path, dtype=dtype, delimiter=",", skiprows=skiprows,
                               usecols=usecols, ndmin=ndmin)
            np.save(os.path.join(out, f"parse_{case}.npy"), a)
            cols = ",".join(str(c) for c in usecols) if usecols else "-"
            cases.write(f"{case} {dtype} {skiprows} {cols} {ndmin}\n")


def check(folder):
    folder = os.path.join(folder, "from_fusor")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".csv"))
    if len(names) != len(DTYPES) * len(SHAPES):
        sys.exit(f"expected {len(DTYPES) * len(SHAPES)} files written by fusor in {folder}, "
                 f"found {len(names)}")
    for name in names:
        dtype, shape_text = name[:-4].split("_")
        shape = tuple(int(n) for n in shape_text.split("x"))
        want = values(dtype, shape)
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            got = f.read()
        if got != savetxt_bytes(want, dtype):
            sys.exit(f"{name}: the bytes differ from numpy.savetxt(fmt={fmt(dtype)!r}):\n"
                     f"{got[:300]!r}\n{savetxt_bytes(want, dtype)[:300]!r}")
        a = np.loadtxt(path, dtype=dtype, delimiter=",", ndmin=2)
        want2 = want.reshape(want.shape[0], -1)
        if a.shape != want2.shape or not np.array_equal(
                a, want2, equal_nan=dtype.startswith("float")):
            sys.exit(f"{name}: numpy.loadtxt gives {a!r}, expected {want2!r}")
        if a.dtype.kind == "f" and np.any(np.signbit(a) != np.signbit(want2)):
            sys.exit(f"{name}: the sign of a zero differs")
    print(f"numpy.loadtxt read {len(names)} files written by fusor.save_csv: all equal, and "
          f"byte for byte what numpy.savetxt writes")


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
