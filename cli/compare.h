// `halogen compare`: every variant of a family, run on the same inputs, checked against the
// interpreter (or the family's default variant where the interpreter would be too slow), and timed
// side by side: median of repeated runs after a warm-up, in one process. The families, their
// variants, flags and cases all come from the registry (schedules/registry.h).
#pragma once

#include <string>

#include "schedules/family.h"

namespace halogen {

struct CompareOptions {
    std::string name = "all";    // a family, a home of families ("norms"), or all
    CaseArgs args;               // the family's own flags; none: its catalogued cases
    std::string json_path;       // one record per (case, variant)
    double budget_s = 5.0;       // skip a variant whose run would take longer
    double min_time_s = 0.5;     // repeat each variant for at least this long
    bool verbose = false;        // let Halide's autoschedulers print while a case is JIT-compiled
    int threads = 0;             // the kernels' threads; 0: one per core
};

// Checks the options against the families they name (a flag no such family takes is an Error),
// then prints the tables; returns the process exit code.
int run_compare(const CompareOptions &options);

}  // namespace halogen
