// Generic schedules for a lowered group. A schedule only decides how the pipeline runs; it never
// changes what it computes, so every schedule returns the interpreter's numbers.
//   none    Halide's defaults: pure Funcs inlined, each reduction computed where it is consumed
//           (a row statistic is then recomputed for every element that reads it), loops serial.
//   basic   the group's analysis applied: each reduction computed once, at its compute level;
//           runs of collapsed axes fused into one loop; loops serial.
//   simd    basic, plus the innermost axis vectorized at the target's natural width (a constant
//           extent of at least one vector ShiftInwards, others GuardWithIf, so any extent works on
//           exact caller buffers; schedule.cpp says why), reductions computed per vector vectorized
//           too (GuardWithIf), and the outermost loop parallel.
#pragma once

#include <string>
#include <vector>

#include <Halide.h>

#include "halide_gen/compiler/recipe.h"

namespace halogen {

const std::vector<std::string> &schedule_names();
// Applies the named schedule; Error for an unknown name.
void apply_schedule(LoweredGraph &lg, const std::string &name, const Halide::Target &target);

}  // namespace halogen
