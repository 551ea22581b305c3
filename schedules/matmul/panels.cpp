// Hand schedules of the matmul families on packed weights (matmul_packed, matmul_packed_bf16), and
// of any group of Linears whose weights all come packed, with what they feed (linear_group.h: the
// llama model's projections with their norm, RoPE, SiLU times up or residual add):
// W [P, K, 32], read as W[n, k] = packed[n / 32, k, n % 32] (nn::unpack_panels), so that a panel
// of 32 outputs is one contiguous stream of vectors. The register tile runs along the outputs:
// for each k, the panels' vector loads and one broadcast of x per token, one FMA per vector and
// token (BLAS's outer-product micro-kernel). bfloat16 panels are widened to float32 by a shift on
// the load. A task is kTaskPanels (2) panels, computed against every token of the call, so that W
// is read from memory once per call whatever M is:
//
//   stat = each row statistic (a norm's mean of squares)         (once per call)
//   x2 = each Linear's x copied with rows kRowPad floats longer   (once per call)
//   parallel task of 2 panels (or one head of d = 32k outputs, for an output [M, heads, d]):
//     for each Linear's sum:
//       acc[M rounded up to G][64] = 0
//       for each panel of the tile (both at once when tile.panels = 2):
//         for token group g of G:
//           for k:  acc[g + j][vectors] += x2[g + j, k] * W[panels, k, :]   (loads, G broadcasts, FMAs)
//     out[.., task ..] = the epilogue of the sums                 (stores guarded past M and N)
//
// The tiles (panel_tiles; AVX-512, 32 registers, a panel 2 vectors):
//   one token (decode): each panel's K in kDecodeStreams parts side by side, both panels: four
//     streams of W per task, an accumulator per vector and part (8), the parts added at the end;
//   2 to 4 tokens: G = 4 against both panels (16 accumulators, two streams);
//   5 to 16 tokens: float32 G = 8 a panel at a time (16 accumulators; 2 panel loads and 8
//     broadcasts feed 16 FMAs), bfloat16 G = 4 against both panels (two streams; the groups after
//     the first read the panels from the L2);
//   `tiled` above 16 tokens (the GEMM): G = 6 against both panels, 24 accumulators (4 panel loads
//     and 6 broadcasts feed 24 FMAs); the task's panels (2 x 32 x K) stay in the L2 across the
//     token groups.
// `tiled` takes gemv's tiles up to 16 tokens (specialized on M: one token alone would fill only
// one row of the GEMM's 6), so the default variant serves decode and prefill alike; `gemv` takes
// them at every M. With AVX2's 16 registers and a panel of 4 vectors every tile is one panel at a
// time, G = 2 (one token: its 2 parts, 8 accumulators). A task of one panel (a head of 32) takes
// each tile a panel at a time.
// Why two panels per task: with one, a few tokens from DRAM took about the in-cache time plus the
// time to read the weights, as if one stream read while the FMAs ran left DRAM idle; two streams
// side by side overlap the two (perf/notes.md has the measurements). The GEMM's tile of 6
// tokens against both panels was as fast as 12 against one panel on float32 and faster on
// bfloat16, and 12 a panel at a time inside a task of two lost the accumulators to memory.
//
// The copy of x: with K = 2048 or 8192 its rows lie a multiple of 4 KiB apart, and the G token
// streams of a group would all fall in one set of the L1. Edges: the recipe reads x and the panels
// clamped (kClampInputs): a tile computes whole, tokens past M repeating the last one and outputs
// past N the last panel.
#include "schedules/matmul/linear_group.h"
#include "schedules/matmul/matmul.h"

#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/schedule.h"

#include <set>
#include <string>
#include <vector>

