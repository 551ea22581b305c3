#!/usr/bin/python3
# Writes the seed corpus of the safetensors fuzz target into tests/safetensors_fuzz/corpus/: valid
# files as the reference writer lays them out (and as other writers may: unpadded, unsorted, with
# unknown fields), and hostile ones built byte by byte (truncated, lying lengths, wrong JSON types,
# gaps, overlaps, size mismatches, overflowing shapes, repeated keys, garbage).
# Run from anywhere: /usr/bin/python3 tests/safetensors_fuzz/make_corpus.py   (no third-party module)
# Files named fuzzed-* (inputs the fuzzer found that add coverage, merged in with -merge=1) and
# regression-* (inputs that once crashed) are kept by this script.
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
BITS = {"BOOL": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8,
        "F8_E8M0": 8, "F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8, "I16": 16, "U16": 16, "F16": 16, "BF16": 16,
        "I32": 32, "U32": 32, "F32": 32, "C64": 64, "F64": 64, "I64": 64, "U64": 64}
ORDER = list(BITS)   # the reference's dtype order


def raw(header, data=b"", length=None):
    """A file with `header` (str or bytes) as is, its length (or `length`) before it, `data` after."""
    h = header.encode("utf-8") if isinstance(header, str) else header
    return struct.pack("<Q", len(h) if length is None else length) + h + data


def nbytes(dtype, shape):
    n = 1
    for d in shape:
        n *= d
    return n * BITS[dtype] // 8


def written(tensors, metadata=None):
    """The reference writer's file: dtype descending then name, compact JSON, spaces to a multiple of 8.
    `tensors` maps name -> (dtype, shape, data bytes)."""
    order = sorted(tensors, key=lambda n: (-ORDER.index(tensors[n][0]), n))
    header, offset, data = {}, 0, b""
    if metadata:
        header["__metadata__"] = metadata
    for name in order:
        dtype, shape, b = tensors[name]
        assert len(b) == nbytes(dtype, shape)
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(b)]}
        offset += len(b)
        data += b
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return raw(text, data)


def entry(dtype, shape, begin, end):
    return {"dtype": dtype, "shape": shape, "data_offsets": [begin, end]}


def hand(entries, data=b"", metadata=None):
    """A file whose header is exactly `entries` (name -> entry dict, in this order), unpadded."""
    h = {}
    if metadata is not None:
        h["__metadata__"] = metadata
    h.update(entries)
    return raw(json.dumps(h, separators=(",", ":")), data)


def f32(*values):
    return struct.pack("<%df" % len(values), *values)


files = {}

# ---- Valid, as the reference writer makes them.
files["valid-empty"] = written({})
files["valid-metadata-only"] = written({}, {"format": "pt"})
files["valid-f32"] = written({"w": ("F32", [2, 3], f32(0, 1, 2, 3, 4, 5))}, {"format": "pt"})
files["valid-every-dtype"] = written({d.lower(): (d, [8], bytes(range(BITS[d]))) for d in BITS})
files["valid-scalar-and-empty"] = written({"s": ("F64", [], f32(1, 2)), "e": ("F32", [0, 7], b""),
                                           "z": ("BF16", [3, 0], b"")})
files["valid-llama-like"] = written({
    "model.embed_tokens.weight": ("BF16", [4, 3], bytes(range(24))),
    "model.layers.0.input_layernorm.weight": ("BF16", [3], b"\x80\x3f" * 3),
    "model.layers.0.self_attn.q_proj.weight": ("BF16", [3, 3], bytes(18)),
    "model.norm.weight": ("F32", [3], f32(1, 1, 1)),
}, {"format": "pt"})
files["valid-nan-inf"] = written({"w": ("F32", [4], f32(float("nan"), float("inf"), -float("inf"), -0.0)),
                                  "h": ("F16", [3], b"\x00\x7e\x00\x7c\x01\x00")})
files["valid-unicode-names"] = written({"h\u00e9llo": ("U8", [1], b"x"), "\u65e5\u672c": ("U8", [1], b"y"),
                                        "q\"b\\s\nn": ("U8", [1], b"z")}, {"k\u00e9y": "v\u00e4lue"})
files["valid-f4-nibbles"] = written({"n": ("F4", [2, 3], b"\x12\x34\x56")})
files["valid-many-tensors"] = written({"t%03d" % i: ("I8", [i % 3], bytes(i % 3)) for i in range(120)})

# ---- Valid, as other writers may lay them out.
files["valid-unpadded-unaligned"] = hand({"a": entry("F32", [2], 0, 8)}, f32(1.5, -3))
files["valid-keys-not-in-offset-order"] = hand({"b": entry("U8", [2], 3, 5), "a": entry("U8", [3], 0, 3)}, b"abcde")
files["valid-shared-empty-offsets"] = hand({"a": entry("U8", [0], 0, 0), "b": entry("U8", [0], 0, 0),
                                            "c": entry("U8", [1], 0, 1)}, b"c")
files["valid-unknown-fields"] = raw('{"a":{"x":{"y":[1,{"z":null}]},"dtype":"U8","n":1.5,"shape":[1],'
                                    '"data_offsets":[0,1],"t":true}}', b"q")
files["valid-metadata-null"] = raw('{"__metadata__":null,"a":{"dtype":"U8","shape":[],"data_offsets":[0,1]}}', b"q")
files["valid-whitespace"] = raw(' \n\t{ "a" : { "dtype" : "U8" , "shape" : [ 1 ] , "data_offsets" : [ 0 , 1 ] } }\r\n ', b"q")
files["valid-escaped-name"] = raw('{"\\u0061\\/b":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}', b"q")

