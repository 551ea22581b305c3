#!/usr/bin/python3
# Writes the seed corpus of the .npy fuzz target into tests/npy_fuzz/corpus/: valid files of every
# dtype, rank and format version as NumPy saves them, and hostile ones built byte by byte
# (truncated, lying headers, huge or negative shapes, unknown dtypes, wrong byte order, garbage).
# Run from anywhere: /usr/bin/python3 tests/npy_fuzz/make_corpus.py   (NumPy 1.24 was used)
# Files named fuzzed-* (inputs the fuzzer found that add coverage, merged in with -merge=1) and
# regression-* (inputs that once crashed) are kept by this script.
import io
import os
import struct

import numpy as np
from numpy.lib import format as npyformat

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
MAGIC = b"\x93NUMPY"


def numpy_bytes(array, version=None):
    f = io.BytesIO()
    if version is None:
        np.save(f, array, allow_pickle=True)
    else:
        npyformat.write_array(f, array, version=version, allow_pickle=True)
    return f.getvalue()


def npy(header, data=b"", major=1, pad=True):
    """A file with `header` (str or bytes) as its header text, padded the way NumPy pads it."""
    h = header.encode("latin-1") if isinstance(header, str) else header
    width = 2 if major == 1 else 4
    if pad:
        while (8 + width + len(h) + 1) % 64:
            h += b" "
        h += b"\n"
    length = struct.pack("<H" if width == 2 else "<I", len(h))
    return MAGIC + bytes([major, 0]) + length + h + data


def hdr(descr, shape, order="False"):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, order, shape)


files = {}

# ---- Valid: every supported dtype, ranks 0 to 4, zero-size arrays, format versions 1, 2 and 3.
files["valid-f4-rank0"] = numpy_bytes(np.float32(2.5))
files["valid-f4-rank1"] = numpy_bytes(np.array([1.5, -2.25, np.inf, np.nan], dtype=np.float32))
files["valid-f4-rank2"] = numpy_bytes(np.arange(6, dtype=np.float32).reshape(2, 3))
files["valid-f4-rank4"] = numpy_bytes(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2))
files["valid-i4-rank1"] = numpy_bytes(np.array([0, -1, 2**31 - 1, -2**31], dtype=np.int32))
files["valid-i4-rank3"] = numpy_bytes(np.arange(-12, 12, dtype=np.int32).reshape(2, 3, 4))
files["valid-b1-rank1"] = numpy_bytes(np.array([True, False, True]))
files["valid-b1-rank2"] = numpy_bytes(np.eye(3, dtype=bool))
files["valid-i8-in-range"] = numpy_bytes(np.array([-3, 0, 2**31 - 1, -2**31], dtype=np.int64))
files["valid-f8-rank2"] = numpy_bytes(np.array([[0.5, -1.0], [0.1, 1e10]], dtype=np.float64))
files["valid-f8-inf-nan"] = numpy_bytes(np.array([np.inf, -np.inf, np.nan, 3.4e38], dtype=np.float64))
files["valid-zero-size-1d"] = numpy_bytes(np.zeros((0,), dtype=np.float32))
files["valid-zero-size-2x0"] = numpy_bytes(np.zeros((2, 0), dtype=np.int32))
files["valid-zero-size-0x3x5-b1"] = numpy_bytes(np.zeros((0, 3, 5), dtype=bool))
files["valid-v2-i4"] = numpy_bytes(np.array([5, -6, 7], dtype=np.int32), version=(2, 0))
files["valid-v3-f4"] = numpy_bytes(np.array([[1.0, 2.0]], dtype=np.float32), version=(3, 0))
files["valid-64-dims"] = npy(hdr("<i4", "(" + "1, " * 64 + ")"), struct.pack("<i", 7))
files["valid-hand-double-quotes"] = npy('{"descr": "<i4", "fortran_order": False, "shape": (2,)}', struct.pack("<2i", 1, 2))
files["valid-hand-python2-long"] = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 1L), }", struct.pack("<2f", 1, 2))
files["valid-hand-unpadded"] = npy("{'shape':(1,),'descr':'<i4','fortran_order':False}", struct.pack("<i", 9), pad=False)
files["valid-b1-little-and-native"] = npy(hdr("<b1", "(2,)"), b"\x00\x05") + b""
files["valid-b1-big-endian-mark"] = npy(hdr(">b1", "(2,)"), b"\x01\x00")

