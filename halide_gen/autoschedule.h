// Halide's autoschedulers on a family pipeline, the same way for the AOT generators and for JIT
// kernels: estimates from the family's typical extents, this machine's parameters, the plugin
// loaded by name, and the output's tails guarded so that every extent works.
#pragma once

#include <map>
#include <string>

#include <Halide.h>

#include "frontend/families.h"

namespace halogen {

// Typical extents of a shipped family's symbolic dims (empty for a family without any).
Bindings typical_extents(const std::string &family);

// The region of every input (by name) and of the output (key "") for the autoschedulers'
// estimates: the family graph's shapes with its symbolic dims at `typical` (Halide dim order).
std::map<std::string, Halide::Region> family_estimates(const Family &family, const Bindings &typical);

// 2 cores, 32 MiB last-level cache, balance 40: these machines (the autoschedulers' defaults
// assume 16 cores).
Halide::MachineParams machine_params();

// Loads Debian's plugin for `autoscheduler` ("Adams2019", "Mullapudi2016", "Li2018") into this
// process, once; generators get theirs from the command line instead.
void load_autoscheduler(const std::string &autoscheduler);

// Runs `autoscheduler` on the pipeline ending in `output` (estimates set on it and on its input
// parameters), then turns the output's ShiftInwards tails into GuardWithIf: the autoschedulers
// split the output by factors chosen for the estimates, and an output smaller than a factor would
// otherwise be written out of bounds. The inputs should be read clamped (repeat_edge) for the
// same reason. Unrolled loops inside a guarded tile run serially (their extent is no longer
// constant, which Halide's unroll requires).
void autoschedule(Halide::Func output, const std::string &autoscheduler, const Halide::Target &target);

}  // namespace halogen
