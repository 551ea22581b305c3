#!/usr/bin/python3
# Writes the seed corpus of the JSON graph fuzz target into tests/graph_json_fuzz/corpus/: valid
# graphs using every op and attribute of formats/graph_json.h, and malformed ones (the crashes of
# issue 25, wrong JSON types, missing and unknown fields, every op's wrong arity, bad ids, cycles,
# numbers beyond int32 and int64, extents whose products overflow, bad names and dtypes).
# Run from anywhere: python3 tests/graph_json_fuzz/make_corpus.py
# Files named fuzzed-* (inputs the fuzzer found that add coverage, merged in with --merge) and
# regression-* (inputs that once crashed) are kept by this script.
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def inp(i, shape, dtype="float32", name=None):
    return {"id": i, "op": "input", "name": "x%d" % i if name is None else name, "dtype": dtype, "shape": shape}


def node(i, op, inputs=None, **attrs):
    n = {"id": i, "op": op}
    if inputs is not None:
        n["inputs"] = inputs
    n.update(attrs)
    return n


def graph(nodes, outputs):
    return {"nodes": nodes, "outputs": outputs}


files = {}

def put(name, doc):
    files[name] = json.dumps(doc, separators=(",", ":")) if not isinstance(doc, (str, bytes)) else doc


X = inp(0, ["N", 4])
XI = inp(0, ["N", 4], "int32")
XB = inp(0, ["N", 4], "bool")

# ---- Valid: each op once, on symbolic and constant shapes.
put("valid-layer-norm", json.load(open(os.path.join(HERE, "..", "..", "examples", "layer_norm.json"))))
unary = ["neg", "recip", "sqrt", "exp2", "log2", "sin", "exp", "log"]
put("valid-unary-chain", graph([X] + [node(k + 1, op, [k]) for k, op in enumerate(unary)], [len(unary)]))
put("valid-unary-not", graph([XB, node(1, "not", [0])], [1]))
float_binary = ["add", "mul", "max", "sub", "div", "lt", "ne", "eq", "le", "gt", "ge"]
put("valid-binary-float", graph([X, inp(1, [4])] + [node(k + 2, op, [0, 1]) for k, op in enumerate(float_binary)],
                                list(range(2, 2 + len(float_binary)))))
int_binary = ["idiv", "mod", "and", "or", "xor"]
put("valid-binary-int", graph([XI, inp(1, ["N", 1], "int32")] + [node(k + 2, op, [0, 1]) for k, op in enumerate(int_binary)],
                              list(range(2, 2 + len(int_binary)))))
put("valid-where", graph([XB, inp(1, [4]), inp(2, ["N", 1]), node(3, "where", [0, 1, 2])], [3]))
put("valid-matmul", graph([inp(0, ["B", "M", 8]), inp(1, [8, 5]), node(2, "matmul", [0, 1])], [2]))
put("valid-cast", graph([X, node(1, "cast", [0], dtype="int32"), node(2, "cast", [1], dtype="bool")], [2]))
put("valid-consts", graph([node(0, "const", dtype="float32", value=2.5), node(1, "const", dtype="int32", value=-7),
                           node(2, "const", dtype="bool", value=True), node(3, "const", dtype="int32", value=3.0),
                           node(4, "cast", [2], dtype="int32"), node(5, "add", [1, 4])], [0, 5]))
put("valid-reduce-sum", graph([X, node(1, "reduce_sum", [0], axes=[1]), node(2, "sub", [0, 1])], [2]))
put("valid-reduce-max-negative-axis", graph([X, node(1, "reduce_max", [0], axes=[-1])], [1]))
put("valid-sum-both-axes", graph([X, node(1, "sum", [0], axes=[0, 1])], [1]))
put("valid-permute", graph([inp(0, ["N", 3, 4]), node(1, "permute", [0], axes=[2, 0, 1])], [1]))
put("valid-reshape", graph([inp(0, [6, 4]), node(1, "reshape", [0], shape=[2, 3, 4]), node(2, "neg", [1])], [2]))
put("valid-reshape-symbolic", graph([inp(0, ["B", "S", 4]), node(1, "reshape", [0], shape=["B", "S", 2, 2])], [1]))
put("valid-expand", graph([inp(0, [1, 4]), node(1, "expand", [0], shape=[3, "N", 4])], [1]))
put("valid-slice", graph([inp(0, [10, 4]), node(1, "slice", [0], axis=0, start=1, stop=9, step=3)], [1]))
put("valid-slice-symbolic-axis", graph([X, node(1, "slice", [0], axis=-1, start=0, stop=2)], [1]))
put("valid-pad", graph([X, node(1, "pad", [0], lo=[0, 1], hi=[2, 0], value=-1.5)], [1]))
put("valid-pad-int", graph([XI, node(1, "pad", [0], lo=[1, 1], hi=[1, 1], value=7)], [1]))
put("valid-window", graph([inp(0, [2, 20]), node(1, "window", [0], axis=1, size=3, stride=2, dilation=2)], [1]))
put("valid-index-components", graph([node(0, "index_components", shape=[3, "V"]), node(1, "const", dtype="int32", value=2),
                                     node(2, "eq", [0, 1])], [2]))
