// Lowering: a graph with one output becomes one Halide pipeline. Every node is a Func over pure
// Vars (halogen axis k is Halide dimension rank-1-k, so the last axis is innermost); elementwise
// and view nodes are pure definitions, reductions are an init plus an update over an RDom (a
// float32 reduce_max accumulates int32 keys, so that a NaN propagates under Halide's fast-math, and
// a second update turns them back into the floats' bits: its Func is the only one whose type is not
// its node's, int32, and its readers in the pipeline reinterpret it).
// A node whose value is a constant Inf or NaN when lowering is defined as that constant, and its
// readers are compiled without fast-math (strict_float), which LLVM would otherwise fold to poison.
// Graph inputs become ImageParams and symbolic dims int32 Params. When the output node is a
// reduction, the pipeline's output is a pure copy of it, so no accumulator lives in caller memory.
// Nothing is scheduled here:
// every pure Func is inlined into its consumer by Halide's default, so index_components and views
// stay plain expressions of the loop variables. Schedules decide how the pipeline runs.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <Halide.h>

#include "frontend/graph.h"
#include "frontend/grouping/group.h"

namespace halogen {

struct LoweredGraph {
    Graph graph;                                             // the graph, producers first
    Group group;                                             // the nodes this pipeline computes
    const Node *output = nullptr;                            // the group's anchor
    Halide::Func out;                                        // the pipeline's output Func, always pure
    std::unordered_map<const Node *, Halide::Func> funcs;   // one Func per node
    std::map<std::string, Halide::ImageParam> inputs;       // buffers read, by buffer_name()
    std::map<std::string, Halide::Param<int32_t>> dims;     // symbolic dims, by name
    std::map<std::string, Halide::Expr> symbols;            // symbolic dims: the caller's expressions, or the Params read
    std::vector<Halide::Var> vars;                          // vars[k] iterates halogen axis k
    std::map<std::string, Halide::ImageParam> prefetchable; // ExternalInputs::prefetchable
    std::string who;                                        // the recipe, for messages

    // The pipeline's arguments in a stable order: inputs by name, then symbolic dims by name.
    std::vector<Halide::Argument> arguments() const;
    // The Func of the node named `name` (named(), frontend/primitives.h), or of the graph input
    // `name`, in this group: how a hand schedule finds what it schedules. A ScheduleError naming
    // the name and `who` when the group has none.
    Halide::Func func(const std::string &name) const;
    bool has_func(const std::string &name) const;
    // A dim of the graph (an axis's extent) as an expression of the symbolic dims, for a schedule
    // that specializes on it; GraphError for a symbol the group never reads.
    Halide::Expr extent(const Dim &d) const;
};

// What a Halide Generator supplies instead of ImageParams and Params: a Func per buffer read (by
// buffer_name()) and an expression per symbolic dim (e.g. an input buffer's extent).
struct ExternalInputs {
    std::map<std::string, Halide::Func> buffers;
    std::map<std::string, Halide::Expr> dims;
    // The generator's ImageParams behind `buffers`, by name, for a schedule that prefetches an
    // input. Given only for a streamed twin, whose compiled prefetches are made to fill the L2
    // (halide_gen/compiler/streaming_stores.h); Halide 14's own hint skips it. Empty: no prefetching.
    std::map<std::string, Halide::ImageParam> prefetchable;
};

// Lowers one group of `g` (see frontend/grouping): its members become Funcs, the buffers it reads
// become ImageParams (or the given external Funcs), its anchor is the pipeline's output.
LoweredGraph lower(const Graph &g, const Group &group, const ExternalInputs *external = nullptr);

// Lowers all of `g` as one pipeline: `g` must have exactly one output (GraphError otherwise), every
// non-input node is a member, and Halide places the reductions (no compute levels are set).
LoweredGraph lower(const Graph &g);
Group whole_graph_group(const Graph &g);

// The name of the buffer holding node n's values: a graph input's own name, "buf_<op>_<id>" else.
std::string buffer_name(const Node &n);

}  // namespace halogen
