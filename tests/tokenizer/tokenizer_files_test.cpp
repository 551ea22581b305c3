// A model directory's tokenizer files, random tokenizer files (valid, deterministic, sized, a
// chat template), the GGUF pre-tokenizer names, and the pattern translation for PCRE2.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontend/errors.h"
#include "tests/support/expect_error.h"
#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/pre_tokenizer.h"
#include "tokenizer/random_tokenizer.h"
#include "tokenizer/regex.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/tokenizer_files.h"

namespace halogen {
namespace {

using testing::expect_error;

std::filesystem::path temp_dir(const std::string &name) {
    const auto dir = std::filesystem::temp_directory_path() / ("halogen_tokenizer_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

TEST(RandomTokenizer, WritesAValidLlama3StyleTokenizer) {
    const auto dir = temp_dir("random");
    write_random_tokenizer(dir.string(), 1000, 3);
    const TokenizerFiles files = read_tokenizer_files(dir.string());
    const Tokenizer t(files.vocab);
    EXPECT_EQ(t.vocab_size(), 1000);
    EXPECT_EQ(files.vocab.tokens.size(), 995u);
    EXPECT_GT(files.vocab.merges.size(), 995u - 256u);   // extra merges reach some tokens twice
    EXPECT_TRUE(files.vocab.ignore_merges);
    EXPECT_EQ(t.id_to_token(995), "<|begin_of_text|>");
    EXPECT_EQ(t.id_to_token(999), "<|eot_id|>");
    EXPECT_EQ(files.vocab.bos_id, 995);
    EXPECT_EQ(files.vocab.eos_id, 999);
    EXPECT_EQ(files.vocab.eot_id, 999);
    EXPECT_EQ(files.bos_token, "<|begin_of_text|>");
    EXPECT_EQ(files.add_bos_token, true);
    EXPECT_EQ(files.chat_template, random_tokenizer_chat_template());
    for (const char *word : {"{%- for", "loop.first", "bos_token", "| trim", "add_generation_prompt", "{%- set"})
        EXPECT_NE(files.chat_template.find(word), std::string::npos) << word;
    const auto ids = t.encode("Hello there, general text 123!");
    EXPECT_EQ(ids.front(), 995);
    EXPECT_LT(ids.size(), 30u);   // merges fire on English letters
    EXPECT_EQ(t.decode(ids, true), "Hello there, general text 123!");
    std::filesystem::remove_all(dir);
}

TEST(RandomTokenizer, SameSeedSameFilesAndSizesChecked) {
    EXPECT_EQ(random_tokenizer_files(400, 1).tokenizer_json, random_tokenizer_files(400, 1).tokenizer_json);
    EXPECT_NE(random_tokenizer_files(400, 1).tokenizer_json, random_tokenizer_files(400, 2).tokenizer_json);
    EXPECT_NO_THROW(random_tokenizer_files(kRandomTokenizerMinVocab, 1));
    expect_error<ConfigError>([] { random_tokenizer_files(kRandomTokenizerMinVocab - 1, 1); },
                              {"vocab size 268 is outside 269", "256 byte tokens"});
}

TEST(TokenizerFiles, ConfigFieldsInTheirForms) {
    const auto dir = temp_dir("files");
    {
        std::ofstream(dir / "tokenizer.json") << random_tokenizer_files(300, 1).tokenizer_json;
        std::ofstream(dir / "tokenizer_config.json")
            << R"({"bos_token": {"content": "<|begin_of_text|>", "lstrip": false}, "eos_token": "<|end_of_text|>",
                  "add_bos_token": false,
                  "chat_template": [{"name": "tool_use", "template": "T"}, {"name": "default", "template": "D"}]})";
    }
    TokenizerFiles f = read_tokenizer_files(dir.string());
    EXPECT_EQ(f.chat_template, "D");
    EXPECT_EQ(f.vocab.bos_id, 295);
    EXPECT_EQ(f.vocab.eos_id, 296);
    EXPECT_EQ(f.add_bos_token, false);

    expect_error<FormatError>([&] { apply_tokenizer_config(R"({"bos_token": 5})", "cfg", f); }, {"cfg: bos_token must be a string"});
    expect_error<FormatError>([&] { apply_tokenizer_config(R"({"eos_token": "<nope>"})", "cfg", f); }, {"eos_token '<nope>' is not in the vocab"});
    expect_error<FormatError>([&] { apply_tokenizer_config(R"({"chat_template": [{"name": "x", "template": "y"}]})", "cfg", f); },
                              {"no template named 'default'"});
    expect_error<FormatError>([&] { apply_tokenizer_config(R"({"a": 1, "a": 2})", "cfg", f); }, {"cfg: key 'a' appears twice"});

    // Without tokenizer_config.json the tokenizer alone is read.
    std::filesystem::remove(dir / "tokenizer_config.json");
    f = read_tokenizer_files(dir.string());
    EXPECT_TRUE(f.chat_template.empty());
    EXPECT_EQ(f.vocab.bos_id, 295);   // from the template
    std::filesystem::remove(dir / "tokenizer.json");
    expect_error<FormatError>([&] { read_tokenizer_files(dir.string()); }, {"tokenizer.json: cannot read"});
    std::filesystem::remove_all(dir);
}

TEST(PreTokenizerNames, GgufNamesSelectThePatterns) {
    EXPECT_EQ(pre_tokenizer_for_gguf("llama-bpe").at(0).pattern, llama3_pattern());
    EXPECT_EQ(pre_tokenizer_for_gguf("gpt-2").at(0).kind, PreTokenizerStep::Kind::ByteLevel);
    const PreTokenizerSpec smollm = pre_tokenizer_for_gguf("smollm");
    ASSERT_EQ(smollm.size(), 2u);
    EXPECT_EQ(smollm[0].kind, PreTokenizerStep::Kind::Digits);
    expect_error<ConfigError>([] { pre_tokenizer_for_gguf("qwen2"); }, {"tokenizer.ggml.pre 'qwen2' is not supported"});
}

TEST(GgufTokenTypes, ControlAndUserDefinedTokensBecomeAddedTokens) {
    // GGUF's types: 1 normal, 3 control, 4 user-defined, 6 byte.
    const std::vector<std::string> tokens = {"a", "<|bos|>", "<tool>", "b"};
    const auto added = added_tokens_from_token_types(tokens, {1, 3, 4, 6});
    ASSERT_EQ(added.size(), 2u);
    EXPECT_EQ(added[0].id, 1);
    EXPECT_EQ(added[0].content, "<|bos|>");
    EXPECT_TRUE(added[0].special);
    EXPECT_FALSE(added[0].normalized);
    EXPECT_EQ(added[1].id, 2);
    EXPECT_FALSE(added[1].special);
    expect_error<FormatError>([&] { added_tokens_from_token_types(tokens, {1, 1}); },
                              {"tokenizer.ggml.token_type has 2 entries for 4 tokens"});
}

std::vector<std::string> pieces(const PreTokenizerSpec &spec, const std::string &text) {
    PreTokenizer p(spec);
    std::vector<std::string_view> out;
    std::deque<std::string> storage;
    p.split(text, out, storage);
    return {out.begin(), out.end()};
}

TEST(PreTokenizer, OnigurumaWhiteSpaceNotPcre2s) {
    // U+180E is not White_Space (Oniguruma's \s, Hugging Face's engine) though PCRE2's \s takes it.
    EXPECT_EQ(pieces(llama3_pre_tokenizer(), "a\xE1\xA0\x8E" "b c"), (std::vector<std::string>{"a", "\xE1\xA0\x8E" "b", " c"}));
    // U+0085 is White_Space in both: before a letter it still joins it, as [^\r\n\p{L}\p{N}] allows.
    EXPECT_EQ(pieces(llama3_pre_tokenizer(), "x\xC2\x85y  z"), (std::vector<std::string>{"x", "\xC2\x85y", " ", " z"}));
    EXPECT_EQ(pcre2_pattern_from_oniguruma("[^\\s\\p{L}]\\S\\\\s", "p"), "[^\\p{White_Space}\\p{L}]\\P{White_Space}\\\\s");
}

TEST(PreTokenizer, EmptyMatchesSplitAsOnigurumasIterator) {
    PreTokenizerStep split;
    split.kind = PreTokenizerStep::Kind::Split;
    split.pattern = "x*";
    EXPECT_EQ(pieces({split}, "abxxc"), (std::vector<std::string>{"a", "b", "xx", "c"}));
    PreTokenizerStep prefix;
    prefix.add_prefix_space = true;
    prefix.use_regex = false;
    EXPECT_EQ(pieces({prefix}, "hi"), (std::vector<std::string>{" hi"}));
    EXPECT_EQ(pieces({prefix}, " hi"), (std::vector<std::string>{" hi"}));
}

}  // namespace
}  // namespace halogen