put("valid-one-hot", graph([inp(0, ["T", 1], "int32"), inp(1, [30, 7]), node(2, "index_components", shape=[1, 30]),
                            node(3, "eq", [2, 0]), node(4, "reshape", [3], shape=["T", 30, 1]),
                            node(5, "const", dtype="float32", value=0), node(6, "where", [4, 1, 5]),
                            node(7, "sum", [6], axes=[1])], [7]))
put("valid-two-outputs-same", graph([X, node(1, "exp", [0])], [1, 1, 0]))
put("valid-unreachable-node", graph([X, node(1, "neg", [0]), node(2, "sin", [0])], [1]))
put("valid-ids-out-of-order", graph([node(9, "neg", [3]), inp(3, [2]), node(5, "add", [9, 3])], [5]))
put("valid-leaf-with-empty-inputs", graph([node(0, "input", [], name="x", dtype="float32", shape=[2])], [0]))
put("valid-zero-extent", graph([inp(0, [0, 1099511627776, 4]), node(1, "neg", [0])], [1]))
put("extent-zero-then-overflow", graph([inp(0, [0, 1099511627776, 1099511627776]), node(1, "neg", [0])], [1]))
put("valid-big-but-fits", graph([inp(0, [1099511627776, 4194304]), node(1, "neg", [0])], [1]))
put("valid-symbol-like-isl", graph([inp(0, ["o0", 4]), node(1, "reduce_sum", [0], axes=[1]), node(2, "add", [0, 1])], [2]))
put("valid-symbol-keyword", graph([inp(0, ["and", "mod"]), node(1, "neg", [0])], [1]))
put("valid-extra-top-level", {"nodes": [X, node(1, "neg", [0])], "outputs": [1], "bindings": {"N": 3}, "seed": 5})

# ---- The crashes of issue 25 and its other bullets.
put("crash-add-one-input", graph([X, node(1, "add", [0])], [1]))
put("crash-where-two-inputs", graph([XB, node(1, "where", [0, 0])], [1]))
put("crash-neg-no-inputs", graph([X, node(1, "neg")], [1]))
put("missing-key-axes", graph([X, node(1, "sum", [0])], [1]))
put("axis-99999999999", graph([inp(0, [3, 4]), node(1, "sum", [0], axes=[99999999999])], [1]))
put("extent-2pow40-squared", graph([inp(0, [1099511627776, 1099511627776]), node(1, "neg", [0])], [1]))

# ---- Every op's arity wrong (one input too many, and none).
for op, k in [("neg", 1), ("add", 2), ("where", 3), ("matmul", 2), ("cast", 1), ("sum", 1), ("pad", 1)]:
    attrs = {"dtype": "int32"} if op == "cast" else {"axes": [0]} if op == "sum" else {"lo": [0, 0], "hi": [0, 0]} if op == "pad" else {}
    put("arity-%s-%d" % (op, k + 1), graph([X, node(1, op, [0] * (k + 1), **attrs)], [1]))
    put("arity-%s-0" % op, graph([X, node(1, op, [])], [1]))
put("arity-input-with-input", graph([X, node(1, "input", [0], name="y", dtype="float32", shape=[1])], [1]))
put("arity-const-with-input", graph([X, node(1, "const", [0], dtype="float32", value=1)], [1]))

