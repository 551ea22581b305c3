// `halogen compare`: every variant of a family, run as its AOT kernel on the same inputs, checked
// against the interpreter (or a reference variant where the interpreter would be too slow), and
// timed side by side: median of repeated runs after a warm-up, in one process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace halogen {

struct CompareOptions {
    std::string family = "all";              // embedding | norms | conv | all
    // embedding (0: use the default shape set)
    int64_t vocab = 0, dim = 0, tokens = 0, ids_max = 0;
    // norms
    std::string op;                          // layernorm | rmsnorm | batchnorm | groupnorm
    std::vector<int64_t> shape;              // norms: e.g. 8x512x4096; conv: NxCxHxW...
    // conv
    std::vector<int64_t> kernel;             // KxRxS...: K output channels, then the window
    int64_t stride = 1, pad = 1;
    std::string json_path;                   // one record per (family, shape, variant)
    double budget_s = 5.0;                   // skip a variant whose run would take longer
    double min_time_s = 0.5;                 // repeat each variant for at least this long
};

// Prints the tables; returns the process exit code.
int run_compare(const CompareOptions &options);

}  // namespace halogen
