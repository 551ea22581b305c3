// Hand schedules of the embedding family. The group: out[t, d] (a view of the reduction R[t, 0, d]
// over the vocabulary v); R sums where(onehot[t, v], W[v, d], 0). The variants differ only in
// where R and the one-hot comparison are computed, and so in whether Halide can trim v.
#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/types.h"
#include "schedules/variants.h"

namespace halogen {

namespace {

struct EmbeddingFuncs {
    Halide::Func out, sum, onehot;   // onehot: the comparison node, before the where's broadcast
    Halide::Var t, d;                // the output's token and embedding-dim loops
};

EmbeddingFuncs find(LoweredGraph &lg) {
    const Node *r = nullptr;
    for (const auto &[node, level] : lg.group.compute_level) {
        if (node->op == Op::ReduceSum) r = node;
    }
    if (!r || lg.output->shape.size() != 2) {
        throw Error(fmt::format("embedding schedule: expected a [T, D] group with one vocabulary sum, got {}",
                                lg.group.describe()));
    }
    const Node *c = r->inputs[0].node().inputs[0].get();   // the where's condition, through its views
    while (is_view(c->op)) c = c->inputs[0].get();
    return {lg.out, lg.funcs.at(r), lg.funcs.at(c), lg.vars[0], lg.vars[1]};
}

int width(const Halide::Target &target) { return target.natural_vector_size(Halide::Float(32)); }

}  // namespace

void schedule_embedding_onehot(LoweredGraph &lg, const Halide::Target &) {
    // for t: { for v: m[v] = (v == ids[t]);  for d: acc = 0; for v: acc += m[v] ? W[v, d] : 0 }
    // The one-hot row is stored once per token (the seed's boolean buffer), so the reduction
    // reads a mask from memory and Halide cannot trim the v loop.
    EmbeddingFuncs f = find(lg);
    f.sum.compute_at(f.out, f.d);
    f.onehot.compute_at(f.out, f.t);
}

void schedule_embedding_onehot_permuted(LoweredGraph &lg, const Halide::Target &target) {
    // parallel t: for v: { onehot = (v == ids[t]); for d (vectorized): acc[d] += onehot ? W[v, d] : 0 }
    EmbeddingFuncs f = find(lg);
    const int w = width(target);
    f.out.parallel(f.t).vectorize(f.d, w, Halide::TailStrategy::GuardWithIf);
    f.sum.compute_at(f.out, f.t).vectorize(lg.vars[2], w, Halide::TailStrategy::GuardWithIf);
    Halide::RVar v = f.sum.rvars(0)[0];
    f.sum.update(0).reorder(lg.vars[2], v).vectorize(lg.vars[2], w, Halide::TailStrategy::GuardWithIf);
    f.onehot.compute_at(f.sum, v);
}

void schedule_embedding_onehot_inline(LoweredGraph &lg, const Halide::Target &target) {
    // parallel t: for d (vectorized): acc = sum over v in [ids[t], ids[t] + 1) of W[v, d]
    EmbeddingFuncs f = find(lg);
    const int w = width(target);
    Halide::Var dvo("d_vo"), dvi("d_vi");
    f.out.parallel(f.t).split(f.d, dvo, dvi, w, Halide::TailStrategy::GuardWithIf).vectorize(dvi);
    f.sum.compute_at(f.out, dvo).vectorize(lg.vars[2], w, Halide::TailStrategy::GuardWithIf);
    f.sum.update(0).vectorize(lg.vars[2], w, Halide::TailStrategy::GuardWithIf);
}

void schedule_embedding_gather(LoweredGraph &lg, const Halide::Target &target) {
    // parallel t_o: for t_i < 8: for d (vectorized): out[t, d] = 0 <= ids[t] < V ? W[ids[t], d] : 0
    // A task copies up to 8 rows: one row per task (16 KiB at D = 4096) spent more time in the
    // thread pool's queue than in the copy (perf/notes.md).
    if (lg.output->shape.size() != 2 || !lg.group.compute_level.empty()) {
        throw Error(fmt::format("embedding gather schedule: expected a rewritten [T, D] group, got {}",
                                lg.group.describe()));
    }
    constexpr int kRowsPerTask = 8;
    Halide::Var t = lg.vars[0], t_o("t_o"), t_i("t_i");
    lg.out.split(t, t_o, t_i, kRowsPerTask, Halide::TailStrategy::GuardWithIf)
        .parallel(t_o)
        .vectorize(lg.vars[1], 2 * width(target), Halide::TailStrategy::GuardWithIf);
}

}  // namespace halogen
