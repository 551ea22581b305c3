// The pieces of a lowered Linear group (frontend/nn/linear.h) that the matmul schedules tile: the
// sum "linear_sum" [M, N, 1] over K, the output [M, N], and their loop variables.
#pragma once

#include <vector>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/compiler/lower.h"

namespace halogen::matmuls {

struct LinearGroup {
    Halide::Func sum, out, x;    // sum(u, n, m) += x(r, m) * W(r, n); out(n, m) = sum(0, n, m) (+ bias(n))
    Halide::Var u, n, m;         // Halide's order: u (the unit axis) innermost, then n, then m
    Halide::RVar r;              // K
    Halide::Expr tokens;         // M, the output's extent
    Halide::Expr depth;          // K, the sum's extent
};

// False for a group that is no Linear (no "linear_sum", or a sum that is not its own group's
// reduction); then the schedule falls back to a generic one.
inline bool find_linear(const LoweredGraph &lg, LinearGroup &g) {
    if (!lg.has_func("linear_sum") || lg.output->shape.size() != 2 || lg.group.compute_level.size() != 1) return false;
    g.sum = lg.func("linear_sum");
    g.out = lg.out;
    g.x = lg.func("x");
    if (g.sum.rvars(0).size() != 1) {
        throw ScheduleError(fmt::format("{}: linear_sum reduces {} axes, expected 1", lg.who, g.sum.rvars(0).size()));
    }
    g.r = g.sum.rvars(0)[0];
    g.m = lg.vars[0];
    g.n = lg.vars[1];
    g.u = lg.vars[2];
    g.tokens = g.out.output_buffer().dim(1).extent();
    g.depth = g.sum.update(0).get_schedule().rvars().at(0).extent;
    return true;
}

// One Linear of a group that may hold several (gate and up), with its prologue and epilogue
// (nn::linear's graph): the sum "linear_sum" [M, N, 1] of x [M, K] times W [N, K] over K. x is
// the Func of the Linear's input, an input buffer or a member (a norm's output).
struct LinearSum {
    Halide::Func sum, x;
    Halide::RVar r;              // K
    Halide::Expr depth;          // K's extent
    int64_t column_block = 0;    // W read through nn::unblock_columns: its block of K, else 0
};

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
        if (node->name != "linear_sum") {
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
        sums.push_back(s);
    }
    return !sums.empty();
}

}  // namespace halogen::matmuls
