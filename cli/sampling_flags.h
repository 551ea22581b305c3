// The sampling flags of the commands that generate (`generate`, `chat`): --temperature, --top-p,
// --top-k, --min-p, --repeat-penalty, --repeat-last-n and --seed (seed_flag.h), declared once.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "models/llama/sampling.h"

namespace halogen {

struct SamplingFlags {
    SamplingOptions options;
    std::string seed = "0";   // seed_flag.h: -1 draws one
    CLI::Option *top_p = nullptr, *top_k = nullptr, *min_p = nullptr;
};

void add_sampling_flags(CLI::App &command, SamplingFlags &f);

// The options with the seed resolved (a drawn one printed under `command`), and a warning on
// stderr for --top-p, --top-k or --min-p given without --temperature (the picks stay greedy).
// The Sampler the caller makes from them checks their ranges.
SamplingOptions resolve_sampling(const std::string &command, const SamplingFlags &f);

}  // namespace halogen
