// The sampler (models/llama/sampling.h): greedy picks the first largest logit; sampling draws
// by the softmax's probabilities (counted over many draws), only from the nucleus, repeatably for
// a seed; bad options are ConfigErrors.
#include <gtest/gtest.h>

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

TEST(Sampling, RejectsBadOptions) {
    EXPECT_THROW(Sampler({-1, 1, 0}), halogen::ConfigError);
    EXPECT_THROW(Sampler({1, 0, 0}), halogen::ConfigError);
    EXPECT_THROW(Sampler({1, 1.5, 0}), halogen::ConfigError);
}

}  // namespace
