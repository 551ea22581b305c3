// Streaming decode equals whole decode: per token, and with every token's bytes pushed one byte at
// a time; U+FFFD where the lossy conversion puts it; special tokens skipped or shown.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/stream_decoder.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

namespace halogen {
namespace {

const Tokenizer &llama3() {
    static const Tokenizer t(read_hf_tokenizer_json(std::string(HALOGEN_TOKENIZER_FIXTURES_DIR) + "/llama3.tokenizer.json"));
    return t;
}

std::string streamed(const Tokenizer &t, const std::vector<int32_t> &ids, bool skip) {
    StreamDecoder d(t, skip);
    std::string out;
    for (int32_t id : ids) out += d.push(id);
    return out + d.finish();
}

std::string streamed_by_byte(const std::string &bytes) {
    StreamDecoder d(llama3());
    std::string out;
    for (char c : bytes) {
        out += d.push_bytes(std::string(1, c));
        EXPECT_LE(d.pending(), 3u);
    }
    return out + d.finish();
}

TEST(StreamDecoder, EqualsWholeDecodeOnRandomIds) {
    const Tokenizer &t = llama3();
    std::mt19937 rng(5);
    for (int i = 0; i < 300; ++i) {
        std::vector<int32_t> ids;
        const int n = static_cast<int>(rng() % 24);
        for (int k = 0; k < n; ++k) ids.push_back(static_cast<int32_t>(rng() % t.vocab_size()));
        for (bool skip : {false, true}) {
            ASSERT_EQ(streamed(t, ids, skip), t.decode(ids, skip)) << "case " << i;
            ASSERT_EQ(streamed_by_byte(t.decode_bytes(ids, skip)), t.decode(ids, skip)) << "case " << i;
        }
    }
}

TEST(StreamDecoder, HoldsAnIncompleteCharacterUntilTheNextToken) {
    StreamDecoder d(llama3());
    EXPECT_EQ(d.push_bytes("a\xE2\x82"), "a");
    EXPECT_EQ(d.pending(), 2u);
    EXPECT_EQ(d.push_bytes("\xAC!"), "\xE2\x82\xAC!");
    EXPECT_EQ(d.pending(), 0u);
    EXPECT_EQ(d.push_bytes("\xF0\x9F"), "");
    EXPECT_EQ(d.finish(), "\xEF\xBF\xBD");   // cut off at the end: one U+FFFD
    EXPECT_EQ(d.finish(), "");
}

TEST(StreamDecoder, InvalidBytesBecomeReplacementCharactersAtOnce) {
    StreamDecoder d(llama3());
    EXPECT_EQ(d.push_bytes("\xE2\x82"), "");
    EXPECT_EQ(d.push_bytes("x"), "\xEF\xBF\xBDx");   // the sequence can no longer complete
    EXPECT_EQ(d.push_bytes("\xFF"), "\xEF\xBF\xBD");
    // The Unicode standard's example, one byte at a time.
    const std::string table38 = "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
    EXPECT_EQ(streamed_by_byte(table38), utf8::lossy(table38));
}

TEST(StreamDecoder, SpecialTokensSkippedOrShown) {
    const Tokenizer &t = llama3();
    const auto ids = t.encode("<|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>", true);
    EXPECT_EQ(streamed(t, ids, false), "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>");
    EXPECT_EQ(streamed(t, ids, true), "user\n\nhi");
}

}  // namespace
}  // namespace halogen
