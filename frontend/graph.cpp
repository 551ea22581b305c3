// Topological order of a graph and its run-time shape checks.
#include "frontend/graph.h"

#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

Graph::Graph(std::vector<Tensor> outputs) : outputs_(std::move(outputs)) {
    std::unordered_set<const Node *> done;
    std::map<std::string, const Node *> by_name;
    // Iterative post-order DFS, so deep chains do not overflow the stack.
    std::vector<std::pair<const Node *, std::size_t>> stack;
    for (const auto &out : outputs_) {
        if (!out.defined()) throw GraphError("graph: an output tensor is undefined");
        if (done.count(out.get())) continue;
        stack.push_back({out.get(), 0});
        while (!stack.empty()) {
            auto &[node, next] = stack.back();
            if (next < node->inputs.size()) {
                const Tensor &in = node->inputs[next++];
                if (!in.defined()) throw GraphError(fmt::format("graph: {} has an undefined input", node->label()));
                if (!done.count(in.get())) stack.push_back({in.get(), 0});
                continue;
            }
            if (done.insert(node).second) {
                nodes_.push_back(node);
                if (node->op == Op::Input) {
                    auto [it, fresh] = by_name.emplace(node->name, node);
                    if (!fresh && it->second != node) {
                        throw GraphError(fmt::format("graph: two inputs are named '{}' ({} and {})", node->name,
                                                     shape_str(it->second->shape), shape_str(node->shape)));
                    }
                }
            }
            stack.pop_back();
        }
    }
    for (const auto &[name, node] : by_name) inputs_.push_back(node);
}

std::set<std::string> Graph::symbols() const {
    std::set<std::string> out;
    for (const Node *n : nodes_) {
        auto s = shape_symbols(n->shape);
        out.insert(s.begin(), s.end());
        if (n->dim_value) {
            auto d = n->dim_value->symbols();
            out.insert(d.begin(), d.end());
        }
    }
    return out;
}

void Graph::check_bindings(const Bindings &b) const {
    for (const std::string &s : symbols()) {
        auto it = b.find(s);
        if (it == b.end()) throw BindingError(fmt::format("graph: symbolic dim '{}' is not bound", s));
        if (it->second < 0) {
            throw BindingError(fmt::format("graph: symbolic dim '{}' is bound to {} (< 0)", s, it->second));
        }
    }
    for (const Node *n : nodes_) {
        auto shape = eval_shape(n->shape, b, n->label());
        if (n->op != Op::Slice) continue;
        auto in = eval_shape(n->inputs[0].shape(), b, n->label());
        for (std::size_t k = 0; k < shape.size(); ++k) {
            if (shape[k] > 0 && n->starts[k] + n->steps[k] * (shape[k] - 1) >= in[k]) {
                throw BindingError(fmt::format("{}: slice of axis {} reaches past extent {} of {}", n->label(), k,
                                               in[k], shape_str(n->inputs[0].shape())));
            }
        }
    }
}


void check_buffer(const Node &node, const std::string &role, DType dtype, const std::vector<int64_t> &shape,
                  const Bindings &b) {
    auto want = eval_shape(node.shape, b, role);
    if (dtype != node.dtype || shape != want) {
        std::string sym = shape_symbols(node.shape).empty() ? "" : fmt::format(" = {}", shape_str(node.shape));
        throw BufferError(fmt::format("{}: got a {} buffer of shape {}, expected {} of shape {}{}", role,
                                      dtype_name(dtype), fmt::format("[{}]", fmt::join(shape, ", ")),
                                      dtype_name(node.dtype), fmt::format("[{}]", fmt::join(want, ", ")), sym));
    }
}

}  // namespace halogen
