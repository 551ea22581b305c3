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
//   kt = k transposed (keys contiguous), once per call, parallel over g   (from kTileQ queries on)
//   parallel over (g, tile of kTileQ queries):       (a task: kTileQ * R rows sharing K and V rows;
//                                                     g outer, so that each thread's contiguous share
//                                                     of tasks holds early and late queries alike)
//     qt = the task's q rows side by side                                (from kTileQ queries on)
//     for each block of 32 keys (AVX-512; 8 on AVX2): per head r, scores[ti][r][block] as a
//                                register tile of kTileQ rows x the block's keys, outer products
//                                over D (scores_per_task; under kTileQ queries, a decode step,
//                                the dot form along D)
//     logits[ti][r][s] = the scores scaled and clamped, once per score (the max and e read them)
//     max[ti][r], then e[ti][r][s] = exp(logit - max), sum[ti][r]    (visible keys only)
//     for ti, each block of 128 keys: acc[r][d] += e[ti][r][s] * v[s][d] for all R heads at once
//             (R = 2 to 4), the R x D sums in registers, each v row loaded once for the R rows;
//             any other R a row at a time in blocks of 16 keys (pv_in_registers)
//     out[ti][r][d] = acc[r][d] / sum[ti][r]
// The tile's scores, logits and probabilities (kTileQ * R * S floats each, 256 KiB at S = 2048,
// R = 4) live in the task's L2, never the T x S matrix. This is a two-pass softmax with the max
// computed per tile at the tile's compute level, not an online one: the graph's max is a reduction
// over all of S, and a schedule cannot turn it into a running max (another algorithm). The max,
// the sum and P.V loop over each row's visible keys only (the lowering's masked reductions), and
// the scores, logits and e are computed for the keys the tile's rows see (the reductions read them
// at keys clamped to the mask, so bounds inference asks for no more).
//
// decode: for a few queries over a long cache (a decode step, T = 1) with the keys split across
// threads, for when the G tasks of `fused` are too few for the machine's threads. Each phase is
// parallel over chunks of kChunk keys; in a chunk each KV head walks its own rows (contiguous in
// the head-major cache) in blocks of 16 (4 KiB at D = 64), which stay in L1 while the head's R
// query rows take them:
//   scores [T, G, R, S]     q.k per chunk, head and block: the head's R query rows each take
//                           the block's keys, two vectors of partial sums per score, lanes added
//                           by halves
//   max, sum                per chunk (rfactor), then combined over the chunks
//   e = exp(score - max)    per chunk, vectorized along s
//   out                     P.V per chunk (rfactor), head and block: the head's R query rows'
//                           D sums in registers over the block's keys (pv_in_registers), then
//                           added to the chunk's partial sums (T*G*R*D floats, in L1); combined
//                           over the chunks, then divided by the row's sum
// The scores and e (T*H*S floats, 1 MiB at S = 8192, H = 32) are written and read once. Every
// extent stays symbolic; a larger T is correct, with scores and e for every key of every row.
#include "schedules/attention/attention.h"

#include <algorithm>

#include "frontend/errors.h"
#include "frontend/nn/attention.h"
#include "halide_gen/compiler/schedule.h"

