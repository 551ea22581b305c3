// Hostile tokenizer.json files: each gives one FormatError, one line, naming the file and the
// problem; and the parts read from a good file (merges as strings or pairs, added tokens, the
// template's ids).
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontend/errors.h"
#include "tests/support/expect_error.h"
#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/tokenizer.h"

namespace halogen {
namespace {

using json = nlohmann::json;
using testing::expect_one_line_error;

// A small valid tokenizer.json: the byte tokens, two merges, one special token.
json good() {
    json vocab = json::object();
    const char *extra[] = {"h", "i", "hi", "Ġhi"};
    // Bytes in the byte-level alphabet, in byte order; then the merged tokens.
    int id = 0;
    for (int b = 0; b < 256; ++b) {
        std::string c;
        const bool itself = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        static int moved = 0;
        if (b == 0) moved = 0;
        const uint32_t cp = itself ? static_cast<uint32_t>(b) : 0x100 + moved++;
        if (cp < 0x80) c += static_cast<char>(cp);
        else { c += static_cast<char>(0xC0 | (cp >> 6)); c += static_cast<char>(0x80 | (cp & 0x3F)); }
        vocab[c] = id++;
    }
    for (int k = 2; k < 4; ++k) vocab[extra[k]] = id++;
    return {
        {"version", "1.0"}, {"truncation", nullptr}, {"padding", nullptr},
        {"added_tokens", json::array({{{"id", id}, {"content", "<|end|>"}, {"single_word", false}, {"lstrip", false},
                                      {"rstrip", false}, {"normalized", false}, {"special", true}}})},
        {"normalizer", nullptr},
        {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}, {"use_regex", true}}},
        {"post_processor", nullptr},
        {"decoder", {{"type", "ByteLevel"}}},
        {"model", {{"type", "BPE"}, {"dropout", nullptr}, {"unk_token", nullptr}, {"byte_fallback", false},
                   {"vocab", vocab}, {"merges", json::array({"h i", "Ġ hi"})}}},
    };
}

void expect_error(const std::string &text, const std::vector<std::string> &parts) {
    expect_one_line_error<FormatError>([&] { Tokenizer t(parse_hf_tokenizer_json(text, "tok.json")); }, "tok.json", parts);
}

void expect_error(const json &j, const std::vector<std::string> &parts) { expect_error(j.dump(), parts); }

TEST(HfTokenizerJson, TheGoodFileReads) {
    const BpeVocab v = parse_hf_tokenizer_json(good().dump());
    EXPECT_EQ(v.tokens.size(), 258u);
    ASSERT_EQ(v.merges.size(), 2u);
    EXPECT_EQ(v.merges[1], std::make_pair(std::string("Ġ"), std::string("hi")));
    ASSERT_EQ(v.added.size(), 1u);
    EXPECT_TRUE(v.added[0].special);
    Tokenizer t(v);
    EXPECT_EQ(t.encode(" hi<|end|>hi"), (std::vector<int32_t>{257, 258, 256}));
    // Merges as pairs read the same.
    json pairs = good();
    pairs["model"]["merges"] = json::array({json::array({"h", "i"}), json::array({"Ġ", "hi"})});
    EXPECT_EQ(parse_hf_tokenizer_json(pairs.dump()).merges, v.merges);
}

TEST(HfTokenizerJson, UnsupportedComponentsAreNamed) {
    json j = good();
    j["normalizer"] = {{"type", "NFC"}};
    expect_error(j, {"normalizer 'NFC' is not supported"});
    j = good();
    j["pre_tokenizer"] = {{"type", "Whitespace"}};
    expect_error(j, {"pre_tokenizer 'Whitespace' is not supported"});
    j = good();
    j["pre_tokenizer"] = {{"type", "Sequence"}, {"pretokenizers", json::array({{{"type", "Split"}, {"pattern", {{"Regex", "a"}}},
                                                                               {"behavior", "Removed"}, {"invert", false}}})}};
    expect_error(j, {"pre_tokenizer.pretokenizers[0].behavior 'Removed' is not supported"});
    j = good();
    j["pre_tokenizer"] = {{"type", "Digits"}, {"individual_digits", false}};
    expect_error(j, {"individual_digits false is not supported"});
    j = good();
    j["model"]["type"] = "WordPiece";
    expect_error(j, {"model 'WordPiece' is not supported"});
    j = good();
    j["model"]["byte_fallback"] = true;
    expect_error(j, {"model.byte_fallback true is not supported"});
    j = good();
    j["model"]["dropout"] = 0.1;
    expect_error(j, {"model.dropout is not supported"});
    j = good();
    j["model"]["continuing_subword_prefix"] = "##";
    expect_error(j, {"model.continuing_subword_prefix is not supported"});
    j = good();
    j["decoder"] = {{"type", "Metaspace"}};
    expect_error(j, {"decoder 'Metaspace' is not supported"});
    j = good();
    j["decoder"] = nullptr;
    expect_error(j, {"decoder null is not supported"});
    j = good();
    j["post_processor"] = {{"type", "BertProcessing"}};
    expect_error(j, {"post_processor 'BertProcessing' is not supported"});
    j = good();
    j["truncation"] = {{"max_length", 5}};
    expect_error(j, {"truncation is not supported"});
    j = good();
    j["version"] = "2.0";
    expect_error(j, {"version \"2.0\" is not supported"});
}

