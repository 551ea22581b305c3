#!/usr/bin/python3
"""Writes the seed corpus of the GGUF fuzz target into tests/gguf_fuzz/corpus/: valid files as
ggml's writer lays them out (and as other writers may: unordered offsets, trailing bytes, other
alignments, version 2), with tensors of every type halogen decodes, and hostile ones built byte by
byte (truncated, lying counts, 2^60 string lengths, unknown types, bad bools, repeated or empty
keys and names, deep nesting, overflowing dims, rows that split a block, misaligned, overlapping and
out-of-file offsets, a bad general.alignment, refused versions, big-endian).
Run from anywhere: /usr/bin/python3 tests/gguf_fuzz/make_corpus.py   (no third-party module)
Files named fuzzed-* (inputs the fuzzer found that add coverage) and regression-* (inputs that once
crashed) are kept by this script. Every file stays under 4 kB (the fuzzer's -max_len).
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
rng = random.Random(5)

U8, I8, U16, I16, U32, I32, F32, BOOL, STRING, ARRAY, U64, I64, F64 = range(13)
SCALAR = {U8: "<B", I8: "<b", U16: "<H", I16: "<h", U32: "<I", I32: "<i", F32: "<f", BOOL: "<?", U64: "<Q",
          I64: "<q", F64: "<d"}
# ggml type id -> (name, block elements, block bytes)
GGML = {0: ("F32", 1, 4), 1: ("F16", 1, 2), 30: ("BF16", 1, 2), 8: ("Q8_0", 32, 34), 2: ("Q4_0", 32, 18),
        12: ("Q4_K", 256, 144), 14: ("Q6_K", 256, 210), 13: ("Q5_K", 256, 176), 27: ("I64", 1, 8)}


def u32(v):
    return struct.pack("<I", v)


def u64(v):
    return struct.pack("<Q", v)


def string(s):
    b = s.encode("utf-8") if isinstance(s, str) else s
    return u64(len(b)) + b


def value(t, v):
    """The bytes of a value of type t (after its type id)."""
    if t == STRING:
        return string(v)
    if t == ARRAY:
        element, items = v
        return u32(element) + u64(len(items)) + b"".join(value(element, x) for x in items)
    return struct.pack(SCALAR[t], v)


def kv(key, t, v):
    return string(key) + u32(t) + value(t, v)


def tensor_info(name, ne, ggml_type, offset):
    return string(name) + u32(len(ne)) + b"".join(u64(d) for d in ne) + u32(ggml_type) + u64(offset)


def pad(b, alignment):
    return b + b"\0" * (-len(b) % alignment)


def tensor_bytes(ggml_type, ne):
    _, block, size = GGML[ggml_type]
    n = 1
    for d in ne:
        n *= d
    return n // block * size


def block_data(ggml_type, ne):
    """Plausible data: random quants with float16 scales of ordinary size (random bytes elsewhere)."""
    n = tensor_bytes(ggml_type, ne)
    if ggml_type == 0:
        return b"".join(struct.pack("<f", rng.uniform(-2, 2)) for _ in range(n // 4))
    data = bytearray(rng.getrandbits(8) for _ in range(n))
    name, _, size = GGML[ggml_type]
    scale_at = {"Q8_0": [0], "Q4_0": [0], "Q4_K": [0, 2], "Q6_K": [208]}.get(name, [])
    for block in range(0, n, size):
        for at in scale_at:
            data[block + at:block + at + 2] = struct.pack("<e", rng.uniform(-0.05, 0.05))
    return bytes(data)


def gguf(kvs=(), tensors=(), alignment=32, version=3, layout=None, trailing=b""):
    """A file: kvs as (key, type, value); tensors as (name, ne, ggml type, data or None). Offsets are
    contiguous and padded, as ggml writes them, unless `layout` gives them."""
    head = b"GGUF" + u32(version) + u64(len(tensors)) + u64(len(kvs))
    head += b"".join(kv(*x) for x in kvs)
    offsets, data, at = [], b"", 0
    for name, ne, t, d in tensors:
        d = block_data(t, ne) if d is None else d
        offsets.append(at)
        data += pad(d, alignment)
        at += len(pad(d, alignment))
    if layout is not None:
        offsets = layout
    head += b"".join(tensor_info(name, ne, t, off) for (name, ne, t, _), off in zip(tensors, offsets))
    return pad(head, alignment) + data + trailing


files = {}
every_value = [("u8", U8, 200), ("i8", I8, -5), ("u16", U16, 60000), ("i16", I16, -300), ("u32", U32, 1 << 31),
               ("i32", I32, -1), ("f32", F32, 0.5), ("bool", BOOL, True), ("str", STRING, "h\u00e9llo"),
               ("u64", U64, 1 << 63), ("i64", I64, -(1 << 62)), ("f64", F64, 1e-300),
               ("arr.u8", ARRAY, (U8, [1, 2, 3])), ("arr.bool", ARRAY, (BOOL, [True, False])),
               ("arr.str", ARRAY, (STRING, ["a", "", "b c"])), ("arr.f64", ARRAY, (F64, [0.25])),
               ("arr.empty", ARRAY, (I32, [])),
               ("arr.nested", ARRAY, (ARRAY, [(U16, [7]), (STRING, ["x"]), (ARRAY, [(F32, [1.0])])]))]

# ---- Valid
files["valid-empty"] = gguf()
files["valid-v2"] = gguf([("general.architecture", STRING, "llama")], version=2)
files["valid-every-value-type"] = gguf(every_value)
for t in (0, 1, 30, 8, 2, 12, 14):
    name = GGML[t][0]
    row = 256 if t in (12, 14) else 64
    files["valid-" + name.lower()] = gguf([("general.architecture", STRING, "test")],
                                          [("w." + name.lower(), [row, 2], t, None)])
files["valid-llama-like"] = gguf(
    [("general.architecture", STRING, "llama"), ("llama.block_count", U32, 1), ("llama.embedding_length", U32, 256),
     ("llama.attention.layer_norm_rms_epsilon", F32, 1e-5), ("tokenizer.ggml.model", STRING, "gpt2"),
     ("tokenizer.ggml.tokens", ARRAY, (STRING, ["a", "b", "ab", "<s>"])),
     ("tokenizer.ggml.merges", ARRAY, (STRING, ["a b"])), ("tokenizer.ggml.token_type", ARRAY, (I32, [1, 1, 1, 3])),
     ("general.quantization_version", U32, 2), ("general.file_type", U32, 15)],
    [("token_embd.weight", [256, 4], 14, None), ("output_norm.weight", [256], 0, None),
     ("blk.0.attn_q.weight", [256, 2], 12, None), ("blk.0.ffn_down.weight", [256, 1], 14, None)])
files["valid-alignment-64"] = gguf([("general.alignment", U32, 64)], [("a", [32], 8, None), ("b", [3], 0, None)],
                                   alignment=64)
files["valid-alignment-8"] = gguf([("general.alignment", U32, 8)], [("a", [3], 0, None), ("b", [5], 1, None)],
                                  alignment=8)
files["valid-alignment-1"] = gguf([("general.alignment", U32, 1)], [("a", [3], 1, None), ("b", [32], 2, None)],
                                  alignment=1)
files["valid-unsupported-type"] = gguf([], [("q5", [256], 13, None)])
files["valid-empty-and-scalar"] = gguf([], [("e", [64, 0], 0, b""), ("s", [], 0, struct.pack("<f", 3.0))])
files["valid-unordered-offsets"] = gguf([], [("late", [8], 0, None), ("early", [8], 0, None)], layout=[32, 0])
files["valid-trailing-bytes"] = gguf([("k", U8, 1)], [("t", [4], 0, None)], trailing=b"extra bytes")
files["valid-name-64-bytes"] = gguf([], [("n" * 64, [2], 0, None)])
files["valid-tokens-vocab"] = gguf([("tokenizer.ggml.tokens", ARRAY, (STRING, ["t%d" % i for i in range(300)]))])

# ---- Hostile
valid = files["valid-llama-like"]
files["truncated-header"] = valid[:20]
files["truncated-in-metadata"] = valid[:300]
files["truncated-in-tensor-infos"] = valid[:valid.index(b"blk.0.attn_q") + 5]
files["truncated-in-data"] = valid[:len(valid) - 100]
files["bad-magic"] = b"GGUG" + valid[4:200]
files["version-1"] = b"GGUF" + u32(1) + valid[8:300]
files["version-4"] = b"GGUF" + u32(4) + valid[8:300]
files["big-endian"] = b"GGUF" + struct.pack(">I", 3) + struct.pack(">Q", 0) + struct.pack(">Q", 1) + \
    struct.pack(">Q", 1) + b"k" + struct.pack(">I", 0) + b"\x01"
files["lying-kv-count"] = b"GGUF" + u32(3) + u64(0) + u64(1 << 40) + kv("k", U8, 1)
files["lying-tensor-count"] = b"GGUF" + u32(3) + u64(1 << 50) + u64(0) + b"\0" * 64
files["lying-array-count"] = gguf([("k", ARRAY, (U32, [1, 2]))])[:24] + string("k") + u32(ARRAY) + u32(U32) + \
    u64(1 << 61) + u32(1)
files["key-length-2p60"] = b"GGUF" + u32(3) + u64(0) + u64(1) + u64(1 << 60) + b"key" + b"\0" * 16
files["value-length-2p60"] = b"GGUF" + u32(3) + u64(0) + u64(1) + string("general.name") + u32(STRING) + \
    u64(1 << 60) + b"name"
files["tensor-name-length-2p60"] = b"GGUF" + u32(3) + u64(1) + u64(0) + u64(1 << 60) + b"\0" * 40
files["unknown-value-type"] = b"GGUF" + u32(3) + u64(0) + u64(1) + string("k") + u32(13) + b"\0" * 8
files["unknown-array-type"] = b"GGUF" + u32(3) + u64(0) + u64(1) + string("k") + u32(ARRAY) + u32(77) + u64(1) + \
    b"\0" * 8
files["bool-2"] = b"GGUF" + u32(3) + u64(0) + u64(1) + string("flag") + u32(BOOL) + b"\x02"
files["duplicate-key"] = gguf([("k", U8, 1), ("k", U8, 2)])
files["empty-key"] = gguf([("", U8, 1)])
files["duplicate-tensor"] = gguf([], [("t", [4], 0, None), ("t", [4], 0, None)])
files["long-tensor-name"] = gguf([], [("n" * 65, [2], 0, None)])
deep = (U8, [])
for _ in range(10):
    deep = (ARRAY, [deep])
files["deep-nesting"] = gguf([("deep", ARRAY, deep)])
files["five-dims"] = gguf([], [("t", [1, 1, 1, 1, 1], 0, b"\0" * 4)])
files["dims-overflow"] = gguf([], [("t", [1 << 32, 1 << 32], 0, b"")])
files["dim-2p63"] = gguf([], [("t", [1 << 63], 0, b"")])
files["bytes-overflow"] = gguf([], [("t", [1 << 62], 27, b"")])
files["unknown-ggml-type"] = gguf([], [("t", [32], 99, b"\0" * 32)])
files["removed-ggml-type"] = gguf([], [("t", [32], 4, b"\0" * 32)])
files["row-splits-block"] = gguf([], [("t", [100, 2], 12, b"\0" * 144)])
files["misaligned-offset"] = gguf([], [("a", [8], 0, None), ("b", [8], 0, None)], layout=[0, 16])
files["overlapping-offsets"] = gguf([], [("a", [16], 0, None), ("b", [16], 0, None)], layout=[0, 32])
files["same-offsets"] = gguf([], [("a", [8], 0, None), ("b", [8], 0, None)], layout=[0, 0])
files["tensor-past-end"] = gguf([], [("a", [8], 0, None)], layout=[1 << 40])
files["tensor-offset-wraps"] = gguf([], [("a", [8], 0, None)], layout=[(1 << 64) - 32])
files["alignment-u64"] = gguf([("general.alignment", U64, 32)])
files["alignment-zero"] = gguf([("general.alignment", U32, 0)])
files["alignment-48"] = gguf([("general.alignment", U32, 48)])

os.makedirs(CORPUS, exist_ok=True)
for f in os.listdir(CORPUS):
    if not f.startswith(("fuzzed-", "regression-")):
        os.remove(os.path.join(CORPUS, f))
for name, data in files.items():
    assert len(data) <= 4096, (name, len(data))
    with open(os.path.join(CORPUS, name + ".gguf"), "wb") as out:
        out.write(data)
print("wrote %d files to %s" % (len(files), CORPUS))
