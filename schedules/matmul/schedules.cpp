// Hand schedules of the matmul families on weights as checkpoints store them (W [N, K]), and the
// packing into panels.
//
// dot: the dot-product form over contiguous K (llama.cpp's tinyBLAS), no packing, for a group of
// Linears with what they feed (linear_group.h: a norm before, RoPE, SiLU times up or a residual
// add after; the matmul families' groups are the plain case):
//
//   stat = each row statistic (a norm's mean of squares)         (once per call)
//   x2 = each Linear's x, rows kRowPad floats longer              (once per call)
//   parallel task (a tile of kTileRows outputs, or one head of d for an output [M, heads, d]):
//     for each Linear's sum, R (4) of the tile's rows at a time:          (R x T: dot_tile)
//       part[M rounded up to T][R][16] = 0
//       for token group g of T (6):
//         for k_o in K / 16:                                     (a masked last step for K % 16)
//           part[g + j][n][:] += x2[g + j, 16 k_o ..] * W[n, 16 k_o ..]   (4 + 6 loads, 24 FMAs)
//       sum[t, n] = horizontal sum of part[t][n]
//     out[t, tile] = the epilogue of the sums, 16 outputs a vector (stores guarded past N)
// (16 lanes: an AVX-512 vector of floats; AVX2's are 8.)
//
// 4 rows x 6 tokens keeps 24 zmm accumulators; with the 4 rows' vectors and one of x they fit the
// 32 registers (8 rows x 3 tokens would need 33 and spill). With AVX2's 16 registers the tile is
// 4 rows x 2 tokens (dot_tile): 8 accumulators, 4 rows' vectors and one of x (4 x 3 needs 17 and
// spilled one accumulator each step; perf/notes.md has the tiles' speeds). A chunk's rows stay in the L1/L2
// across the token groups; x is read once per chunk, which caps the kernel when M x K outgrows the
// L2 (the packed families' kernels read it once per panel of 32 outputs). The copy of x: with
// K = 2048 or 8192 its rows lie a multiple of 4 KiB apart, all in one set of the L1.
// One token (decode) takes a path of its own, the sum's specialization rfactored apart: one row's
// whole dot product after the other, so a task reads its rows of W front to back as one stream,
// which the hardware prefetcher follows best (two rows in step, two streams, read at half the
// rate). Its partial sums are 32 lanes, two FMA chains per row: one chain takes 4 cycles per 16
// weights, 32 bytes of bf16, near a core's share of the DRAM bandwidth. On W in blocks of K
// (nn::unblock_columns: the llama model's down projection, K = 8192) it goes block by block, 16
// rows per block, so the block's slice of x stays in the L1 and W is still one stream; a whole
// row of x that large (32 KiB) is read from the L2 beside W, which halved the read rate.
// A head is the tile of an output [M, heads, d] because RoPE pairs output j with j + d/2. Edges:
// the recipe reads its inputs clamped (kClampInputs), so a tile computes whole (rows past N and
// tokens past M repeat the last one).
//
// transpose: the packing W [32*P, K] -> [P, K, 32], a copy. A task packs one panel, 16 k at a
// time: the 32 x 16 block of W is loaded along k (dense vectors) into a small buffer and stored
// along the panel's 32 rows.
#include "schedules/matmul/linear_group.h"
#include "schedules/matmul/matmul.h"

#include <set>
#include <string>
#include <vector>

#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/schedule.h"

