// Hand schedules of the embedding family. The group: out[t, d] (a view of the reduction
// embedding_sum[t, 0, d] over the vocabulary v), which sums where(embedding_one_hot[t, v], W[v, d], 0)
// (frontend/nn/embedding.cpp names both). The variants differ only in where the sum and the
// one-hot comparison are computed, and so in whether Halide can trim v.
#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/nn/embedding.h"
#include "schedules/embedding/embedding.h"

namespace halogen::embedding {

namespace {

struct EmbeddingFuncs {
    Halide::Func out, sum, onehot;   // onehot: the comparison node, before the where's broadcast
    Halide::Var t, d;                // the output's token and embedding-dim loops
};

EmbeddingFuncs find(LoweredGraph &lg) {
    if (lg.output->shape.size() != 2) {
        throw ScheduleError(fmt::format("{}: expected a [T, D] group, got {}", lg.who, lg.group.describe()));
    }
    return {lg.out, lg.func(nn::names::kEmbeddingSum), lg.func(nn::names::kEmbeddingOneHot), lg.vars[0], lg.vars[1]};
}

int width(const Halide::Target &target) { return target.natural_vector_size(Halide::Float(32)); }

}  // namespace

void onehot(LoweredGraph &lg, const Halide::Target &) {
    // for t: { for v: m[v] = (v == ids[t]);  for d: acc = 0; for v: acc += m[v] ? W[v, d] : 0 }
    // The one-hot row is stored once per token (the seed's boolean buffer), so the reduction
    // reads a mask from memory and Halide cannot trim the v loop.
    EmbeddingFuncs f = find(lg);
    f.sum.compute_at(f.out, f.d);
    f.onehot.compute_at(f.out, f.t);
}

void onehot_permuted(LoweredGraph &lg, const Halide::Target &target) {
    // parallel t: for v: { onehot = (v == ids[t]); for d (vectorized): acc[d] += onehot ? W[v, d] : 0 }
    EmbeddingFuncs f = find(lg);
    const int w = width(target);
    f.out.parallel(f.t).vectorize(f.d, w, Halide::TailStrategy::GuardWithIf);
    f.sum.compute_at(f.out, f.t).vectorize(lg.vars[2], w, Halide::TailStrategy::GuardWithIf);
    Halide::RVar v = f.sum.rvars(0)[0];
    f.sum.update(0).reorder(lg.vars[2], v).vectorize(lg.vars[2], w, Halide::TailStrategy::GuardWithIf);
    f.onehot.compute_at(f.sum, v);
}

void onehot_inline(LoweredGraph &lg, const Halide::Target &target) {
    // parallel t: for d (vectorized): acc = sum over v in [ids[t], ids[t] + 1) of W[v, d]
    EmbeddingFuncs f = find(lg);
    const int w = width(target);
    Halide::Var dvo("d_vo"), dvi("d_vi");
    f.out.parallel(f.t).split(f.d, dvo, dvi, w, Halide::TailStrategy::GuardWithIf).vectorize(dvi);
    f.sum.compute_at(f.out, dvo).vectorize(lg.vars[2], w, Halide::TailStrategy::GuardWithIf);
    f.sum.update(0).vectorize(lg.vars[2], w, Halide::TailStrategy::GuardWithIf);
}

void gather(LoweredGraph &lg, const Halide::Target &target) {
    // parallel t_o: for t_i < 8: out[t, d] = 0 <= ids[t] < V ? W[ids[t], d] : 0, the row copied
    // (T < 8: for t, one task)
    //   D >= 4 pages:  for d_block: for d_io < 1024 / 2W: for d_stream < 4 (unrolled): 2W lanes
    //   shorter rows:  for d: 2W lanes
    // A task copies up to 8 rows: one row per task (16 KiB at D = 4096) spent more time in the
    // thread pool's queue than in the copy (perf/notes.md). A long row is read as four streams
    // a page (1024 floats) apart, so that the cache misses on a row's four pages overlap: the
    // hardware prefetcher does not cross a page, and a single stream stalls at each page start.
    if (lg.output->shape.size() != 2 || !lg.group.compute_level.empty()) {
        throw ScheduleError(fmt::format("{}: expected a rewritten [T, D] group, got {}", lg.who, lg.group.describe()));
    }
    constexpr int kRowsPerTask = 8, kPageFloats = 1024, kStreams = 4;
    const Halide::TailStrategy guard = Halide::TailStrategy::GuardWithIf;
    const int lanes = 2 * width(target);
    Halide::Var t = lg.vars[0], d = lg.vars[1], t_o("t_o"), t_i("t_i");
    Halide::Var d_page("d_page"), d_in("d_in"), d_block("d_block"), d_stream("d_stream"), d_io("d_io"), d_v("d_v");
    const Halide::OutputImageParam out = lg.out.output_buffer();
    const Halide::Expr long_rows = out.dim(0).extent() >= kStreams * kPageFloats;   // D: Halide dim 0
    const Halide::Expr few_rows = out.dim(1).extent() < kRowsPerTask;               // T: Halide dim 1
    auto copy_row = [&](Halide::Stage s, Halide::Var outer_row) {
        s.specialize(long_rows)
            .split(d, d_page, d_in, kPageFloats, guard)
            .split(d_page, d_block, d_stream, kStreams, guard)
            .split(d_in, d_io, d_v, lanes, guard)
            .reorder(d_v, d_stream, d_io, d_block, outer_row)
            .vectorize(d_v)
            .unroll(d_stream);
        s.vectorize(d, lanes, guard);
    };
    // Fewer rows than a task takes: one task, and no partial block of rows, whose copy Halide
    // would guard vector by vector (it does not partition loops nested in a loop's tail).
    copy_row(lg.out.specialize(few_rows), t);
    lg.out.split(t, t_o, t_i, kRowsPerTask, guard).parallel(t_o);
    copy_row(Halide::Stage(lg.out), t_i);
}

}  // namespace halogen::embedding