# ---- Truncated: magic, preamble, header, data.
good = numpy_bytes(np.arange(6, dtype=np.float32).reshape(2, 3))
files["trunc-empty"] = b""
files["trunc-magic-3"] = MAGIC[:3]
files["trunc-magic-only"] = MAGIC
files["trunc-version"] = MAGIC + b"\x01"
files["trunc-header-length-v1"] = MAGIC + b"\x01\x00\x76"
files["trunc-header-length-v2"] = MAGIC + b"\x02\x00\x76\x00\x00"
files["trunc-header-half"] = good[:40]
files["trunc-header-no-data"] = good[:128]
files["trunc-data-one-byte-short"] = good[:-1]
files["trunc-data-one-element-short"] = good[:-4]
files["trunc-data-f8"] = numpy_bytes(np.ones(5, dtype=np.float64))[:-3]
files["trailing-data"] = good + b"\x00\x00\x00\x00"

# ---- Lying preamble: header lengths that do not match the file, unknown versions, bad magic.
files["lie-header-length-65535"] = MAGIC + b"\x01\x00\xff\xff" + b"{}"
files["lie-header-length-4g-v2"] = MAGIC + b"\x02\x00\xff\xff\xff\xff" + b"{}"
files["lie-header-length-4g-v3"] = MAGIC + b"\x03\x00\xff\xff\xff\x7f" + b"{'descr'"
files["lie-header-length-zero"] = MAGIC + b"\x01\x00\x00\x00" + good[10:]
files["lie-header-length-short"] = MAGIC + b"\x01\x00\x10\x00" + good[10:]
files["lie-header-length-long"] = MAGIC + b"\x01\x00\x7f\x00" + good[10:]
files["bad-version-4-0"] = MAGIC + b"\x04\x00" + good[8:]
files["bad-version-1-1"] = MAGIC + b"\x01\x01" + good[8:]
files["bad-version-0-0"] = MAGIC + b"\x00\x00" + good[8:]
files["bad-magic-zip"] = b"PK\x03\x04" + good[4:]
files["bad-magic-one-byte-off"] = b"\x93NUMPX" + good[6:]
files["bad-magic-text"] = b"[1.0, 2.0, 3.0]\n"

# ---- Lying shapes: far more data promised than present, huge, negative, overflowing int64.
files["lie-shape-1e9x1e9-tiny-file"] = npy(hdr("<f4", "(1000000000, 1000000000)")).ljust(100, b"\0")[:100]
files["lie-shape-4gb-100-byte-file"] = npy(hdr("<f4", "(1000000, 1000)"))[:100]
files["lie-shape-2pow40"] = npy(hdr("<f4", "(1099511627776,)"), b"\0" * 16)
files["lie-shape-2pow40-plus-1"] = npy(hdr("<f4", "(1099511627777,)"), b"\0" * 16)
files["lie-shape-2pow40-bool"] = npy(hdr("|b1", "(" + "2, " * 40 + ")"), b"\1" * 16)
files["lie-shape-huge-digits"] = npy(hdr("<i4", "(" + "9" * 400 + ",)"), b"\0" * 4)
files["lie-shape-int64-max"] = npy(hdr("<i4", "(9223372036854775807,)"), b"\0" * 4)
files["lie-shape-int64-wraps"] = npy(hdr("<i4", "(9223372036854775808,)"), b"\0" * 4)
files["lie-shape-product-overflows-int64"] = npy(hdr("<f4", "(4294967296, 4294967296, 4294967296)"), b"\0" * 4)
files["lie-shape-product-overflows-times-zero"] = npy(hdr("<f4", "(1099511627776, 1099511627776, 0)"))
files["lie-shape-product-2pow64-wraps-to-zero"] = npy(hdr("<i4", "(65536, 65536, 65536, 65536)"))
files["lie-shape-item-times-count-overflow"] = npy(hdr("<f8", "(2305843009213693952,)"), b"\0" * 8)
files["neg-shape-minus-1"] = npy(hdr("<f4", "(-1,)"), b"\0" * 4)
files["neg-shape-2x-minus-3"] = npy(hdr("<f4", "(2, -3)"), b"\0" * 24)
files["neg-shape-int64-min"] = npy(hdr("<f4", "(-9223372036854775808,)"))
files["neg-shape-minus-zero"] = npy(hdr("<f4", "(-0,)"))
files["shape-65-dims"] = npy(hdr("<i4", "(" + "1, " * 65 + ")"), struct.pack("<i", 7))
files["shape-1000-dims"] = npy(hdr("<i4", "(" + "1," * 1000 + ")"), struct.pack("<i", 7), major=2)
files["shape-not-a-tuple"] = npy(hdr("<f4", "3"), b"\0" * 12)
files["shape-list"] = npy(hdr("<f4", "[3]"), b"\0" * 12)
files["shape-float"] = npy(hdr("<f4", "(3.0,)"), b"\0" * 12)
files["shape-nested"] = npy(hdr("<f4", "((3,),)"), b"\0" * 12)
files["shape-1-no-comma"] = npy(hdr("<f4", "(3)"), b"\0" * 12)
files["shape-hex"] = npy(hdr("<f4", "(0x3,)"), b"\0" * 12)

