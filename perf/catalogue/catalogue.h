// perf's benchmark catalogue: which cases of the families halogen_perf times, in which grids, and
// what each goal holds a kernel against. A catalogue serves an op (Family::op), so every family of
// that op, and is registered by its file (perf/catalogue/<home>.cpp, one per family home):
//
//     const RegisterCatalogue registered(nn::ops::kLayerNorm, {row_norms, nullptr});
//
// The cases themselves are the families' own (Family::cases on a benchmark's flags); nothing here
// names a family. A family whose op has no catalogue is timed on its `halogen compare` cases in the
// full grid, every variant, and has no goals: a new family needs nothing here to be benchmarked.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "schedules/family.h"

namespace halogen::perf {

// One case perf times, and where.
struct Benchmark {
    Benchmark(CaseArgs args, std::set<std::string> grids, bool dram = false)
        : args(std::move(args)), grids(std::move(grids)), dram(dram) {}

    CaseArgs args;       // the family's flags for it (Family::options)
    // "perf" (the full grid: every variant), "quick" (the regression subset CI runs), "goal"
    // (perf's goals), "sweep" (the streaming-store sweep); the last three time the default variant.
    std::set<std::string> grids;
    bool dram = false;   // its inputs read from DRAM on every call (Family::dram_cases)
    // A goal's machine limits, which the goal point is also timed against ("stream": the norms'
    // streaming y = a*x + b; "read-dram" and "fma": a kernel's roofline).
    std::vector<std::string> goal_limits;
    std::vector<int> goal_threads;             // the thread counts a goal holds at (empty: every one)
    std::vector<std::string> goal_variants;    // variants a goal times beside the default ("naive")
};

struct Catalogue {
    std::function<std::vector<Benchmark>(const Family &)> benchmarks;
    // Whether a peer's operation ("libtorch:index_select") is a reference of the goals; unset:
    // every operation but a reorder.
    std::function<bool(const std::string &peer_op)> goal_reference;
};

// Registers `catalogue` for the families of `op` (Error when the op has one already).
struct RegisterCatalogue {
    RegisterCatalogue(const std::string &op, Catalogue catalogue);
};

// The catalogue of an op, or nullptr.
const Catalogue *catalogue_of(const std::string &op);
// The ops that have one.
std::vector<std::string> catalogued_ops();

}  // namespace halogen::perf
