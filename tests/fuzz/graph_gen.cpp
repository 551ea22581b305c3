// The random graph generator. Every node is written as JSON and checked by building the graph
// through graph_from_json, so what the fuzzer runs is exactly what it can print and replay. A
// candidate the builders reject (shapes that do not broadcast, a slice past its axis, ...) is
// dropped and another one is tried.
//
// The generator tracks, for every node, an interval holding its finite values and whether it is
// *exact*: computed from inputs, constants and index_components with no float arithmetic on the
// way (only views, casts, integer ops, max/neg/where). Halide compiles float arithmetic with
// fast-math flags (reassociation, contraction into FMA), so a float sum or product may differ from
// the interpreter in its last bits; a comparison or a float->int cast of such a value could then
// flip, which is a rounding difference, not a bug. So comparisons, casts to int/bool and the
// one-hot index read only exact values; everything else is compared with a tolerance.
#include "tests/fuzz/graph_gen.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <random>

#include <fmt/format.h>

#include "formats/graph_json.h"

namespace halogen::fuzz {

namespace {

using json = nlohmann::json;

constexpr int64_t kMaxElements = 6000;     // per node, after binding: keeps the batch fast
constexpr double kMaxWork = 4e6;          // per node, counting recomputation (see add)
constexpr double kMaxFloat = 1e6;          // larger values would overflow sums into inf
constexpr double kMaxInt = 1 << 24;        // int32 overflow is undefined in Halide

bool plain_symbol(const Dim &d) {
    const auto &t = d.terms();
    return t.size() == 1 && t.begin()->first.size() == 1 && t.begin()->second == 1;
}

// A shape as graph_json writes it, or nullopt when an extent is a polynomial it cannot express.
std::optional<json> shape_json(const Shape &s) {
    json out = json::array();
    for (const Dim &d : s) {
        if (auto c = d.constant()) out.push_back(*c);
        else if (plain_symbol(d)) out.push_back(*d.symbols().begin());
        else return std::nullopt;
    }
    return out;
}

struct Val {
    int id = 0;
    Tensor t;
    bool exact = true;
    double lo = 0, hi = 0;   // bounds of its finite values
    bool nan = false;        // may hold NaN (sqrt or log2 of a negative value upstream)
    DType dtype() const { return t.dtype(); }
    const Shape &shape() const { return t.shape(); }
    int rank() const { return t.rank(); }
};

class Generator {
public:
    explicit Generator(uint32_t seed) : rng_(seed) { c_.seed = seed; }

    FuzzCase run() {
        choose_symbols();
        leaf_input(DType::Float32, random_shape(uniform(1, 4)));
        if (chance(0.4)) one_hot();
        const int steps = uniform(2, 7);   // ~6 kernels per strategy at most keeps the batch fast
        for (int s = 0, tries = 0; s < steps && tries < 200; ++tries) {
            if (step()) ++s;
        }
        // The last non-leaf node is the output; sometimes a second output from the pool.
        json outs = json::array();
        const Val *last = nullptr;
        for (const Val &v : pool_) {
            if (!is_leaf(v)) last = &v;
        }
        if (!last) {
            auto v = add({{"op", "neg"}}, {pool_.back()}, pool_.back().exact, -pool_.back().hi, -pool_.back().lo);
            if (!v) v = add({{"op", "not"}}, {pool_.back()}, true, 0, 1);
            last = &pool_.back();
        }
        outs.push_back(last->id);
        if (chance(0.03)) outs.push_back(last->id);                 // one node listed twice
        if (chance(0.03)) outs.push_back(pool_.front().id);         // an input returned as is
        if (pool_.size() > 3 && chance(0.2)) {
            const Val &o = pool_[uniform(0, int(pool_.size()) - 1)];
            if (!is_leaf(o) && o.id != last->id) outs.push_back(o.id);
        }
        // A one-hot reduction nothing reads becomes an output too, so that the rewrite sees it.
        const json reached = prune_unreachable({{"nodes", nodes_}, {"outputs", outs}});
        for (int id : one_hot_ids_) {
            if (!contains_node(reached, id)) outs.push_back(id);
        }
        c_.doc = prune_unreachable({{"nodes", nodes_}, {"outputs", outs}});
        c_.doc["bindings"] = json(c_.bindings);
        c_.doc["seed"] = c_.seed;   // the inputs' random values come from it
        c_.one_hot_patterns = int(one_hot_ids_.size());
        return c_;
    }

private:
    std::mt19937 rng_;
    FuzzCase c_;
    json nodes_ = json::array();
    std::vector<Val> pool_;
    std::vector<std::string> symbols_;
    int next_id_ = 0, inputs_ = 0;
    std::vector<int> one_hot_ids_;   // the reductions of the one-hot patterns written

