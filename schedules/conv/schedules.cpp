// Hand schedules of the conv family (conv1d, conv2d, conv3d).
//
// tiled: the fused conv group (frontend/nn/conv.cpp: pad -> windows -> mul -> reduce_sum -> + bias),
// output out [N, K, O1..On], x = On (contiguous), y = O(n-1); W = vector width (16). The register
// tile runs along the output channels: one vector holds W channels of one output position.
//
//   wt = weight stored [C, R1..Rn, K] (compute_root, once per run)
//   parallel t = fused (task block, n): 4 rows y of every plane O1..O(n-2) (n == 1: 64 columns x)
//     padded = pad(x) for what the task reads, all C, vectorized (select/clamp done here once)
//     for plane O1..O(n-2), k tile (KT = 2W channels), row y of the block
//       for x tile (8 columns; 4 with AVX2's 16 registers)
//         acc[8 columns][KT] = 0                               (16 zmm registers)
//         for c in C:
//           unrolled R1..Rn, columns; vectorized KT:  acc += wt[c, r.., k] * padded[c, y+r.., x+rn]
//         out = acc + bias                                     (transposed back: 8-lane stores along x)
//
// Per channel and window tap that is 2 weight vector loads and 8 broadcasts of one padded input
// for 16 FMAs. Vectorizing along x instead (8 channels x 2 rows x W columns) reads the window at
// x + 1 and x + 2 as vectors that straddle two cache lines, and is the slower tile
// (perf/notes.md).
// A task holds a block of rows of every plane, so conv3d pads each input plane of its rows
// once per task, not once per output plane; conv1d's task is a block of columns.
//
// Tails, for any extent (1 included): the register tile's x extent is forced to a constant
// (bound_extent); at a tail it computes a few columns nobody stores from the padded copy, whose
// select/clamp make every index safe. The output's x and y splits are guarded (GuardWithIf), so
// nothing is written outside the caller's buffer. K >= KT (a run-time test on the output buffer)
// shifts the last channel tile inwards (recomputes a few channels, same values); K < KT runs a
// guarded twin of the nest with its channel vectors in a loop (correct, slower).
#include <vector>

#include <fmt/format.h>

#include "halide_gen/compiler/types.h"
#include "frontend/errors.h"
#include "frontend/nn/conv.h"
#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/schedule.h"
#include "schedules/conv/conv.h"

