// Hand schedules of the conv family (conv1d, conv2d, conv3d).
//
// tiled: the fused conv group (frontend/nn/conv.cpp: pad -> windows -> mul -> reduce_sum -> + bias),
// output out [N, K, O1..On], x = On (contiguous), y = O(n-1) (n >= 2); W = vector width (16):
//
//   wt = weight stored [C, R1..Rn, K] (compute_root, once per run)
//   padded = pad(x), all of it, parallel over n                 [n == 1 only]
//   parallel t = fused (y tile of 4 rows, O1..O(n-2), n)       (n == 1: fused (k tile, n))
//     padded = pad(x) for every row the task reads, all C, vectorized (select/clamp done here once)
//                                                               [n >= 2 only]
//     for k tile (KT = 8 channels)                              [n == 1: part of t]
//       for 2-row pair in the y tile                            [n >= 2]
//         for x tile (W lanes; 3W when n == 1)
//           acc[KT][2 rows][W] = 0                              (16 zmm registers; n == 1: KT x 3W, 24)
//           for c in C:
//             unrolled R1..Rn, KT, rows; vectorized W:  acc += wt[c, r.., k] * padded[c, y+r.., x+rn]
//           out = acc + bias                                    (vectorized, unrolled)
//
// The reduction is computed at the x tile with its pure vars innermost, the channel reduction
// outermost in its update and the window unrolled: 144 FMAs, 12 vector loads and 72 broadcasts
// per channel, no spills (checked in the assembly). Reading the weight in place spilled (KT
// strided pointers); the K-innermost copy makes the KT weights adjacent floats.
//
// conv1d pads its input once per run: a task there is one k tile of one sample, so padding per
// task copied the whole sample (C x L) once per k tile, 32 times at C = K = 256, and took about
// as long as the arithmetic (halogen_perf, conv1d 8x256x1024, 1 thread: 0.55x oneDNN on NCHW
// before, 1.03x padded once with 3W-lane tiles). With n >= 2 a task's rows are a slice of the sample,
// so the per-task copy stays small and in cache.
//
// Tails, for any extent (1 included): the register tile's x and y extents are forced to
// constants (bound_extent); at a tail it computes a few lanes nobody stores from the padded copy,
// whose select/clamp make every index safe. The output's x and y splits are guarded
// (GuardWithIf), so nothing is written outside the caller's buffer. K >= KT (a run-time test on
// the output buffer) shifts the last channel tile inwards (recomputes a few channels, same
// values); K < KT runs a guarded copy of the nest (correct, slower).
#include <vector>

#include "frontend/node.h"
#include "schedules/schedule.h"
#include "schedules/variants.h"

