// Shared generator code.
#include "halide_gen/generators/family_generator.h"

#include <cstdlib>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

const std::map<std::string, int> &typical_extents(const std::string &family) {
    static const std::map<std::string, std::map<std::string, int>> table = {
        {"embedding", {{"T", 16}, {"V", 128256}, {"D", 4096}}},
        {"layernorm", {{"R", 4096}, {"D", 4096}}},
        {"rmsnorm", {{"R", 4096}, {"D", 4096}}},
        {"batchnorm", {{"N", 8}, {"C", 256}, {"S", 3136}}},
        {"groupnorm", {{"N", 8}, {"CG", 8}, {"S", 3136}}},
        {"conv1d", {{"N", 8}, {"C", 256}, {"K", 256}, {"L1", 1024}}},
        {"conv2d", {{"N", 1}, {"C", 64}, {"K", 64}, {"L1", 56}, {"L2", 56}}},
        {"conv3d", {{"N", 1}, {"C", 32}, {"K", 32}, {"L1", 16}, {"L2", 56}, {"L3", 56}}},
    };
    return table.at(family);
}

Halide::Func build_for_generator(const std::string &family, const std::string &variant,
                                 const std::map<std::string, std::pair<Halide::Func, std::vector<Halide::Expr>>> &inputs,
                                 const Halide::Target &target) {
    Family f = make_family(family);
    const Variant &v = find_variant(family, variant);
    ExternalInputs ext;
    for (const auto &[name, in] : inputs) ext.buffers[name] = in.first;
    for (const auto &[sym, src] : f.dims) {
        // extents are given in halogen axis order
        Halide::Expr extent = inputs.at(src.input).second.at(src.axis);
        ext.dims[sym] = src.divisor == 1 ? extent : extent / int32_t(src.divisor);
    }
    return build_family_pipeline(f, v, ext, target, /*hand_schedule=*/v.autoscheduler.empty()).output;
}

void autoschedule(Halide::Func output, const std::string &autoscheduler, const Halide::Target &target,
                  const Halide::MachineParams &machine) {
    // Adams2019 searches with a beam of 32 by default: minutes per kernel on 2 cores (over 10 for
    // GroupNorm). A greedy search (beam 1) keeps a clean build of every kernel short; a value the
    // user exported still wins.
    setenv("HL_BEAM_SIZE", "1", /*overwrite=*/0);
    Halide::Pipeline(output).auto_schedule(autoscheduler, target, machine);
    // The autoschedulers split the output's loops by factors chosen for the estimates, with
    // ShiftInwards tails: an output smaller than a factor would be written out of bounds, which
    // Halide's bounds check rejects. GuardWithIf runs the last tile partially instead.
    bool guarded = false;
    for (Halide::Internal::Split &s : output.function().definition().schedule().splits()) {
        if (s.is_split() && (s.tail == Halide::TailStrategy::Auto || s.tail == Halide::TailStrategy::ShiftInwards)) {
            s.tail = Halide::TailStrategy::GuardWithIf;
            guarded = true;
        }
    }
    // A guarded tile no longer has a constant extent, nor do the loops of the Funcs computed
    // inside it, so Halide cannot unroll them: every unrolled loop runs serially instead
    // (vectorized loops stay vectorized).
    if (!guarded) return;
    for (auto &[name, function] : Halide::Internal::find_transitive_calls(output.function())) {
        std::vector<Halide::Internal::Definition *> stages = {&function.definition()};
        for (size_t k = 0; k < function.updates().size(); ++k) stages.push_back(&function.update(int(k)));
        for (Halide::Internal::Definition *stage : stages) {
            for (Halide::Internal::Dim &d : stage->schedule().dims()) {
                if (d.for_type == Halide::Internal::ForType::Unrolled) d.for_type = Halide::Internal::ForType::Serial;
            }
        }
    }
}

}  // namespace halogen