namespace halogen::matmuls {

namespace {

using Halide::TailStrategy;
using Halide::Var;

constexpr int kSmallTokens = 4;   // up to this many tokens the `small` tile
constexpr int kFewTokens = 16;    // up to this many tokens `tiled` takes the `few` tile
constexpr int kRowPad = 16;       // floats added to each row of the copy of x
constexpr int kTaskRows = int(kTaskPanels * kPanelRows);

// The stage's outputs n in steps of `panels` panels side by side: their vectors (nv, vectorized
// and unrolled) innermost, then the loops `between`, then the steps (`panel`) outermost.
void panels_side_by_side(Halide::Stage st, const Var &n, int panels, int width, std::vector<Halide::VarOrRVar> between) {
    const Var panel("panel"), nv("nv");
    between.insert(between.begin(), nv);
    between.push_back(panel);
    st.split(n, panel, nv, int(kPanelRows) * panels).reorder(between).vectorize(nv, width).unroll(nv);
}

// The sum's update for the task's outputs and every token: tokens in groups of tile.tokens
// (rounded up: the recipe reads x clamped), the vectors of tile.panels panels side by side, the
// task's panels one after the other when that is fewer than all of them, K whole.
void token_groups(Halide::Stage update, const LoweredGraph &lg, const LinearSum &s, int width, PanelTile tile) {
    Var u = lg.vars[2], n = lg.vars[1], m = lg.vars[0];   // the sum's axes, in Halide's order u, n, m
    Var go("go"), gi("gi");
    update.split(m, go, gi, tile.tokens, TailStrategy::RoundUp).unroll(gi);
    panels_side_by_side(update, n, tile.panels, width, {gi, u, s.r, go});
}

// The tiles with at most `panels` panels side by side: a task of fewer panels than kTaskPanels
// (an output's head of 32 rows) reads one at a time.
PanelTiles fit(PanelTiles t, int64_t panels) {
    for (PanelTile *tile : {&t.one, &t.small, &t.few, &t.tiles}) {
        if (panels % tile->panels != 0) tile->panels = 1;
    }
    return t;
}

// One Linear's sum, kept for the task's `rows` outputs and every token. `tiles`: a call of more
// than kFewTokens tokens takes the GEMM's tile, a smaller one gemv's; without, every call does.
void panel_sum(LinearSum s, Var task, LoweredGraph &lg, const Halide::Target &target, int rows, bool tiles) {
    const int width = target.natural_vector_size(Halide::Float(32));
    const PanelTiles tile = fit(panel_tiles(target, s.weights), rows / kPanelRows);
    const Halide::Expr tokens = lg.extent(lg.output->shape[0]);
    Var u = lg.vars[2], n = lg.vars[1], m = lg.vars[0];
    s.sum.compute_at(lg.out, task).bound_extent(n, rows);
    s.sum.vectorize(n, width).unroll(n);

    Halide::Stage update = s.sum.update();
    // One token (decode): the tile's panels against one row of x, K in kDecodeStreams parts read
    // side by side (`parts`, an accumulator per vector and part), then the parts added.
    {
        Halide::Stage one = update.specialize(tokens == 1);
        Halide::RVar ko("k_part"), ki("k_in");
        one.split(s.r, ko, ki, (s.depth + kDecodeStreams - 1) / kDecodeStreams, TailStrategy::GuardWithIf);
        Var part("part");
        Halide::Func parts = one.rfactor(ko, part);
        one.reorder(n, ko, u, m).vectorize(n, width).unroll(n);
        parts.compute_at(s.sum, m).bound(part, 0, kDecodeStreams).vectorize(n, width).unroll(n).unroll(part);
        parts.update().unroll(part);
        panels_side_by_side(parts.update(), n, tile.one.panels, width, {part, u, m, ki});
    }
    // Specializations are tried in the order they are made: 1, then up to kSmallTokens tokens
    // (where that tile differs from the next).
    if (tile.small != tile.few) token_groups(update.specialize(tokens <= kSmallTokens), lg, s, width, tile.small);
    if (tiles) {
        token_groups(update.specialize(tokens <= kFewTokens), lg, s, width, tile.few);
        token_groups(update, lg, s, width, tile.tiles);
    } else {
        token_groups(update, lg, s, width, tile.few);
    }
}

// A task per kTaskPanels panels of an output [M, N], or per head of an output [M, heads, d] (d a
// multiple of 32), every Linear's sum kept for the task's outputs and every token.
void panel_tasks(LoweredGraph &lg, const Halide::Target &target, bool tiles) {
    std::vector<LinearSum> sums;
    std::vector<Halide::Func> statistics;
    if (!find_linear_sums(lg, sums, statistics) || !reads_panels(sums)) return apply_schedule(lg, "simd", target);
    const int rows = lg.output->shape.size() == 2 ? kTaskRows : int(*lg.output->shape[2].constant());
    if (rows % kPanelRows != 0) return apply_schedule(lg, "simd", target);
    const int width = target.natural_vector_size(Halide::Float(32));
    const Var task = output_tasks(lg, rows, width);
    for (Halide::Func f : statistics) f.compute_root();
    std::set<std::string> copied;
    for (LinearSum &s : sums) {
        panel_sum(s, task, lg, target, rows, tiles);
        // x copied with rows kRowPad floats longer: its token rows then fall in different sets of the L1.
        if (!copied.insert(s.x.name()).second) continue;
        Var k = lg.vars[1], t = lg.vars[0];
        s.x.compute_root()
            .bound(k, 0, Halide::select(s.depth > 0, s.depth + kRowPad, 0))
            .vectorize(k, width, TailStrategy::GuardWithIf)
            .parallel(t);
    }
}

}  // namespace

PanelTiles panel_tiles(const Halide::Target &target, Halide::Type weights) {
    // A tile holds an accumulator per token and vector, beside the panels' vectors and one
    // broadcast. AVX-512 (32 registers, a panel 2 vectors): one token 2 parts x 2 panels (8
    // accumulators), 4 tokens x 2 panels (16), float32 8 tokens x 1 panel (16), bfloat16 4 x 2
    // (16), the GEMM 6 x 2 (24). AVX2 (16 registers, a panel 4 vectors): 2 parts x 1 panel, and 2
    // tokens x 1 panel (8; 3 tokens would need 17).
    if (vector_registers(target) >= 32) {
        const PanelTile both{4, 2};
        return {{1, 2}, both, weights.is_bfloat() ? both : PanelTile{8, 1}, PanelTile{6, 2}};
    }
    return {{1, 1}, {2, 1}, {2, 1}, {2, 1}};
}

void tiled(LoweredGraph &lg, const Halide::Target &target) { panel_tasks(lg, target, true); }

void gemv(LoweredGraph &lg, const Halide::Target &target) { panel_tasks(lg, target, false); }

}  // namespace halogen::matmuls
