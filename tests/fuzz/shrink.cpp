// The greedy shrinker. Every candidate is a whole new JSON document; the builders reject the ones
// that are not well formed, the runner keeps those that still fail.
#include "tests/fuzz/shrink.h"

#include <set>

#include <fmt/format.h>

namespace halogen::fuzz {

namespace {

using json = nlohmann::json;

int node_count(const json &doc) { return int(doc.at("nodes").size()); }

// Every reference to node `from` (as an operand or an output) now names `to`.
json redirect(const json &doc, int from, int to) {
    json out = doc;
    for (json &n : out["nodes"]) {
        if (!n.contains("inputs")) continue;
        for (json &k : n["inputs"]) {
            if (k.get<int>() == from) k = to;
        }
    }
    for (json &o : out["outputs"]) {
        if (o.get<int>() == from) o = to;
    }
    return prune_unreachable(out);
}

int fresh_id(const json &doc) {
    int id = 0;
    for (const json &n : doc.at("nodes")) id = std::max(id, n.at("id").get<int>() + 1);
    return id;
}

// Every integer extent `from` in a shape attribute becomes `to`.
json replace_extent(const json &doc, int64_t from, int64_t to) {
    json out = doc;
    for (json &n : out["nodes"]) {
        if (!n.contains("shape")) continue;
        for (json &d : n["shape"]) {
            if (d.is_number_integer() && d.get<int64_t>() == from) d = to;
        }
    }
    return out;
}

}  // namespace

FuzzCase shrink_case(const FuzzCase &c, const Strategy &s, int max_checks,
                     const std::function<void(const std::string &)> &log) {
    FuzzCase best = c;
    best.doc = prune_unreachable(c.doc);
    int checks = 0;
    std::set<std::string> seen;
    // Accepts `doc` (with `bindings`) when it is well formed and still fails.
    auto try_doc = [&](json doc, const Bindings &bindings) {
        if (checks >= max_checks) return false;
        doc["bindings"] = json(bindings);
        const std::string key = doc.dump();
        if (!seen.insert(key).second) return false;
        FuzzCase cand = best;
        cand.doc = doc;
        cand.bindings = bindings;
        try {
            Graph g = build_graph(doc);
            g.check_bindings(bindings);
        } catch (const std::exception &) {
            return false;
        }
        ++checks;
        if (check_case(cand, s).failures.empty()) return false;
        best = cand;
        if (log) log(fmt::format("shrink: {} nodes", node_count(doc)));
        return true;
    };

    for (bool progress = true; progress && checks < max_checks;) {
        progress = false;
        const json doc = best.doc;
        // One output is enough.
        if (doc["outputs"].size() > 1) {
            for (const json &o : doc["outputs"]) {
                json d = doc;
                d["outputs"] = json::array({o});
                if (try_doc(prune_unreachable(d), best.bindings)) {
                    progress = true;
                    break;
                }
            }
            if (progress) continue;
        }
        // A node replaced by one of its operands, newest nodes first (they cut the most).
        const json &nodes = doc["nodes"];
        for (int k = int(nodes.size()) - 1; k >= 0 && !progress; --k) {
            const json &n = nodes[k];
            for (const json &in : n.value("inputs", json::array())) {
                if (try_doc(redirect(doc, n["id"], in.get<int>()), best.bindings)) {
                    progress = true;
                    break;
                }
            }
        }
        if (progress) continue;
        // A node replaced by a fresh input of its shape (when its shape can be written).
        for (int k = int(nodes.size()) - 1; k >= 0 && !progress; --k) {
            const json &n = nodes[k];
            if (!n.contains("inputs")) continue;
            try {
                Graph g = build_graph({{"nodes", nodes}, {"outputs", {n["id"]}}});
                const Node &node = g.outputs()[0].node();
                json shape = json::array();
                for (const Dim &d : node.shape) {
                    if (auto v = d.constant()) shape.push_back(*v);
                    else if (d.symbols().size() == 1 && d == Dim::sym(*d.symbols().begin())) shape.push_back(*d.symbols().begin());
                    else throw Error("unwritable shape");
                }
                json d = doc;
                const int id = fresh_id(doc);
                d["nodes"].push_back({{"id", id}, {"op", "input"}, {"name", fmt::format("s{}", id)},
                                      {"dtype", dtype_name(node.dtype)}, {"shape", shape}});
                if (try_doc(redirect(d, n["id"], id), best.bindings)) progress = true;
            } catch (const std::exception &) {
            }
        }
        if (progress) continue;
        // Smaller extents, everywhere one occurs.
        std::set<int64_t> extents;
        for (const json &n : nodes) {
            for (const json &d : n.value("shape", json::array())) {
                if (d.is_number_integer() && d.get<int64_t>() > 1) extents.insert(d.get<int64_t>());
            }
        }
        for (auto it = extents.rbegin(); it != extents.rend() && !progress; ++it) {
            for (int64_t to : {int64_t(1), int64_t(2), int64_t(3), *it / 2}) {
                if (to >= *it || to < 1) continue;
                if (try_doc(replace_extent(doc, *it, to), best.bindings)) {
                    progress = true;
                    break;
                }
            }
        }
        if (progress) continue;
        // Smaller symbolic dims.
        for (const auto &[name, v] : best.bindings) {
            // Not to 0: an empty axis turns values into INT32_MIN / -inf, a different case.
            for (int64_t to : {int64_t(1), int64_t(2), int64_t(3), v / 2}) {
                if (to >= v || to < 1) continue;
                Bindings b = best.bindings;
                b[name] = to;
                if (try_doc(doc, b)) {
                    progress = true;
                    break;
                }
            }
            if (progress) break;
        }
    }
    if (log) log(fmt::format("shrink: done after {} runs", checks));
    return best;
}

}  // namespace halogen::fuzz