namespace halogen::matmuls {

namespace {

using Halide::TailStrategy;
using Halide::Var;

constexpr int kTileRows = 64;       // outputs per parallel task of an output [M, N]
constexpr int kBlockRows = 16;      // rows per step of one token's dot products on W in blocks of K
constexpr int kRowPad = 16;         // floats added to each row of the copy of x

}  // namespace

DotTile dot_tile(const Halide::Target &target) { return {4, vector_registers(target) >= 32 ? 6 : 2}; }

void dot(LoweredGraph &lg, const Halide::Target &target) {
    std::vector<LinearSum> sums;
    std::vector<Halide::Func> statistics;
    if (!find_linear_sums(lg, sums, statistics)) return apply_schedule(lg, "simd", target);
    const int width = target.natural_vector_size(Halide::Float(32));
    const DotTile reg = dot_tile(target);   // the register tile
    const TailStrategy guard = TailStrategy::GuardWithIf;
    const int rank = int(lg.output->shape.size());
    const int rows = rank == 2 ? kTileRows : int(*lg.output->shape[2].constant());
    if (rows % reg.rows != 0) return apply_schedule(lg, "simd", target);
    const Halide::Expr tokens = lg.extent(lg.output->shape[0]);
    const Var tile = output_tasks(lg, rows, width);

    for (Halide::Func f : statistics) f.compute_root();
    std::set<std::string> copied;
    for (LinearSum &s : sums) {
        // Sum's axes in Halide's order: u (the unit axis), n, m.
        Var u = lg.vars[2], n = lg.vars[1], m = lg.vars[0];
        s.sum.compute_at(lg.out, tile).bound_extent(n, rows);

        Var chunk("chunk"), ci("ci"), lane("lane");
        {
            // One token: a reduction of its own (the sum's specialization, rfactored apart), with
            // partial sums of 2 x width lanes, two FMA chains per row.
            const int step = 2 * width;
            const bool blocks = s.column_block > 0 && s.column_block % step == 0 && rows % kBlockRows == 0;
            const int chunk_rows = blocks ? kBlockRows : reg.rows;
            Halide::Stage one = s.sum.update().specialize(tokens == 1);
            Halide::RVar ro("k_o1"), ri("k_i1");
            one.split(s.r, ro, ri, step, guard);
            Halide::Func part1 = one.rfactor(ri, lane);
            one.split(n, chunk, ci, chunk_rows, guard).reorder(ri, u, ci, m, chunk).atomic().vectorize(ri).unroll(ci);
            part1.reorder_storage(lane, u, n, m);
            part1.compute_at(s.sum, chunk).bound_extent(n, chunk_rows);
            part1.reorder(lane, u, n, m).vectorize(lane).unroll(n);
            if (blocks) {   // W in blocks of K: per block, the chunk's rows one after the other
                Halide::RVar kb("kb"), kbi("kbi");
                part1.update().split(ro, kb, kbi, int(s.column_block) / step, guard).reorder(lane, u, kbi, n, kb, m).vectorize(lane);
            } else {        // each row's whole dot product in turn
                part1.update().reorder(lane, u, ro, n, m).vectorize(lane);
            }
        }
        // Partial sums of width lanes along K, rfactored out of the sum, for the tile's rows and
        // every other count of tokens: groups of the tile's tokens (rounded up: x is read clamped),
        // K the loop inside.
        Halide::RVar ro("k_o"), ri("k_i");
        s.sum.update().split(s.r, ro, ri, width, guard);
        Halide::Func part = s.sum.update().rfactor(ri, lane);
        s.sum.update().split(n, chunk, ci, reg.rows, guard).reorder(ri, u, ci, m, chunk).atomic().vectorize(ri).unroll(ci);
        part.reorder_storage(lane, u, n, m);
        part.compute_at(s.sum, chunk).bound_extent(n, reg.rows);
        part.reorder(lane, u, n, m).vectorize(lane).unroll(n);
        Halide::Stage update = part.update();
        Var mo("mo"), mi("mi");
        update.split(m, mo, mi, reg.tokens, TailStrategy::RoundUp)
            .reorder(lane, u, n, mi, ro, mo)
            .vectorize(lane)
            .unroll(n)
            .unroll(mi);

        if (!copied.insert(s.x.name()).second) continue;
        Var k = lg.vars[1], t = lg.vars[0];
        s.x.compute_root()
            .bound(k, 0, Halide::select(s.depth > 0, s.depth + kRowPad, 0))
            .vectorize(k, width, guard)
            .parallel(t);
    }
}

void projections(LoweredGraph &lg, const Halide::Target &target) {
    std::vector<LinearSum> sums;
    std::vector<Halide::Func> statistics;
    if (find_linear_sums(lg, sums, statistics) && reads_panels(sums)) return tiled(lg, target);
    dot(lg, target);
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
