// A tokenizer through a GGUF file's keys (tokenizer/gguf_tokenizer.h): the fixtures' tokenizers
// written as llama.cpp's converter writes them and read back give the ids of
// tests/fixtures/tokenizer/expected.json (made by an independent implementation, checked against
// Hugging Face's), the BOS, EOS and end-of-turn ids and the chat template survive, and files that
// are not byte-level BPE or name no known pre-tokenizer are errors naming the key.
#include <fstream>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontend/errors.h"
#include "tokenizer/gguf_tokenizer.h"
#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/random_tokenizer.h"
#include "tokenizer/tokenizer.h"

namespace halogen {
namespace {

const std::string kDir = HALOGEN_TOKENIZER_FIXTURES_DIR;

GgufFile through_gguf(const TokenizerFiles &files) {
    GgufWriter w;
    write_gguf_tokenizer(files, w);
    return GgufFile::from_bytes(w.to_bytes(), "tokenizer.gguf");
}

TEST(GgufTokenizer, FixtureTokenizersThroughGgufKeysGiveTheExpectedIds) {
    std::ifstream f(kDir + "/expected.json");
    const nlohmann::json all = nlohmann::json::parse(f);
    int checked = 0;
    // gpt2_prefix_space has no GGUF name (add_prefix_space is not a GGUF pre-tokenizer).
    for (const char *config : {"gpt2", "llama3", "smollm"}) {
        TokenizerFiles files;
        files.vocab = read_hf_tokenizer_json(kDir + "/" + std::string(config) + ".tokenizer.json");
        const Tokenizer direct(files.vocab);
        const TokenizerFiles back = read_gguf_tokenizer(through_gguf(files));
        const Tokenizer via_gguf(back.vocab);
        for (const auto &c : all["cases"]) {
            if (c["config"] != config) continue;
            const std::string text = c["text"];
            const bool special = c["add_special_tokens"];
            if (special && files.vocab.prefix_ids.empty()) continue;   // the GGUF route adds only a BOS
            bool stripping = false;   // GGUF has no lstrip / rstrip: texts with such added tokens are left out
            for (const AddedToken &a : files.vocab.added) {
                if ((a.lstrip || a.rstrip || a.single_word) && text.find(a.content) != std::string::npos) stripping = true;
            }
            if (stripping) continue;
            EXPECT_EQ(via_gguf.encode(text, special), c["ids"].get<std::vector<int32_t>>()) << config << " " << text;
            ++checked;
        }
        EXPECT_EQ(via_gguf.vocab_size(), direct.vocab_size()) << config;
    }
    EXPECT_GT(checked, 150);
}

TEST(GgufTokenizer, SpecialIdsAndTheChatTemplateSurvive) {
    const RandomTokenizerFiles random = random_tokenizer_files(600, 3);
    TokenizerFiles files;
    files.vocab = parse_hf_tokenizer_json(random.tokenizer_json);
    apply_tokenizer_config(random.tokenizer_config_json, "tokenizer_config.json", files);
    const TokenizerFiles back = read_gguf_tokenizer(through_gguf(files));
    const Tokenizer a(files.vocab), b(back.vocab);
    EXPECT_EQ(b.bos_id(), a.bos_id());
    EXPECT_EQ(b.eos_id(), a.eos_id());
    EXPECT_EQ(b.eot_id(), a.eot_id());
    EXPECT_EQ(back.chat_template, files.chat_template);
    EXPECT_EQ(back.bos_token, "<|begin_of_text|>");
    EXPECT_EQ(back.eos_token, a.token_bytes(a.eos_id()));
    const std::string text = "<|start_header_id|>user<|end_header_id|>\n\nHello 123 wörld<|eot_id|>";
    EXPECT_EQ(b.encode(text), a.encode(text));
    EXPECT_EQ(b.encode(text).front(), a.bos_id());
}

TEST(GgufTokenizer, OtherTokenizersAreNamed) {
    GgufWriter w;
    w.set_string("tokenizer.ggml.model", "llama");
    w.set_string_array("tokenizer.ggml.tokens", {"a", "b"});
    try {
        read_gguf_tokenizer(GgufFile::from_bytes(w.to_bytes(), "spm.gguf"));
        FAIL() << "no error";
    } catch (const FormatError &e) {
        EXPECT_NE(std::string(e.what()).find("tokenizer.ggml.model 'llama' is not supported"), std::string::npos) << e.what();
    }
    GgufWriter p;
    p.set_string("tokenizer.ggml.model", "gpt2");
    p.set_string("tokenizer.ggml.pre", "qwen2");
    p.set_string_array("tokenizer.ggml.tokens", {"a", "b"});
    EXPECT_THROW(read_gguf_tokenizer(GgufFile::from_bytes(p.to_bytes(), "qwen.gguf")), FormatError);
    GgufWriter bad_id;
    bad_id.set_string("tokenizer.ggml.model", "gpt2");
    bad_id.set_string_array("tokenizer.ggml.tokens", {"a", "b"});
    bad_id.set_u32("tokenizer.ggml.eos_token_id", 7);
    EXPECT_THROW(read_gguf_tokenizer(GgufFile::from_bytes(bad_id.to_bytes(), "id.gguf")), FormatError);
}

}  // namespace
}  // namespace halogen