    static bool contains_node(const json &doc, int id) {
        for (const json &n : doc.at("nodes")) {
            if (n.at("id").get<int>() == id) return true;
        }
        return false;
    }

    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    template <typename T> const T &pick(const std::vector<T> &v) { return v[uniform(0, int(v.size()) - 1)]; }

    static bool is_leaf(const Val &v) {
        const Op op = v.t.node().op;
        return op == Op::Input || op == Op::Const;
    }
    int64_t value(const Dim &d) const { return d.eval(c_.bindings); }
    int64_t elements(const Shape &s) const {
        int64_t n = 1;
        for (const Dim &d : s) n *= value(d);
        return n;
    }

    // Appends node `spec` reading `in`; nullopt (and nothing appended) when the builders reject
    // it, a shape does not hold under the bindings, or it grows too large.
    // `selection`: the node only selects existing values (a max), so its bounds need no limit.
    std::optional<Val> add(json spec, const std::vector<Val> &in, bool exact, double lo, double hi,
                           bool selection = false) {
        // NaN may reach max and reduce_max: both propagate it (frontend/ops.h), in the
        // interpreter and in the kernels alike.
        const std::string op = spec.at("op");
        bool nan = false;
        for (const Val &v : in) nan = nan || v.nan;
        // Halide's simplifier treats floats as real numbers: it folds x - x and x + (-x) to 0 and
        // 0 * x to 0, also where x is NaN (or an infinity, where the interpreter gets NaN). That
        // is Halide's documented float model, not a halogen bug (docs/reliability.md, "Left out
        // on purpose"), so NaN is kept away from the cancelling forms.
        if (op == "sub" || op == "add") {
            if (in.size() == 2 && in[0].nan && in[1].nan) return std::nullopt;
        }
        if (op == "mul" && nan) {
            for (const Val &v : in) {
                if (v.lo == 0 && v.hi == 0) return std::nullopt;
            }
        }
        if ((op == "sqrt" || op == "log2") && in.at(0).lo < 0) nan = true;
        if (op == "lt" || op == "ne" || op == "eq" || op == "le" || op == "cast") nan = false;   // exact inputs only
        spec["id"] = next_id_;
        if (!in.empty()) {
            spec["inputs"] = json::array();
            for (const Val &v : in) spec["inputs"].push_back(v.id);
        }
        nodes_.push_back(spec);
        try {
            Graph g = build_graph({{"nodes", nodes_}, {"outputs", {next_id_}}});
            g.check_bindings(c_.bindings);
            // Under `none` Halide computes a reduction inside its consumer's innermost loop, so
            // nested reductions multiply: bound the work of every node as if nothing were stored.
            std::map<const Node *, double> cost;
            for (const Node *n : g.nodes()) {
                const int64_t count = elements(n->shape);
                if (count > kMaxElements) throw Error("too large");
                double c = 1;
                for (const Tensor &t : n->inputs) c += cost[t.get()];
                if (is_reduce(n->op)) c *= double(elements(n->inputs[0].shape())) / double(std::max<int64_t>(count, 1));
                cost[n] = c;
                if (c * double(count) > kMaxWork) throw Error("too much work");
            }
            Val v{next_id_++, g.outputs()[0], exact, lo, hi, nan};
            const double limit = v.dtype() == DType::Float32 ? kMaxFloat : kMaxInt;
            if (!selection && !(std::max(std::abs(lo), std::abs(hi)) <= limit)) throw Error("values too large");
            pool_.push_back(v);
            return v;
        } catch (const Error &) {
            nodes_.erase(nodes_.size() - 1);
            return std::nullopt;
        }
    }