namespace halogen {

namespace {

using Halide::TailStrategy;
using Halide::Var;
using Halide::VarOrRVar;

constexpr int kChannelTile = 8;   // output channels per register tile (KT)
constexpr int kRows = 2;          // output rows per register tile (n >= 2)
constexpr int kRowTile = 2;       // register-tile rows per parallel task (n >= 2)

// The pieces of a conv group as frontend/nn/conv.cpp builds it, or false if the group is not one.
struct ConvGroup {
    int spatial = 0;               // n
    Halide::Func reduce, pad, weight;
};

bool find_conv(const LoweredGraph &lg, ConvGroup &g) {
    const int rank = int(lg.output->shape.size());
    const int n = rank - 2;
    if (n < 1 || lg.group.compute_level.size() != 1) return false;
    const auto &[red, level] = *lg.group.compute_level.begin();
    if (red->op != Op::ReduceSum || int(red->shape.size()) != 2 * rank || level != rank) return false;
    // reduce [N, G, K/G, O1..On, C/G, R1..Rn], reduced over the last n + 1 axes.
    if (int(red->axes.size()) != n + 1) return false;
    for (int m = 0; m <= n; ++m) {
        if (red->axes[m] != 3 + n + m) return false;
    }
    const Node *pad = nullptr;
    for (const auto &[node, f] : lg.funcs) {
        if (node->op != Op::Pad) continue;
        if (pad || int(node->shape.size()) != rank) return false;
        pad = node;
    }
    if (!pad) return false;
    // The weight: the other input of the group's rank (x [N, C, L..] is the pad's input).
    const Node *weight = nullptr;
    for (const auto &[node, f] : lg.funcs) {
        if (node->op != Op::Input || int(node->shape.size()) != rank || node == pad->inputs[0].get()) continue;
        if (weight) return false;
        weight = node;
    }
    if (!weight) return false;
    g.weight = lg.funcs.at(weight);
    g.spatial = n;
    g.reduce = lg.funcs.at(red);
    g.pad = lg.funcs.at(pad);
    return int(g.reduce.rvars(0).size()) == n + 1;
}

}  // namespace

void schedule_conv_tiled(LoweredGraph &lg, const Halide::Target &target) {
    ConvGroup g;
    if (!find_conv(lg, g)) return apply_schedule(lg, "simd", target);
    const int n = g.spatial, rank = n + 2;
    const int width = target.natural_vector_size(Halide::Float(32));
    const int kt = kChannelTile;
    const int yr = n >= 2 ? kRows : 1;               // rows per register tile
    const int xt = width * (n >= 2 ? 1 : 3);         // lanes per register tile
    const int yt = kRowTile * yr;                    // rows per parallel task
    Halide::Func out = lg.out;

    // The output's loops. vars[k] iterates axis k of every Func; the output is [N, K, O1..On].
    Var nn = lg.vars[0], k = lg.vars[1], x = lg.vars[rank - 1];
    Var ko("ko"), ki("ki"), xo("xo"), xi("xi"), yo("yo"), yi("yi"), yio("yio"), yii("yii"), t("t");
    const TailStrategy guard = TailStrategy::GuardWithIf;
    auto tile = [&](Halide::Stage s, TailStrategy ktail) {
        s.split(k, ko, ki, kt, ktail).split(x, xo, xi, xt, guard);
        std::vector<VarOrRVar> order;
        std::size_t first;   // the first loop outside the tasks' work, fused into t
        if (n >= 2) {
            s.split(lg.vars[rank - 2], yo, yi, yt, guard).split(yi, yio, yii, yr, guard);
            order = {xi, ki, yii, xo, yio, ko, yo};
            first = order.size() - 1;
            for (int m = rank - 3; m >= 2; --m) order.push_back(lg.vars[m]);
        } else {
            order = {xi, ki, xo, ko};
            first = order.size() - 1;
        }
        order.push_back(nn);
        s.reorder(order);
        Var inner = Halide::Var(order[first].name());
        for (std::size_t m = first + 1; m < order.size(); ++m) {
            Var fused = m + 1 == order.size() ? t : Var("t" + std::to_string(m));
            s.fuse(inner, Var(order[m].name()), fused);
            inner = fused;
        }
        s.parallel(t).vectorize(xi, width).unroll(ki);
        if (xt > width) s.unroll(xi);
        if (n >= 2) s.unroll(yii);
    };
    // K >= KT: the last channel tile shifts inwards (recomputes a few channels), so the register
    // tile always has KT channels. Otherwise (K < KT) the channel loop is guarded.
    Halide::Expr kext = out.output_buffer().dim(rank - 2).extent();
    tile(out.specialize(kext >= kt), TailStrategy::ShiftInwards);
    tile(Halide::Stage(out), guard);

    // The padded input, once per parallel task (conv1d: once per run). Its select and clamp make
    // any index safe, which lets the register tile below read past the x and y tails.
    if (n >= 2) g.pad.compute_at(out, t).vectorize(lg.vars[rank - 1], width, guard);
    else g.pad.compute_root().parallel(lg.vars[0]).vectorize(lg.vars[rank - 1], width, guard);

    // The weight [K, C, R1..Rn] copied once per run, stored with K innermost ([C, R1..Rn, K]) so
    // that the KT weights a register tile multiplies are adjacent floats at constant offsets
    // (read in place, their addresses are KT strided pointers and spill registers).
    {
        std::vector<Var> wst{lg.vars[0]};
        for (int m = rank - 1; m >= 1; --m) wst.push_back(lg.vars[m]);
        g.weight.compute_root().reorder_storage(wst).reorder(std::vector<VarOrRVar>(wst.begin(), wst.end())).parallel(lg.vars[1]);
    }

    // The register tile: reduce [N, G, K/G, O1..On, C/G, R1..Rn] over KT channels x yr rows x xt
    // lanes. The x and y extents are forced to constants (bound_extent): at a tail the tile
    // computes a few outputs nobody stores, from the zero padding, instead of guarding its lanes.
    Var rk = lg.vars[2], rx = lg.vars[2 + n], ry = lg.vars[1 + n];
    Var rko("rko"), rki("rki"), rxo("rxo"), rxi("rxi");
    g.reduce.compute_at(out, xo).bound_extent(rx, xt);
    if (n >= 2) g.reduce.bound_extent(ry, yr);
    g.reduce.split(rk, rko, rki, kt, guard).split(rx, rxo, rxi, width, guard);
    g.reduce.reorder(rxi, rxo, rki, rko).vectorize(rxi).unroll(rxo).unroll(rki);
    if (n >= 2) g.reduce.unroll(ry);
    std::vector<Halide::RVar> r = g.reduce.rvars(0);   // C/G, R1..Rn
    Halide::Stage u = g.reduce.update(0);
    u.split(rk, rko, rki, kt, guard).split(rx, rxo, rxi, width, guard);
    std::vector<VarOrRVar> order{rxi, rxo};
    if (n >= 2) order.push_back(ry);
    order.push_back(rki);
    for (int m = n; m >= 1; --m) order.push_back(r[m]);
    order.push_back(r[0]);
    order.push_back(rko);
    u.reorder(order).vectorize(rxi).unroll(rxo).unroll(rki);
    if (n >= 2) u.unroll(ry);
    for (int m = 1; m <= n; ++m) u.unroll(r[m]);
}

}  // namespace halogen
