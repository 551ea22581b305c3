// Pattern, proof and replacement of the one-hot rewrite.
#include "frontend/rewrites/one_hot_gather.h"

#include <unordered_map>

#include <fmt/format.h>

#include "frontend/grouping/access.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen {

namespace {

// Is t a constant 0, possibly seen through views?
bool is_zero(const Tensor &t) {
    const Node *n = t.get();
    while (is_view(n->op) && n->op != Op::Pad) n = n->inputs[0].get();
    return n->op == Op::Const && !n->dim_value && n->value == 0;
}

// Proofs about tensors read by the one-hot comparison, each given with its access map from the
// reduction's input space (V_where[o]) to the tensor's values.
class Prover {
public:
    Prover(const Node &space, int v) : space_(space), v_(v) {}

    AccessModel &model() { return model_; }

    // { V_space[o] -> V_t[o] }: how the where reads its operand t (same shape, same point).
    isl::map same_point(const Node &t) {
        std::string o;
        for (std::size_t k = 0; k < space_.shape.size(); ++k) o += (k ? ", " : "") + fmt::format("o{}", k);
        isl::map m(model_.ctx(), fmt::format("{{ V{}[{}] -> V{}[{}] }}", space_.id, o, t.id, o));
        return m.intersect_domain(model_.value_domain(space_));
    }

    // Does t hold, at every point o of the reduction's input, the coordinate o[v]?
    bool is_arange_along_v(const Tensor &t, isl::map m) {
        const Node *n = t.get();
        while (is_view(n->op)) {
            auto r = model_.read(*n, 0);
            if (!r) return false;
            m = m.apply_range(*r);
            n = n->inputs[0].get();
        }
        if (n->op != Op::IndexComponents) return false;
        // index_components' value is the row-major linear index of its point.
        std::vector<std::string> j, terms;
        int64_t stride = 1;
        for (int k = int(n->shape.size()) - 1; k >= 0; --k) {
            terms.push_back(fmt::format("{}*j{}", stride, k));
            if (k > 0) {
                auto e = n->shape[k].constant();
                if (!e) return false;
                stride *= *e;
            }
        }
        for (std::size_t k = 0; k < n->shape.size(); ++k) j.push_back(fmt::format("j{}", k));
        isl::map value(model_.ctx(), fmt::format("{{ V{}[{}] -> L[{}] }}", n->id, fmt::join(j, ", "),
                                                 terms.empty() ? "0" : fmt::format("{}", fmt::join(terms, " + "))));
        std::vector<std::string> o;
        for (std::size_t k = 0; k < space_.shape.size(); ++k) o.push_back(fmt::format("o{}", k));
        isl::map coordinate(model_.ctx(), fmt::format("{{ V{}[{}] -> L[o{}] }}", space_.id, fmt::join(o, ", "), v_));
        coordinate = coordinate.intersect_domain(model_.value_domain(space_));
        return m.apply_range(value).is_equal(coordinate);
    }

    // Is t's value the same at o and at o + e_v, for every point o of the reduction's input?
    bool invariant_along_v(const Tensor &t, const isl::map &to_t) {
        auto c = affine_coefficients(to_t);
        if (c) {
            bool zero = true;
            for (const auto &row : *c) zero = zero && row[v_] == 0;
            if (zero) return true;   // t's index, hence its value, does not move along v
        }
        const Node &n = t.node();
        if (!(is_view(n.op) || is_elementwise(n.op))) return false;
        for (std::size_t k = 0; k < n.inputs.size(); ++k) {
            auto r = model_.read(n, k);
            if (!r || !invariant_along_v(n.inputs[k], to_t.apply_range(*r))) return false;
        }
        return true;
    }

private:
    AccessModel model_;
    const Node &space_;
    const int v_;
};

// The gather a reduction stands for, or an undefined Tensor when it is not a one-hot reduction.
Tensor as_gather(const Node &r) {
    if (r.op != Op::ReduceSum || r.axes.size() != 1) return Tensor();
    const Node &w = r.inputs[0].node();
    if (w.op != Op::Where || !is_zero(w.inputs[2])) return Tensor();
    // The condition: views (the where's broadcast) over not(ne(a, b)).
    std::vector<const Node *> views;
    const Node *c = w.inputs[0].get();
    while (is_view(c->op)) {
        if (c->op == Op::Pad) return Tensor();   // padding would not carry over to the selector
        views.push_back(c);
        c = c->inputs[0].get();
    }
    if (c->op != Op::Not || c->inputs[0].node().op != Op::Ne) return Tensor();
    const Node &ne = c->inputs[0].node();
    const int v = r.axes[0];
    Prover prove(w, v);
    isl::map to_ne = prove.same_point(w.inputs[0].node());
    for (const Node *view : views) to_ne = to_ne.apply_range(*prove.model().read(*view, 0));
    to_ne = to_ne.apply_range(*prove.model().read(*c, 0));
    for (std::size_t side = 0; side < 2; ++side) {
        const Tensor &arange = ne.inputs[side], &e = ne.inputs[1 - side];
        auto to_arange = prove.model().read(ne, side), to_e = prove.model().read(ne, 1 - side);
        if (e.dtype() != DType::Int32 || !to_arange || !to_e) continue;
        if (!prove.is_arange_along_v(arange, to_ne.apply_range(*to_arange))) continue;
        if (!prove.invariant_along_v(e, to_ne.apply_range(*to_e))) continue;
        // e seen in the reduction's input space (the condition's views replayed on it), then
        // its first row along v, which is every row.
        Tensor idx = e;
        for (auto it = views.rbegin(); it != views.rend(); ++it) {
            Node copy = **it;
            copy.inputs = {idx};
            copy.dtype = idx.dtype();
            idx = make_node(copy);
        }
        // When the extent V along v may be 0 (a symbolic dim), row 0 may not exist: pad one
        // row first so the slice is valid for every binding. Its value is never used then, as
        // a gather over an empty axis selects nothing, like the empty sum it replaces.
        const auto extent = idx.shape()[v].constant();
        if (!extent || *extent < 1) {
            std::vector<int64_t> lo(idx.shape().size(), 0), hi(idx.shape().size(), 0);
            hi[v] = 1;
            idx = pad(idx, lo, hi);
        }
        return gather(w.inputs[1], v, slice(idx, v, 0, 1));
    }
    return Tensor();
}

}  // namespace

Graph rewrite_one_hot_reductions(const Graph &g, int *rewrites) {
    // A handle on every node: each is some consumer's input or a graph output.
    std::unordered_map<const Node *, Tensor> handle;
    for (const Tensor &t : g.outputs()) handle[t.get()] = t;
    for (const Node *n : g.nodes()) {
        for (const Tensor &in : n->inputs) handle[in.get()] = in;
    }
    std::unordered_map<const Node *, Tensor> now;   // each node's counterpart in the new graph
    int count = 0;
    for (const Node *n : g.nodes()) {
        Node copy = *n;
        bool changed = false;
        for (Tensor &in : copy.inputs) {
            const Tensor &m = now.at(in.get());
            changed = changed || m.get() != in.get();
            in = m;
        }
        Tensor current = changed ? make_node(copy) : handle.at(n);
        Tensor gathered = as_gather(current.node());
        count += gathered.defined();
        now[n] = gathered.defined() ? gathered : current;
    }
    if (rewrites) *rewrites = count;
    std::vector<Tensor> outs;
    for (const Tensor &t : g.outputs()) outs.push_back(now.at(t.get()));
    return Graph(outs);
}

}  // namespace halogen
