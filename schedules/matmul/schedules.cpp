// Hand schedules of the matmul families on weights as checkpoints store them (W [N, K]), and the
// packing into panels.
//
// dot: the dot-product form over contiguous K (llama.cpp's tinyBLAS), no packing:
//
//   x2 = x copied with rows kRowPad floats longer                (once per call)
//   parallel task (kTilesPerTask tiles of kRows weight rows):
//     for tile of kRows rows:
//       part[M rounded up to kTokens][kRows][16] = 0
//       for token group g of kTokens:
//         for k_o in K / 16:                                     (a masked last step for K % 16)
//           part[g + j][n][:] += x2[g + j, 16 k_o ..] * W[n, 16 k_o ..]   (8 + 3 loads, 24 FMAs)
//       out[t, n] = horizontal sum of part[t][n] (+ bias[n])     (stores guarded past N)
//
// 8 rows x 3 tokens keeps 24 zmm accumulators; one token (decode) takes a path of its own, 8
// accumulators, W read once. The tile's rows stay in the L1/L2 across the token groups; x is read
// once per tile, which caps the kernel when M x K outgrows the L2 (the packed families' kernels
// read it once per panel of 32 outputs). The copy of x: with K = 2048 or 8192 its rows lie a
// multiple of 4 KiB apart, all in one set of the L1. Edges: the recipe reads x and W clamped
// (kClampInputs), so a tile computes whole (rows past N and tokens past M repeat the last one).
//
// transpose: the packing W [32*P, K] -> [P, K, 32], a copy. A task packs one panel, 16 k at a
// time: the 32 x 16 block of W is loaded along k (dense vectors) into a small buffer and stored
// along the panel's 32 rows.
#include "schedules/matmul/linear_group.h"
#include "schedules/matmul/matmul.h"

#include "halide_gen/compiler/schedule.h"

namespace halogen::matmuls {

namespace {

using Halide::TailStrategy;
using Halide::Var;

constexpr int kRows = 8;            // weight rows per register tile
constexpr int kTokens = 3;          // tokens per register tile
constexpr int kTilesPerTask = 8;    // row tiles per parallel task: 64 rows of W
constexpr int kRowPad = 16;         // floats added to each row of the copy of x

}  // namespace

void dot(LoweredGraph &lg, const Halide::Target &target) {
    LinearGroup g;
    if (!find_linear(lg, g)) return apply_schedule(lg, "simd", target);
    const int width = target.natural_vector_size(Halide::Float(32));
    const TailStrategy guard = TailStrategy::GuardWithIf;

    // The output's loops: tiles of kRows weight rows, every token, kTilesPerTask tiles per task.
    Var no("no"), ni("ni"), task("task");
    g.out.split(g.n, no, ni, kRows, guard).split(no, task, no, kTilesPerTask, guard).reorder(ni, g.m, no, task).parallel(task);

    // Partial sums of width lanes along K, rfactored out of the sum, for a tile of rows and every
    // token: tokens in groups of kTokens (rounded up: x is read clamped), K the loop inside.
    Halide::RVar ro("k_o"), ri("k_i");
    g.sum.update().split(g.r, ro, ri, width, guard);
    Var lane("lane");
    Halide::Func part = g.sum.update().rfactor(ri, lane);
    part.reorder_storage(lane, g.u, g.n, g.m);
    const Halide::LoopLevel tile(g.out, no);
    part.compute_at(tile).bound_extent(g.n, kRows);
    part.reorder(lane, g.u, g.n, g.m).vectorize(lane).unroll(g.n);
    Halide::Stage update = part.update();
    update.specialize(g.tokens == 1).reorder(lane, g.u, g.n, g.m, ro).vectorize(lane).unroll(g.n);
    Var mo("mo"), mi("mi");
    update.split(g.m, mo, mi, kTokens, TailStrategy::RoundUp)
        .reorder(lane, g.u, g.n, mi, ro, mo)
        .vectorize(lane)
        .unroll(g.n)
        .unroll(mi);
    g.sum.compute_at(tile).bound_extent(g.n, kRows).unroll(g.n);
    g.sum.update().atomic().vectorize(ri).unroll(g.n);

    Var k = lg.vars[1], t = lg.vars[0];
    g.x.compute_root()
        .bound(k, 0, Halide::select(g.depth > 0, g.depth + kRowPad, 0))
        .vectorize(k, width, guard)
        .parallel(t);
}

void transpose(LoweredGraph &lg, const Halide::Target &target) {
    // out [P, K, 32] (Halide: i, k, p) = weight [P, 32, K] (Halide: k, i, p) with its last two axes swapped.
    if (lg.output->shape.size() != 3 || !lg.has_func("weight")) return apply_schedule(lg, "simd", target);
    const int width = target.natural_vector_size(Halide::Float(32));
    Var p = lg.vars[0], k = lg.vars[1], i = lg.vars[2], ko("ko"), ki("ki");
    lg.out.split(k, ko, ki, width, TailStrategy::GuardWithIf).reorder(i, ki, ko, p).vectorize(i, width).unroll(ki).parallel(p);
    // The block of W a step stores: 32 rows of 16 k, loaded along k; whole at the K tail (the
    // recipe reads W clamped), so that its rows are a constant 16 floats apart.
    Var wk = lg.vars[2], wi = lg.vars[1];
    lg.func("weight").in().compute_at(lg.out, ko).bound_extent(wk, width).vectorize(wk).unroll(wi);
}

}  // namespace halogen::matmuls