    void choose_symbols() {
        if (!chance(0.35)) return;
        symbols_.push_back("N");
        if (chance(0.4)) symbols_.push_back("M");
        for (const std::string &s : symbols_) {
            c_.bindings[s] = chance(0.04) ? 0 : pick<int64_t>({1, 3, 7, 30, 33, 5, 2});   // 0: empty tensors
        }
    }

    Dim random_extent() {
        if (!symbols_.empty() && chance(0.3)) return Dim::sym(pick(symbols_));
        return Dim(pick<int64_t>({1, 1, 2, 3, 3, 5, 7, 7, 30, 33, 129}));
    }

    Shape random_shape(int rank) {
        for (int tries = 0;; ++tries) {
            Shape s;
            for (int k = 0; k < rank; ++k) s.push_back(random_extent());
            if (elements(s) <= kMaxElements / 4 || tries > 50) return s;
        }
    }

    std::optional<Val> leaf_input(DType t, const Shape &shape, bool positive = false) {
        auto sj = shape_json(shape);
        if (!sj) return std::nullopt;
        std::string name = t == DType::Float32 ? (positive ? "pos" : "x") : t == DType::Int32 ? "i" : "b";
        name += std::to_string(inputs_++);
        // Ranges as tests/support/harness.h's random_inputs fills them.
        double lo = t == DType::Float32 ? (positive ? 0.25 : -3) : t == DType::Int32 ? -20 : 0;
        double hi = t == DType::Float32 ? (positive ? 4 : 3) : t == DType::Int32 ? 20 : 1;
        return add({{"op", "input"}, {"name", name}, {"dtype", dtype_name(t)}, {"shape", *sj}}, {}, true, lo, hi);
    }

    std::optional<Val> constant(DType t, double v) {
        if (t == DType::Int32) v = std::round(v);
        if (t == DType::Bool) v = v != 0;
        return add({{"op", "const"}, {"dtype", dtype_name(t)}, {"value", v}}, {}, true, v, v);
    }

    // `s` with some axes set to 1 and maybe leading axes dropped: a shape that broadcasts to s.
    Shape broadcastable(const Shape &s) {
        Shape out = s;
        for (Dim &d : out) {
            if (chance(0.35)) d = Dim(1);
        }
        while (!out.empty() && chance(0.2)) out.erase(out.begin());
        return out;
    }

    // An operand of the pool, biased to the newest nodes so that chains grow.
    const Val &operand() {
        if (chance(0.55)) return pool_.back();
        return pick(pool_);
    }

    // A second operand for `a` of dtype `t` that broadcasts with it.
    std::optional<Val> partner(const Val &a, DType t) {
        const int how = uniform(0, 3);
        if (how == 0) return constant(t, t == DType::Float32 ? pick<double>({0.5, -1.5, 2, 0, 3.25}) : uniform(-3, 5));
        if (how == 1) {
            std::vector<Val> fit;
            for (const Val &v : pool_) {
                if (v.dtype() != t || v.id == a.id) continue;
                try {
                    broadcast_shapes("fuzz", {a.shape(), v.shape()});
                    fit.push_back(v);
                } catch (const Error &) {
                }
            }
            if (!fit.empty()) return pick(fit);
        }
        if (how == 2 && a.dtype() == t && a.rank() > 0) {   // a statistic of a itself: x - mean(x)
            std::vector<int> axes = {uniform(0, a.rank() - 1)};
            const std::string op = t == DType::Int32 || chance(0.5) ? "reduce_max" : "reduce_sum";
            return reduce_node(a, op, axes);
        }
        return leaf_input(t, broadcastable(a.shape()), t == DType::Float32 && chance(0.3));
    }

    std::optional<Val> reduce_node(const Val &a, const std::string &op, const std::vector<int> &axes) {
        int64_t k = 1;
        for (int ax : axes) k *= value(a.shape()[(ax + a.rank()) % a.rank()]);
        const bool max = op == "reduce_max";
        double lo = max ? a.lo : a.lo * double(k), hi = max ? a.hi : a.hi * double(k);
        if (!max) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);   // k may be 0
        // An empty int max is INT32_MIN: arithmetic on it would overflow, which Halide treats as
        // undefined (its simplifier assumes int32 never wraps) while the interpreter wraps. The
        // bound keeps every arithmetic op away from it; the value itself may be stored or compared.
        // (An empty float max is -inf, which needs no such care.)
        if (max && k == 0 && a.dtype() == DType::Int32) lo = hi = -2147483648.0;
        const bool exact = a.exact && (max || a.dtype() != DType::Float32);
        return add({{"op", op}, {"axes", axes}}, {a}, exact, lo, hi, max);
    }