# ---- Wrong JSON types and values.
put("type-inputs-string", graph([X, node(1, "neg", "0")], [1]))
put("type-input-id-string", graph([X, node(1, "neg", ["0"])], [1]))
put("type-input-id-float", graph([X, node(1, "neg", [0.0])], [1]))
put("type-axes-float", graph([X, node(1, "sum", [0], axes=[1.5])], [1]))
put("type-axes-not-array", graph([X, node(1, "sum", [0], axes=1)], [1]))
put("type-shape-float", graph([inp(0, [2.0, 4])], [0]))
put("type-shape-nested", graph([inp(0, [[2], 4])], [0]))
put("type-shape-null", graph([inp(0, None)], [0]))
put("type-slice-start-string", graph([X, node(1, "slice", [0], axis=0, start="1", stop=2)], [1]))
put("type-step-zero", graph([X, node(1, "slice", [0], axis=1, start=0, stop=2, step=0)], [1]))
put("type-window-size-negative", graph([X, node(1, "window", [0], axis=1, size=-2)], [1]))
put("type-pad-negative", graph([X, node(1, "pad", [0], lo=[0, -1], hi=[0, 0])], [1]))
put("type-pad-value-string", graph([X, node(1, "pad", [0], lo=[0, 1], hi=[0, 0], value="0")], [1]))
put("type-pad-int-value-fraction", graph([XI, node(1, "pad", [0], lo=[0, 1], hi=[0, 0], value=0.5)], [1]))
put("type-const-int-fraction", graph([node(0, "const", dtype="int32", value=2.5)], [0]))
put("type-const-int-huge", graph([node(0, "const", dtype="int32", value=3000000000)], [0]))
put("type-const-float-huge", graph([node(0, "const", dtype="float32", value=1e300)], [0]))
put("type-const-bool-two", graph([node(0, "const", dtype="bool", value=2)], [0]))
put("type-const-value-missing", graph([node(0, "const", dtype="float32")], [0]))
put("type-op-number", graph([X, {"id": 1, "op": 7, "inputs": [0]}], [1]))
put("type-op-missing", graph([X, {"id": 1, "inputs": [0]}], [1]))
put("type-node-not-object", graph([X, 5], [0]))
put("type-nodes-object", {"nodes": {"id": 0}, "outputs": [0]})
put("type-outputs-number", {"nodes": [X], "outputs": 0})
put("type-doc-array", [X])
put("type-doc-string", '"nodes"')
put("dtype-unknown", graph([inp(0, [2], "float64")], [0]))
put("dtype-number", graph([inp(0, [2], 3)], [0]))
put("dtype-cast-unknown", graph([X, node(1, "cast", [0], dtype="half")], [1]))
put("name-empty", graph([inp(0, [2], name="")], [0]))
put("name-newline", graph([inp(0, [2], name="x\ny")], [0]))
put("name-duplicate", graph([inp(0, [2], name="x"), inp(1, [2], name="x"), node(2, "add", [0, 1])], [2]))
put("symbol-empty", graph([inp(0, ["", 4])], [0]))
put("symbol-spaces", graph([inp(0, ["N M", 4])], [0]))
put("symbol-product", graph([inp(0, ["B*S", 4])], [0]))
put("symbol-isl-text", graph([inp(0, ["N] -> { x }", 4])], [0]))
put("unknown-field", graph([X, node(1, "neg", [0], axes=[0])], [1]))
put("unknown-op", graph([X, node(1, "as_strided", [0], strides=[1, 3])], [1]))

# ---- Ids, references and outputs.
put("id-negative", graph([inp(-1, [2])], [0]))
put("id-duplicate", graph([X, node(0, "neg", [0])], [0]))
put("id-2pow63", graph([inp(9223372036854775808, [2])], [0]))
put("id-int64-max", graph([inp(9223372036854775807, [2])], [9223372036854775807]))
put("id-float", graph([inp(1.0, [2])], [1]))
put("id-missing", graph([{"op": "input", "name": "x", "dtype": "float32", "shape": [2]}], [0]))
put("dangling-input", graph([X, node(1, "mul", [0, 7])], [1]))
put("cycle", graph([inp(0, [3]), node(1, "add", [0, 2]), node(2, "neg", [1])], [2]))
put("cycle-self", graph([node(0, "neg", [0])], [0]))
put("outputs-missing", {"nodes": [X]})
put("outputs-empty", graph([X], []))
put("outputs-dangling", graph([X], [3]))
put("outputs-negative", graph([X], [-1]))
put("nodes-empty", graph([], [0]))
put("chain-100", graph([X] + [node(i, "neg", [i - 1]) for i in range(1, 101)], [100]))

