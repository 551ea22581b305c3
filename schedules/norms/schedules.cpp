// Hand schedules of the norms family (LayerNorm, RMSNorm, BatchNorm, GroupNorm).
//
// naive: every reduction is its own group (Variant::fuse_reductions = false), each left to
// Halide's defaults: one plain loop nest per reduction, one for the normalization.
//
// fused: one kernel per group, e.g. LayerNorm on x [R, D], two rows per task (see below):
//
//   parallel r_pair:                                 (the reductions' compute level)
//     for r in the pair:
//       for d_o (vectorized x W*K, K accumulators):  part1[r][v] += x[r, d]            (mean)
//     sum1[r] = horizontal sum of part1[r], for each r
//     for r in the pair:
//       for d_o (vectorized x W*K):                  part2[r][v] += (x[r, d] - mean)^2 (variance)
//     sum2[r] = horizontal sum of part2[r], for each r
//     for d_o (vectorized x W, GuardWithIf):
//       for r in the pair (unrolled):                out[r, d] = (x[r, d] - mean) * rstd * w[d] + b[d]
//
// The row of x is read from memory once and then twice more from L1/L2. The normalize pass
// writes both rows of a pair in one loop, so each vector of w and b is loaded once for two rows:
// a 4096-float row of x, w and b is 48 KiB, more than an L1 of 32 KiB, and with one row per
// task LayerNorm's normalize pass (which reads b too) is the slower one (perf/notes.md, *Norms at
// 1 thread*). Rows are paired only when the statistics are per row (a rank-2 output whose
// reductions sit at the row loop) and the group reads two or more such vectors: for RMSNorm's one
// weight row it does not pay, as two rows of x and w do not fit in the L1 where one row and w do.
// An odd last row is the split's guarded tail. The partial
// sums are stored lane-innermost, so that each accumulator stays one dense vector when a pair of
// rows has them. Each reduction's innermost reduced axis (the contiguous one) is split by W*K and
// the inner part rfactored into a small vector of partial sums; the split guards its tail
// (GuardWithIf), so any extent (1, 7, 33, 4096) is exact, and Halide's loop partitioning keeps
// the steady state unpredicated.
// The anchor's loops outside the outermost compute level are fused into one parallel loop; the
// innermost axis is vectorized with GuardWithIf (skipped when it is the constant 1, as in the
// reduction-anchored groups GroupNorm makes with symbolic channels).
//
// A streamed twin (a large output, halide_gen/compiler/streaming_stores.h) of a per-row norm
// (LayerNorm, RMSNorm) instead prefetches: each step of the normalize loop asks for the same vector
// of the next row of x, so that it comes from DRAM while this row is written, where a row is
// otherwise read, then written, in turns. Its rows are not paired: with the prefetch, one row per
// step is the faster (perf/notes.md, *One row per step, the next one prefetched*). So LayerNorm's
// twin and its ordinary kernel may round a value an ulp apart.
#include <algorithm>
#include <string>
#include <vector>

#include "frontend/nn/norm_scale.h"
#include "schedules/norms/norms.h"

