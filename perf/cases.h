// The benchmark grid, taken from the families' own case catalogues (schedules/registry.h): each
// benchmark case is a family's case with the variants timed on it.
#pragma once

#include <string>
#include <vector>

#include "schedules/family.h"

namespace halogen::perf {

struct BenchCase {
    std::string name;                   // "{family}:{label}": "embedding:V=128256,D=4096,T=16,ids=fresh"
    Case spec;                          // the family's case: inputs, work, tolerance
    std::string reference;              // the family's default variant: the others are checked against it
    std::vector<std::string> variants;  // halogen variants timed on it
    const std::string &family() const { return spec.family; }
};

// Every case a family catalogues for "perf" with all its variants, or for `quick` (the regression
// subset CI runs) its "quick" cases with the default variant only.
std::vector<BenchCase> benchmark_grid(bool quick);
// The "goal" cases, each with the family's default variant.
std::vector<BenchCase> goals_grid();
// The "sweep" cases (kernels with a streamed twin, 2 to 48 MiB of output), default variant.
std::vector<BenchCase> streaming_sweep_grid();
// A family's "tiny" case: what a peer makes of the family is read off it.
BenchCase tiny_case(const std::string &family);

// Whether a peer's "<peer>:<op>" is a reference of a goal of `family`: index_select for the
// embedding, oneDNN's convolutions (plain and its own layout) for conv, every norm op.
bool goal_reference(const std::string &family, const std::string &impl);

}  // namespace halogen::perf
