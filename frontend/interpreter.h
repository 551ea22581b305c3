// The reference interpreter: evaluates a graph op by op on host arrays, without Halide, following
// the C-like meaning in ops.h. It is slow on purpose (one element at a time, every node
// materialized) and is the ground truth every kernel in the project is tested against.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "frontend/array.h"
#include "frontend/graph.h"

namespace halogen {

using Inputs = std::map<std::string, Array>;

// Evaluates every output of `g`. Raises BufferError for a missing input or one whose dtype or
// shape does not match its node, BindingError for unbound or invalid symbolic dims.
std::vector<Array> interpret(const Graph &g, const Inputs &inputs, const Bindings &bindings = {});
Array interpret(const Tensor &out, const Inputs &inputs, const Bindings &bindings = {});

// One element of an elementwise node (unary, binary or where, ops.h) from its operands' values,
// as the interpreter computes it. Lowering folds nodes whose operands are all constants with it.
double elementwise_value(const Node &n, const std::vector<double> &operands);

}  // namespace halogen
