// The fuzzer's differential check: one graph, every strategy that applies to it (a generic
// schedule, with or without the one-hot rewrite, with reductions fused or each its own kernel),
// each JIT-compiled, run on misaligned caller buffers and compared with the reference interpreter.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tests/fuzz/graph_gen.h"

namespace halogen::fuzz {

struct Strategy {
    std::string schedule;        // none, basic, simd (halide_gen/compiler/schedule.h)
    bool rewrite = false;        // rewrite_one_hot_reductions first
    bool fuse = true;            // GroupingOptions::fuse_reductions
    std::string name() const;    // "simd+rewrite+unfused"
};

// Every combination: 3 schedules x rewrite on/off x fusion on/off.
std::vector<Strategy> all_strategies();
// Parses a name() back; Error if it names no strategy.
Strategy strategy_from_name(const std::string &name);

struct Failure {
    Strategy strategy;
    std::string what;            // the first mismatching element, or the error raised
};

struct CheckResult {
    int strategies_run = 0;      // strategies compiled and run (duplicates of another skipped)
    int kernels = 0;             // JIT kernels compiled, over all strategies
    int rewrites = 0;            // one-hot reductions the rewrite replaced
    std::vector<Failure> failures;
};

// Runs `c` under every strategy that differs from another (the rewrite only when it fires,
// unfused grouping only when it changes the groups, `basic` only when it places a reduction or
// fuses loops, else it is `none`), or only under `only` when given.
CheckResult check_case(const FuzzCase &c, const std::optional<Strategy> &only = std::nullopt);
// The same on the given input values instead of the seed's random ones (a regression test that
// needs a NaN or an Inf at a chosen element).
CheckResult check_case(const FuzzCase &c, const Inputs &inputs, const std::optional<Strategy> &only = std::nullopt);

}  // namespace halogen::fuzz
