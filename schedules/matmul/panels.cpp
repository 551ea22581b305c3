// Hand schedules of the matmul families on packed weights (matmul_packed, matmul_packed_bf16):
// W [P, K, 32], read as W[n, k] = packed[n / 32, k, n % 32] (nn::unpack_panels), so that a panel
// of 32 outputs is one contiguous stream of vectors. The register tile runs along the outputs:
// for each k, 2 vector loads of the panel and one broadcast of x per token, one FMA per vector and
// token (BLAS's outer-product micro-kernel). bfloat16 panels are widened to float32 by a shift on
// the load. Both variants give each task one panel and compute it against every token of the
// call, so that W is read from memory once per call whatever M is:
//
//   x2 = x copied with rows kRowPad floats longer                (once per call)
//   parallel p in P:                                             (one panel per task)
//     acc[M rounded up to G][32] = 0
//     for k block of B:                                          (gemv only)
//       for token group g of G:
//         for k in the block:  acc[g + j][:] += x2[g + j, k] * W[p, k, :]   (2 loads, G broadcasts, 2 G FMAs)
//     out[.., 32 p ..] = acc                                     (stores guarded past M)
//
// gemv (few tokens): K in blocks of kBlock (a piece of the panel kept in the L1 across the token
// groups); one token (decode) takes a path of its own: the panel's first and second half of K
// read side by side, two streams of W per task, with an accumulator per vector of the panel and
// half, added at the end; 2 to 4 tokens G = 4 (8
// accumulators, at most 2 token rows that nobody reads); 5 to 16 tokens G = 8 (16 accumulators: 2
// panel loads and 8 broadcasts feed 16 FMAs, where G = 4 feeds 8 with 6 loads).
// tiled (GEMM): G = 12, 24 zmm accumulators, no K blocking: the panel (32 x K, 256 KiB for K =
// 2048) stays in the L2 across the token groups. Up to 16 tokens it runs gemv's loops (specialized
// on M), which read the panel once and waste at most 7 token rows where G = 12 wastes up to 11, so
// the default variant serves decode and prefill alike. The Gs are AVX-512's (32 registers, a panel
// 2 vectors); with AVX2's 16 registers and a panel of 4 vectors every group is G = 2
// (panel_groups).
//
// The copy of x: with K = 2048 or 8192 its rows lie a multiple of 4 KiB apart, and the G token
// streams of a group would all fall in one set of the L1. Edges: the recipe reads x and the panels
// clamped (kClampInputs): a group computes whole, tokens past M repeating the last one.
#include "schedules/matmul/linear_group.h"
#include "schedules/matmul/matmul.h"

#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/schedule.h"

namespace halogen::matmuls {

namespace {

using Halide::TailStrategy;
using Halide::Var;

constexpr int kSmallTokens = 4;   // up to this many tokens `gemv` takes its small groups
constexpr int kFewTokens = 16;    // up to this many tokens `tiled` takes `gemv`'s groups
constexpr int kBlock = 256;       // k per block of `gemv`: 32 KiB of a float32 panel
constexpr int kRowPad = 16;       // floats added to each row of the copy of x

// The sum's update for the panel's 32 outputs and every token: tokens in groups of `group`
// (rounded up: the recipe reads x clamped), over blocks of `block` k (0: K whole).
void token_groups(Halide::Stage update, const LinearGroup &g, int width, int group, int block) {
    Var go("go"), gi("gi");
    Halide::RVar ko("k_o"), ki("k_i");
    update.split(g.m, go, gi, group, TailStrategy::RoundUp);
    if (block > 0) {
        update.split(g.r, ko, ki, block, TailStrategy::GuardWithIf).reorder(g.n, gi, g.u, ki, go, ko);
    } else {
        update.reorder(g.n, gi, g.u, g.r, go);
    }
    update.vectorize(g.n, width).unroll(g.n).unroll(gi);
}

// One panel per task, the sum kept for its 32 outputs and every token. `tiles`: a call of more than
// kFewTokens tokens takes the GEMM's groups, a smaller one the GEMV's; without, every call does.
void panel_tasks(LoweredGraph &lg, const Halide::Target &target, bool tiles) {
    LinearGroup g;
    if (!find_linear(lg, g)) return apply_schedule(lg, "simd", target);
    const int width = target.natural_vector_size(Halide::Float(32));
    Var p("p"), ni("ni");
    g.out.split(g.n, p, ni, int(kPanelRows), TailStrategy::GuardWithIf)
        .reorder(ni, g.m, p)
        .vectorize(ni, width, TailStrategy::GuardWithIf)
        .parallel(p);
    g.sum.compute_at(g.out, p).bound_extent(g.n, int(kPanelRows));
    g.sum.vectorize(g.n, width).unroll(g.n);

    const PanelGroups groups = panel_groups(target);
    Halide::Stage update = g.sum.update();
    // One token (decode): the panel against one row of x, its K in kDecodeStreams parts read side by
    // side (`parts`, an accumulator per vector of the panel and part), then the parts added.
    {
        Halide::Stage one = update.specialize(g.tokens == 1);
        Halide::RVar ko("k_part"), ki("k_in");
        one.split(g.r, ko, ki, (g.depth + kDecodeStreams - 1) / kDecodeStreams, TailStrategy::GuardWithIf);
        Var part("part");
        Halide::Func parts = one.rfactor(ko, part);
        one.reorder(g.n, ko, g.u, g.m).vectorize(g.n, width).unroll(g.n);
        parts.compute_at(g.sum, g.m).bound(part, 0, kDecodeStreams).vectorize(g.n, width).unroll(g.n).unroll(part);
        parts.update().reorder(g.n, part, g.u, g.m, ki).vectorize(g.n, width).unroll(g.n).unroll(part);
    }
    // Specializations are tried in the order they are made: 1, then up to kSmallTokens tokens
    // (where the small groups differ from the others).
    if (groups.small != groups.few) token_groups(update.specialize(g.tokens <= kSmallTokens), g, width, groups.small, kBlock);
    if (tiles) {
        token_groups(update.specialize(g.tokens <= kFewTokens), g, width, groups.few, kBlock);
        token_groups(update, g, width, groups.tiles, 0);
    } else {
        token_groups(update, g, width, groups.few, kBlock);
    }

    // x copied with rows kRowPad floats longer: its token rows then fall in different sets of the L1.
    Var k = lg.vars[1], t = lg.vars[0];
    g.x.compute_root()
        .bound(k, 0, Halide::select(g.depth > 0, g.depth + kRowPad, 0))
        .vectorize(k, width, TailStrategy::GuardWithIf)
        .parallel(t);
}

}  // namespace

PanelGroups panel_groups(const Halide::Target &target) {
    // A group of G tokens holds G accumulators per vector of the panel, beside the panel's vectors
    // and one broadcast: AVX-512, 2 vectors: 4 (8), 8 (16), 12 (24 of 32 registers); AVX2, 4
    // vectors: 2 (8 of 16 registers; 3 would need 17).
    if (vector_registers(target) >= 32) return {4, 8, 12};
    return {2, 2, 2};
}

void tiled(LoweredGraph &lg, const Halide::Target &target) { panel_tasks(lg, target, true); }

void gemv(LoweredGraph &lg, const Halide::Target &target) { panel_tasks(lg, target, false); }

}  // namespace halogen::matmuls
