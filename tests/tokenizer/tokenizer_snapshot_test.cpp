// A tokenizer read back from its snapshot (tokenizer/tokenizer_snapshot.h) against the one built
// from tokenizer.json: the fixtures' expected ids (made by an independent implementation,
// tests/fixtures/tokenizer/generate.py), the same ids and bytes on random text, the same files'
// fields; and damaged snapshots rejected with an error, never a crash.
#include <algorithm>
#include <fstream>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontend/errors.h"
#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/random_tokenizer.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/tokenizer_files.h"
#include "tokenizer/tokenizer_snapshot.h"

namespace halogen {
namespace {

const std::string kDir = HALOGEN_TOKENIZER_FIXTURES_DIR;

SnapshotTokenizer round_trip(const TokenizerFiles &files) {
    const Tokenizer built(files.vocab);
    return tokenizer_from_snapshot(tokenizer_snapshot(files, built), "snapshot");
}

TEST(TokenizerSnapshot, FixtureTokenizersGiveTheExpectedIds) {
    std::ifstream f(kDir + "/expected.json");
    const nlohmann::json all = nlohmann::json::parse(f);
    int checked = 0;
    for (const char *config : {"gpt2", "gpt2_prefix_space", "llama3", "smollm"}) {
        TokenizerFiles files;
        files.vocab = read_hf_tokenizer_json(kDir + "/" + std::string(config) + ".tokenizer.json");
        const SnapshotTokenizer back = round_trip(files);
        for (const auto &c : all["cases"]) {
            if (c["config"] != config) continue;
            const std::vector<int32_t> ids = c["ids"].get<std::vector<int32_t>>();
            EXPECT_EQ(back.tokenizer->encode(c["text"].get<std::string>(), c["add_special_tokens"].get<bool>()), ids)
                << config << " " << c["text"];
            EXPECT_EQ(back.tokenizer->decode_bytes(ids), Tokenizer(files.vocab).decode_bytes(ids)) << config;
            ++checked;
        }
    }
    EXPECT_GT(checked, 150);
}

TEST(TokenizerSnapshot, SameIdsBytesAndFieldsAsTheBuiltTokenizer) {
    const RandomTokenizerFiles random = random_tokenizer_files(3000, 5);
    TokenizerFiles files;
    files.vocab = parse_hf_tokenizer_json(random.tokenizer_json, "tokenizer.json");
    apply_tokenizer_config(random.tokenizer_config_json, "tokenizer_config.json", files);
    files.vocab.added.push_back({3000, "<tool>", false, true, true, false, true});
    files.vocab.unk_token = files.vocab.tokens[300];
    files.vocab.fuse_unk = true;
    files.vocab.suffix_ids = {2999};
    const Tokenizer built(files.vocab);
    const SnapshotTokenizer back = tokenizer_from_snapshot(tokenizer_snapshot(files, built), "snapshot");
    const Tokenizer &t = *back.tokenizer;

    EXPECT_EQ(back.files.chat_template, files.chat_template);
    EXPECT_EQ(back.files.bos_token, files.bos_token);
    EXPECT_EQ(back.files.eos_token, files.eos_token);
    EXPECT_EQ(back.files.add_bos_token, files.add_bos_token);
    EXPECT_EQ(back.files.vocab.prefix_ids, files.vocab.prefix_ids);
    EXPECT_EQ(back.files.vocab.suffix_ids, files.vocab.suffix_ids);
    EXPECT_EQ(back.files.vocab.unk_token, files.vocab.unk_token);
    EXPECT_EQ(back.files.vocab.pre_tokenizer.size(), files.vocab.pre_tokenizer.size());
    ASSERT_EQ(back.files.vocab.added.size(), files.vocab.added.size());
    EXPECT_TRUE(back.files.vocab.added.back().lstrip);
    EXPECT_FALSE(back.files.vocab.added.back().special);
    EXPECT_EQ(t.vocab_size(), built.vocab_size());
    EXPECT_EQ(t.bos_id(), built.bos_id());
    EXPECT_EQ(t.eos_id(), built.eos_id());
    EXPECT_EQ(t.eot_id(), built.eot_id());
    EXPECT_EQ(t.model().merge_count(), built.model().merge_count());
    for (int32_t id = 0; id < built.vocab_size(); ++id) {
        ASSERT_EQ(t.id_to_token(id), built.id_to_token(id)) << id;
        ASSERT_EQ(t.is_special(id), built.is_special(id)) << id;
    }

    // Random text: letters the merges fire on, digits, spaces, punctuation, multi-byte characters,
    // the special and added tokens.
    std::mt19937 rng(11);
    const std::vector<std::string> parts = {"the", " and", "ing", "e", "t", " ", "  ", "\n", "\r\n", "123", "4567",
                                            "'s", "'LL", "!?", "é", "漢字", "🙂", "<|eot_id|>", " <tool> ", "\t", "Z"};
    for (int n = 0; n < 300; ++n) {
        std::string text;
        for (int k = rng() % 40; k > 0; --k) text += parts[rng() % parts.size()];
        for (const bool special : {false, true}) {
            const std::vector<int32_t> ids = built.encode(text, special);
            ASSERT_EQ(t.encode(text, special), ids) << text;
            ASSERT_EQ(t.decode(ids), built.decode(ids)) << text;
        }
    }
}

TEST(TokenizerSnapshot, DamagedSnapshotsAreErrorsNotCrashes) {
    const RandomTokenizerFiles random = random_tokenizer_files(400, 2);
    TokenizerFiles files;
    files.vocab = parse_hf_tokenizer_json(random.tokenizer_json, "tokenizer.json");
    apply_tokenizer_config(random.tokenizer_config_json, "tokenizer_config.json", files);
    const std::string good = tokenizer_snapshot(files, Tokenizer(files.vocab));
    ASSERT_NO_THROW(tokenizer_from_snapshot(good, "s"));
    // Every cut short is an error naming the source.
    for (size_t n = 0; n < good.size(); n += 1 + n / 64) {
        try {
            tokenizer_from_snapshot(good.substr(0, n), "cut.snapshot");
            ADD_FAILURE() << "a snapshot cut to " << n << " bytes was read";
        } catch (const FormatError &e) {
            EXPECT_NE(std::string(e.what()).find("cut.snapshot"), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(tokenizer_from_snapshot(good + "x", "s"), FormatError);
    EXPECT_THROW(tokenizer_from_snapshot("HLGNTS02" + good.substr(8), "s"), FormatError);
    // Any byte changed: an error or a tokenizer that works, never a crash (the cache's checksum
    // keeps such bytes from being read in the first place).
    std::mt19937 rng(3);
    for (int n = 0; n < 400; ++n) {
        std::string bad = good;
        bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
        try {
            const SnapshotTokenizer s = tokenizer_from_snapshot(bad, "s");
            (void)s.tokenizer->decode(s.tokenizer->encode("Hello there, 123 <|eot_id|>"));
        } catch (const Error &) {
        }
    }
}

TEST(TokenizerSnapshot, MergesInTableOrderRebuildTheSameModel) {
    const RandomTokenizerFiles random = random_tokenizer_files(2000, 9);
    BpeVocab v = parse_hf_tokenizer_json(random.tokenizer_json, "tokenizer.json");
    BpeModel built(v);
    std::vector<BpeModel::IdMerge> merges = built.merges();
    EXPECT_EQ(merges.size(), built.merge_count());
    std::shuffle(merges.begin(), merges.end(), std::mt19937(1));   // any order gives the same table
    BpeModel again(v.tokens, v, merges);
    std::mt19937 rng(4);
    for (int n = 0; n < 500; ++n) {
        std::string piece;
        for (int k = 1 + rng() % 12; k > 0; --k) piece += "etaoinshrd lu"[rng() % 13];
        std::vector<int32_t> a, b;
        built.encode(piece, a);
        again.encode(piece, b);
        ASSERT_EQ(a, b) << piece;
    }
    merges[7].id = static_cast<int32_t>(v.tokens.size());
    EXPECT_THROW(BpeModel(v.tokens, v, merges), FormatError);
}

}  // namespace
}  // namespace halogen
