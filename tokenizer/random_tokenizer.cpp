// Random llama3-style tokenizer files (random_tokenizer.h).
//
// Tokens are built on raw bytes and written in byte-level form. New tokens join two existing
// ones: most often a short word piece (letters, perhaps after a space) and a letter or another
// short piece, letters drawn by their English frequency, so that English text meets multi-byte
// tokens as it would in a trained vocab; otherwise any two tokens. After each new token, other
// ways of splitting it into two existing tokens are added as extra merges; a last pass adds
// more such splits, up to llama3's 2.19 merges per token (any split of a token into two tokens
// is a valid merge, whatever its rank). Random tokens are short, so the splits run out first:
// a 128256-token vocab gets about 1.6 merges per token.
#include "tokenizer/random_tokenizer.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "frontend/errors.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/pre_tokenizer_spec.h"

namespace halogen {

namespace {

using json = nlohmann::ordered_json;

const char *const kSpecials[] = {"<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>",
                                 "<|eot_id|>"};
constexpr size_t kMaxTokenBytes = 16;

bool wordlike(const std::string &t, bool leading_space_ok) {
    for (size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!letter && !(i == 0 && leading_space_ok && c == ' ')) return false;
    }
    return !t.empty() && t != " ";
}

}  // namespace

const std::string &random_tokenizer_chat_template() {
    // A llama3-style conversation: the BOS once, each message under a header naming its role,
    // its content trimmed and closed by <|eot_id|>, and an open assistant header on request.
    static const std::string t =
        "{%- set nl = \"\\n\\n\" -%}"
        "{%- for message in messages -%}"
        "{%- if loop.first -%}{{- bos_token -}}{%- endif -%}"
        "{{- \"<|start_header_id|>\" + message[\"role\"] + \"<|end_header_id|>\" + nl -}}"
        "{{- message[\"content\"] | trim -}}"
        "{{- \"<|eot_id|>\" -}}"
        "{%- endfor -%}"
        "{%- if add_generation_prompt -%}"
        "{{- \"<|start_header_id|>assistant<|end_header_id|>\" + nl -}}"
        "{%- endif -%}";
    return t;
}

