// Constant folding with the interpreter's semantics (see constant_values.h).
#include "frontend/constant_values.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "frontend/interpreter.h"

namespace halogen {

std::unordered_map<const Node *, double> constant_values(const Graph &g) {
    std::unordered_map<const Node *, double> known;
    for (const Node *n : g.nodes()) {   // producers first
        const bool operands_known = !n->inputs.empty() && std::all_of(n->inputs.begin(), n->inputs.end(),
                                                                     [&](const Tensor &t) { return known.count(t.get()); });
        if (n->op == Op::Const && !n->dim_value) {
            known.emplace(n, n->value);
        } else if (operands_known && is_view(n->op) && n->op != Op::Pad) {
            known.emplace(n, known.at(n->inputs[0].get()));
        } else if (operands_known && is_elementwise(n->op)) {
            std::vector<double> operands;
            for (const Tensor &t : n->inputs) operands.push_back(known.at(t.get()));
            known.emplace(n, elementwise_value(*n, operands));
        }
    }
    return known;
}

bool has_non_finite_constant(const Graph &g) {
    const auto known = constant_values(g);
    return std::any_of(known.begin(), known.end(), [](const auto &kv) { return !std::isfinite(kv.second); });
}

}  // namespace halogen
