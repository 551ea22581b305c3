// A graph's canonical text (graph_fingerprint.h).
#include "frontend/graph_fingerprint.h"

#include <cstring>
#include <map>

#include <fmt/format.h>

namespace halogen {

namespace {

// A dim as its normalized terms: "c*s1*s2+..." with the coefficients exact.
std::string dim_text(const Dim &d) {
    std::string out = "(";
    for (const auto &[symbols, coefficient] : d.terms()) {
        out += fmt::format("{}", coefficient);
        for (const std::string &s : symbols) out += "*" + s;
        out += ";";
    }
    return out + ")";
}

template <typename T>
std::string list(const std::vector<T> &v) {
    std::string out = "[";
    for (const T &x : v) out += fmt::format("{},", x);
    return out + "]";
}

// The double's bits, so that -0.0, NaN payloads and the last bit of a constant count.
std::string exact(double v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return fmt::format("{:016x}", bits);
}

// A field added to Node must be written below, or two graphs that differ in it would share a
// fingerprint (and a cached kernel): this stops the build until it is.
static_assert(sizeof(Node) == 288, "Node changed: add the new field to graph_fingerprint");

}  // namespace

std::string graph_fingerprint(const Graph &g) {
    std::map<const Node *, size_t> position;
    std::string out;
    for (const Node *n : g.nodes()) {
        position.emplace(n, position.size());
        std::string shape, inputs;
        for (const Dim &d : n->shape) shape += dim_text(d);
        for (const Tensor &t : n->inputs) inputs += fmt::format("{},", position.at(t.get()));
        out += fmt::format("{} {} {} [{}] in=[{}] name={:?} mat={} value={} dim={} axes={} starts={} steps={} lo={} hi={}\n",
                           position.at(n), op_name(n->op), dtype_name(n->dtype), shape, inputs, n->name,
                           int(n->materialized), exact(n->value), n->dim_value ? dim_text(*n->dim_value) : "-",
                           list(n->axes), list(n->starts), list(n->steps), list(n->pad_lo), list(n->pad_hi));
    }
    out += "outputs";
    for (const Tensor &t : g.outputs()) out += fmt::format(" {}", position.at(t.get()));
    return out + "\n";
}

}  // namespace halogen