# ---- Numbers at the edges: int32, int64, overflowing products and sums.
put("axis-2pow31", graph([X, node(1, "reduce_sum", [0], axes=[2147483648])], [1]))
put("axis-minus-2pow31", graph([X, node(1, "reduce_sum", [0], axes=[-2147483648])], [1]))
put("permute-huge", graph([X, node(1, "permute", [0], axes=[1, 4294967296])], [1]))
put("slice-axis-huge", graph([X, node(1, "slice", [0], axis=99999999999, start=0, stop=1)], [1]))
put("slice-step-int64-max", graph([inp(0, [10]), node(1, "slice", [0], axis=0, start=0, stop=10, step=9223372036854775807)], [1]))
put("slice-stop-past-end", graph([inp(0, [10]), node(1, "slice", [0], axis=0, start=0, stop=11)], [1]))
put("window-dilation-overflow", graph([inp(0, [4, 8]), node(1, "window", [0], axis=1, size=3, dilation=4611686018427387904)], [1]))
put("window-stride-huge", graph([inp(0, [4, 8]), node(1, "window", [0], axis=1, size=1, stride=1099511627776),
                                 node(2, "slice", [1], axis=0, start=0, stop=4, step=1099511627776), node(3, "neg", [2])], [3]))
put("pad-width-overflow", graph([inp(0, [4, 8]), node(1, "pad", [0], lo=[9223372036854775807, 0], hi=[9223372036854775807, 0])], [1]))
put("pad-int-value-huge", graph([XI, node(1, "pad", [0], lo=[0, 1], hi=[0, 0], value=1e300)], [1]))
put("extent-int64-max", graph([inp(0, [9223372036854775807]), node(1, "neg", [0])], [1]))
put("extent-uint64-max", graph([inp(0, [18446744073709551615])], [0]))
put("extent-negative", graph([inp(0, [-3])], [0]))
put("extent-1e30", graph([inp(0, [1e30])], [0]))
put("extent-product-2pow62-times-4", graph([inp(0, [4611686018427387904, 4]), node(1, "neg", [0])], [1]))
put("extent-pad-makes-overflow", graph([inp(0, [9223372036854775807]), node(1, "pad", [0], lo=[1], hi=[0])], [1]))
put("matmul-product-overflows", graph([inp(0, [2147483648, 2147483648]), inp(1, [2147483648, 2147483648]),
                                       node(2, "matmul", [0, 1])], [2]))
put("reshape-numel-overflow", graph([inp(0, [4294967296, 4294967296])], [0]))
put("rank-65", graph([inp(0, [1] * 65)], [0]))
put("rank-64", graph([inp(0, [1] * 64), node(1, "neg", [0])], [1]))
put("symbolic-polynomial", graph([inp(0, ["A", "B", "C", "D"]), node(1, "pad", [0], lo=[1, 1, 1, 1], hi=[0, 0, 0, 0]),
                                  node(2, "reshape", [1], shape=["A", "B", "C", "D"])], [2]))

# ---- Builder errors that must keep their type.
put("broadcast-mismatch", graph([inp(0, [3, 4]), inp(1, [5]), node(2, "add", [0, 1])], [2]))
put("dtype-mismatch", graph([X, XI | {"id": 1, "name": "i"}, node(2, "add", [0, 1])], [2]))
put("where-cond-float", graph([X, node(1, "where", [0, 0, 0])], [1]))
put("reshape-wrong-count", graph([X, node(1, "reshape", [0], shape=[5])], [1]))
put("permute-not-permutation", graph([X, node(1, "permute", [0], axes=[0, 0])], [1]))
put("expand-bad", graph([X, node(1, "expand", [0], shape=[3, 5])], [1]))
put("pad-wrong-count", graph([X, node(1, "pad", [0], lo=[1], hi=[1])], [1]))
put("window-too-large", graph([X, node(1, "window", [0], axis=1, size=9)], [1]))
put("reduce-bool", graph([XB, node(1, "sum", [0], axes=[0])], [1]))
put("sum-axis-repeated", graph([X, node(1, "sum", [0], axes=[1, -1])], [1]))

# ---- Not JSON.
put("json-truncated", '{"nodes": [ {"id": 0, ')
put("json-empty", "")
put("json-nan", '{"nodes":[{"id":0,"op":"const","dtype":"float32","value":NaN}],"outputs":[0]}')
put("json-bad-utf8", b'{"nodes":[{"id":0,"op":"input","name":"\xff","dtype":"float32","shape":[2]}],"outputs":[0]}')
put("json-deep-nesting", "[" * 1000 + "]" * 1000)
put("json-trailing", '{"nodes":[],"outputs":[0]} x')
put("json-duplicate-key", '{"nodes":[{"id":0,"id":1,"op":"input","name":"x","dtype":"float32","shape":[2]}],"outputs":[1]}')

os.makedirs(CORPUS, exist_ok=True)
for old in os.listdir(CORPUS):
    if not old.startswith(("fuzzed-", "regression-")):
        os.remove(os.path.join(CORPUS, old))
for name, data in sorted(files.items()):
    with open(os.path.join(CORPUS, name + ".json"), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))
print(f"wrote {len(files)} files to {CORPUS}")