    bool step() {
        const int kind = uniform(0, 99);
        const Val a = operand();
        if (kind < 16) return unary(a);
        if (kind < 40) return binary(a);
        if (kind < 50) return where_op(a);
        if (kind < 70) return view(a);
        if (kind < 84) return reduce(a);
        if (kind < 94) return one_hot();
        return matmul(a);
    }

    bool unary(const Val &a) {
        const DType t = a.dtype();
        if (t == DType::Float32) {
            switch (uniform(0, 6)) {
            case 0: return bool(add({{"op", "neg"}}, {a}, a.exact, -a.hi, -a.lo));
            case 1: return bool(add({{"op", "sin"}}, {a}, false, -1, 1));
            case 2:
                if (a.hi > 12) return false;
                return bool(add({{"op", "exp2"}}, {a}, false, std::exp2(a.lo), std::exp2(a.hi)));
            case 3:   // NaN below 0: only on exact values, whose sign is reproducible
                if (a.lo < 0 && !a.exact) return false;
                return bool(add({{"op", "sqrt"}}, {a}, false, 0, std::sqrt(std::max(a.hi, 0.0))));
            case 4:
                if (a.lo < 0.1 && !a.exact) return false;
                return bool(add({{"op", "log2"}}, {a}, false, a.lo > 0 ? std::log2(a.lo) : -150,
                                std::log2(std::max(a.hi, 1e-30))));
            case 5:   // bounded only away from 0
                if (!(a.lo >= 0.1 || a.hi <= -0.1)) return false;
                return bool(add({{"op", "recip"}}, {a}, false, std::min(1 / a.lo, 1 / a.hi), std::max(1 / a.lo, 1 / a.hi)));
            default:
                if (!a.exact) return false;
                if (chance(0.3)) return bool(add({{"op", "cast"}, {"dtype", "bool"}}, {a}, true, 0, 1));
                return bool(add({{"op", "cast"}, {"dtype", "int32"}}, {a}, true, std::trunc(a.lo), std::trunc(a.hi)));
            }
        }
        if (t == DType::Int32) {
            switch (uniform(0, 2)) {
            case 0: return bool(add({{"op", "neg"}}, {a}, true, -a.hi, -a.lo));
            case 1: return bool(add({{"op", "not"}}, {a}, true, -a.hi - 1, -a.lo - 1));
            default: return bool(add({{"op", "cast"}, {"dtype", "float32"}}, {a}, true, a.lo, a.hi));
            }
        }
        if (chance(0.5)) return bool(add({{"op", "not"}}, {a}, true, 0, 1));
        return bool(add({{"op", "cast"}, {"dtype", chance(0.5) ? "float32" : "int32"}}, {a}, true, 0, 1));
    }

    bool binary(const Val &a) {
        const DType t = a.dtype();
        auto b = partner(a, t);
        if (!b) return false;
        Val x = a, y = *b;
        if (chance(0.5)) std::swap(x, y);
        const double m = std::max({std::abs(x.lo), std::abs(x.hi), std::abs(y.lo), std::abs(y.hi)});
        const bool exact = x.exact && y.exact;
        const bool ints = t != DType::Float32;
        std::vector<std::string> ops;
        if (t == DType::Float32) ops = {"add", "sub", "mul", "max", "div"};
        else if (t == DType::Int32) ops = {"add", "sub", "mul", "max", "idiv", "mod", "and", "or", "xor"};
        else ops = {"and", "or", "xor"};
        if (exact) ops.insert(ops.end(), {"lt", "ne", "eq", "le"});
        const std::string op = pick(ops);
        if (op == "lt" || op == "ne" || op == "eq" || op == "le") return bool(add({{"op", op}}, {x, y}, true, 0, 1));
        if (t == DType::Bool) return bool(add({{"op", op}}, {x, y}, true, 0, 1));
        if (op == "add" || op == "sub") return bool(add({{"op", op}}, {x, y}, exact && ints, -2 * m, 2 * m));
        if (op == "mul") return bool(add({{"op", op}}, {x, y}, exact && ints, -m * m, m * m));
        if (op == "max") return bool(add({{"op", op}}, {x, y}, exact, std::max(x.lo, y.lo), std::max(x.hi, y.hi)));
        if (op == "div") {   // a * recip(b): b kept away from 0
            if (!(y.lo >= 0.1 || y.hi <= -0.1)) return false;
            return bool(add({{"op", op}}, {x, y}, false, -m * 10, m * 10));
        }
        if (op == "idiv") return bool(add({{"op", op}}, {x, y}, true, -m, m));
        if (op == "mod") return bool(add({{"op", op}}, {x, y}, true, 0, m));
        // and/or/xor on int32 stay within the next power of two
        const double p = std::exp2(std::ceil(std::log2(m + 1)));
        return bool(add({{"op", op}}, {x, y}, true, -p, p));
    }

