// The differential check of one graph under every strategy.
#include "tests/fuzz/runner.h"

#include <cmath>
#include <cstring>
#include <exception>
#include <memory>

#include <fmt/format.h>

#include "frontend/grouping/grouping.h"
#include "frontend/rewrites/one_hot_gather.h"
#include "halide_gen/compiler/program.h"
#include "tests/support/harness.h"

namespace halogen::fuzz {

std::string Strategy::name() const {
    return schedule + (rewrite ? "+rewrite" : "") + (fuse ? "" : "+unfused");
}

std::vector<Strategy> all_strategies() {
    std::vector<Strategy> out;
    for (bool fuse : {true, false}) {
        for (bool rewrite : {false, true}) {
            for (const char *s : {"none", "basic", "simd"}) out.push_back({s, rewrite, fuse});
        }
    }
    return out;
}

Strategy strategy_from_name(const std::string &name) {
    for (const Strategy &s : all_strategies()) {
        if (s.name() == name) return s;
    }
    throw Error(fmt::format("fuzz: no strategy named '{}'", name));
}

namespace {

// Caller memory placed one element past a 64-byte boundary (element-aligned, never
// vector-aligned), with a canary after it that a kernel writing past its end would overwrite.
class Misaligned {
public:
    Misaligned(DType t, const std::vector<int64_t> &shape, const void *init) : dtype_(t), shape_(shape) {
        int64_t n = 1;
        for (int64_t d : shape) n *= d;
        bytes_ = std::size_t(n) * dtype_size(t);
        store_.assign(bytes_ + 256, kCanary);
        offset_ = (64 - reinterpret_cast<uintptr_t>(store_.data()) % 64) % 64 + dtype_size(t);
        if (init && bytes_) std::memcpy(store_.data() + offset_, init, bytes_);
    }
    BufferRef ref() { return {store_.data() + offset_, dtype_, shape_}; }
    bool canary_intact() const {
        for (std::size_t k = offset_ + bytes_; k < store_.size(); ++k) {
            if (store_[k] != kCanary) return false;
        }
        return true;
    }
    Array array() const {
        Array a(dtype_, shape_);
        if (bytes_) std::memcpy(a.data<uint8_t>(), store_.data() + offset_, bytes_);
        return a;
    }

private:
    static constexpr uint8_t kCanary = 0x5A;
    DType dtype_;
    std::vector<int64_t> shape_;
    std::size_t bytes_ = 0, offset_ = 0;
    std::vector<uint8_t> store_;
};

// Float tolerance: reductions may be reassociated and float arithmetic contracted (FMA), so the
// error grows with the number of terms summed. `terms` counts them over every float sum.
struct Tolerance {
    double rtol = 0, atol = 0;
};

int64_t float_sum_terms(const Graph &g, const Bindings &b) {
    int64_t terms = 0;
    for (const Node *n : g.nodes()) {
        if (n->op != Op::ReduceSum || n->dtype != DType::Float32) continue;
        int64_t in = 1, out = 1;
        for (int64_t d : eval_shape(n->inputs[0].shape(), b, "fuzz")) in *= d;
        for (int64_t d : eval_shape(n->shape, b, "fuzz")) out *= d;
        terms += out ? in / out : 0;
    }
    return terms;
}

Tolerance tolerance(const Array &want, int64_t terms, bool float_math) {
    if (want.dtype() != DType::Float32) return {};
    double scale = 1;
    for (int64_t k = 0; k < want.size(); ++k) {
        const double w = std::abs(want.get(k));
        if (std::isfinite(w)) scale = std::max(scale, w);
    }
    const double rtol = float_math ? 2e-5 * double(1 + terms) : 0;
    return {rtol, rtol * scale};
}

bool has_float_math(const Graph &g) {
    for (const Node *n : g.nodes()) {
        if (n->dtype == DType::Float32 && (is_elementwise(n->op) || is_reduce(n->op)) && n->op != Op::Where &&
            n->op != Op::Neg && n->op != Op::Max && n->op != Op::Cast && n->op != Op::ReduceMax) {
            return true;
        }
    }
    return false;
}

// A comparable key of a grouping: anchors, members and compute levels.
std::vector<std::vector<int>> grouping_key(const std::vector<Group> &groups) {
    std::vector<std::vector<int>> key;
    for (const Group &g : groups) {
        std::vector<int> k = {g.anchor->id, -1};
        for (const Node *m : g.members) k.push_back(m->id);
        k.push_back(-2);
        for (const auto &[n, level] : g.compute_level) k.insert(k.end(), {n->id, level});
        key.push_back(k);
    }
    return key;
}

// `basic` only places reductions and fuses collapsed loops: on groups with neither it is `none`.
bool basic_is_none(const std::vector<Group> &groups) {
    for (const Group &g : groups) {
        if (!g.compute_level.empty()) return false;
        for (const auto &run : g.collapsed_axes) {
            if (run.size() > 1) return false;
        }
    }
    return true;
}

// One strategy: nullopt when every output matches the interpreter, else what went wrong.
std::optional<std::string> run_strategy(const Graph &g, const Graph &prepared, const Strategy &s, const Inputs &in,
                                        const Bindings &b, const std::vector<Array> &want, const Tolerance *tol,
                                        int *kernels) {
    try {
        GroupingOptions opts;
        opts.fuse_reductions = s.fuse;
        Program p(prepared, s.schedule, opts);
        if (kernels) *kernels += p.kernel_count();
        std::vector<std::unique_ptr<Misaligned>> bufs;
        BufferRefs refs;
        for (const auto &[name, a] : in) {
            bufs.push_back(std::make_unique<Misaligned>(a.dtype(), a.shape(), a.data<uint8_t>()));
            refs.emplace(name, bufs.back()->ref());
        }
        std::vector<std::unique_ptr<Misaligned>> outs;
        std::vector<BufferRef> out_refs;
        for (const Array &w : want) {
            outs.push_back(std::make_unique<Misaligned>(w.dtype(), w.shape(), nullptr));
            out_refs.push_back(outs.back()->ref());
        }
        p.run(refs, out_refs, b);
        for (std::size_t k = 0; k < want.size(); ++k) {
            if (!outs[k]->canary_intact()) return fmt::format("output {}: written past its end", k);
            auto near = testing::arrays_near(want[k], outs[k]->array(), tol[k].atol, tol[k].rtol);
            if (!near) return fmt::format("output {} {}: {}", k, g.outputs()[k].node().label(), near.message());
        }
        return std::nullopt;
    } catch (const std::exception &e) {
        return fmt::format("raised: {}", e.what());
    }
}

}  // namespace

CheckResult check_case(const FuzzCase &c, const std::optional<Strategy> &only) {
    return check_case(c, testing::random_inputs(build_graph(c.doc), c.bindings, c.seed), only);
}

CheckResult check_case(const FuzzCase &c, const Inputs &in, const std::optional<Strategy> &only) {
    CheckResult r;
    Graph g = build_graph(c.doc);
    std::vector<Array> want;
    try {
        want = interpret(g, in, c.bindings);
    } catch (const std::exception &e) {
        r.failures.push_back({only.value_or(Strategy{"none"}), fmt::format("interpreter raised: {}", e.what())});
        return r;
    }
    const int64_t terms = float_sum_terms(g, c.bindings);
    const bool fmath = has_float_math(g);
    std::vector<Tolerance> tol;
    for (const Array &w : want) tol.push_back(tolerance(w, terms, fmath));

    int rewrites = 0;
    Graph rewritten = rewrite_one_hot_reductions(g, &rewrites);
    r.rewrites = rewrites;
    // Unfused grouping is only a different strategy when some reduction was fused.
    // skip[rewrite][fuse]: unfused grouping is only a strategy of its own when some reduction
    // was fused; `basic` only when it schedules something `none` does not.
    bool unfused_same[2] = {false, false}, basic_same[2][2] = {{false, false}, {false, false}};
    try {
        for (int rw = 0; rw < 2; ++rw) {
            const Graph &h = rw ? rewritten : g;
            auto fused = group_graph(h), unfused = group_graph(h, {false});
            unfused_same[rw] = grouping_key(fused) == grouping_key(unfused);
            basic_same[rw][1] = basic_is_none(fused);
            basic_same[rw][0] = basic_is_none(unfused);
        }
    } catch (const std::exception &) {
        // reported by the strategies themselves
    }
    for (const Strategy &s : all_strategies()) {
        if (only) {
            if (s.name() != only->name()) continue;
        } else {
            if (s.rewrite && rewrites == 0) continue;
            if (!s.fuse && unfused_same[s.rewrite]) continue;
            if (s.schedule == "basic" && basic_same[s.rewrite][s.fuse]) continue;
        }
        ++r.strategies_run;
        auto bad = run_strategy(g, s.rewrite ? rewritten : g, s, in, c.bindings, want, tol.data(), &r.kernels);
        if (bad) r.failures.push_back({s, *bad});
    }
    return r;
}

}  // namespace halogen::fuzz
