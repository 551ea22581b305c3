// Node ids and Tensor accessors.
#include "frontend/node.h"

#include <atomic>

namespace halogen {

DType Tensor::dtype() const { return node_->dtype; }
const Shape &Tensor::shape() const { return node_->shape; }

std::string Node::label() const { return op_name(op) + "#" + std::to_string(id); }

Tensor make_node(Node n) {
    static std::atomic<int> next_id{0};
    n.id = next_id++;
    return Tensor(std::make_shared<const Node>(std::move(n)));
}

}  // namespace halogen
