// Tests of random model directories (models/llama/random_llama.h) on the tiny preset: written in
// F32 and BF16, read back through Checkpoint and bound; values as the generator gives them and as
// HF's initializer draws them; BF16 the F32 values of the same seed rounded; tied and untied;
// sharded under a small limit, reading back the same values; rewriting a directory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "frontend/bfloat16.h"
#include "formats/checkpoint.h"
#include "models/llama/llama_weights.h"
#include "models/llama/random_llama.h"
#include "tests/llama/llama_test_support.h"

namespace {

using halogen::Checkpoint;
using halogen::LlamaConfig;
using halogen::LlamaTensorSpec;
using halogen::SafetensorsDType;
using halogen_test::TempDir;
namespace fs = std::filesystem;

std::vector<float> generated(const LlamaTensorSpec &spec, uint64_t seed) {
    std::vector<float> v(size_t(spec.numel()));
    halogen::random_llama_values(spec, seed, 0, spec.numel(), v.data());
    return v;
}

std::vector<uint16_t> bf16_bits(const halogen::SafetensorsTensor &t) {
    std::vector<uint16_t> out(size_t(t.numel()));
    std::memcpy(out.data(), t.data, t.bytes());
    return out;
}

std::string fmt_shard(size_t k, size_t n) {
    char name[64];
    std::snprintf(name, sizeof name, "model-%05zu-of-%05zu.safetensors", k, n);
    return name;
}

std::vector<std::string> files_in(const TempDir &dir) {
    std::vector<std::string> names;
    for (const auto &e : fs::directory_iterator(dir.path)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(RandomLlama, TinyF32ReadsBackAndBinds) {
    TempDir dir;
    LlamaConfig c = halogen::llama_preset("tiny");
    halogen::RandomLlamaFiles files = halogen::write_random_llama(c, dir.str(), SafetensorsDType::F32, 7);
    EXPECT_EQ(files.weight_files, (std::vector<std::string>{"model.safetensors"}));
    EXPECT_FALSE(files.sharded);
    EXPECT_EQ(files.tensors, 21u);
    EXPECT_EQ(files.data_bytes, 4u * uint64_t(halogen::llama_parameter_count(c)));
    EXPECT_TRUE(files.tokenizer);
    EXPECT_EQ(files_in(dir), (std::vector<std::string>{"config.json", "generation_config.json", "model.safetensors",
                                                       "tokenizer.json", "tokenizer_config.json"}));
    // The config reads back as written, with the dtype said and the begin and end ids the random
    // tokenizer's (tests/llama/text_generation_test.cpp checks they are its special tokens).
    LlamaConfig back = halogen::read_llama_config(dir.str());
    EXPECT_EQ(back.torch_dtype, "float32");
    EXPECT_GE(back.bos_token_id.value_or(-1), 256);   // past the 256 byte tokens
    ASSERT_EQ(back.eos_token_ids.size(), 1u);
    EXPECT_NE(back.eos_token_ids[0], *back.bos_token_id);
    back.torch_dtype = c.torch_dtype;
    back.bos_token_id = c.bos_token_id;
    back.eos_token_ids = c.eos_token_ids;
    EXPECT_EQ(back, c);

    Checkpoint ckpt = Checkpoint::open(dir.str());
    EXPECT_EQ(ckpt.files().at(0).metadata().at("format"), "pt");
    halogen::LlamaWeights w = halogen::bind_llama_weights(ckpt, c);
    EXPECT_FALSE(w.tied());
    for (const LlamaTensorSpec &spec : halogen::llama_tensor_specs(c)) {
        const halogen::SafetensorsTensor &t = ckpt.at(spec.name);
        EXPECT_EQ(t.dtype, SafetensorsDType::F32) << spec.name;
        EXPECT_EQ(halogen::to_float32(t), generated(spec, 7)) << spec.name;
    }
    // The head and the embedding are two different tables.
    EXPECT_NE(halogen::to_float32(*w.lm_head), halogen::to_float32(*w.embed_tokens));
}

// The values look like transformers' initializer: linear weights and the embedding N(0, 0.02),
// norm weights near 1 but not 1. Deterministic by seed, different across seeds and tensors.
TEST(RandomLlama, ValuesAreHFLikeAndDeterministic) {
    LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<LlamaTensorSpec> specs = halogen::llama_tensor_specs(c);
    for (const LlamaTensorSpec &spec : specs) {
        std::vector<float> v = generated(spec, 3);
        double sum = 0, sq = 0;
        for (float x : v) sum += x;
        double mean = sum / double(v.size());
        for (float x : v) sq += (x - mean) * (x - mean);
        double sd = std::sqrt(sq / double(v.size()));
        if (spec.kind == LlamaTensorSpec::Kind::Norm) {
            EXPECT_NEAR(mean, 1.0, 0.02) << spec.name;
            EXPECT_NEAR(sd, 0.05, 0.015) << spec.name;
        } else {
            EXPECT_NEAR(mean, 0.0, 0.002) << spec.name;
            EXPECT_NEAR(sd, 0.02, 0.002) << spec.name;
        }
        EXPECT_EQ(generated(spec, 3), v) << spec.name;
        EXPECT_NE(generated(spec, 4), v) << spec.name;
    }
    // Tensors of one shape get different values; a piece equals the same range of the whole.
    EXPECT_NE(generated(specs[2], 3), generated(specs[11], 3));   // layers 0 and 1's q_proj
    std::vector<float> whole = generated(specs[2], 3), piece(101);
    halogen::random_llama_values(specs[2], 3, 777, 101, piece.data());
    EXPECT_EQ(piece, std::vector<float>(whole.begin() + 777, whole.begin() + 878));
}

TEST(RandomLlama, Bf16IsTheRoundedF32OfTheSameSeed) {
    TempDir f32_dir, bf16_dir;
    LlamaConfig c = halogen::llama_preset("tiny");
    halogen::write_random_llama(c, f32_dir.str(), SafetensorsDType::F32, 11);
    halogen::RandomLlamaFiles files = halogen::write_random_llama(c, bf16_dir.str(), SafetensorsDType::BF16, 11);
    EXPECT_EQ(files.data_bytes, 2u * uint64_t(halogen::llama_parameter_count(c)));
    EXPECT_EQ(halogen::read_llama_config(bf16_dir.str()).torch_dtype, "bfloat16");
    Checkpoint f32 = Checkpoint::open(f32_dir.str()), bf16 = Checkpoint::open(bf16_dir.str());
    halogen::bind_llama_weights(bf16, c);
    size_t differ_from_truncation = 0;
    for (const LlamaTensorSpec &spec : halogen::llama_tensor_specs(c)) {
        const halogen::SafetensorsTensor &t = bf16.at(spec.name);
        ASSERT_EQ(t.dtype, SafetensorsDType::BF16) << spec.name;
        std::vector<float> wide = halogen::to_float32(f32.at(spec.name));
        std::vector<uint16_t> rounded(wide.size());
        halogen::float_to_bfloat16(wide.data(), rounded.data(), wide.size());
        EXPECT_EQ(bf16_bits(t), rounded) << spec.name;
        for (size_t i = 0; i < wide.size(); ++i) {
            uint32_t u;
            std::memcpy(&u, &wide[i], 4);
            differ_from_truncation += rounded[i] != uint16_t(u >> 16);
        }
    }
    EXPECT_GT(differ_from_truncation, 0u);   // rounding, not truncation
}

TEST(RandomLlama, TiedModelHasNoHead) {
    TempDir dir;
    LlamaConfig c = halogen::llama_preset("tiny");
    c.tie_word_embeddings = true;
    halogen::RandomLlamaFiles files = halogen::write_random_llama(c, dir.str(), SafetensorsDType::F32, 1);
    EXPECT_EQ(files.tensors, 20u);
    Checkpoint ckpt = Checkpoint::open(dir.str());
    EXPECT_EQ(ckpt.find("lm_head.weight"), nullptr);
    halogen::LlamaWeights w = halogen::bind_llama_weights(ckpt, c);
    EXPECT_TRUE(w.tied());
    EXPECT_TRUE(halogen::read_llama_config(dir.str()).tie_word_embeddings);
    // The tied model's file does not bind to the untied config: the head is missing.
    LlamaConfig untied = c;
    untied.tie_word_embeddings = false;
    EXPECT_THROW(halogen::bind_llama_weights(ckpt, untied), halogen::FormatError);
}

TEST(RandomLlama, ShardedUnderASmallLimitReadsBackEqual) {
    TempDir single_dir, sharded_dir;
    LlamaConfig c = halogen::llama_preset("tiny");
    halogen::write_random_llama(c, single_dir.str(), SafetensorsDType::BF16, 5);
    // 100 kB: a layer's MLP projection is 48 kB in BF16, so shards hold one to a few tensors.
    halogen::RandomLlamaOptions options;
    options.max_shard_bytes = 100'000;
    std::vector<std::pair<uint64_t, uint64_t>> progress;
    options.progress = [&](uint64_t done, uint64_t total) { progress.push_back({done, total}); };
    halogen::RandomLlamaFiles files = halogen::write_random_llama(c, sharded_dir.str(), SafetensorsDType::BF16, 5, options);
    ASSERT_TRUE(files.sharded);
    const size_t n = files.weight_files.size();
    ASSERT_GT(n, 2u);
    EXPECT_EQ(files.weight_files.front(), fmt_shard(1, n));
    EXPECT_EQ(files.weight_files.back(), fmt_shard(n, n));
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back(), std::make_pair(files.data_bytes, files.data_bytes));

    Checkpoint single = Checkpoint::open(single_dir.str()), sharded = Checkpoint::open(sharded_dir.str());
    EXPECT_TRUE(sharded.sharded());
    EXPECT_EQ(sharded.files().size(), n);
    EXPECT_EQ(sharded.index_metadata().at("total_size"), std::to_string(files.data_bytes));
    for (const auto &f : sharded.files()) {
        EXPECT_LE(f.header().data_bytes, 100'000u) << f.path();
    }
    halogen::LlamaWeights w = halogen::bind_llama_weights(sharded, c);
    EXPECT_EQ(w.layers.size(), 2u);
    EXPECT_EQ(sharded.names(), single.names());
    for (const std::string &name : single.names())
        EXPECT_EQ(bf16_bits(sharded.at(name)), bf16_bits(single.at(name))) << name;
}

// Writing a model over another removes the old one's weight files, so the directory holds one
// model whichever layout each had; other files stay.
TEST(RandomLlama, RewritingADirectoryReplacesTheModel) {
    TempDir dir;
    LlamaConfig c = halogen::llama_preset("tiny");
    std::ofstream(dir.file("README.md")) << "mine\n";
    halogen::RandomLlamaOptions small;
    small.max_shard_bytes = 200'000;
    halogen::RandomLlamaFiles sharded = halogen::write_random_llama(c, dir.str(), SafetensorsDType::F32, 1, small);
    ASSERT_TRUE(sharded.sharded);
    // config, index, README and the tokenizer's three files
    EXPECT_EQ(files_in(dir).size(), sharded.weight_files.size() + 6);
    halogen::RandomLlamaOptions no_tokenizer;
    no_tokenizer.tokenizer = false;
    halogen::write_random_llama(c, dir.str(), SafetensorsDType::F32, 2, no_tokenizer);
    EXPECT_EQ(files_in(dir), (std::vector<std::string>{"README.md", "config.json", "model.safetensors"}));
    halogen::write_random_llama(c, dir.str(), SafetensorsDType::F32, 3, small);
    EXPECT_EQ(files_in(dir).size(), sharded.weight_files.size() + 6);
    std::vector<float> values = halogen::to_float32(Checkpoint::open(dir.str()).at("model.norm.weight"));
    EXPECT_EQ(values, generated(halogen::llama_tensor_specs(c)[19], 3));
}

TEST(RandomLlama, RefusesWhatItCannotWrite) {
    TempDir dir;
    LlamaConfig c = halogen::llama_preset("tiny");
    EXPECT_THROW(halogen::write_random_llama(c, dir.str(), SafetensorsDType::F16, 1), halogen::DTypeError);
    halogen::RandomLlamaOptions zero;
    zero.max_shard_bytes = 0;
    EXPECT_THROW(halogen::write_random_llama(c, dir.str(), SafetensorsDType::F32, 1, zero), halogen::ConfigError);
    std::ofstream(dir.file("a_file")) << "x";
    EXPECT_THROW(halogen::write_random_llama(c, dir.file("a_file"), SafetensorsDType::F32, 1), halogen::FormatError);
}

}  // namespace
