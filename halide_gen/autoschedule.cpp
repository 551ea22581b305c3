// Halide's autoschedulers on family pipelines.
#include "halide_gen/autoschedule.h"

#include <cstdlib>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

Bindings typical_extents(const std::string &family) {
    static const std::map<std::string, Bindings> table = {
        {"embedding", {{"T", 16}, {"V", 128256}, {"D", 4096}}},
        {"layernorm", {{"R", 4096}, {"D", 4096}}},
        {"rmsnorm", {{"R", 4096}, {"D", 4096}}},
        {"batchnorm", {{"N", 8}, {"C", 256}, {"S", 3136}}},
        {"groupnorm", {{"N", 8}, {"CG", 8}, {"S", 3136}}},
        {"conv1d", {{"N", 8}, {"C", 256}, {"K", 256}, {"L1", 1024}}},
        {"conv2d", {{"N", 1}, {"C", 64}, {"K", 64}, {"L1", 56}, {"L2", 56}}},
        {"conv3d", {{"N", 1}, {"C", 32}, {"K", 32}, {"L1", 16}, {"L2", 56}, {"L3", 56}}},
    };
    auto it = table.find(family);
    return it == table.end() ? Bindings{} : it->second;
}

std::map<std::string, Halide::Region> family_estimates(const Family &family, const Bindings &typical) {
    auto region = [&](const Shape &shape) {
        Halide::Region r;
        for (auto d = shape.rbegin(); d != shape.rend(); ++d) r.push_back({0, int(d->eval(typical))});
        return r;
    };
    std::map<std::string, Halide::Region> out;
    for (const Node *n : family.graph.inputs()) out[n->name] = region(n->shape);
    out[""] = region(family.graph.outputs()[0].shape());
    return out;
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

void autoschedule(Halide::Func output, const std::string &autoscheduler, const Halide::Target &target) {
    // Adams2019 searches with a beam of 32 by default: minutes per kernel on 2 cores (over 10 for
    // GroupNorm). A greedy search (beam 1) keeps a clean build of every kernel short; a value the
    // user exported still wins.
    setenv("HL_BEAM_SIZE", "1", /*overwrite=*/0);
    Halide::Pipeline(output).auto_schedule(autoscheduler, target, machine_params());
    bool guarded = false;
    for (Halide::Internal::Split &s : output.function().definition().schedule().splits()) {
        if (s.is_split() && (s.tail == Halide::TailStrategy::Auto || s.tail == Halide::TailStrategy::ShiftInwards)) {
            s.tail = Halide::TailStrategy::GuardWithIf;
            guarded = true;
        }
    }
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
