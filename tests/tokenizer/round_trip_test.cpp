// decode(encode(s)) == s on random Unicode strings (seeded, a bounded number), and bytes that are
// not UTF-8: encoding never fails, decode_bytes gives the bytes back and decode replaces the
// ill-formed parts as the lossy conversion does. On the llama3 and SmolLM2 fixtures (GPT-2's
// pruned vocab) and on a small random llama3-style tokenizer.
#include <memory>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/random_tokenizer.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

namespace halogen {
namespace {

const std::string kDir = HALOGEN_TOKENIZER_FIXTURES_DIR;

std::vector<std::unique_ptr<Tokenizer>> tokenizers() {
    std::vector<std::unique_ptr<Tokenizer>> out;
    out.push_back(std::make_unique<Tokenizer>(read_hf_tokenizer_json(kDir + "/llama3.tokenizer.json")));
    out.push_back(std::make_unique<Tokenizer>(read_hf_tokenizer_json(kDir + "/smollm.tokenizer.json")));
    out.push_back(std::make_unique<Tokenizer>(read_hf_tokenizer_json(kDir + "/gpt2.tokenizer.json")));
    out.push_back(std::make_unique<Tokenizer>(parse_hf_tokenizer_json(random_tokenizer_files(600, 7).tokenizer_json)));
    return out;
}

// A random code point, drawn from ranges that exercise the pre-tokenizer's classes.
uint32_t random_code_point(std::mt19937 &rng) {
    static const std::pair<uint32_t, uint32_t> ranges[] = {
        {0x20, 0x7E}, {0x20, 0x7E}, {0x20, 0x7E}, {0x09, 0x0D}, {0x00, 0x1F}, {0x80, 0xFF}, {0x300, 0x36F},
        {0x370, 0x3FF}, {0x400, 0x4FF}, {0x600, 0x6FF}, {0x900, 0x97F}, {0x2000, 0x206F}, {0x3000, 0x303F},
        {0x4E00, 0x4FFF}, {0xAC00, 0xAD00}, {0xFF00, 0xFFEF}, {0x1F300, 0x1F64F}, {0x10000, 0x10FFFF}};
    const auto &r = ranges[rng() % std::size(ranges)];
    uint32_t cp = r.first + rng() % (r.second - r.first + 1);
    if (cp >= 0xD800 && cp < 0xE000) cp = 0x41;
    return cp;
}

TEST(TokenizerRoundTrip, RandomUnicodeStrings) {
    std::mt19937 rng(20240601);
    for (const auto &t : tokenizers()) {
        for (int i = 0; i < 300; ++i) {
            std::string s;
            const int n = static_cast<int>(rng() % 40);
            for (int k = 0; k < n; ++k) utf8::append_code_point(random_code_point(rng), s);
            const auto ids = t->encode(s, false);
            ASSERT_EQ(t->decode(ids), s) << "case " << i;
            // With the template's BOS, skipping special tokens gives the same text.
            EXPECT_EQ(t->decode(t->encode(s, true), true), s);
        }
    }
}

TEST(TokenizerRoundTrip, InvalidUtf8NeverFailsAndItsBytesComeBack) {
    std::mt19937 rng(99);
    for (const auto &t : tokenizers()) {
        for (int i = 0; i < 300; ++i) {
            std::string s;
            const int n = static_cast<int>(rng() % 32);
            for (int k = 0; k < n; ++k) s += static_cast<char>(rng() % 3 == 0 ? 0x80 + rng() % 128 : rng() % 256);
            const auto ids = t->encode(s, false);
            for (int32_t id : ids) ASSERT_TRUE(t->has_id(id));
            EXPECT_EQ(t->decode_bytes(ids), s);
            EXPECT_EQ(t->decode(ids), utf8::lossy(s));
        }
    }
}

TEST(TokenizerRoundTrip, UnknownIdsAreSkippedAsHuggingFaceDoes) {
    const auto all = tokenizers();
    const Tokenizer &t = *all[0];
    const auto ids = t.encode("hi", false);
    std::vector<int32_t> with_unknown = {-1};
    with_unknown.insert(with_unknown.end(), ids.begin(), ids.end());
    with_unknown.push_back(t.vocab_size());
    EXPECT_EQ(t.decode(with_unknown), "hi");
}

}  // namespace
}  // namespace halogen
