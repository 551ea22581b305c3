// Picking the next token from a step's logits, as transformers' generate() does it, in its order:
//   1. the repetition penalty (RepetitionPenaltyLogitsProcessor) over the last `repeat_last_n` ids
//      of the history (llama.cpp's window; transformers takes the whole history): each distinct id
//      there has its logit divided by the penalty when positive, multiplied when negative;
//   2. greedy at temperature 0: the first of the largest logits (torch.argmax);
//   3. otherwise the warpers on logits / temperature: top-k (TopKLogitsWarper: the tokens whose
//      logit is at least the k-th largest, ties kept), top-p (TopPLogitsWarper: the fewest most
//      likely tokens whose probabilities sum to at least p), min-p (MinPLogitsWarper: the tokens
//      whose probability is at least min_p times the largest), each keeping one token at least;
//      then a draw from the softmax of what is left.
// The draws come from a seeded std::mt19937_64, so a seed gives the same picks on every run.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace halogen {

// The index of the largest value (the first of equal ones, as torch.argmax; 0 when every value is
// NaN, since nothing compares larger than a NaN).
int32_t argmax(const std::vector<float> &logits);

struct SamplingOptions {
    double temperature = 0;       // 0: greedy
    double top_p = 1;             // (0, 1]; 1: off
    uint64_t seed = 0;
    int64_t top_k = 0;            // >= 0; 0: off
    double min_p = 0;             // [0, 1]; 0: off
    double repeat_penalty = 1;    // > 0; 1: off
    int64_t repeat_last_n = 64;   // >= 0: how many of the last ids the penalty looks at; 0: none
};

class Sampler {
public:
    // ConfigError for an option out of its range (each named with the range).
    explicit Sampler(const SamplingOptions &options);
    // `history`: the ids so far (the prompt, then the picks), for the repetition penalty.
    int32_t pick(const std::vector<float> &logits, const std::vector<int32_t> &history = {});
    const SamplingOptions &options() const { return options_; }

private:
    SamplingOptions options_;
    std::mt19937_64 random_;
};

}  // namespace halogen
