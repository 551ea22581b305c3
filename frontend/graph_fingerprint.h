// A graph's fingerprint: a canonical text that holds everything a node of the graph is (its op,
// dtype, shape, inputs, name, attributes and whether it is materialized), nodes in the graph's
// order with their inputs as positions in it, and the outputs. Two graphs have the same
// fingerprint exactly when they are the same computation on inputs of the same names: the node
// ids the builders hand out (a process-wide counter) are left out. The compile cache keys
// compiled kernels on it (halide_gen/compiler/compile_cache.h).
#pragma once

#include <string>

#include "frontend/graph.h"

namespace halogen {

std::string graph_fingerprint(const Graph &g);

}  // namespace halogen
