// Graph nodes and the Tensor handle. A graph is an immutable DAG of nodes built by the functions in
// primitives.h, views.h and derived.h; a Tensor is a shared handle to one node.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/dim.h"
#include "frontend/dtype.h"
#include "frontend/ops.h"

namespace halogen {

struct Node;

class Tensor {
public:
    Tensor() = default;
    explicit Tensor(std::shared_ptr<const Node> node) : node_(std::move(node)) {}

    bool defined() const { return node_ != nullptr; }
    const Node &node() const { return *node_; }
    const Node *get() const { return node_.get(); }
    DType dtype() const;
    const Shape &shape() const;
    int rank() const { return static_cast<int>(shape().size()); }

private:
    std::shared_ptr<const Node> node_;
};

struct Node {
    int id = 0;                          // unique, increasing in creation order
    Op op = Op::Const;
    DType dtype = DType::Float32;
    Shape shape;
    std::vector<Tensor> inputs;

    // Attributes; each op reads only its own.
    std::string name;                    // Input: the tensor's name; any other node: an optional name
                                         // a schedule finds its Func by (named(), primitives.h)
    bool materialized = false;           // any node but an Input: a kernel boundary, stored by the
                                         // kernel that computes it (materialize(), primitives.h)
    double value = 0;                    // Const: the number; Pad: the value outside the input
    std::optional<Dim> dim_value;        // Const: a symbolic dim's value instead of a number
    std::vector<int> axes;               // ReduceSum/ReduceMax: reduced axes; Permute: the order;
                                         // Window: the windowed axis; Gather: the indexed axis
    std::vector<int64_t> starts, steps;  // Slice: per axis; Window: steps = {stride, dilation}
    std::vector<int64_t> pad_lo, pad_hi; // Pad: per axis

    std::string label() const;           // "add#12"
};

// Gives `n` a fresh id and wraps it.
Tensor make_node(Node n);

}  // namespace halogen
