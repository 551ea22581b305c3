// What every family generator shares: building the family's pipeline (halide_gen/family_pipeline.h)
// from the generator's inputs. Each generator then only declares its inputs and output.
#pragma once

#include <map>
#include <string>

#include <Halide.h>

#include "halide_gen/family_pipeline.h"

namespace halogen {

// Builds `family`'s `variant` with `inputs` (name -> the generator's input Func and its extents)
// and returns the output Func: hand-scheduled, or unscheduled for an autoscheduled variant.
// `prefetchable`: the inputs' ImageParams when building a streamed twin (ExternalInputs).
Halide::Func build_for_generator(const std::string &family, const std::string &variant,
                                 const std::map<std::string, std::pair<Halide::Func, std::vector<Halide::Expr>>> &inputs,
                                 const Halide::Target &target,
                                 const std::map<std::string, Halide::ImageParam> &prefetchable = {});

}  // namespace halogen
