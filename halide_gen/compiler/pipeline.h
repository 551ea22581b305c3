// A graph as one Halide pipeline, made by a recipe (recipe.h): prepared, cut into groups, each
// group lowered with the buffers it reads as inputs (graph inputs, or earlier groups' Funcs),
// scheduled, and every group that is not a graph output computed at root -- its own loop nest,
// i.e. its own kernel. The JIT (program.h) and the AOT generators (schedules/aot/) build with it.
//
// Buffer contract of every input and output: mins at 0, dense row-major strides, extents as the
// graph's shapes say. A symbolic dim is read off the extent of the first input (by name) that has
// it as an axis of its own; a dim no input holds that way is a scalar argument.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <Halide.h>

#include "frontend/grouping/group.h"
#include "halide_gen/compiler/recipe.h"

namespace halogen {

struct PipelineInputs {
    std::map<std::string, Halide::ImageParam> buffers;   // every graph input, by name
    std::map<std::string, Halide::Expr> scalar_dims;     // the scalar_dims() of the graph
    bool prefetchable = false;   // a streamed twin: its schedule may prefetch the inputs
    Bindings estimates;          // typical extents of the symbolic dims (an autoscheduler's estimates)
};

struct Pipeline {
    Graph graph{std::vector<Tensor>{}};   // after the recipe's rewrite
    std::vector<Group> groups;            // one per kernel, producers first
    std::vector<LoweredGraph> lowered;    // one per group
    std::vector<Halide::Func> outputs;    // one per graph output (an output that is an input: a copy)
};

// The symbolic dims of `g` that no input holds as an axis of its own, sorted.
std::vector<std::string> scalar_dims(const Graph &g);

Pipeline build_pipeline(const Graph &g, const Recipe &recipe, const PipelineInputs &inputs, const Halide::Target &target);

}  // namespace halogen
