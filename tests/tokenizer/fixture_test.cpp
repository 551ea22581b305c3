// The tokenizer against tests/fixtures/tokenizer/ (generate.py there: an independent Python
// implementation with the `regex` module, checked against Hugging Face's own output for GPT-2):
// every case's ids exactly, under four pre-tokenizer set-ups, and decode giving the text back.
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/tokenizer.h"

namespace halogen {
namespace {

const std::string kDir = HALOGEN_TOKENIZER_FIXTURES_DIR;

nlohmann::json expected() {
    std::ifstream f(kDir + "/expected.json");
    return nlohmann::json::parse(f);
}

const Tokenizer &tokenizer(const std::string &config) {
    static std::map<std::string, std::unique_ptr<Tokenizer>> cache;
    auto &t = cache[config];
    if (!t) t = std::make_unique<Tokenizer>(read_hf_tokenizer_json(kDir + "/" + config + ".tokenizer.json"));
    return *t;
}

std::string shown(const std::string &s) { return nlohmann::json(s).dump(); }

TEST(TokenizerFixtures, EveryCaseGivesTheExpectedIds) {
    const nlohmann::json all = expected();
    ASSERT_GT(all["cases"].size(), 200u);
    std::map<std::string, int> per_config;
    int from_hf = 0;
    for (const auto &c : all["cases"]) {
        const std::string config = c["config"], text = c["text"];
        const auto want = c["ids"].get<std::vector<int32_t>>();
        EXPECT_EQ(tokenizer(config).encode(text, c["add_special_tokens"].get<bool>()), want)
            << config << " " << shown(text) << " (" << c["source"].get<std::string>() << ")";
        ++per_config[config];
        from_hf += c["source"] == "hf";
    }
    EXPECT_GT(from_hf, 40);
    for (const char *config : {"gpt2", "gpt2_prefix_space", "llama3", "smollm"}) EXPECT_GE(per_config[config], 40) << config;
}

TEST(TokenizerFixtures, DecodeGivesTheTextBack) {
    const nlohmann::json all = expected();
    int checked = 0;
    for (const auto &c : all["cases"]) {
        const std::string config = c["config"], text = c["text"];
        if (config == "gpt2_prefix_space") continue;   // a space was added in front
        // lstrip / rstrip tokens take the white space around them into the token.
        if (text.find("<mask>") != std::string::npos || text.find("<sep>") != std::string::npos) continue;
        ++checked;
        const auto ids = c["ids"].get<std::vector<int32_t>>();
        // Special tokens in the text come back as their content; the BOS the template added is skipped.
        const bool bos = c["add_special_tokens"].get<bool>();
        const std::vector<int32_t> body(ids.begin() + (bos ? 1 : 0), ids.end());
        EXPECT_EQ(tokenizer(config).decode(body), text) << config << " " << shown(text);
    }
    EXPECT_GT(checked, 150);
}

TEST(TokenizerFixtures, Llama3TemplateAddsTheBos) {
    const Tokenizer &t = tokenizer("llama3");
    const int32_t bos = t.token_to_id("<|begin_of_text|>");
    ASSERT_GE(bos, 0);
    EXPECT_EQ(t.bos_id(), bos);
    const auto with = t.encode("Hello world", true), without = t.encode("Hello world", false);
    ASSERT_EQ(with.size(), without.size() + 1);
    EXPECT_EQ(with.front(), bos);
    EXPECT_EQ(std::vector<int32_t>(with.begin() + 1, with.end()), without);
    EXPECT_EQ(t.decode(with, true), "Hello world");
    EXPECT_EQ(t.decode(with, false), "<|begin_of_text|>Hello world");
    // GPT-2's post-processor (ByteLevel) adds nothing.
    EXPECT_EQ(tokenizer("gpt2").encode("Hello", true), tokenizer("gpt2").encode("Hello", false));
}

TEST(TokenizerFixtures, SpecialTokensInsideTextAreOneIdAndSkippedOnRequest) {
    const Tokenizer &t = tokenizer("gpt2");
    const int32_t eot = t.token_to_id("<|endoftext|>");
    ASSERT_GE(eot, 0);
    EXPECT_TRUE(t.is_special(eot));
    const auto ids = t.encode("Hello<|endoftext|>world", false);
    EXPECT_EQ(std::count(ids.begin(), ids.end(), eot), 1);
    EXPECT_EQ(t.decode(ids, false), "Hello<|endoftext|>world");
    EXPECT_EQ(t.decode(ids, true), "Helloworld");
    // The text on either side is encoded as if alone.
    std::vector<int32_t> parts = t.encode("Hello", false);
    parts.push_back(eot);
    for (int32_t id : t.encode("world", false)) parts.push_back(id);
    EXPECT_EQ(ids, parts);
}

}  // namespace
}  // namespace halogen
