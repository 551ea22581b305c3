// The generic schedules.
#include "schedules/schedule.h"

#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/types.h"

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

void simd(LoweredGraph &lg, const Halide::Target &target) {
    const int rank = int(lg.output->shape.size());
    auto loop = collapse(lg, true);
    if (rank > 0) {
        Halide::Var inner = lg.vars[rank - 1], vo(inner.name() + "_vo"), vi(inner.name() + "_vi");
        lg.out.split(inner, vo, vi, vector_width(target, lg.output->dtype), Halide::TailStrategy::GuardWithIf)
            .vectorize(vi);
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
        // Every update: a float reduce_max has a second one (its decode, halide_gen/lower.cpp).
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