# ---- dtypes: unknown, unsupported, wrong byte order; Fortran order.
for name, descr in [("c8", "<c8"), ("U3", "<U3"), ("u1", "|u1"), ("f2", "<f2"), ("i2", "<i2"), ("u4", "<u4"),
                    ("V8", "|V8"), ("M8", "<M8[ns]"), ("empty", ""), ("garbage", "xyz\x7f"), ("O", "|O"),
                    ("native-f4", "=f4"), ("long", "<" + "f" * 300)]:
    files["dtype-" + name] = npy(hdr(descr, "(1,)"), b"\0" * 8)
files["dtype-structured"] = numpy_bytes(np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))
files["dtype-object-pickle"] = numpy_bytes(np.array([1, "a"], dtype=object))
files["dtype-u1-numpy"] = numpy_bytes(np.arange(4, dtype=np.uint8))
files["dtype-f2-numpy"] = numpy_bytes(np.ones(3, dtype=np.float16))
files["big-endian-f4"] = numpy_bytes(np.arange(3, dtype=">f4"))
files["big-endian-i4"] = numpy_bytes(np.arange(3, dtype=">i4"))
files["big-endian-i8"] = numpy_bytes(np.arange(3, dtype=">i8"))
files["big-endian-f8"] = numpy_bytes(np.arange(3, dtype=">f8"))
files["fortran-order-true"] = numpy_bytes(np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
files["fortran-order-garbage"] = npy(hdr("<f4", "(1,)", order="1"), b"\0" * 4)
files["fortran-order-lowercase"] = npy(hdr("<f4", "(1,)", order="false"), b"\0" * 4)

# ---- Values that do not fit the array's type.
files["i8-out-of-int32"] = numpy_bytes(np.array([1, 2, 3000000000], dtype=np.int64))
files["i8-int64-min"] = numpy_bytes(np.array([-2**63], dtype=np.int64))
files["f8-out-of-float32"] = numpy_bytes(np.array([1.0, -1e300], dtype=np.float64))

# ---- Garbage dicts: not a dict, bad syntax, wrong keys, non-ASCII, NULs, escapes.
for name, header in [
    ("not-a-dict", "[1, 2]"), ("empty-header", ""), ("only-spaces", " " * 50), ("empty-dict", "{}"),
    ("unclosed", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)"),
    ("text-after", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} x"),
    ("unquoted-key", "{descr: '<f4'}"), ("no-colon", "{'descr' '<f4'}"),
    ("missing-shape", "{'descr': '<f4', 'fortran_order': False}"),
    ("missing-descr", "{'fortran_order': False, 'shape': (1,)}"),
    ("extra-key", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}"),
    ("duplicate-key", "{'descr': '<f4', 'descr': '<i4', 'fortran_order': False, 'shape': (1,)}"),
    ("unterminated-string", "{'descr': '<f4"), ("escape", "{'descr': '<\\x66\\x34'}"),
    ("newline-in-string", "{'descr': '<f\n4', 'fortran_order': False, 'shape': (1,)}"),
    ("nested-dict", "{'descr': {'a': 1}, 'fortran_order': False, 'shape': (1,)}"),
    ("descr-number", "{'descr': 3, 'fortran_order': False, 'shape': (1,)}"),
    ("mixed-quotes", "{'descr\": '<f4', 'fortran_order': False, 'shape': (1,)}"),
]:
    files["dict-" + name] = npy(header, b"\0" * 4)
files["dict-non-ascii"] = npy("{'descr': '<f4', '\u00e9\u00ff': False, 'shape': (1,)}", b"\0" * 4)
files["dict-utf8-key"] = npy("{'descr': '<f4', 'fortran_order': False, 'sh\u00e4pe': (1,)}".encode("utf-8"), b"\0" * 4)
files["dict-nul-bytes"] = npy(b"{'descr': '<f4',\0'fortran_order': False, 'shape': (1,)}", b"\0" * 4)
files["dict-nul-in-descr"] = npy(b"{'descr': '<f4\0', 'fortran_order': False, 'shape': (1,)}", b"\0" * 4)
files["dict-high-bytes"] = npy(bytes(range(128, 256)), b"\0" * 4)
files["dict-random-bytes"] = npy(np.random.default_rng(6).integers(0, 256, 200, dtype=np.uint8).tobytes())

os.makedirs(CORPUS, exist_ok=True)
for old in os.listdir(CORPUS):
    if not old.startswith(("fuzzed-", "regression-")):
        os.remove(os.path.join(CORPUS, old))
for name, data in sorted(files.items()):
    with open(os.path.join(CORPUS, name + ".npy"), "wb") as f:
        f.write(data)
print(f"wrote {len(files)} files to {CORPUS}")
