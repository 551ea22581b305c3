// How a graph becomes a Halide pipeline: prepared (the one-hot rewrite), cut into groups (one
// kernel each), and scheduled -- by a schedule applied to each lowered group, or by one of
// Halide's autoschedulers on the whole pipeline. A recipe never changes what is computed.
#pragma once

#include <functional>
#include <string>

#include <Halide.h>

#include "halide_gen/compiler/lower.h"

namespace halogen {

// Decides how one lowered group runs (compute levels, splits, vectorize, parallel).
using ScheduleFn = std::function<void(LoweredGraph &lg, const Halide::Target &target)>;

struct Recipe {
    // Names the recipe in messages ("embedding gather", "simd") and names its schedule: two recipes
    // whose schedules differ have different names (the compile cache keys on it, compile_cache.h).
    std::string name;
    bool rewrite_one_hot = false;     // frontend/rewrites/one_hot_gather.h before grouping
    bool fuse_reductions = true;      // false: every reduction is a kernel of its own
    std::string autoscheduler;        // "Adams2019", "Mullapudi2016", "Li2018"; "" for a schedule
    // Inputs read clamped into their buffers, as an autoscheduled recipe reads them: a schedule may
    // then compute whole register tiles at the edges (rows past the end read the last row, and
    // their results are never stored), where exact tails would leave loops without constant
    // extents. An empty input is then rejected: a clamped read asks for one element.
    bool clamp_inputs = false;
    ScheduleFn schedule;              // per group; empty: Halide's defaults

    // A recipe with one of the generic schedules of compiler/schedule.h ("none", "basic", "simd").
    static Recipe generic(const std::string &schedule);
};

}  // namespace halogen
