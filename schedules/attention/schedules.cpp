// Hand schedules of the attention family (attention.h), on the Funcs the nn layer names
// (frontend/nn/attention.h). Halide's loops of the output out(d, r, g, t) are d innermost, then the
// query heads r of one KV head g, then g, then the queries t.
//
// naive: the grouping pass with every reduction its own kernel (kUnfused): the scores q.k, the row
// max, the row sum of exp and the weighted sum are four loop nests, with [T, G, R, S] of scores
// (and its max and sums) in memory between them, each under the generic "simd" schedule
// (innermost axis vectorized, outermost parallel).
//
// fused: one kernel, two passes over each task's keys:
//   parallel over (g, tile of kTileQ queries):       (a task: kTileQ * R rows sharing K and V rows)
//     scores[ti][r][s] = q . k[s]      for every key s, rows of the tile (dot form along D: k is
//                                      position-major, so D is the contiguous axis)
//     max[ti][r], then e[ti][r][s] = exp(score - max) (0 where masked), sum[ti][r]
//     for ti: acc[r][d] += e[ti][r][s] * v[s][d] for every s, the R rows of one KV head together,
//             so each v row is loaded once per token and reused R times; out = acc / sum.
// The tile's scores and probabilities (kTileQ * R * S floats, 256 KiB at S = 2048, R = 4) live in
// the task's L2, never the T x S matrix. This is a two-pass softmax with the max computed per tile
// at the tile's compute level, not an online one: the graph's max is a reduction over all of S, and
// a schedule cannot turn it into a running max (that would be another algorithm). Masked keys are
// computed and then multiplied by 0: the graph's reductions run over all of S with the causal mask
// as a value (`where`), and a schedule cannot shrink a reduction's domain (see docs/schedules.md).
#include "schedules/attention/attention.h"

#include "halide_gen/compiler/schedule.h"

namespace halogen::attention {

namespace {

constexpr int kTileQ = 8;   // queries per task

// Vectorizes the sum `f` over its last reduced axis: split by `width` (tail guarded), the inner
// part rfactored into one vector of partial sums per output point, computed inside f's own loop
// over its pure axis `at` (so it stays in registers), folded by one vector reduction.
void vectorize_sum(Halide::Func f, const Halide::Var &at, int width) {
    std::vector<Halide::RVar> rv = f.rvars(0);
    const Halide::RVar inner = rv.back();
    Halide::RVar ro(inner.name() + "_o"), ri(inner.name() + "_i");
    f.update(0).split(inner, ro, ri, width, Halide::TailStrategy::GuardWithIf);
    Halide::Var lane(f.name() + "_lane");
    Halide::Func partial = f.update(0).rfactor(ri, lane);
    partial.compute_at(f, at).vectorize(lane);
    partial.update(0).vectorize(lane);
    f.update(0).atomic().vectorize(ri);
}

}  // namespace

void naive(LoweredGraph &lg, const Halide::Target &target) { apply_schedule(lg, "simd", target); }

void fused(LoweredGraph &lg, const Halide::Target &target) {
    const int width = target.natural_vector_size(Halide::Float(32));
    const Halide::Var t = lg.vars[0], g = lg.vars[1], r = lg.vars[2], d = lg.vars[3];
    const Halide::Var to("t_tile"), ti("t_in"), task("task"), dv("d_vec");

    Halide::Func out = lg.out;
    out.split(t, to, ti, kTileQ, Halide::TailStrategy::GuardWithIf)
        .split(d, d, dv, width, Halide::TailStrategy::GuardWithIf)
        .reorder(dv, d, r, ti, g, to)
        .fuse(g, to, task)
        .parallel(task)
        .vectorize(dv);
    const Halide::LoopLevel per_task(out, task), per_token(out, ti);

    // q.k for every row of the tile and every key.
    Halide::Func scores = lg.func("attn_scores");
    scores.compute_at(per_task);
    vectorize_sum(scores, lg.vars[3], width);   // per score (s is axis 3)

    // Row statistics and probabilities, once per row of the tile.
    Halide::Func mx = lg.func("attn_max"), e = lg.func("attn_exp"), sum = lg.func("attn_sum");
    mx.compute_at(per_task);
    for (int k = 0; k < mx.num_update_definitions(); ++k) mx.update(k).unscheduled();
    e.compute_at(per_task).vectorize(lg.vars[3], width, Halide::TailStrategy::GuardWithIf);
    sum.compute_at(per_task);
    sum.update(0).unscheduled();

    // The weighted sum: the R rows of one KV head for each key, vectorized along d.
    Halide::Func acc = lg.func("attn_out");
    acc.compute_at(per_token);
    const Halide::Var ad = lg.vars[4];   // attn_out is [T, G, R, 1, D]: d is its axis 4
    acc.vectorize(ad, width, Halide::TailStrategy::GuardWithIf);
    std::vector<Halide::RVar> rs = acc.rvars(0);
    Halide::Var adv("acc_d_vec");
    acc.update(0)
        .split(ad, ad, adv, width, Halide::TailStrategy::GuardWithIf)
        .reorder(adv, ad, lg.vars[2], rs.back())
        .vectorize(adv);
}

}  // namespace halogen::attention
