// Graphs from JSON, for graphs written by other front ends (and by hand). Nodes name their inputs
// by id, so a file can describe what the builder API cannot: a cycle, a reference to a node that
// does not exist, an op halogen does not know. Each is a GraphError naming the node; shapes and
// dtypes are then checked by the builders, with their usual typed errors.
//
// Every malformed file is one typed error (no other exception) whose message names the node by
// id and op and the field: "graph: node 3 (add): field 'inputs' must name 2 node(s), got 1", or
// for a builder's error, which keeps its type, "graph: node 3 (add), field 'inputs': add: cannot
// broadcast shapes [3, 4] and [5]". The reader is strict:
//   - ids are integers >= 0, each used once; "inputs" names exactly as many nodes as the op takes;
//   - integers are JSON integers (2.0 is not one) within their range: extents and slice bounds
//     0..2^63-1, axes int32, step/size/stride/dilation >= 1, pad widths >= 0; a const's or pad's
//     "value" must fit its dtype exactly (int32: an integer, bool: true, false, 0 or 1);
//   - names (an input's "name", a symbolic extent) are identifiers: a letter or '_', then letters,
//     digits or '_'; two inputs may not share a name;
//   - a node may hold only "id", "op", "inputs" and its op's attributes (a misspelt optional one
//     would otherwise be ignored); a key may not appear twice in one object; the document may hold
//     keys besides "nodes" and "outputs" (the graph fuzzer stores "bindings" and "seed");
//   - every node is built, read by an output or not; shapes have at most 64 axes, and the product
//     of a shape's non-zero extents must fit in int64 (a ShapeError otherwise, also for a shape a
//     builder makes on the way); the longest chain of inputs is at most 10000 nodes.
//
//   {"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": ["N", 4]},
//              {"id": 1, "op": "const", "dtype": "float32", "value": 2},
//              {"id": 2, "op": "mul", "inputs": [0, 1]},
//              {"id": 3, "op": "sum", "inputs": [2], "axes": [1]}],
//    "outputs": [3]}
//
// Ops: the primitives by their op_name() ("add", "max", "where", "reduce_sum", ...), "sum" (which
// drops the reduced axes), the derived binary ops ("sub", "div", "eq", "matmul", ...), the views with their attributes (reshape/expand: "shape"; permute:
// "axes"; slice: "axis", "start", "stop", "step"; pad: "lo", "hi", "value"; window: "axis",
// "size", "stride", "dilation"), "cast" with "dtype", "index_components" with "shape".
#pragma once

#include <string>

#include "frontend/graph.h"

namespace halogen {

Graph graph_from_json(const std::string &text);
Graph graph_from_json_file(const std::string &path);

}  // namespace halogen
