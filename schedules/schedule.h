// Generic schedules for a lowered graph. A schedule only decides how the pipeline runs; it never
// changes what it computes, so every schedule returns the interpreter's numbers.
//   none       Halide's defaults: pure Funcs inlined, reductions computed where they are consumed,
//              every loop serial.
//   simd       the output's innermost axis vectorized at the target's natural width (GuardWithIf,
//              so extents below the width work on exact caller buffers), its outermost parallel.
#pragma once

#include <string>
#include <vector>

#include <Halide.h>

#include "halide_gen/lower.h"

namespace halogen {

const std::vector<std::string> &schedule_names();
// Applies the named schedule; Error for an unknown name.
void apply_schedule(LoweredGraph &lg, const std::string &name, const Halide::Target &target);

}  // namespace halogen
