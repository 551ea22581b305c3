// What every family generator shares: the `variant` GeneratorParam, building the family's
// pipeline (halide_gen/family_pipeline.h) from the generator's inputs, and the estimates the
// autoschedulers need. Each generator then only declares its inputs and output.
#pragma once

#include <map>
#include <string>

#include <Halide.h>

#include "halide_gen/family_pipeline.h"

namespace halogen {

// Typical extents of each symbolic dim, for the autoschedulers' estimates.
const std::map<std::string, int> &typical_extents(const std::string &family);

// Builds `family`'s `variant` with `inputs` (name -> the generator's input Func and its extents)
// and returns the output Func. With `auto_schedule`, no hand directive is applied.
Halide::Func build_for_generator(const std::string &family, const std::string &variant,
                                 const std::map<std::string, std::pair<Halide::Func, std::vector<Halide::Expr>>> &inputs,
                                 const Halide::Target &target, bool auto_schedule);

}  // namespace halogen