    // A reproducible condition that broadcasts with `a`.
    std::optional<Val> condition(const Val &a) {
        std::vector<Val> bools;
        for (const Val &v : pool_) {
            if (v.dtype() != DType::Bool || !v.exact) continue;
            try {
                broadcast_shapes("fuzz", {a.shape(), v.shape()});
                bools.push_back(v);
            } catch (const Error &) {
            }
        }
        if (!bools.empty() && chance(0.5)) return pick(bools);
        if (a.exact && a.dtype() != DType::Bool && chance(0.6)) {
            auto c = constant(a.dtype(), std::round((a.lo + a.hi) / 2));
            if (!c) return std::nullopt;
            return add({{"op", chance(0.5) ? "lt" : "ne"}}, {a, *c}, true, 0, 1);
        }
        return leaf_input(DType::Bool, broadcastable(a.shape()));
    }

    bool where_op(const Val &a) {
        auto cond = condition(a);
        if (!cond) return false;
        const DType t = a.dtype() == DType::Bool ? DType::Float32 : a.dtype();
        Val x = a;
        if (a.dtype() == DType::Bool) {
            auto f = add({{"op", "cast"}, {"dtype", "float32"}}, {a}, true, 0, 1);
            if (!f) return false;
            x = *f;
        }
        auto y = partner(x, t);
        if (!y) return false;
        Val p = x, q = *y;
        if (chance(0.5)) std::swap(p, q);
        return bool(add({{"op", "where"}}, {*cond, p, q}, p.exact && q.exact, std::min(p.lo, q.lo), std::max(p.hi, q.hi)));
    }

