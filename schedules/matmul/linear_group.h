// The pieces of a lowered Linear group (frontend/nn/linear.h) that the matmul schedules tile: the
// sum "linear_sum" [M, N, 1] over K, the output [M, N], and their loop variables.
#pragma once

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

}  // namespace halogen::matmuls