TEST(HfTokenizerJson, MalformedFilesAreNamed) {
    expect_error(std::string("{\"a\": 1"), {"not valid JSON"});
    expect_error(std::string("{\"a\": \0}", 8), {"NUL byte at 6"});
    expect_error(std::string("[1, 2]"), {"the top level must be an object"});
    std::string bad_utf8 = good().dump();
    bad_utf8.replace(bad_utf8.find("\"hi\":256"), 4, "\"h\xFF\"");
    expect_error(bad_utf8, {"not valid JSON at byte", "ill-formed UTF-8 in a string"});
    std::string surrogate = good().dump();
    surrogate.replace(surrogate.find("\"hi\":256"), 4, "\"\\ud800\"");
    expect_error(surrogate, {"lone high surrogate"});
    std::string twice = good().dump();
    twice.insert(1, "\"decoder\": null, ");
    expect_error(twice, {"key 'decoder' appears twice"});

    json j = good();
    j["model"]["vocab"]["hi"] = 300;
    expect_error(j, {"model.vocab: id 300 of 'hi' is outside 0..257"});
    j = good();
    j["model"]["vocab"]["hi"] = 5;
    expect_error(j, {"model.vocab: id 5 is given twice"});
    j = good();
    j["model"]["vocab"].erase("Ġhi");
    std::string repeated = j.dump();
    repeated.replace(repeated.find("\"hi\":256"), 8, "\"hi\":256,\"hi\":257");
    expect_error(repeated, {"vocab: the token 'hi' is given twice (ids 256 and 257)"});
    j = good();
    j["model"]["vocab"]["hi"] = "x";
    expect_error(j, {"model.vocab: the id of 'hi' is not an integer"});
    j = good();
    j["model"]["vocab"]["hi"] = -4;
    expect_error(j, {"model.vocab: the id of 'hi' is negative"});
    j = good();
    j["model"].erase("vocab");
    expect_error(j, {"model.vocab is missing"});
    j = good();
    j["model"]["merges"] = json::array({"h i j"});
    expect_error(j, {"model.merges: merge 0 'h i j' is not two tokens separated by one space"});
    j = good();
    j["model"]["merges"] = json::array({json::array({"h"})});
    expect_error(j, {"model.merges: merge 0 is not a pair of two tokens"});
    j = good();
    j["model"]["merges"] = json::array({"h i", json::array({"Ġ", "hi"})});
    expect_error(j, {"model.merges mixes"});
    j = good();
    j["model"]["merges"] = json::array({"h zz"});
    expect_error(j, {"merge 0 ('h zz'): 'zz' is not in the vocab"});
    j = good();
    j["model"]["merges"] = json::array({"h j"});
    expect_error(j, {"merge 0 ('h j'): the merged token 'hj' is not in the vocab"});
    j = good();
    j["added_tokens"][0]["id"] = 999;
    expect_error(j, {"added token '<|end|>' has id 999, expected 258"});
    j = good();
    j["added_tokens"][0]["content"] = "hi";
    expect_error(j, {"added token 'hi' has id 258, expected 256 (its id in the vocab)"});
    j = good();
    j["added_tokens"][0]["lstrip"] = "yes";
    expect_error(j, {"added_tokens[0].lstrip must be true or false"});
    j = good();
    j["pre_tokenizer"] = {{"type", "Split"}, {"pattern", {{"Regex", "(a"}}}, {"behavior", "Isolated"}};
    expect_error(j, {"pre_tokenizer: the pattern does not compile"});
    j = good();
    j["pre_tokenizer"] = {{"type", "Split"}, {"pattern", {{"Regex", "\\w+"}}}, {"behavior", "Isolated"}};
    expect_error(j, {"the escape \\w is not supported"});
    j = good();
    j["post_processor"] = {{"type", "TemplateProcessing"},
                           {"single", json::array({{{"SpecialToken", {{"id", "<s>"}, {"type_id", 0}}}},
                                                   {{"Sequence", {{"id", "A"}, {"type_id", 0}}}}})},
                           {"special_tokens", json::object()}};
    expect_error(j, {"special token '<s>' is not in special_tokens"});
    j["post_processor"]["special_tokens"] = {{"<s>", {{"id", "<s>"}, {"ids", {7000}}}}};
    expect_error(j, {"post-processor id 7000 is not in the vocab"});
}

TEST(HfTokenizerJson, MissingFileIsNamed) {
    expect_one_line_error<FormatError>([] { read_hf_tokenizer_json("/nonexistent/tokenizer.json"); },
                                       "/nonexistent/tokenizer.json", {"cannot read"});
}

}  // namespace
}  // namespace halogen