    bool view(const Val &a) {
        const int r = a.rank();
        if (r == 0) return false;
        switch (uniform(0, 5)) {
        case 0: {   // permute
            std::vector<int> perm(r);
            for (int k = 0; k < r; ++k) perm[k] = k;
            std::shuffle(perm.begin(), perm.end(), rng_);
            return bool(add({{"op", "permute"}, {"axes", perm}}, {a}, a.exact, a.lo, a.hi));
        }
        case 1: {   // slice with constant bounds inside the bound extent
            const int ax = uniform(0, r - 1);
            const int64_t e = value(a.shape()[ax]);
            if (e < 1) return false;
            const int64_t start = uniform(0, int(e) - 1), stop = uniform(int(start) + 1, int(e));
            json spec = {{"op", "slice"}, {"axis", chance(0.2) ? ax - r : ax}, {"start", start}, {"stop", stop}};
            if (chance(0.4)) spec["step"] = uniform(1, 3);
            return bool(add(spec, {a}, a.exact, a.lo, a.hi));
        }
        case 2: {   // pad
            std::vector<int64_t> lo(r), hi(r);
            for (int k = 0; k < r; ++k) {
                lo[k] = chance(0.5) ? 0 : uniform(0, 3);
                hi[k] = chance(0.5) ? 0 : uniform(0, 3);
            }
            const double v = a.dtype() == DType::Float32 ? pick<double>({0, -1, 2.5}) : a.dtype() == DType::Bool ? 1 : 7;
            return bool(add({{"op", "pad"}, {"lo", lo}, {"hi", hi}, {"value", v}}, {a}, a.exact, std::min(a.lo, v),
                            std::max(a.hi, v)));
        }
        case 3: {   // reshape of constant axes: merge two, split one, insert or drop a unit axis
            Shape s = a.shape();
            const int ax = uniform(0, r - 1);
            const int what = uniform(0, 3);
            if (what == 0 && ax + 1 < r && s[ax].is_constant() && s[ax + 1].is_constant()) {
                s[ax] = s[ax] * s[ax + 1];
                s.erase(s.begin() + ax + 1);
            } else if (what == 1 && s[ax].is_constant()) {
                const int64_t e = *s[ax].constant();
                std::vector<int64_t> f;
                for (int64_t d = 2; d < e; ++d) {
                    if (e % d == 0) f.push_back(d);
                }
                if (f.empty()) return false;
                const int64_t d = pick(f);
                s[ax] = Dim(d);
                s.insert(s.begin() + ax + 1, Dim(e / d));
            } else if (what == 2) {
                s.insert(s.begin() + uniform(0, r), Dim(1));
            } else {
                auto it = std::find(s.begin(), s.end(), Dim(1));
                if (it == s.end()) return false;
                s.erase(it);
            }
            auto sj = shape_json(s);
            if (!sj) return false;
            return bool(add({{"op", "reshape"}, {"shape", *sj}}, {a}, a.exact, a.lo, a.hi));
        }
        case 4: {   // expand an extent-1 axis, or add a leading axis
            Shape s = a.shape();
            std::vector<int> ones;
            for (int k = 0; k < r; ++k) {
                if (s[k] == Dim(1)) ones.push_back(k);
            }
            if (!ones.empty() && chance(0.7)) s[pick(ones)] = random_extent();
            else s.insert(s.begin(), random_extent());
            auto sj = shape_json(s);
            if (!sj) return false;
            return bool(add({{"op", "expand"}, {"shape", *sj}}, {a}, a.exact, a.lo, a.hi));
        }
        default: {   // sliding windows
            const int ax = uniform(0, r - 1);
            json spec = {{"op", "window"}, {"axis", ax}, {"size", uniform(1, 3)}};
            if (chance(0.3)) spec["stride"] = uniform(1, 2);
            if (chance(0.3)) spec["dilation"] = uniform(1, 2);
            return bool(add(spec, {a}, a.exact, a.lo, a.hi));
        }
        }
    }

    bool reduce(const Val &a) {
        const int r = a.rank();
        if (r == 0 || a.dtype() == DType::Bool) return false;
        std::vector<int> axes;
        for (int k = 0; k < r; ++k) {
            if (chance(0.4)) axes.push_back(chance(0.2) ? k - r : k);
        }
        if (axes.empty()) axes.push_back(uniform(0, r - 1));
        const std::string op = chance(0.35) ? "reduce_max" : chance(0.3) ? "sum" : "reduce_sum";
        if (op == "sum") {   // drops the axes
            int64_t k = 1;
            for (int ax : axes) k *= value(a.shape()[(ax + r) % r]);
            const double lo = std::min(a.lo * double(k), 0.0), hi = std::max(a.hi * double(k), 0.0);
            return bool(add({{"op", "sum"}, {"axes", axes}}, {a}, a.exact && a.dtype() != DType::Float32, lo, hi));
        }
        return bool(reduce_node(a, op, axes));
    }

