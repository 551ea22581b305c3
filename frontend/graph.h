// A graph in the order it runs: every node reachable from the outputs, producers before consumers.
// This is the form the interpreter, the grouping pass and the lowering read.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "frontend/dtype.h"
#include "frontend/node.h"

namespace halogen {

class Graph {
public:
    // Collects the nodes the outputs depend on. Two different inputs with one name are a GraphError.
    explicit Graph(std::vector<Tensor> outputs);

    const std::vector<const Node *> &nodes() const { return nodes_; }
    const std::vector<Tensor> &outputs() const { return outputs_; }
    const std::vector<const Node *> &inputs() const { return inputs_; }   // sorted by name
    std::set<std::string> symbols() const;                                // every symbolic dim used

    // Checks that `b` binds every symbolic dim to a value that makes every node's shape valid
    // (extents >= 0, slices inside their input); BindingError naming the op otherwise.
    void check_bindings(const Bindings &b) const;

private:
    std::vector<Tensor> outputs_;
    std::vector<const Node *> nodes_;
    std::vector<const Node *> inputs_;
};

// Checks that a caller's buffer (`dtype`, `shape`) fits `node` (a graph input or output) under
// `b`; BufferError naming `role` ("input 'ids'", "output") and both shapes otherwise.
void check_buffer(const Node &node, const std::string &role, DType dtype, const std::vector<int64_t> &shape,
                  const Bindings &b);

}  // namespace halogen
