// Graphs from JSON, for graphs written by other front ends (and by hand). Nodes name their inputs
// by id, so a file can describe what the builder API cannot: a cycle, a reference to a node that
// does not exist, an op halogen does not know. Each is a GraphError naming the node; shapes and
// dtypes are then checked by the builders, with their usual typed errors.
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