    // sum_v where(eq(index_components(1.., V, ..1), e), f, 0): the pattern the one-hot rewrite
    // turns into a gather. Sometimes a near miss the rewrite must leave alone: e depends on v, the
    // other branch is not 0, or the reduction is a max.
    bool one_hot() {
        std::vector<Val> fs;
        for (const Val &v : pool_) {
            if (v.dtype() != DType::Bool && v.rank() > 0) fs.push_back(v);
        }
        Val f;
        if (!fs.empty() && chance(0.7)) {
            f = pick(fs);
        } else {
            auto x = leaf_input(DType::Float32, random_shape(uniform(1, 3)));
            if (!x) return false;
            f = *x;
        }
        const int r = f.rank(), v = uniform(0, r - 1);
        const Dim V = f.shape()[v];
        Shape ic(r, Dim(1));
        ic[v] = V;
        // Through views sometimes: index_components([V]) broadcast from the left when v is last.
        std::optional<json> icj = shape_json(v == r - 1 && chance(0.4) ? Shape{V} : ic);
        if (!icj) return false;
        const int miss = chance(0.2) ? uniform(1, 3) : 0;
        Shape es = f.shape();
        if (miss != 1) es[v] = Dim(1);
        for (int k = 0; k < r; ++k) {
            if (k != v && chance(0.3)) es[k] = Dim(1);
        }
        std::optional<Val> e;
        if (chance(0.3)) {   // an index that is itself a reduction of an int tensor over v
            Shape full = es;
            full[v] = V;
            auto src = leaf_input(DType::Int32, full);
            if (src) e = reduce_node(*src, chance(0.5) ? "reduce_max" : "reduce_sum", {v});
            if (e && miss == 1) e.reset();
        }
        if (!e) e = leaf_input(DType::Int32, es);
        if (!e) return false;
        if (V.is_constant() && *V.constant() > 0 && chance(0.5)) {   // mostly inside [0, V)
            auto vc = constant(DType::Int32, double(*V.constant()));
            if (vc) e = add({{"op", "mod"}}, {*e, *vc}, true, 0, double(*V.constant()));
            if (!e) return false;
        }
        auto idx = add({{"op", "index_components"}, {"shape", *icj}}, {}, true, 0, double(value(V)));
        if (!idx) return false;
        Val p = *idx, q = *e;
        if (chance(0.5)) std::swap(p, q);
        auto cond = add({{"op", "eq"}}, {p, q}, true, 0, 1);
        auto other = constant(f.dtype(), miss == 2 ? 1.0 : 0.0);
        if (!cond || !other) return false;
        auto sel = add({{"op", "where"}}, {*cond, f, *other}, f.exact, std::min(f.lo, 0.0), std::max(f.hi, 1.0));
        if (!sel) return false;
        std::optional<Val> out;
        if (miss == 3) out = reduce_node(*sel, "reduce_max", {v});
        else if (miss != 1 && chance(0.3)) out = add({{"op", "sum"}, {"axes", {v}}}, {*sel}, sel->exact, sel->lo, sel->hi);
        else out = reduce_node(*sel, "reduce_sum", {v});
        if (!out) return false;
        if (miss == 0) one_hot_ids_.push_back(out->id);
        return true;
    }

    bool matmul(const Val &a) {
        if (a.dtype() != DType::Float32 || a.rank() < 2 || a.rank() > 3) return false;
        const Dim K = a.shape()[a.rank() - 1];
        auto b = leaf_input(DType::Float32, {K, random_extent()});
        if (!b) return false;
        const double m = std::max(std::abs(a.lo), std::abs(a.hi)) * 3 * double(value(K));
        return bool(add({{"op", "matmul"}}, {a, *b}, false, -m, m));
    }
};

}  // namespace

Graph build_graph(const json &doc) {
    return graph_from_json(doc.dump());
}

json prune_unreachable(const json &doc) {
    std::map<int, const json *> by_id;
    for (const json &n : doc.at("nodes")) by_id[n.at("id").get<int>()] = &n;
    std::set<int> keep;
    std::vector<int> todo = doc.at("outputs").get<std::vector<int>>();
    while (!todo.empty()) {
        const int id = todo.back();
        todo.pop_back();
        if (!keep.insert(id).second || !by_id.count(id)) continue;
        for (const json &k : by_id[id]->value("inputs", json::array())) todo.push_back(k.get<int>());
    }
    json out = doc;
    out["nodes"] = json::array();
    for (const json &n : doc.at("nodes")) {
        if (keep.count(n.at("id").get<int>())) out["nodes"].push_back(n);
    }
    return out;
}

FuzzCase generate_case(uint32_t seed) {
    return Generator(seed).run();
}

FuzzCase case_from_json(const json &doc) {
    FuzzCase c;
    c.doc = doc;
    if (doc.contains("bindings")) c.bindings = doc.at("bindings").get<Bindings>();
    if (doc.contains("seed")) c.seed = doc.at("seed").get<uint32_t>();
    return c;
}

}  // namespace halogen::fuzz