namespace halogen::conv {

namespace {

using Halide::TailStrategy;
using Halide::Var;
using Halide::VarOrRVar;

constexpr int kChannelVectors = 2;    // vectors of output channels per register tile (KT = 2W)
constexpr int kTaskRows = 4;          // output rows per parallel task (n >= 2)
constexpr int kTaskColumns = 64;      // output columns per parallel task (n == 1)

// The pieces of a conv group, by the names frontend/nn/conv.cpp gives them and the family's input
// "weight"; false for a group that is not a fused conv (no padding, or the reduction not fused).
struct ConvGroup {
    int spatial = 0;               // n
    Halide::Func reduce, pad, weight;
};

bool find_conv(const LoweredGraph &lg, ConvGroup &g) {
    const int n = int(lg.output->shape.size()) - 2;
    if (n < 1 || !lg.has_func(nn::names::kConvPad) || !lg.has_func(nn::names::kConvSum)) return false;
    if (lg.group.compute_level.size() != 1) return false;
    g.spatial = n;
    g.reduce = lg.func(nn::names::kConvSum);   // [N, G, K/G, O1..On, C/G, R1..Rn], reduced over the last n + 1 axes
    g.pad = lg.func(nn::names::kConvPad);
    g.weight = lg.func("weight");
    if (int(g.reduce.rvars(0).size()) != n + 1) {
        throw ScheduleError(fmt::format("{}: conv_sum reduces {} axes, expected {}", lg.who, g.reduce.rvars(0).size(), n + 1));
    }
    return true;
}

// The weight [K, C, R1..Rn] copied once per run, stored with K innermost ([C, R1..Rn, K]), so
// that the channels a register tile multiplies are one aligned run of floats.
void copy_weight_channels_innermost(LoweredGraph &lg, ConvGroup g) {
    const int rank = g.spatial + 2;
    std::vector<Var> wst{lg.vars[0]};
    for (int m = rank - 1; m >= 1; --m) wst.push_back(lg.vars[m]);
    g.weight.compute_root().reorder_storage(wst).reorder(std::vector<VarOrRVar>(wst.begin(), wst.end())).parallel(lg.vars[1]);
}

}  // namespace

void tiled(LoweredGraph &lg, const Halide::Target &target) {
    ConvGroup g;
    if (!find_conv(lg, g)) return apply_schedule(lg, "simd", target);
    const int n = g.spatial, rank = n + 2;
    const int width = target.natural_vector_size(Halide::Float(32));
    const int kt = kChannelVectors * width;
    // Output columns per register tile: 2 x 8 accumulators of AVX-512's 32 registers; of AVX2's 16,
    // 2 x 4 (with the 2 weight vectors and the broadcast, 11).
    const int kColumns = vector_registers(target) >= 32 ? 8 : 4;
    const TailStrategy guard = TailStrategy::GuardWithIf;
    Halide::Func out = lg.out;
    // K >= KT: the last channel tile shifts inwards, so every register tile has KT channels.
    Halide::Expr full_tiles = out.output_buffer().dim(halide_dim(rank, 1)).extent() >= kt;   // K: axis 1

    // The output's loops. vars[k] iterates axis k of every Func; the output is [N, K, O1..On].
    Var nn = lg.vars[0], k = lg.vars[1], x = lg.vars[rank - 1], y = lg.vars[rank - 2];
    Var ko("ko"), ki("ki"), xo("xo"), xi("xi"), yo("yo"), yi("yi"), t("t");
    auto tile = [&](Halide::Stage s, TailStrategy ktail) {
        s.split(k, ko, ki, kt, ktail);
        std::vector<VarOrRVar> order{xi, ki, xo};
        if (n >= 2) {
            s.split(x, xo, xi, kColumns, guard).split(y, yo, yi, kTaskRows, guard);
            order.push_back(yi);
            order.push_back(ko);
            for (int m = rank - 3; m >= 2; --m) order.push_back(lg.vars[m]);
        } else {   // yo, yi: the task's block of columns
            s.split(x, yo, yi, kTaskColumns, guard).split(yi, xo, xi, kColumns, guard);
            order.push_back(ko);
        }
        order.push_back(yo);
        order.push_back(nn);
        s.reorder(order).fuse(yo, nn, t).parallel(t).vectorize(xi).unroll(ki);
    };
    tile(out.specialize(full_tiles), TailStrategy::ShiftInwards);
    tile(Halide::Stage(out), guard);

    // The padded input, once per task. Its select and clamp make any index safe, which lets the
    // register tile read past the x tail.
    g.pad.compute_at(out, t).vectorize(lg.vars[rank - 1], width, guard);
    copy_weight_channels_innermost(lg, g);

    // The register tile: reduce [N, G, K/G, O1..On, C/G, R1..Rn] over KT channels x kColumns
    // columns of one row, stored channels innermost so its adds are dense vectors.
    Var rk = lg.vars[2], rx = lg.vars[2 + n], rko("rko"), rki("rki");
    std::vector<Var> storage{rk};
    for (int m = 0; m <= rank; ++m) {
        if (m != 2) storage.push_back(lg.vars[m]);
    }
    g.reduce.compute_at(out, xo).bound_extent(rx, kColumns).reorder_storage(storage);
    std::vector<Halide::RVar> r = g.reduce.rvars(0);   // C/G, R1..Rn
    // Full tiles unroll their columns, channel vectors and window taps. The guarded twin (K < KT)
    // keeps them as loops: its channel extent is not a constant, and unrolled it took LLVM
    // minutes to compile for a path that only small K take.
    auto reduce_tile = [&](Halide::Stage init, Halide::Stage update, bool full) {
        init.split(rk, rko, rki, width, guard).reorder(rki, rko, rx).vectorize(rki);
        update.split(rk, rko, rki, width, guard);
        std::vector<VarOrRVar> order{rki, rko, rx};
        for (int m = n; m >= 1; --m) order.push_back(r[m]);
        order.push_back(r[0]);
        update.reorder(order).vectorize(rki);
        if (!full) return;
        init.unroll(rko).unroll(rx);
        update.unroll(rko).unroll(rx);
        for (int m = 1; m <= n; ++m) update.unroll(r[m]);
    };
    reduce_tile(g.reduce.specialize(full_tiles), g.reduce.update(0).specialize(full_tiles), true);
    reduce_tile(Halide::Stage(g.reduce), g.reduce.update(0), false);
}

}  // namespace halogen::conv
