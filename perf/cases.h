// The benchmark grids, made from the families (schedules/registry.h) and perf's catalogue of each
// family's op (perf/catalogue/): each benchmark case is a case of a family, made by the family
// from the catalogue's flags, with the variants timed on it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "perf/catalogue/catalogue.h"
#include "schedules/family.h"

namespace halogen::perf {

struct BenchCase {
    std::string name;                   // "{family}:{label}": "embedding:V=128256,D=4096,T=16,ids=fresh"
    Case spec;                          // the family's case: inputs, work, tolerance
    std::string reference;              // the family's default variant: the others are checked against it
    std::vector<std::string> variants;  // halogen variants timed on it
    // Its goal (perf/catalogue/catalogue.h): the machine limits a goal point is also timed against,
    // the thread counts it holds at (empty: every one), and which peer operations are its references.
    std::vector<std::string> goal_limits;
    std::vector<int> goal_threads;
    std::function<bool(const std::string &peer_op)> goal_reference;
    const std::string &family() const { return spec.family; }
};

// Every case catalogued for the full grid with all its variants, or for `quick` (the regression
// subset CI runs) the quick cases with the default variant only.
std::vector<BenchCase> benchmark_grid(bool quick);
// The goal cases, each with the family's default variant and the variants its goal names.
std::vector<BenchCase> goals_grid();
// The streaming sweep's cases (kernels with a streamed twin, 2 to 48 MiB of output), default variant.
std::vector<BenchCase> streaming_sweep_grid();
// A family's tiny case (Family::tiny_case): what a peer makes of the family is read off it.
BenchCase tiny_case(const std::string &family);

// What perf times of a family: its op's catalogue, or else its compare cases in the full grid.
std::vector<Benchmark> benchmarks_of(const Family &f);

}  // namespace halogen::perf
