#!/usr/bin/python3
"""NumPy's side of the .npz round trips (tests/io/test_npz.cpp).

    npz_reference.py write DIR   NumPy writes every archive into DIR (before the C++ test runs)
    npz_reference.py check DIR   NumPy reads every archive the C++ test wrote into DIR/from_fusor

The arrays are npy_reference.py's: one dtype x shape each, values a formula of the row-major
index, named <dtype>_<shape> (float32_2x3x4, int8_scalar). Each is also saved alone as
DIR/<name>.npy, which the C++ test compares what it reads from an archive with.

Archives written:
    all_types.npz    numpy.savez of every dtype x shape, C order (save_npz must give these bytes)
    fortran.npz      Fortran-ordered arrays (float64_3x4, int16_2x3x4)
    unicode.npz      a non-ASCII name ("π" -> "π.npy", the zip UTF-8 flag)
    empty.npz        numpy.savez with no arrays
    compressed.npz   numpy.savez_compressed (deflate: load_npz lists it, get refuses it)
    streamed.npz     written by zipfile to a stream that cannot seek: local headers without sizes
                     or CRC, each member followed by a data descriptor
    commented.npz    an archive comment, and bytes before the archive (a self-extracting stub)
    text_member.npz  an array and a member "readme.txt" that is not a .npy file
"""
import io
import os
import sys
import zipfile

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npy_reference import DTYPES, SHAPES, check_array, shape_name, values  # noqa: E402


def all_arrays():
    return {f"{dtype}_{shape_name(shape)}": values(dtype, shape)
            for dtype in DTYPES for shape in SHAPES}


class Unseekable(io.RawIOBase):
    """A write-only stream without tell/seek, as a pipe: zipfile then writes data descriptors."""

    def __init__(self, f):
        self.f = f

    def writable(self):
        return True

    def write(self, b):
        return self.f.write(b)


def write(out):
    os.makedirs(out, exist_ok=True)
    arrays = all_arrays()
    for name, a in arrays.items():
        np.save(os.path.join(out, name + ".npy"), a)
    np.savez(os.path.join(out, "all_types.npz"), **arrays)
    np.savez(os.path.join(out, "fortran.npz"),
             float64_3x4=np.asfortranarray(values("float64", (3, 4))),
             int16_2x3x4=np.asfortranarray(values("int16", (2, 3, 4))))
    np.savez(os.path.join(out, "unicode.npz"), **{"π": values("float32", (5,))})
    np.savez(os.path.join(out, "empty.npz"))
    np.savez_compressed(os.path.join(out, "compressed.npz"), float64_3x4=values("float64", (3, 4)),
                        int8_5=values("int8", (5,)))

    with open(os.path.join(out, "streamed.npz"), "wb") as f:
        with zipfile.ZipFile(Unseekable(f), "w") as z:
            for name in ("uint16_3x4", "bool_5"):
                with z.open(name + ".npy", "w") as member:
                    np.lib.format.write_array(member, arrays[name])
    with zipfile.ZipFile(os.path.join(out, "streamed.npz")) as z:
        assert all(i.flag_bits & 0x08 for i in z.infolist()), "expected data descriptors"

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.comment = b"an archive comment"
        with z.open("int32_3x4.npy", "w") as member:
            np.lib.format.write_array(member, arrays["int32_3x4"])
    with open(os.path.join(out, "commented.npz"), "wb") as f:
        f.write(b"#!/bin/sh\necho a self-extracting stub\n" + buf.getvalue())

    with zipfile.ZipFile(os.path.join(out, "text_member.npz"), "w") as z:
        with z.open("float64_5.npy", "w") as member:
            np.lib.format.write_array(member, arrays["float64_5"])
        z.writestr("readme.txt", "not an array\n")


def check(folder):
    out = os.path.join(folder, "from_fusor")
    names = sorted(n for n in os.listdir(out) if n.endswith(".npz"))
    if not names:
        sys.exit("no archives written by fusor in " + out)
    for name in names:
        path = os.path.join(out, name)
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()  # reads every member and checks its CRC-32
            if bad is not None:
                sys.exit(f"{name}: member {bad} fails zipfile's CRC check")
            for info in z.infolist():
                if info.compress_type != zipfile.ZIP_STORED:
                    sys.exit(f"{name}: member {info.filename} is not stored")
        with np.load(path) as npz:
            for key in npz.files:
                dtype, shape_text = key.split("_")[:2]
                shape = () if shape_text == "scalar" else tuple(
                    int(n) for n in shape_text.split("x"))
                check_array(f"{name}[{key}]", npz[key], values(dtype, shape))
    # The archive of every dtype, byte for byte what numpy.savez writes.
    with open(os.path.join(out, "all_types.npz"), "rb") as f:
        ours = f.read()
    buf = io.BytesIO()
    np.savez(buf, **all_arrays())
    if ours != buf.getvalue():
        sys.exit("from_fusor/all_types.npz differs from numpy.savez's bytes")
    print(f"numpy.load read {len(names)} archives written by fusor.save_npz: all equal, CRCs "
          f"good, all_types.npz byte for byte numpy.savez's")


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
