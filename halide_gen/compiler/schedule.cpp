// The generic schedules.
#include "halide_gen/compiler/schedule.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/errors.h"
#include "halide_gen/compiler/types.h"

namespace halogen {

const std::vector<std::string> &schedule_names() {
    static const std::vector<std::string> names = {"none", "basic", "simd"};
    return names;
}

namespace {

int vector_width(const Halide::Target &target, DType t) {
    return target.natural_vector_size(t == DType::Bool ? Halide::UInt(8) : halide_type(t));
}

// Fuses each run of collapsed axes of the output into one loop (keeping the innermost axis on its
// own when `keep_innermost`, so that it can be vectorized without div/mod gathers). Returns, for
// each anchor axis, the loop that now iterates it.
std::vector<Halide::Var> collapse(LoweredGraph &lg, bool keep_innermost) {
    const int rank = int(lg.output->shape.size());
    std::vector<Halide::Var> loop;
    for (int k = 0; k < rank; ++k) loop.emplace_back(lg.vars[k]);
    for (const auto &run : lg.group.collapsed_axes) {
        std::vector<int> axes = run;
        if (keep_innermost && axes.back() == rank - 1) axes.pop_back();
        if (axes.size() < 2) continue;
        std::string name;
        for (int k : axes) name += (name.empty() ? "" : "_") + lg.vars[k].name();
        Halide::Var fused(name);
        Halide::Var inner = loop[axes.back()];
        for (int m = int(axes.size()) - 2; m >= 0; --m) {
            Halide::Var next = m == 0 ? fused : Halide::Var(name + "_" + std::to_string(m));
            lg.out.fuse(inner, loop[axes[m]], next);
            inner = next;
        }
        for (int k : axes) loop[k] = fused;
    }
    return loop;
}

// Computes each member reduction once, inside the output's loop at its compute level.
void place_reductions(LoweredGraph &lg, const std::vector<Halide::Var> &loop) {
    for (const auto &[node, level] : lg.group.compute_level) {
        Halide::Func f = lg.funcs.at(node);
        if (f.name() == lg.out.name()) continue;
        if (level == 0) f.compute_root();
        else f.compute_at(lg.out, loop[level - 1]);
    }
}

// The tail strategy of the output's vector loop over an axis of `extent`: ShiftInwards when the
// extent is a constant of at least one vector (the last vector moves back to end at the extent, so
// there is no tail; the output is pure, so the points computed twice are the same), else GuardWithIf.
// Halide 14 miscompiles a GuardWithIf tail of one lane (a constant extent such as 33 or 129 = 8 x 16
// + 1) when the loop reads a reduction stored outside it through a vector `let` (a reduction read
// twice, as in mul(rs, rs) or (x - m) * (x - m)): rewrite_interleavings adds the let's odd lanes, a
// load that starts past the end of the reduction's buffer; the simplifier takes that load, predicated
// off as it is, for unreachable and drops the predicated tail (fixed in Halide 17, #7791), so the
// loop stores a whole vector there, past the end of the output. A shorter constant extent leaves two
// lanes or more, which keep the odd lanes in the buffer (an extent of 1 comes out scalar), and a
// symbolic extent leaves the tail's loads symbolic, which the simplifier cannot prove out of bounds.
Halide::TailStrategy output_tail(const Dim &extent, int width) {
    const auto e = extent.constant();
    return e && *e >= width ? Halide::TailStrategy::ShiftInwards : Halide::TailStrategy::GuardWithIf;
}

void simd(LoweredGraph &lg, const Halide::Target &target) {
    const int rank = int(lg.output->shape.size());
    auto loop = collapse(lg, true);
    if (rank > 0) {
        Halide::Var inner = lg.vars[rank - 1], vo(inner.name() + "_vo"), vi(inner.name() + "_vi");
        const int width = vector_width(target, lg.output->dtype);
        lg.out.split(inner, vo, vi, width, output_tail(lg.output->shape[rank - 1], width)).vectorize(vi);
        loop[rank - 1] = vo;
        if (rank > 1) lg.out.parallel(loop[0]);
    }
    place_reductions(lg, loop);
    // Reductions computed once per output vector: vectorize their innermost axis too.
    for (const auto &[node, level] : lg.group.compute_level) {
        const int r = int(node->shape.size());
        Halide::Func f = lg.funcs.at(node);
        if (level != rank || rank == 0 || r == 0 || node->shape[r - 1] == Dim(1)) continue;
        const int width = vector_width(target, node->dtype);
        f.vectorize(lg.vars[r - 1], width, Halide::TailStrategy::GuardWithIf);
        // Every update: a float reduce_max has a second one (its decode, halide_gen/compiler/lower.cpp).
        for (int u = 0; u < f.num_update_definitions(); ++u) {
            f.update(u).vectorize(lg.vars[r - 1], width, Halide::TailStrategy::GuardWithIf);
        }
    }
}

}  // namespace

void apply_schedule(LoweredGraph &lg, const std::string &name, const Halide::Target &target) {
    if (name == "none") return;
    if (name == "basic") return place_reductions(lg, collapse(lg, false));
    if (name == "simd") return simd(lg, target);
    throw Error(fmt::format("schedule: unknown schedule '{}' (known: {})", name, fmt::join(schedule_names(), ", ")));
}

}  // namespace halogen

namespace halogen {

Recipe Recipe::generic(const std::string &schedule) {
    if (std::find(schedule_names().begin(), schedule_names().end(), schedule) == schedule_names().end()) {
        throw Error(fmt::format("schedule: unknown schedule '{}' (known: {})", schedule, fmt::join(schedule_names(), ", ")));
    }
    Recipe r;
    r.name = fmt::format("program ({} schedule)", schedule);   // a name per schedule: recipe.h
    r.schedule = [schedule](LoweredGraph &lg, const Halide::Target &target) { apply_schedule(lg, schedule, target); };
    return r;
}

}  // namespace halogen
