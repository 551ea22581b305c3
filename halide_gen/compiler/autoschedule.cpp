// Halide's autoschedulers (autoschedule.h).
#include "halide_gen/compiler/autoschedule.h"

#include <cstdlib>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

Halide::Region estimated_region(const Shape &shape, const Bindings &typical) {
    Halide::Region r;
    for (auto d = shape.rbegin(); d != shape.rend(); ++d) r.push_back({0, int(d->eval(typical, "estimate"))});
    return r;
}

Halide::MachineParams machine_params() { return Halide::MachineParams(2, 32 << 20, 40); }

void load_autoscheduler(const std::string &autoscheduler) {
    static const std::map<std::string, std::string> plugins = {
        {"Adams2019", HALOGEN_PLUGIN_ADAMS2019},
        {"Mullapudi2016", HALOGEN_PLUGIN_MULLAPUDI2016},
        {"Li2018", HALOGEN_PLUGIN_LI2018},
    };
    static std::mutex mutex;
    static std::set<std::string> loaded;
    auto it = plugins.find(autoscheduler);
    if (it == plugins.end()) throw Error(fmt::format("unknown autoscheduler '{}'", autoscheduler));
    std::lock_guard<std::mutex> lock(mutex);
    if (loaded.insert(autoscheduler).second) Halide::load_plugin(it->second);
}

void autoschedule(const std::vector<Halide::Func> &outputs, const std::string &autoscheduler,
                  const Halide::Target &target) {
    // Adams2019 searches with a beam of 32 by default: minutes per kernel on 2 cores (over 10 for
    // GroupNorm). A greedy search (beam 1) keeps a clean build of every kernel short; a value the
    // user exported still wins.
    setenv("HL_BEAM_SIZE", "1", /*overwrite=*/0);
    Halide::Pipeline(outputs).auto_schedule(autoscheduler, target, machine_params());
    bool guarded = false;
    for (const Halide::Func &output : outputs) {
        for (Halide::Internal::Split &s : output.function().definition().schedule().splits()) {
            if (s.is_split() && (s.tail == Halide::TailStrategy::Auto || s.tail == Halide::TailStrategy::ShiftInwards)) {
                s.tail = Halide::TailStrategy::GuardWithIf;
                guarded = true;
            }
        }
    }
    if (!guarded) return;
    for (const Halide::Func &output : outputs) {
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
}

}  // namespace halogen