namespace halogen::norms {

namespace {

constexpr int kAccumulators = 4;   // independent vector accumulators per reduction
constexpr int kRowsPerStep = 2;    // rows normalized together when the statistics are per row

int float_width(const Halide::Target &target) { return target.natural_vector_size(Halide::Float(32)); }

// How many per-column vectors (rank-1 buffers: a weight, a bias) the group reads beside its input.
int column_vectors(const LoweredGraph &lg) {
    return int(std::count_if(lg.group.reads.begin(), lg.group.reads.end(),
                             [](const Node *n) { return n->shape.size() == 1; }));
}

// Vectorizes reduction `f` (computed at `at`): its contiguous (last) reduced axis innermost, split
// by width * kAccumulators with a guarded tail, the inner part rfactored into partial sums that
// are computed at the same level and vectorized.
void vectorize_reduction(Halide::Func f, const Halide::LoopLevel &at, int width) {
    std::vector<Halide::RVar> rv = f.rvars(0);
    if (rv.empty()) return;
    Halide::Stage u = f.update(0);
    const Halide::RVar inner = rv.back();
    if (rv.size() > 1) {
        std::vector<Halide::VarOrRVar> order{inner};
        for (std::size_t k = 0; k + 1 < rv.size(); ++k) order.emplace_back(rv[k]);
        u.reorder(order);
    }
    const int lanes = width * kAccumulators;
    Halide::RVar ro(inner.name() + "_o"), ri(inner.name() + "_i");
    u.split(inner, ro, ri, lanes, Halide::TailStrategy::GuardWithIf);
    Halide::Var v(f.name() + "_lane");
    Halide::Func partial = u.rfactor(ri, v);
    // Lanes innermost in memory: Halide appends v as the last (outermost) dimension, and with
    // more than one row per compute level each accumulator would be a stride-2 gather.
    std::vector<Halide::Var> storage{v};
    for (const Halide::Var &a : partial.args()) {
        if (a.name() != v.name()) storage.push_back(a);
    }
    partial.reorder_storage(storage);
    Halide::Var vo(v.name() + "_o"), vi(v.name() + "_i");
    partial.compute_at(at).split(v, vo, vi, width).vectorize(vi).unroll(vo);
    partial.update(0).split(v, vo, vi, width).vectorize(vi).unroll(vo);   // kAccumulators vectors
    // The partial sums folded with one vector reduction (a shuffle tree), not 64 scalar adds.
    f.update(0).atomic().vectorize(ri);
    // A float reduce_max's last update turns its key back into float bits (halide_gen/compiler/lower.cpp):
    // one value per row here, left as it is.
    for (int k = 1; k < f.num_update_definitions(); ++k) f.update(k).unscheduled();
}

}  // namespace

namespace {

// The norms' input x when a streamed twin offers it for prefetching (ExternalInputs::prefetchable)
// and it is read row by row in the output's shape (LayerNorm's and RMSNorm's); nullptr else.
const Halide::ImageParam *row_input(const LoweredGraph &lg) {
    auto it = lg.prefetchable.find("x");
    return it != lg.prefetchable.end() && it->second.dimensions() == int(lg.output->shape.size()) ? &it->second : nullptr;
}

}  // namespace

void fused(LoweredGraph &lg, const Halide::Target &target) {
    const int rank = int(lg.output->shape.size());
    const int width = float_width(target);
    const bool vector_axis = rank > 0 && !(lg.output->shape[rank - 1] == Dim(1));

    // Loops outside every reduction's compute level (and outside the vector axis) fuse into one.
    int outer = vector_axis ? rank - 1 : rank;
    for (const auto &[node, level] : lg.group.compute_level) outer = std::min(outer, level);

    std::vector<Halide::Var> loop(lg.vars.begin(), lg.vars.begin() + rank);
    if (outer >= 1) {
        Halide::Var fused = loop[outer - 1];
        std::string name = fused.name();
        for (int k = outer - 2; k >= 0; --k) {
            name = lg.vars[k].name() + "_" + name;
            Halide::Var next(name);
            lg.out.fuse(fused, lg.vars[k], next);
            fused = next;
        }
        for (int k = 0; k < outer; ++k) loop[k] = fused;
        lg.out.parallel(fused);
    }
    if (vector_axis) {
        Halide::Var inner = lg.vars[rank - 1], vo(inner.name() + "_vo"), vi(inner.name() + "_vi");
        lg.out.split(inner, vo, vi, width, Halide::TailStrategy::GuardWithIf).vectorize(vi);
        loop[rank - 1] = vo;
        const Halide::ImageParam *x = rank == 2 && outer == 1 ? row_input(lg) : nullptr;
        if (x) {   // a streamed LayerNorm or RMSNorm: one row per step, the next one prefetched
            lg.out.prefetch(*x, vo, loop[0], 1, Halide::PrefetchBoundStrategy::NonFaulting);
        } else if (rank == 2 && outer == 1 && column_vectors(lg) >= 2) {   // e.g. LayerNorm's w and b
            Halide::Var pair(loop[0].name() + "_pair"), row(loop[0].name() + "_in");
            lg.out.split(loop[0], pair, row, kRowsPerStep, Halide::TailStrategy::GuardWithIf)
                .reorder(vi, row, vo, pair)
                .unroll(row);
            loop[0] = pair;
        }
    }

    int deepest = 0;   // the innermost compute level of a statistic
    for (const auto &[node, level] : lg.group.compute_level) {
        Halide::Func f = lg.funcs.at(node);
        if (f.name() == lg.out.name()) continue;
        const Halide::LoopLevel at = level == 0 ? Halide::LoopLevel::root() : Halide::LoopLevel(lg.out, loop[level - 1]);
        f.compute_at(at);
        vectorize_reduction(f, at, width);
        deepest = std::max(deepest, level);
    }
    // 1 / sqrt(var + eps) once per row (per channel, per group), where its statistics are: inlined,
    // it sits in the normalize loop, and LLVM cannot hoist it out once eps is a load (the store
    // into the output might alias it).
    if (lg.has_func(nn::names::kNormScale) && rank >= 2) {
        const int level = deepest > 0 ? deepest : rank - 1;
        lg.func(nn::names::kNormScale).compute_at(lg.out, loop[level - 1]);
    }
}

}  // namespace halogen::norms
