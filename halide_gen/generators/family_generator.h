// What every family generator shares: building the family's pipeline (halide_gen/family_pipeline.h)
// from the generator's inputs, the estimates the autoschedulers need, and running them. Each
// generator then only declares its inputs and output.
#pragma once

#include <map>
#include <string>

#include <Halide.h>

#include "halide_gen/family_pipeline.h"

namespace halogen {

// Typical extents of each symbolic dim, for the autoschedulers' estimates.
const std::map<std::string, int> &typical_extents(const std::string &family);

// Builds `family`'s `variant` with `inputs` (name -> the generator's input Func and its extents)
// and returns the output Func: hand-scheduled, or unscheduled for an autoscheduled variant.
Halide::Func build_for_generator(const std::string &family, const std::string &variant,
                                 const std::map<std::string, std::pair<Halide::Func, std::vector<Halide::Expr>>> &inputs,
                                 const Halide::Target &target);

// Runs `autoscheduler` (a plugin loaded with the generator's -p) on the pipeline ending in
// `output`, whose estimates are set, then turns the output's tails into GuardWithIf so that every
// output extent works, not only those at least as large as the autoscheduler's tiles.
void autoschedule(Halide::Func output, const std::string &autoscheduler, const Halide::Target &target,
                  const Halide::MachineParams &machine);

}  // namespace halogen