# ---- Truncated and lying lengths.
base = files["valid-f32"]
files["trunc-empty"] = b""
files["trunc-3-bytes"] = b"\x10\x00\x00"
files["trunc-length-only"] = base[:8]
files["trunc-header-half"] = base[:8 + (len(base) - 8 - 24) // 2]
files["trunc-data-one-byte-short"] = base[:-1]
files["trunc-no-data"] = base[:-24]
files["lie-length-past-file"] = raw('{}', length=1000)
files["lie-length-200MB"] = raw('{}', length=200_000_000)
files["lie-length-u64-max"] = raw('{}', length=2**64 - 1)
files["lie-length-shorter"] = raw('{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}', b"q", length=20)
files["trailing-bytes"] = base + b"extra"

# ---- Not JSON, or not an object.
for name, text in [("empty-header", b""), ("not-json", b"not json"), ("unclosed", b'{"a":'),
                   ("text-after", b"{} x"), ("nul-padding", b"{}\0\0\0\0\0\0"), ("bom", b"\xef\xbb\xbf{}"),
                   ("single-quotes", b"{'a': 1}"), ("bad-utf8-key", b'{"a\xff":1}'),
                   ("lone-surrogate", b'{"\\ud800":null}'), ("high-bytes", bytes(range(128, 256))),
                   ("array", b"[]"), ("string", b'"x"'), ("number", b"42"), ("null", b"null"),
                   ("deep-nesting", b'{"a":{"x":' + b"[" * 300 + b"]" * 300 + b"}}")]:
    files["json-" + name] = raw(text)

# ---- Wrong JSON types and missing fields.
for name, text in [
    ("entry-null", '{"w":null}'), ("entry-array", '{"w":[1]}'),
    ("dtype-number", '{"w":{"dtype":3,"shape":[],"data_offsets":[0,1]}}'),
    ("dtype-unknown", '{"w":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}}'),
    ("dtype-lowercase", '{"w":{"dtype":"f32","shape":[1],"data_offsets":[0,4]}}'),
    ("shape-string", '{"w":{"dtype":"F32","shape":"[1]","data_offsets":[0,4]}}'),
    ("shape-float", '{"w":{"dtype":"F32","shape":[1.0],"data_offsets":[0,4]}}'),
    ("shape-nested", '{"w":{"dtype":"F32","shape":[[1]],"data_offsets":[0,4]}}'),
    ("offsets-three", '{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4,4]}}'),
    ("offsets-one", '{"w":{"dtype":"F32","shape":[1],"data_offsets":[4]}}'),
    ("offsets-object", '{"w":{"dtype":"F32","shape":[1],"data_offsets":{"a":0}}}'),
    ("offsets-negative", '{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,-4]}}'),
    ("missing-dtype", '{"w":{"shape":[1],"data_offsets":[0,4]}}'),
    ("missing-shape", '{"w":{"dtype":"F32","data_offsets":[0,4]}}'),
    ("missing-offsets", '{"w":{"dtype":"F32","shape":[1]}}'),
    ("metadata-array", '{"__metadata__":[]}'), ("metadata-number-value", '{"__metadata__":{"k":1}}'),
]:
    files["type-" + name] = raw(text, b"\0" * 4)

# ---- Shapes and sizes that do not add up.
for name, text, data in [
    ("negative-dim", '{"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}', 8),
    ("product-overflows-u64", '{"w":{"dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,0]}}', 0),
    ("bits-overflow-u64", '{"w":{"dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,0]}}', 0),
    ("dim-past-int64", '{"w":{"dtype":"U8","shape":[9223372036854775808],"data_offsets":[0,0]}}', 0),
    ("dim-past-u64", '{"w":{"dtype":"U8","shape":[18446744073709551616],"data_offsets":[0,0]}}', 0),
    ("overflow-times-zero", '{"w":{"dtype":"U8","shape":[4294967296,4294967296,0],"data_offsets":[0,0]}}', 0),
    ("f4-odd-count", '{"w":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}}', 2),
    ("bytes-mismatch", '{"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,12]}}', 12),
    ("gap-at-start", '{"w":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}', 12),
    ("gap-between", '{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},'
                    '"b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}', 16),
    ("overlap", '{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},'
                '"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}', 12),
    ("same-offsets", '{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},'
                     '"b":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}', 8),
    ("end-before-begin", '{"w":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}}', 8),
    ("past-the-end", '{"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', 8),
    ("offsets-u64-max", '{"w":{"dtype":"U8","shape":[0],"data_offsets":[18446744073709551615,18446744073709551615]}}', 0),
    ("wrapping-end", '{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},'
                     '"b":{"dtype":"U8","shape":[18446744073709551615],"data_offsets":[1,0]}}', 1),
]:
    files["size-" + name] = raw(text, b"\0" * data)

# ---- Repeated keys.
e = '{"dtype":"U8","shape":[1],"data_offsets":[0,1]}'
files["dup-tensor"] = raw('{"w":%s,"w":%s}' % (e, e), b"x")
files["dup-tensor-escaped"] = raw('{"w":%s,"\\u0077":%s}' % (e, e), b"x")
files["dup-field"] = raw('{"w":{"dtype":"U8","dtype":"I8","shape":[1],"data_offsets":[0,1]}}', b"x")
files["dup-metadata"] = raw('{"__metadata__":{},"__metadata__":null}')
files["dup-metadata-key"] = raw('{"__metadata__":{"k":"a","k":"b"}}')

os.makedirs(CORPUS, exist_ok=True)
for old in os.listdir(CORPUS):
    if not old.startswith(("fuzzed-", "regression-")):
        os.remove(os.path.join(CORPUS, old))
for name, data in sorted(files.items()):
    with open(os.path.join(CORPUS, name + ".safetensors"), "wb") as f:
        f.write(data)
print(f"wrote {len(files)} files to {CORPUS}")
