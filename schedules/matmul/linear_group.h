// The pieces of a lowered group of Linears (frontend/nn/linear.h) that the matmul schedules tile:
// each sum "linear_sum" [M, N, 1] over K with its input and its weight's layout, the row
// statistics a prologue reads, and the output's parallel loop over tasks of rows.
#pragma once

#include <vector>

#include "frontend/nn/linear.h"
#include "halide_gen/compiler/lower.h"
#include "halide_gen/compiler/types.h"

namespace halogen::matmuls {

// One Linear of a group that may hold several (gate and up), with its prologue and epilogue
// (nn::linear's graph): the sum "linear_sum" [M, N, 1] of x [M, K] times W [N, K] over K. x is
// the Func of the Linear's input, an input buffer or a member (a norm's output).
struct LinearSum {
    Halide::Func sum, x;
    Halide::RVar r;              // K
    Halide::Expr depth;          // K's extent
    int64_t column_block = 0;    // W read through nn::unblock_columns: its block of K, else 0
    bool panels = false;         // W read through nn::unpack_panels ([P, K, 32] in memory)
    Halide::Type weights;        // W's element type in memory (bfloat16 when the graph widens it)
};

// What a weight's input is under the views and the cast nn::linear reads it through: its element
// type, and whether a permute {0, 2, 1} of a rank-3 tensor (nn::unpack_panels) lies on the way.
struct WeightSource {
    DType dtype;
    bool panels = false;
};
inline WeightSource weight_source(const Node *w) {
    WeightSource s{w->dtype};
    while (!w->inputs.empty() && (is_view(w->op) || w->op == Op::Cast)) {
        if (w->op == Op::Permute && w->axes == std::vector<int>{0, 2, 1} && w->inputs[0].rank() == 3) s.panels = true;
        w = w->inputs[0].get();
    }
    s.dtype = w->dtype;
    return s;
}

// The block b of a weight read as nn::unblock_columns([B, N, b]) gives it, else 0. Between the
// product and that view lie the broadcast over the tokens (a reshape and an expand) and, for
// bf16 weights, the cast to float32.
inline int64_t column_block_of(const Node *w) {
    auto next = [](const Node *n) { return n->inputs.at(0).get(); };
    while (w->op == Op::Expand || w->op == Op::Cast || (w->op == Op::Reshape && next(w)->op != Op::Permute)) w = next(w);
    if (w->op != Op::Reshape) return 0;
    const Node &p = *next(w);
    if (p.axes != std::vector<int>{1, 0, 2}) return 0;
    return p.inputs.at(0).shape().at(2).constant().value_or(0);
}

// A group of Linears and what they feed: every reduction of the group a "linear_sum" over one
// axis, or a row statistic (a reduction at compute level 0 or 1, such as RMSNorm's mean, which a
// prologue reads). The output is [M, N] or [M, heads, d] with d a constant (the sums' rows a
// head at a time, as RoPE reads them). False for any other group.
inline bool find_linear_sums(const LoweredGraph &lg, std::vector<LinearSum> &sums, std::vector<Halide::Func> &statistics) {
    const size_t rank = lg.output->shape.size();
    if (rank != 2 && !(rank == 3 && lg.output->shape[2].constant())) return false;
    for (const auto &[node, level] : lg.group.compute_level) {
        if (node->name != nn::names::kLinearSum) {
            if (level > 1) return false;
            statistics.push_back(lg.funcs.at(node));
            continue;
        }
        LinearSum s;
        s.sum = lg.funcs.at(node);
        if (node->shape.size() != 3 || s.sum.rvars(0).size() != 1) return false;
        const Node &mul = node->inputs.at(0).node();
        const Node *rows = mul.inputs.at(0).get();   // mul <- [expand <-] reshape <- x
        if (rows->op == Op::Expand) rows = rows->inputs.at(0).get();
        if (rows->op != Op::Reshape) return false;
        const Node &x = rows->inputs.at(0).node();
        const auto found = lg.funcs.find(&x);
        if (found == lg.funcs.end() || x.shape.size() != 2) return false;
        s.x = found->second;
        s.r = s.sum.rvars(0)[0];
        s.depth = s.sum.update(0).get_schedule().rvars().at(0).extent;
        s.column_block = column_block_of(mul.inputs.at(1).get());
        const WeightSource w = weight_source(mul.inputs.at(1).get());
        s.panels = w.panels;
        s.weights = halide_type(w.dtype);
        sums.push_back(s);
    }
    return !sums.empty();
}

// True when every Linear of the group reads its weights as panels (nn::unpack_panels).
inline bool reads_panels(const std::vector<LinearSum> &sums) {
    for (const LinearSum &s : sums) {
        if (!s.panels) return false;
    }
    return !sums.empty();
}

// The output's loops that both matmul schedules share: a parallel task per `rows` outputs of an
// output [M, N] (the last task guarded), or per head of an output [M, heads, d] (rows = d), every
// token inside it, the epilogue vectorized along the rows. Returns the task loop, where the
// sums are computed.
inline Halide::Var output_tasks(LoweredGraph &lg, int rows, int width) {
    const Halide::TailStrategy guard = Halide::TailStrategy::GuardWithIf;
    if (lg.output->shape.size() == 2) {
        Halide::Var n = lg.vars[1], m = lg.vars[0], task("task"), ni("ni");
        lg.out.split(n, task, ni, rows, guard).reorder(ni, m, task).vectorize(ni, width, guard).parallel(task);
        return task;
    }
    Halide::Var j = lg.vars[2], h = lg.vars[1], m = lg.vars[0];
    lg.out.reorder(j, m, h).vectorize(j, width, guard).parallel(h);
    return h;
}

}  // namespace halogen::matmuls
