// The generic schedules.
#include "schedules/schedule.h"

#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/types.h"

namespace halogen {

const std::vector<std::string> &schedule_names() {
    static const std::vector<std::string> names = {"none", "simd"};
    return names;
}

namespace {

void simd(LoweredGraph &lg, const Halide::Target &target) {
    Halide::Func &out = lg.out;
    const int rank = out.dimensions();
    if (rank == 0) return;
    const Halide::Type t = lg.output->dtype == DType::Bool ? Halide::UInt(8) : halide_type(lg.output->dtype);
    const int width = target.natural_vector_size(t);
    Halide::Var inner = lg.vars[rank - 1], outer = lg.vars[0];
    out.vectorize(inner, width, Halide::TailStrategy::GuardWithIf);   // the output is always pure
    if (rank > 1) out.parallel(outer);
}

}  // namespace

void apply_schedule(LoweredGraph &lg, const std::string &name, const Halide::Target &target) {
    if (name == "none") return;
    if (name == "simd") return simd(lg, target);
    throw Error(fmt::format("schedule: unknown schedule '{}' (known: {})", name, fmt::join(schedule_names(), ", ")));
}

}  // namespace halogen
