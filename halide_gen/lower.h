// Lowering: a graph with one output becomes one Halide pipeline. Every node is a Func over pure
// Vars (halogen axis k is Halide dimension rank-1-k, so the last axis is innermost); elementwise
// and view nodes are pure definitions, reductions are an init plus an update over an RDom.
// Graph inputs become ImageParams and symbolic dims int32 Params. When the output node is a
// reduction, the pipeline's output is a pure copy of it, so no accumulator lives in caller memory.
// Nothing is scheduled here:
// every pure Func is inlined into its consumer by Halide's default, so index_components and views
// stay plain expressions of the loop variables. schedules/ decides how the pipeline runs.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <Halide.h>

#include "frontend/graph.h"

namespace halogen {

struct LoweredGraph {
    Graph graph;                                             // the graph, producers first
    const Node *output = nullptr;
    Halide::Func out;                                        // the pipeline's output Func, always pure
    std::unordered_map<const Node *, Halide::Func> funcs;   // one Func per node
    std::map<std::string, Halide::ImageParam> inputs;       // graph inputs, by name
    std::map<std::string, Halide::Param<int32_t>> dims;     // symbolic dims, by name
    std::vector<Halide::Var> vars;                          // vars[k] iterates halogen axis k

    // The pipeline's arguments in a stable order: inputs by name, then symbolic dims by name.
    std::vector<Halide::Argument> arguments() const;
};

// Lowers `g`, which must have exactly one output (GraphError otherwise).
LoweredGraph lower(const Graph &g);

}  // namespace halogen
