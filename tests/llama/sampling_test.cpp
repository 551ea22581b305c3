// The sampler (models/llama/sampling.h): greedy picks the first largest logit; sampling draws
// by the softmax's probabilities (counted over many draws), only from the nucleus, the top k (ties
// kept) and the tokens above min-p, repeatably for a seed; the repetition penalty divides positive
// and multiplies negative logits of the ids in its window, greedy or not; bad options are
// ConfigErrors.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "frontend/errors.h"
#include "models/llama/sampling.h"

namespace {

using halogen::Sampler;

TEST(Sampling, GreedyPicksTheFirstLargest) {
    Sampler s({0, 1, 0});
    EXPECT_EQ(s.pick({0.5f, 2.f, -1.f, 2.f}), 1);
}

TEST(Sampling, DrawsFollowTheSoftmaxAndStayInTheNucleus) {
    // logits ln(1), ln(2), ln(3), ln(4) at temperature 1: probabilities 0.1, 0.2, 0.3, 0.4.
    const std::vector<float> logits = {0.f, 0.6931472f, 1.0986123f, 1.3862944f};
    Sampler all({1, 1, 42});
    std::map<int32_t, int> counts;
    const int n = 20000;
    for (int k = 0; k < n; ++k) ++counts[all.pick(logits)];
    for (int32_t id = 0; id < 4; ++id) EXPECT_NEAR(counts[id] / double(n), 0.1 * (id + 1), 0.015) << id;
    // top-p 0.65: the nucleus is {3, 2} (0.4 + 0.3 >= 0.65), drawn 4:3.
    Sampler nucleus({1, 0.65, 42});
    counts.clear();
    for (int k = 0; k < n; ++k) ++counts[nucleus.pick(logits)];
    EXPECT_EQ(counts[0] + counts[1], 0);
    EXPECT_NEAR(counts[3] / double(n), 4.0 / 7.0, 0.015);
    // A lower temperature sharpens: at 0.25 the probabilities go as 1:16:81:256.
    Sampler cold({0.25, 1, 42});
    counts.clear();
    for (int k = 0; k < n; ++k) ++counts[cold.pick(logits)];
    EXPECT_NEAR(counts[3] / double(n), 256.0 / 354.0, 0.015);
}

TEST(Sampling, ASeedRepeatsItsPicks) {
    const std::vector<float> logits = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f};
    Sampler a({0.9, 0.95, 7}), b({0.9, 0.95, 7}), c({0.9, 0.95, 8});
    std::vector<int32_t> pa, pb, pc;
    for (int k = 0; k < 64; ++k) {
        pa.push_back(a.pick(logits));
        pb.push_back(b.pick(logits));
        pc.push_back(c.pick(logits));
    }
    EXPECT_EQ(pa, pb);
    EXPECT_NE(pa, pc);
}

// Counts of `n` picks of `s` from `logits`.
std::map<int32_t, int> picks(Sampler s, const std::vector<float> &logits, int n, const std::vector<int32_t> &history = {}) {
    std::map<int32_t, int> counts;
    for (int k = 0; k < n; ++k) ++counts[s.pick(logits, history)];
    return counts;
}

TEST(Sampling, TopKKeepsTheKLargestAndTheirTies) {
    // Probabilities 0.1, 0.2, 0.3, 0.4 at temperature 1.
    const std::vector<float> logits = {0.f, 0.6931472f, 1.0986123f, 1.3862944f};
    const int n = 20000;
    halogen::SamplingOptions o{1, 1, 3};
    o.top_k = 2;   // {3, 2}, drawn 4:3
    auto counts = picks(Sampler(o), logits, n);
    EXPECT_EQ(counts[0] + counts[1], 0);
    EXPECT_NEAR(counts[3] / double(n), 4.0 / 7.0, 0.015);
    o.top_k = 1;
    EXPECT_EQ(picks(Sampler(o), logits, 200)[3], 200);
    // A tie with the k-th largest stays: logits 2, 1, 1, 0 with k = 2 keep ids 0, 1 and 2.
    o.top_k = 2;
    counts = picks(Sampler(o), {2.f, 1.f, 1.f, 0.f}, n);
    EXPECT_EQ(counts[3], 0);
    EXPECT_GT(counts[2], 0);
    EXPECT_NEAR(counts[1] / double(n), 1 / (2 + std::exp(1.0)), 0.015);   // e^1 : e^0 : e^0 over what is kept
}

