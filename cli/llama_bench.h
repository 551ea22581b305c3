// `halogen llama bench`: a model's prefill and decode speed beside the machine's limits, measured
// in the same process just before each repetition: the read bandwidth of summing the weights the
// kernels read, in place (from DRAM, or from the cache they fit in: what a GEMV that streams them
// can reach) and the fp32 FMA peak (halide_gen/runtime/host_limits.h). Decode's bound is that
// bandwidth over the weight bytes a token reads; prefill's is the FMA peak over the operations per
// prompt token (models/llama/llama_cost.h). Each repetition's rates are divided by its own
// bounds; the medians are reported. Also the peak resident memory beside the weights and the KV
// cache.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/llama_run.h"

namespace halogen {

struct LlamaBenchOptions {
    LlamaRunOptions run;          // the model and how its kernels hold the weights
    int64_t prompt = 128;         // prompt tokens (ids made up: no tokenizer)
    int64_t gen = 32;             // tokens decoded after it, greedily
    std::vector<int> threads;     // thread counts, each measured; none: one per core
    int repetitions = 3;          // prefill + decode runs per thread count; the medians are reported
    std::string json;             // a file for the numbers, or none
};

// Prints the table (and writes the JSON); halogen::Error on a problem.
int llama_bench(const LlamaBenchOptions &o);

}  // namespace halogen