namespace halogen::attention {

namespace {

constexpr int kTileQ = 8;      // fused: queries per task, and rows of q.k's register tile
// Keys per block of q.k's dot form and of decode's phases, and of P.V a row at a time. A head's k
// rows of a block (4 KiB at D = 64) stay in L1 while the rows that read them take the block in
// turn, and each row's scores of a block are one store stream, not a store per key at a stride of
// S floats (which maps the rows to one L1 set when S is a multiple of 1024).
constexpr int kKeyBlock = 16;

// q.k (`scores`, [T, G, R, S, 1], reduced over D) as `lanes` partial sums along D per score
// (rfactor), a vector at each score: the dot form along D, the cache's contiguous axis. Returns
// the RVar over the lanes, which scores' update then sums. D's tail is guarded.
Halide::RVar score_lanes(Halide::Func scores, const Halide::Var &one, int lanes) {
    const Halide::RVar inner = scores.rvars(0).back();
    Halide::RVar ro(inner.name() + "_o"), ri(inner.name() + "_i");
    scores.update(0).split(inner, ro, ri, lanes, Halide::TailStrategy::GuardWithIf);
    Halide::Var lane(scores.name() + "_lane");
    Halide::Func partial = scores.update(0).rfactor(ri, lane);
    partial.compute_at(scores, one).vectorize(lane);
    partial.update(0).vectorize(lane);
    return ri;
}

// P.V's key blocks when a query's R heads share a tile: the tile's sums are added to the output
// after each block, a load, an add and a store per accumulator.
constexpr int kRowsKeyBlock = 128;

constexpr int kChunk = 256;     // decode: keys per parallel task
constexpr int kQkVectors = 2;   // decode: q.k's partial sums per score, in vectors

// The head dim D (q.k's reduced extent) as the group reads it: a symbol in the family's graph, a
// constant in a model's.
const Node &scores_node(const LoweredGraph &lg) {
    for (const auto &[node, f] : lg.funcs) {
        if (node->name == nn::names::kAttnScores) return *node;
    }
    throw ScheduleError("attention: the group has no attn_scores");
}

Halide::Expr head_dim(const LoweredGraph &lg) { return lg.extent(scores_node(lg).inputs[0].shape().back()); }

// Every definition of f specialized on the head dims of llama models (64, 128), after it is
// scheduled (a specialization takes the schedule it is made from). With D unknown, each vector
// along D carries a guard, and a partial sum's tail goes through a masked store and reload; with
// D a multiple of the vector width that code is gone. Nothing to do when D is a constant.
void specialize_head_dims(Halide::Func f, const Halide::Expr &D) {
    if (Halide::Internal::is_const(D)) return;
    for (int d : {64, 128}) {
        f.specialize(D == d);
        for (int k = 0; k < f.num_update_definitions(); ++k) f.update(k).specialize(D == d);
    }
}

// Splits f's update 0 over its reduction variable `rv` into chunks of kChunk, and returns the
// per-chunk partial reduction (rfactor), computed at root and parallel over the chunks; f then
// combines the chunks' partials.
Halide::Func per_chunk(Halide::Func f, const Halide::RVar &rv) {
    Halide::RVar chunk_r(rv.name() + "_chunk"), in_chunk(rv.name() + "_in");
    f.update(0).split(rv, chunk_r, in_chunk, kChunk, Halide::TailStrategy::GuardWithIf);
    Halide::Var chunk(f.name() + "_chunk");
    Halide::Func part = f.update(0).rfactor(chunk_r, chunk);
    std::vector<Halide::VarOrRVar> order{in_chunk};
    for (const Halide::Var &a : f.args()) order.push_back(a);
    order.push_back(chunk);   // outermost: one parallel loop per phase
    part.compute_root().update(0).reorder(order).parallel(chunk);
    return part;
}

// P.V (`acc`, [T, G, R, 1, D], a sum over the keys: attn_out, or its per-chunk rfactor) in blocks
// of keys, each block's sums held in registers by a Func of its own (an rfactor over the block),
// `tile`, and added to acc's rows after the block. acc's loops are d, then the head's query rows r,
// then the blocks, the KV heads g (each head's rows are contiguous in the cache) and the queries
// (a chunk's loop, per_chunk's, outermost).
//
// Where a query's R heads fit in the registers together (D = 64 or 128 in chunks of 4 vectors, R x
// 4 accumulators in half the registers: R = 2 to 4 on AVX-512, 2 on AVX2; a specialization of acc
// each), the tile is R rows x D over blocks of `rows_block` keys: per key and chunk, 4 loads of the
// v row that the R rows share, one broadcast of e per row, 4 FMAs per row (R = 4: 16 FMAs for 8
// loads). Otherwise the tile is one row over blocks of kKeyBlock keys: per key 4 loads and a
// broadcast for 4 FMAs (D = 64, AVX-512), and the R rows re-read the block's v rows from L1.
void pv_in_registers(Halide::Func acc, const std::vector<Halide::Var> &v, const Halide::Expr &D,
                     const Halide::Expr &R, int rows_block, const Halide::Target &target) {
    const auto guard = Halide::TailStrategy::GuardWithIf;
    const int width = target.natural_vector_size(Halide::Float(32));
    const int registers = target.has_feature(Halide::Target::AVX512) ? 32 : 16;
    // The keys' RVar, by its unqualified name (after per_chunk, the name of a split).
    const std::string qualified = acc.rvars(0).back().name();
    const std::string keys = qualified.substr(qualified.rfind('.') + 1);
    const Halide::RVar over_s(keys);
    const Halide::Var blk(acc.name() + "_block"), dv(acc.name() + "_d_vec"), dc(acc.name() + "_d_chunk");
    // The keys split into blocks of `block`: the block's loop kb in acc, its keys kin in the tile.
    // Each block size names its own RVars: when a specialization and the generic stage split the
    // keys into RVars of equal names, Halide 14 gives the specialized block loop the extent of the
    // generic split, too many blocks for a larger tile and too few, skipping keys, for a smaller.
    struct Blocks {
        Halide::RVar kb, kin;
    };
    const auto blocks = [&](int block) {
        const std::string n = std::to_string(block);
        return Blocks{Halide::RVar(keys + "_b" + n), Halide::RVar(keys + "_k" + n)};
    };
    const auto block_sums = [&](Halide::Stage st, int block, const Halide::VarOrRVar &at) {
        const auto [kb, kin] = blocks(block);
        std::vector<Halide::VarOrRVar> order{v[4], v[3], v[2], kb, v[1], v[0]};
        for (const Halide::Var &a : acc.args()) {   // a chunk's loop (per_chunk) stays outermost
            if (std::none_of(v.begin(), v.end(), [&](const Halide::Var &x) { return x.name() == a.name(); })) order.push_back(a);
        }
        st.split(over_s, kb, kin, block, guard);
        Halide::Func tile = st.rfactor(kb, blk);
        st.reorder(order).vectorize(v[4], width, guard);
        tile.compute_at(Halide::LoopLevel(acc, at)).vectorize(v[4], width, guard);
        return tile;
    };

    // R rows of a query together: the rows' D sums in chunks of 4 vectors, chunks outermost, so
    // that each key loop holds R * 4 accumulators; every loop but the keys' unrolled.
    const int chunk = 4 * width;
    for (int d : {64, 128}) {
        for (int rows = 4; rows >= 2; --rows) {
            if (rows * 4 > registers / 2) continue;
            Halide::Func tile = block_sums(acc.update(0).specialize(D == d && R == rows), rows_block, blocks(rows_block).kb);
            tile.update(0)
                .split(v[4], dc, v[4], chunk, guard)
                .split(v[4], v[4], dv, width, guard)
                .reorder(dv, v[4], v[2], blocks(rows_block).kin, dc)
                .vectorize(dv)
                .unroll(v[4])
                .unroll(v[2])
                .unroll(dc);
        }
    }

    // One row: its D sums in registers where they leave 4 registers for the operands (the
    // vectors along D unrolled, so that LLVM keeps the small allocation in registers).
    Halide::Func tile = block_sums(acc.update(0), kKeyBlock, v[2]);
    tile.update(0).split(v[4], v[4], dv, width, guard).reorder(dv, v[4], blocks(kKeyBlock).kin).vectorize(dv);
    for (int d : {64, 128}) {
        if (d / width <= registers - 4) tile.update(0).specialize(D == d).unroll(v[4]);
    }
}

// The query heads that share a KV head, R (q's third extent, as the group reads it).
Halide::Expr heads_per_kv(const LoweredGraph &lg) { return lg.extent(scores_node(lg).inputs[0].shape()[2]); }

// The number of queries T (q's first extent) as the group reads it.
Halide::Expr queries(const LoweredGraph &lg) { return lg.extent(scores_node(lg).inputs[0].shape().front()); }

// The buffer of one operand of q.k's product (0: q, 1: k), and a wrapper of it that only
// `consumer` (the rfactor of q.k's sum) reads: the Funcs between the consumer and the buffer (the
// product q * k and the operand's views) are cloned for it, so that the sum's other definitions
// still read the buffer itself.
std::pair<Halide::Func, Halide::Func> operand_for(const LoweredGraph &lg, Halide::Func consumer, int operand) {
    const Node *product = scores_node(lg).inputs[0].get();   // q [T, G, R, 1, D] * k [1, G, 1, S, D]
    const Node *n = product->inputs[operand].get();
    while (lg.group.contains(n) && is_view(n->op)) n = n->inputs[0].get();
    Halide::Func buffer = lg.funcs.at(n), f = lg.funcs.at(product);
    while (true) {
        const Halide::Func clone = f.clone_in(consumer);
        const auto callees = Halide::Internal::find_direct_calls(f.function());
        if (callees.count(buffer.name())) return {buffer, buffer.in(clone)};
        const auto reaches = [&](const auto &callee) {
            return Halide::Internal::find_transitive_calls(callee.second).count(buffer.name()) > 0;
        };
        const auto next = std::find_if(callees.begin(), callees.end(), reaches);
        if (next == callees.end()) throw ScheduleError("attention: q.k does not read the buffer " + buffer.name());
        consumer = clone;
        f = Halide::Func(next->second);
    }
}

// fused's q.k (`scores`, [T, G, R, S, 1], a sum over D), computed per task.
//
// From kTileQ queries on, as register tiles of outer products: scores' update walks blocks of
// two vectors of keys (AVX-512: 32 keys, 16 accumulators; AVX2, with half the registers: one);
// per block and query head r, `tile` (the sum's rfactor over all of D) holds the task's kTileQ
// query rows x the block's keys in registers, and for each d takes one broadcast of q per row and
// one load per key vector of `kt`, k transposed (keys contiguous; the block's 32 keys x D, 8 KiB,
// stay in L1 while the task's R heads take them). No horizontal sums. The tile is always whole
// (bound_extent): a last task with fewer queries, or a last block with fewer keys, computes rows
// and keys nobody reads, from inputs read clamped (kClampInputs).
//
// Below kTileQ queries (a decode step), where a tile would be mostly rows nobody reads: each score
// as one vector of partial sums along D and one horizontal sum (the dot form), blocks of
// kKeyBlock keys outermost.
void scores_per_task(const LoweredGraph &lg, Halide::Func scores, const Halide::Target &target) {
    const std::vector<Halide::Var> &v = lg.vars;
    const Halide::Var t = v[0], g = v[1], r = v[2], s = v[3], one = v[4];
    const auto guard = Halide::TailStrategy::GuardWithIf;
    const int width = target.natural_vector_size(Halide::Float(32));
    const int keys = (target.has_feature(Halide::Target::AVX512) ? 2 : 1) * width;

    Halide::Stage tiles = scores.update(0).specialize(queries(lg) >= kTileQ);
    const Halide::RVar rd = scores.rvars(0).back();
    const Halide::RVar whole(rd.name() + "_whole"), rdi(rd.name() + "_d");
    tiles.split(rd, whole, rdi, head_dim(lg), guard);   // `whole`: one step
    const Halide::Var u("qk_whole");
    Halide::Func tile = tiles.rfactor(whole, u);
    const Halide::Var kb("qk_block"), kk("qk_key");
    tiles.split(s, kb, kk, keys, guard).reorder(whole, one, kk, t, r, kb, g);

    const Halide::Var so("qk_s"), sv("qk_sv"), sl("qk_lane"), to("qk_t"), ti("qk_row");
    tile.compute_at(scores, r).bound_extent(s, keys).bound_extent(t, kTileQ);
    for (Halide::Stage st : {Halide::Stage(tile), tile.update(0)}) {
        st.split(s, so, sv, keys).split(sv, sv, sl, width).split(t, to, ti, kTileQ);
    }
    tile.reorder(sl, sv, ti, one, u, r, g, so, to).vectorize(sl).unroll(sv).unroll(ti);
    tile.update(0).reorder(sl, sv, ti, rdi, one, u, r, g, so, to).vectorize(sl).unroll(sv).unroll(ti);

    // k transposed: kt(d, s, g) stored with s innermost, made in 8 x 8 squares: 8 dense loads of
    // 8 d (`rows`), stored as 8 vectors of 8 keys (a vector along s read straight from the cache
    // would gather each key from its own row). Made once per call, for every key any task reads
    // (G x S x D floats, as many as the k cache's visible rows), not per task and block: the tasks
    // of one KV head all read the same keys, which a transpose per task would repeat T / kTileQ
    // times. Only the tiles (T >= kTileQ) read it, so a decode step makes none.
    auto [buffer, kt] = operand_for(lg, tile, 1);
    const std::vector<Halide::Var> ka = kt.args();   // (d, s, g)
    const Halide::Var kso("kt_s"), ksi("kt_si"), kdo("kt_d"), kdi("kt_di");
    kt.compute_root()
        .reorder_storage(ka[1], ka[0], ka[2])
        .tile(ka[1], ka[0], kso, kdo, ksi, kdi, 8, 8, guard)
        .reorder(ksi, kdi, kso, kdo)
        .parallel(ka[2])
        .vectorize(ksi)
        .unroll(kdi);
    Halide::Func rows = Halide::Func(buffer).in(kt);
    const std::vector<Halide::Var> ra = rows.args();   // (d, s, g)
    rows.compute_at(kt, kso).bound_extent(ra[0], 8).bound_extent(ra[1], 8).vectorize(ra[0]).unroll(ra[1]);

    // The task's q rows (kTileQ queries x R heads x D, 8 KiB at R = 4, D = 64), copied side by
    // side: in q [T, H, D] the tile's rows lie H * D floats apart, a multiple of 4 KiB that maps
    // them to one L1 set.
    auto [q_buffer, qt] = operand_for(lg, tile, 0);
    qt.compute_at(scores, g).vectorize(qt.args()[0], width, guard);

    const Halide::Var sb("s_block"), sk("s_key");
    const Halide::RVar lanes = score_lanes(scores, one, width);
    scores.update(0).split(s, sb, sk, kKeyBlock, guard).reorder(lanes, one, sk, r, t, sb, g).atomic().vectorize(lanes);
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
        .reorder(dv, d, r, ti, to, g)
        .fuse(to, g, task)
        .parallel(task)
        .vectorize(dv);
    const Halide::LoopLevel per_task(out, task), per_token(out, ti);

    // q.k for every row of the tile and every key (scores_per_task).
    Halide::Func scores = lg.func(nn::names::kAttnScores);
    scores.compute_at(per_task);
    scores_per_task(lg, scores, target);

    // The scaled and clamped scores, once per score: the max and e read them.
    lg.func(nn::names::kAttnLogits).compute_at(per_task).vectorize(lg.vars[3], width, Halide::TailStrategy::GuardWithIf);

    // Row statistics and probabilities, once per row of the tile.
    Halide::Func mx = lg.func(nn::names::kAttnMax), e = lg.func(nn::names::kAttnExp), sum = lg.func(nn::names::kAttnSum);
    mx.compute_at(per_task);
    for (int k = 0; k < mx.num_update_definitions(); ++k) mx.update(k).unscheduled();
    e.compute_at(per_task).vectorize(lg.vars[3], width, Halide::TailStrategy::GuardWithIf);
    sum.compute_at(per_task);
    sum.update(0).unscheduled();
    // 1 / sum once per row, which scales the row's D outputs.
    lg.func(nn::names::kAttnInvSum).compute_at(per_task);

    // The weighted sum, per query: the R heads' sums in registers over blocks of keys
    // (pv_in_registers).
    Halide::Func acc = lg.func(nn::names::kAttnOut);
    acc.compute_at(per_token);
    pv_in_registers(acc, lg.vars, head_dim(lg), heads_per_kv(lg), kRowsKeyBlock, target);

    // Every Func but out is computed inside out's task loop, so out's branch per head dim holds theirs.
    specialize_head_dims(out, head_dim(lg));
}

bool decode_is_faster(int64_t T, int64_t S, int64_t G, int threads) {
    return T == 1 && 2 * G <= threads && S >= kDecodeMinPositions;
}

void decode(LoweredGraph &lg, const Halide::Target &target) {
    const int width = target.natural_vector_size(Halide::Float(32));
    const std::vector<Halide::Var> &v = lg.vars;
    const auto guard = Halide::TailStrategy::GuardWithIf;

    // q.k: chunks of keys across tasks; in a chunk, per KV head, blocks of kKeyBlock keys, each
    // taken by the head's R query rows. Each score is kQkVectors vectors of partial sums
    // (independent chains of FMAs), whose lanes are then added by halves, a vector add each. Not
    // atomic().vectorize(): in a Func whose own loop is parallel, that stores each score with a
    // compare-and-swap; nor a loop over the lanes, a chain of scalar adds as long as the vector.
    Halide::Func scores = lg.func(nn::names::kAttnScores);
    const Halide::Var t = v[0], g = v[1], r = v[2], s = v[3], one = v[4];
    const Halide::Var so("s_chunk"), si("s_in"), sb("s_block"), sk("s_key");
    scores.compute_root().split(s, so, si, kChunk, guard).reorder(one, si, r, g, t, so).parallel(so);
    const int lanes = width * kQkVectors;
    Halide::RVar ri = score_lanes(scores, one, lanes);
    for (int half = lanes / 2; half >= 1; half /= 2) {
        const std::string n = std::to_string(half);
        const Halide::RVar hi(ri.name() + "_h" + n), lo(ri.name() + "_l" + n);
        scores.update(0).split(ri, hi, lo, half, guard);
        const Halide::Var lane(scores.name() + "_half" + n);
        Halide::Func halves = scores.update(0).rfactor(lo, lane);   // halves(lane) = Σ_hi lanes(hi * half + lane)
        halves.compute_at(scores, one).vectorize(lane);
        halves.update(0).unroll(hi).vectorize(lane);
        ri = lo;
    }
    scores.update(0)
        .split(s, so, si, kChunk, guard)
        .split(si, sb, sk, kKeyBlock, guard)
        .reorder(ri, one, sk, r, t, sb, g, so)
        .parallel(so);

    // The row statistics: partial max and sum per chunk, combined.
    Halide::Func mx = lg.func(nn::names::kAttnMax), sum = lg.func(nn::names::kAttnSum);
    mx.compute_root();
    const Halide::Func mx_part = per_chunk(mx, mx.rvars(0).back());
    for (int k = 1; k < mx.num_update_definitions(); ++k) mx.update(k).unscheduled();   // the key back to bits
    Halide::Func e = lg.func(nn::names::kAttnExp);   // [T, G, R, S]: s is its axis 3
    e.compute_root()
        .split(v[3], so, si, kChunk, guard)
        .reorder(si, v[2], v[1], v[0], so)
        .parallel(so)
        .vectorize(si, width, guard);
    sum.compute_root();
    const Halide::Func sum_part = per_chunk(sum, sum.rvars(0).back());

    // 1 / sum once per row, which scales the row's D outputs.
    Halide::Func inv_sum = lg.func(nn::names::kAttnInvSum);
    inv_sum.compute_root();

    // P.V: per chunk (rfactor), per KV head, blocks of kKeyBlock keys: the head's R query rows'
    // weighted sums accumulate in registers over the block's keys
    // (pv_in_registers), then are added to the chunk's partial sums.
    Halide::Func acc = lg.func(nn::names::kAttnOut);   // [T, G, R, 1, D]: d is its axis 4
    acc.compute_root().vectorize(v[4], width, guard);
    Halide::Func part = per_chunk(acc, acc.rvars(0).back());
    part.vectorize(v[4], width, guard);
    const Halide::Expr D = head_dim(lg);
    pv_in_registers(part, v, D, heads_per_kv(lg), kKeyBlock, target);
    acc.update(0).vectorize(v[4], width, guard);

    lg.out.vectorize(v[3], width, guard);

    for (Halide::Func f : {scores, mx, mx_part, e, sum, sum_part, acc, part, lg.out}) specialize_head_dims(f, D);
}

}  // namespace halogen::attention