TEST(Sampling, MinPKeepsTokensWithinItsShareOfTheLargest) {
    // Probabilities 0.1, 0.2, 0.3, 0.4: min-p 0.6 keeps p >= 0.24, ids 2 and 3, drawn 3:4.
    const std::vector<float> logits = {0.f, 0.6931472f, 1.0986123f, 1.3862944f};
    halogen::SamplingOptions o{1, 1, 9};
    o.min_p = 0.6;
    const int n = 20000;
    auto counts = picks(Sampler(o), logits, n);
    EXPECT_EQ(counts[0] + counts[1], 0);
    EXPECT_NEAR(counts[2] / double(n), 3.0 / 7.0, 0.015);
    o.min_p = 1;   // only the largest
    EXPECT_EQ(picks(Sampler(o), logits, 100)[3], 100);
}

TEST(Sampling, TheRepetitionPenaltyDividesPositiveAndMultipliesNegativeLogits) {
    halogen::SamplingOptions o{0, 1, 0};
    o.repeat_penalty = 2;
    // Greedy: id 1 (3.0) is in the history and becomes 1.5 < id 2's 2.0.
    EXPECT_EQ(Sampler(o).pick({0.f, 3.f, 2.f}, {1}), 2);
    EXPECT_EQ(Sampler(o).pick({0.f, 3.f, 2.f}, {0}), 1);   // another id's penalty changes nothing here
    // A negative logit is multiplied: -1 becomes -2, below id 2's -1.5.
    EXPECT_EQ(Sampler(o).pick({-3.f, -1.f, -1.5f}, {1}), 2);
    // The window: only the last repeat_last_n ids count (id 1 is three ids back).
    o.repeat_last_n = 2;
    EXPECT_EQ(Sampler(o).pick({0.f, 3.f, 2.f}, {1, 0, 0}), 1);
    EXPECT_EQ(Sampler(o).pick({0.f, 3.f, 2.f}, {0, 1, 0}), 2);
    // An id repeated in the window is penalized once: 3 / 2 = 1.5 > 1.4.
    EXPECT_EQ(Sampler(o).pick({0.f, 3.f, 1.4f}, {1, 1}), 1);
    o.repeat_last_n = 0;
    EXPECT_EQ(Sampler(o).pick({0.f, 3.f, 2.f}, {1}), 1);
    // Sampled: at penalty 2, logits ln 2 and ln 4 of ids in the history become ln(2)/2 and ln(4)/2,
    // i.e. weights sqrt(2) and 2 against id 0's 1.
    halogen::SamplingOptions s{1, 1, 4};
    s.repeat_penalty = 2;
    const int n = 20000;
    auto counts = picks(Sampler(s), {0.f, 0.6931472f, 1.3862944f}, n, {1, 2});
    EXPECT_NEAR(counts[0] / double(n), 1 / (1 + std::sqrt(2.0) + 2), 0.015);
}

TEST(Sampling, RejectsBadOptions) {
    EXPECT_THROW(Sampler({-1, 1, 0}), halogen::ConfigError);
    EXPECT_THROW(Sampler({1, 0, 0}), halogen::ConfigError);
    EXPECT_THROW(Sampler({1, 1.5, 0}), halogen::ConfigError);
    EXPECT_THROW(Sampler({1, 1, 0, -1}), halogen::ConfigError);
    EXPECT_THROW(Sampler({1, 1, 0, 0, 1.5}), halogen::ConfigError);
    EXPECT_THROW(Sampler({1, 1, 0, 0, 0, 0}), halogen::ConfigError);
    EXPECT_THROW(Sampler({1, 1, 0, 0, 0, 1, -1}), halogen::ConfigError);
}

}  // namespace
