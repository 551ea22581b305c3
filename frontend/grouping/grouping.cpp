// The grouping pass: one walk from the outputs towards the inputs, deciding for each node which
// group(s) compute it.
#include "frontend/grouping/grouping.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/grouping/access.h"
#include "frontend/grouping/collapse.h"

namespace halogen {

bool Group::contains(const Node *n) const { return std::find(members.begin(), members.end(), n) != members.end(); }

std::string Group::describe() const {
    std::vector<std::string> r;
    for (const Node *n : reads) r.push_back(n->op == Op::Input ? n->name : n->label());
    return fmt::format("{} ({} nodes) reads [{}]", anchor->label(), members.size(), fmt::join(r, ", "));
}

namespace {

// What one group knows about one node it computes.
struct Need {
    std::optional<isl::map> points;   // anchor loop point -> the node's values it needs (nullopt: not affine)
    std::vector<isl::map> pinned;     // the same, one single-valued map per access path, reductions pinned
    int cap = 0;                      // deepest level it may be computed at (its consumers' levels)
};

struct Builder {
    const Graph &g;
    GroupingOptions options;
    AccessModel model;
    std::unordered_map<const Node *, std::vector<std::pair<const Node *, std::size_t>>> consumers;
    std::vector<Group> groups;                                      // in creation order (consumers first)
    std::unordered_map<const Node *, std::set<int>> member_of;      // node -> groups that compute it
    std::vector<std::unordered_map<const Node *, Need>> needs;      // per group

    Builder(const Graph &graph, const GroupingOptions &o) : g(graph), options(o) {
        for (const Node *n : g.nodes()) {
            for (std::size_t k = 0; k < n->inputs.size(); ++k) consumers[n->inputs[k].get()].push_back({n, k});
        }
    }

    int anchor_group(const Node *n) {
        Group grp;
        grp.anchor = n;
        groups.push_back(grp);
        const int id = int(groups.size()) - 1;
        Need need{model.identity(*n), {model.identity(*n)}, int(n->shape.size())};
        needs.push_back({{n, need}});
        member_of[n] = {id};
        if (is_reduce(n->op)) groups[id].compute_level[n] = int(n->shape.size());
        return id;
    }

    // How group `gid` needs node n, composed from every consumer of n inside that group.
    Need need_in(int gid, const Node *n, bool &has_reduction_consumer) {
        Need out;
        out.cap = int(groups[gid].anchor->shape.size());
        bool first = true, known = true;
        for (const auto &[c, k] : consumers[n]) {
            auto it = needs[gid].find(c);
            if (it == needs[gid].end()) continue;
            const Need &nc = it->second;
            if (is_reduce(c->op)) {
                has_reduction_consumer = true;
                out.cap = std::min(out.cap, groups[gid].compute_level.at(c));
            } else {
                out.cap = std::min(out.cap, nc.cap);
            }
            if (!nc.points || !known) {
                known = false;
                continue;
            }
            auto composed = compose_read(model, *nc.points, *c, k);
            if (!composed) {
                known = false;
                continue;
            }
            out.points = first ? *composed : out.points->unite(*composed);
            first = false;
            for (const isl::map &p : nc.pinned) {
                auto pinned = compose_read(model, p, *c, k, true);
                if (!pinned) continue;
                bool seen = false;
                for (const isl::map &q : out.pinned) seen = seen || q.is_equal(*pinned);
                if (!seen) out.pinned.push_back(*pinned);
            }
        }
        if (!known) {
            out.points.reset();
            out.pinned.clear();
        }
        return out;
    }

    // The deepest loop level of group gid at which reduction n can be computed once per value;
    // -1 when none (n must then be materialized).
    int level_for(int gid, const Need &need) {
        const int rank = int(groups[gid].anchor->shape.size());
        if (!need.points) return -1;
        for (int level = std::min(rank, need.cap); level >= 1; --level) {
            if (injective_at_level(*need.points, level)) return level;
        }
        return rank == 0 ? 0 : -1;
    }

    void visit(const Node *n) {
        if (n->op == Op::Input) return;
        std::set<int> groups_reading;
        for (const auto &[c, k] : consumers[n]) {
            auto it = member_of.find(c);
            if (it != member_of.end()) groups_reading.insert(it->second.begin(), it->second.end());
        }
        const bool output = std::any_of(g.outputs().begin(), g.outputs().end(), [&](const Tensor &t) { return t.get() == n; });
        if (output || n->materialized || groups_reading.empty()) {
            anchor_group(n);
            return;
        }
        if (!is_reduce(n->op)) {   // pure: computed inside every group that reads it
            for (int gid : groups_reading) {
                bool unused = false;
                needs[gid][n] = need_in(gid, n, unused);
            }
            member_of[n] = groups_reading;
            return;
        }
        if (options.fuse_reductions && groups_reading.size() == 1) {
            const int gid = *groups_reading.begin();
            bool unused = false;
            Need need = need_in(gid, n, unused);
            const int level = level_for(gid, need);
            if (level >= 0) {
                groups[gid].compute_level[n] = level;
                needs[gid][n] = need;
                member_of[n] = {gid};
                return;
            }
        }
        anchor_group(n);
    }

    std::vector<Group> finish() {
        // Creation order is consumers first; run producers first.
        const int count = int(groups.size());
        std::vector<Group> out;
        for (int gid = count - 1; gid >= 0; --gid) {
            Group grp = groups[gid];
            std::map<const Node *, std::optional<std::vector<isl::map>>> accesses;
            std::set<const Node *> reads;
            for (const Node *n : g.nodes()) {
                if (!member_of.count(n) || !member_of[n].count(gid)) continue;
                grp.members.push_back(n);
                for (const Tensor &t : n->inputs) {
                    const Node *p = t.get();
                    bool buffer = p->op == Op::Input || (member_of.count(p) && !member_of[p].count(gid));
                    if (!buffer || !reads.insert(p).second) continue;
                    grp.reads.push_back(p);
                }
            }
            for (const Node *b : grp.reads) {
                bool unused = false;
                Need need = need_in(gid, b, unused);
                accesses[b] = need.points ? std::optional(need.pinned) : std::nullopt;
            }
            analyze_collapse(grp, accesses);
            out.push_back(std::move(grp));
        }
        return out;
    }
};

}  // namespace

std::vector<Group> group_graph(const Graph &g, const GroupingOptions &options) {
    try {
        Builder b(g, options);
        const auto &nodes = g.nodes();
        for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) b.visit(*it);
        return b.finish();
    } catch (const isl::exception &e) {
        throw GraphError(fmt::format("grouping: isl could not analyse the graph: {}", e.what()));
    }
}

}  // namespace halogen
