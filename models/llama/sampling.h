// Picking the next token from a step's logits: greedy (temperature 0: the first of the largest,
// as torch.argmax), or sampled from softmax(logits / temperature) restricted to the nucleus (top-p:
// the fewest most likely tokens whose probabilities sum to at least p), as transformers'
// TopPLogitsWarper keeps them. The random draws come from a seeded std::mt19937_64, so a seed gives
// the same picks on every run.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace halogen {

// The index of the largest value (the first of equal ones, as torch.argmax; 0 when every value is
// NaN, since nothing compares larger than a NaN).
int32_t argmax(const std::vector<float> &logits);

struct SamplingOptions {
    double temperature = 0;   // 0: greedy
    double top_p = 1;         // (0, 1]
    uint64_t seed = 0;
};

class Sampler {
public:
    // ConfigError for a negative or non-finite temperature, or top_p outside (0, 1].
    explicit Sampler(const SamplingOptions &options);
    int32_t pick(const std::vector<float> &logits);

private:
    SamplingOptions options_;
    std::mt19937_64 random_;
};

}  // namespace halogen
