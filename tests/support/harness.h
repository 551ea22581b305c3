// Test support: random inputs for a graph, running a graph through lowering + a schedule + the
// JIT on exact-size, misaligned caller buffers (guarded against writes past the end), and
// comparing arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "frontend/halogen.h"

namespace halogen {
class Program;
}

namespace halogen::testing {

// Random values for every input of `g`. Float inputs whose name starts with "pos" are in
// [0.25, 4) (for sqrt, log2, recip); other floats in [-3, 3); int32 in [-20, 20]; bools 0/1.
Inputs random_inputs(const Graph &g, const Bindings &b, uint32_t seed);
// The same, each input in the shape `shapes` gives it (a caller's layout of a family's input); an
// input `shapes` leaves out is left out (a parameter the contract gives a default, eps).
Inputs random_inputs_shaped(const Graph &g, const std::map<std::string, std::vector<int64_t>> &shapes, uint32_t seed);

// `out` compiled once as a Program (grouped, one kernel per group, `schedule` applied). run() executes it on caller
// buffers of exactly the graph's shapes, placed at addresses that are element-aligned but not
// vector-aligned, and fails the test if the kernel writes past the end of its output.
class CompiledGraph {
public:
    CompiledGraph(const Tensor &out, const std::string &schedule);
    ~CompiledGraph();
    Array run(const Inputs &inputs, const Bindings &b = {});
    const Program &program() const { return *program_; }

private:
    Tensor out_;
    std::unique_ptr<Program> program_;
};

// Elementwise |want - got| <= atol + rtol * |want|; NaN matches NaN, inf matches the same inf.
::testing::AssertionResult arrays_near(const Array &want, const Array &got, double atol = 0, double rtol = 0);

}  // namespace halogen::testing