RandomTokenizerFiles random_tokenizer_files(int64_t vocab_size, uint64_t seed) {
    const auto n_special = static_cast<int64_t>(std::size(kSpecials));
    if (vocab_size < kRandomTokenizerMinVocab || vocab_size > 0x7fffffff)
        throw ConfigError("random tokenizer: vocab size " + std::to_string(vocab_size) + " is outside " +
                          std::to_string(kRandomTokenizerMinVocab) + " .. 2147483647 (256 byte tokens, " +
                          std::to_string(n_special) + " special tokens and at least 8 merges)");
    const auto n_model = static_cast<size_t>(vocab_size - n_special);
    std::mt19937_64 rng(seed);

    std::vector<std::string> tokens;   // raw bytes
    tokens.reserve(n_model);
    std::unordered_map<std::string, int32_t> ids;
    ids.reserve(n_model * 2);
    for (int b = 0; b < 256; ++b) {
        tokens.emplace_back(1, static_cast<char>(b));
        ids.emplace(tokens.back(), b);
    }
    std::vector<int32_t> words;   // letter tokens, the usual parts of new tokens
    for (int b = 'a'; b <= 'z'; ++b) words.push_back(b);
    words.push_back(' ');
    std::vector<std::pair<int32_t, int32_t>> merges;
    merges.reserve(n_model * 2 + 16);
    std::unordered_set<uint64_t> merge_set;
    auto key = [](int32_t a, int32_t b) { return (static_cast<uint64_t>(a) << 32) | static_cast<uint32_t>(b); };

    // A letter, the frequent ones of English most often (a geometric draw over the letters in
    // order of frequency), sometimes upper case; a short existing word piece (the shorter of two
    // random ones).
    auto letter = [&]() -> int32_t {
        static const char kByFrequency[] = "etaoinshrdlucmfwypvbgkjqxz";
        size_t i = 0;
        while (i < 25 && rng() % 4 != 0) ++i;
        const char c = kByFrequency[i];
        return rng() % 10 == 0 ? c - 'a' + 'A' : c;
    };
    auto short_word = [&]() -> int32_t {
        const int32_t x = words[rng() % words.size()], y = words[rng() % words.size()];
        return tokens[static_cast<size_t>(x)].size() <= tokens[static_cast<size_t>(y)].size() ? x : y;
    };
    size_t attempts = 0;
    while (tokens.size() < n_model) {
        if (++attempts > n_model * 64) throw ConfigError("random tokenizer: could not form enough distinct tokens");
        int32_t a, b;
        if (rng() % 8 != 0) {
            a = rng() % 4 == 0 ? (rng() % 2 ? ' ' : letter()) : short_word();
            b = rng() % 2 ? letter() : short_word();
            if (tokens[static_cast<size_t>(b)][0] == ' ') continue;
        } else {
            a = static_cast<int32_t>(rng() % tokens.size());
            b = static_cast<int32_t>(rng() % tokens.size());
        }
        std::string joined = tokens[static_cast<size_t>(a)] + tokens[static_cast<size_t>(b)];
        if (joined.size() > kMaxTokenBytes || ids.count(joined)) continue;
        const auto id = static_cast<int32_t>(tokens.size());
        merges.emplace_back(a, b);
        merge_set.insert(key(a, b));
        // Other splits of the new token into two existing tokens.
        for (size_t cut = 1; cut < joined.size(); ++cut) {
            const auto l = ids.find(joined.substr(0, cut)), r = ids.find(joined.substr(cut));
            if (l == ids.end() || r == ids.end() || merge_set.count(key(l->second, r->second))) continue;
            merges.emplace_back(l->second, r->second);
            merge_set.insert(key(l->second, r->second));
        }
        ids.emplace(joined, id);
        tokens.push_back(std::move(joined));
        if (wordlike(tokens.back(), true)) words.push_back(id);
    }

    // Further merges, up to llama3's 2.19 per token: every other split of a token into two tokens.
    const size_t merge_target = n_model * 219 / 100;
    for (size_t t = 256; t < tokens.size() && merges.size() < merge_target; ++t) {
        const std::string &joined = tokens[t];
        for (size_t cut = 1; cut < joined.size() && merges.size() < merge_target; ++cut) {
            const auto l = ids.find(joined.substr(0, cut)), r = ids.find(joined.substr(cut));
            if (l == ids.end() || r == ids.end() || merge_set.count(key(l->second, r->second))) continue;
            merges.emplace_back(l->second, r->second);
            merge_set.insert(key(l->second, r->second));
        }
    }

    // The vocab and merges are written directly (nlohmann's ordered objects insert in linear
    // time); each token is escaped by nlohmann. Merges are "a b" strings, as llama3's file has them.
    std::vector<std::string> quoted(tokens.size());
    std::vector<std::string> level(tokens.size());
    for (size_t i = 0; i < tokens.size(); ++i) {
        level[i] = byte_level::encode(tokens[i]);
        quoted[i] = json(level[i]).dump();
    }
    // One entry a line, indented as Hugging Face's saved files are.
    std::string vocab_text = "{";
    for (size_t i = 0; i < tokens.size(); ++i) {
        vocab_text += i ? ",\n    " : "\n    ";
        vocab_text += quoted[i] + ": " + std::to_string(i);
    }
    vocab_text += "\n  }";
    std::string merges_text = "[";
    for (size_t m = 0; m < merges.size(); ++m) {
        merges_text += m ? ",\n    " : "\n    ";
        merges_text += json(level[static_cast<size_t>(merges[m].first)] + " " + level[static_cast<size_t>(merges[m].second)]).dump();
    }
    merges_text += "\n  ]";
    json added = json::array();
    for (int64_t i = 0; i < n_special; ++i)
        added.push_back({{"id", static_cast<int64_t>(n_model) + i}, {"content", kSpecials[i]}, {"single_word", false},
                         {"lstrip", false}, {"rstrip", false}, {"normalized", false}, {"special", true}});
    const auto bos = static_cast<int64_t>(n_model);
    const json byte_level_off = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}, {"use_regex", false}};
    json tj = {
        {"version", "1.0"},
        {"truncation", nullptr},
        {"padding", nullptr},
        {"added_tokens", added},
        {"normalizer", nullptr},
        {"pre_tokenizer", {{"type", "Sequence"}, {"pretokenizers", json::array({
            {{"type", "Split"}, {"pattern", {{"Regex", llama3_pattern()}}}, {"behavior", "Isolated"}, {"invert", false}},
            byte_level_off})}}},
        {"post_processor", {{"type", "Sequence"}, {"processors", json::array({
            {{"type", "ByteLevel"}, {"add_prefix_space", true}, {"trim_offsets", false}, {"use_regex", true}},
            {{"type", "TemplateProcessing"},
             {"single", json::array({{{"SpecialToken", {{"id", kSpecials[0]}, {"type_id", 0}}}},
                                     {{"Sequence", {{"id", "A"}, {"type_id", 0}}}}})},
             {"pair", json::array({{{"SpecialToken", {{"id", kSpecials[0]}, {"type_id", 0}}}},
                                   {{"Sequence", {{"id", "A"}, {"type_id", 0}}}},
                                   {{"SpecialToken", {{"id", kSpecials[0]}, {"type_id", 1}}}},
                                   {{"Sequence", {{"id", "B"}, {"type_id", 1}}}}})},
             {"special_tokens", {{kSpecials[0], {{"id", kSpecials[0]}, {"ids", {bos}}, {"tokens", {kSpecials[0]}}}}}}}})}}},
        {"decoder", {{"type", "ByteLevel"}, {"add_prefix_space", true}, {"trim_offsets", true}, {"use_regex", true}}},
        {"model", {{"type", "BPE"}, {"dropout", nullptr}, {"unk_token", nullptr}, {"continuing_subword_prefix", nullptr},
                   {"end_of_word_suffix", nullptr}, {"fuse_unk", false}, {"byte_fallback", false}, {"ignore_merges", true},
                   {"vocab", "@VOCAB@"}, {"merges", "@MERGES@"}}},
    };
    const json config = {
        {"add_bos_token", true},
        {"bos_token", kSpecials[0]},
        {"eos_token", kSpecials[4]},
        {"chat_template", random_tokenizer_chat_template()},
        {"model_max_length", 131072},
        {"tokenizer_class", "PreTrainedTokenizerFast"},
    };
    std::string text = tj.dump();
    text.replace(text.find("\"@VOCAB@\""), 9, vocab_text);
    text.replace(text.find("\"@MERGES@\""), 10, merges_text);
    return {text, config.dump(2) + "\n"};
}

void write_random_tokenizer(const std::string &dir, int64_t vocab_size, uint64_t seed) {
    const RandomTokenizerFiles files = random_tokenizer_files(vocab_size, seed);
    for (const auto &[name, text] : {std::make_pair("tokenizer.json", &files.tokenizer_json),
                                     std::make_pair("tokenizer_config.json", &files.tokenizer_config_json)}) {
        const std::string path = dir + "/" + name;
        std::ofstream f(path, std::ios::binary);
        f << *text;
        f.close();
        if (!f) throw FormatError(path + ": cannot write: " + std::strerror(errno));
    }
}

}  // namespace halogen
