// The reference llama model (models/llama/llama_reference.h) against PyTorch running Hugging
// Face's Llama math (tests/fixtures/llama/llama_*.json, from tests/fixtures/generate.py --llama):
// the same random weights, regenerated here from the fixture's config and seed with
// write_random_llama (the generator ran `halogen llama init` with them); then the last position's
// logits after the prompt, 32 greedy picks, and the logits of a decode after a shorter prefill.
// The wide-heads model has 4 heads of 32 over hidden 96 (head_dim x heads is not hidden_size).
// The tied model's greedy picks all repeat the prompt's last token (random layers add little to
// the residual stream, whose token embedding then scores highest against itself through the tied
// head); the untied model's picks vary, and its closest pick is 5e-4 from a tie.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/checkpoint.h"
#include "models/llama/llama_reference.h"
#include "models/llama/random_llama.h"
#include "tests/llama/llama_test_support.h"

namespace {

using halogen_test::max_diff;

struct LlamaFixture {
    std::string name;
    halogen::LlamaConfig config;
    uint64_t seed = 0;
    std::vector<int32_t> prompt, greedy;
    std::vector<float> logits, decode_logits;
    int64_t prefill_n = 0;
    int32_t decode_id = 0;
    double atol = 0;
};

LlamaFixture load(const std::string &name) {
    const std::string path = std::string(HALOGEN_LLAMA_FIXTURES_DIR) + "/" + name + ".json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    const nlohmann::json j = nlohmann::json::parse(in);
    LlamaFixture f;
    f.name = j.at("name");
    f.config = halogen::parse_llama_config(j.at("config").dump(), path);
    f.seed = j.at("seed");
    f.prompt = j.at("prompt").get<std::vector<int32_t>>();
    f.greedy = j.at("greedy").get<std::vector<int32_t>>();
    f.logits = j.at("logits").get<std::vector<float>>();
    f.decode_logits = j.at("decode_logits").get<std::vector<float>>();
    f.prefill_n = j.at("prefill_n");
    f.decode_id = j.at("decode_id");
    f.atol = j.at("atol");
    return f;
}

std::unique_ptr<halogen::LlamaReference> model_of(const LlamaFixture &f) {
    halogen_test::TempDir dir;
    halogen::write_random_llama(f.config, dir.str(), halogen::SafetensorsDType::F32, f.seed);
    const halogen::Checkpoint ckpt = halogen::Checkpoint::open(dir.str());
    return std::make_unique<halogen::LlamaReference>(halogen::bind_llama_weights(ckpt, f.config),
                                                     halogen::LlamaReferenceOptions{64});
}

class LlamaVsPyTorch : public ::testing::TestWithParam<std::string> {};

TEST_P(LlamaVsPyTorch, LastPositionLogits) {
    const LlamaFixture f = load(GetParam());
    ASSERT_EQ(f.logits.size(), size_t(f.config.vocab_size));
    const std::vector<float> got = model_of(f)->prefill(f.prompt);
    const double diff = max_diff(got, f.logits);
    EXPECT_LE(diff, f.atol) << f.name;
    std::printf("%s: last-position logits within %.3g of PyTorch\n", f.name.c_str(), diff);
}

TEST_P(LlamaVsPyTorch, ThirtyTwoGreedyPicks) {
    const LlamaFixture f = load(GetParam());
    ASSERT_EQ(f.greedy.size(), 32u);
    EXPECT_EQ(model_of(f)->greedy(f.prompt, 32), f.greedy) << f.name;
}

TEST_P(LlamaVsPyTorch, DecodeAfterPrefill) {
    const LlamaFixture f = load(GetParam());
    auto m = model_of(f);
    m->prefill(std::vector<int32_t>(f.prompt.begin(), f.prompt.begin() + f.prefill_n));
    EXPECT_LE(max_diff(m->decode(f.decode_id), f.decode_logits), f.atol) << f.name;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, LlamaVsPyTorch,
                         ::testing::Values("llama_tiny_untied", "llama_tiny_tied", "llama_tiny_wide_heads"));

TEST(LlamaFixtures, AreTheTinyArchitecturesUntiedAndTied) {
    const LlamaFixture untied = load("llama_tiny_untied"), tied = load("llama_tiny_tied");
    halogen::LlamaConfig tiny = halogen::llama_preset("tiny");
    tiny.vocab_size = 256;   // the fixtures' vocabulary: the preset's is larger, to hold a tokenizer's merges
    EXPECT_EQ(untied.config, tiny);
    tiny.tie_word_embeddings = true;
    EXPECT_EQ(tied.config, tiny);
    EXPECT_EQ(tiny.kv_group_size(), 3);
    EXPECT_TRUE(tiny.rope_scaling.has_value());
}

// The wide-heads fixture's heads do not add up to hidden_size: 4 x 32 query features from 96.
TEST(LlamaFixtures, WideHeadsAreNotHiddenSizeWide) {
    const halogen::LlamaConfig c = load("llama_tiny_wide_heads").config;
    EXPECT_EQ(c.hidden_size, 96);
    EXPECT_EQ(c.num_attention_heads * c.head_dim, 128);
    EXPECT_EQ(c.kv_group_size(), 2);
}

}  // namespace
