// Halide's autoschedulers on a pipeline (compiler/pipeline.h runs them the same way for the AOT
// generators and for JIT kernels): estimates from typical extents of the graph's symbolic dims,
// this machine's parameters, the plugin loaded by name, and the output's tails guarded so that
// every extent works.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <Halide.h>

#include "frontend/graph.h"

namespace halogen {

// The region of `shape` with its symbolic dims at `typical`, in Halide's dimension order: what an
// input's or output's estimates are.
Halide::Region estimated_region(const Shape &shape, const Bindings &typical);

// 2 cores, 32 MiB last-level cache, balance 40: these machines (the autoschedulers' defaults
// assume 16 cores).
Halide::MachineParams machine_params();

// Loads Debian's plugin for `autoscheduler` ("Adams2019", "Mullapudi2016", "Li2018") into this
// process, once; generators get theirs from the command line instead.
void load_autoscheduler(const std::string &autoscheduler);

// Runs `autoscheduler` on the pipeline computing `outputs` (estimates set on them and on their
// input parameters), then turns the outputs' ShiftInwards tails into GuardWithIf: the autoschedulers
// split the output by factors chosen for the estimates, and an output smaller than a factor would
// otherwise be written out of bounds. The inputs should be read clamped (repeat_edge) for the
// same reason. Unrolled loops inside a guarded tile run serially (their extent is no longer
// constant, which Halide's unroll requires).
void autoschedule(const std::vector<Halide::Func> &outputs, const std::string &autoscheduler,
                  const Halide::Target &target);

}  // namespace halogen
