// The graph families halogen compares and ships as AOT kernels, built with the nn layer. Every
// extent is a symbolic dim that is read off the input buffers at run time, so one kernel serves
// every shape. Leading axes a family does not care about are collapsed by the caller into one
// (as Halide's hannk app does with buffer descriptors): LayerNorm on 8x512x4096 runs as [4096, 4096].
#pragma once

#include <map>
#include <string>
#include <vector>

#include "frontend/graph.h"

namespace halogen {

struct DimSource {
    std::string input;     // the input buffer whose extent gives the dim
    int axis;              // the axis (halogen order: 0 outermost)
};

struct Family {
    std::string name;                          // "embedding", "layernorm", ..., "conv2d"
    Graph graph;                               // one output
    std::vector<std::string> inputs;           // input names, in the kernel's argument order
    std::map<std::string, DimSource> dims;     // every symbolic dim, and where it comes from
    std::string contract;                      // one line: input and output shapes
};

// Known family names: embedding, layernorm, rmsnorm, batchnorm, groupnorm, conv1d, conv2d, conv3d.
const std::vector<std::string> &family_names();
// The family's graph; Error for an unknown name.
Family make_family(const std::string &name);

// A conv family of one exact geometry, every extent constant: x [N, C, L1..Ln], `kernel` [K, R1..Rn],
// the same `stride` and `pad` on every spatial axis (ShapeError if they do not fit). For JIT use
// (FamilyKernel) where the shipped kernels' geometry -- 3-wide windows, stride 1, pad 1 -- does not.
Family make_conv_family(const std::vector<int64_t> &x, const std::vector<int64_t> &kernel, int64_t stride, int64_t pad);

// The bindings of a family's symbolic dims for the given input shapes (BufferError when a shape
// is missing or has the wrong rank).
Bindings bind_family(const Family &f, const std::map<std::string, std::vector<int64_t>> &input_shapes);

}  // namespace halogen
