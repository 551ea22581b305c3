// Tests of the llama weights' contract (models/llama/llama_weights.h): the expected tensors of the
// presets, counted and shaped by hand from the published configs, and binding checkpoints written
// by hand: a good one binds (mixed dtypes, an old RoPE table ignored, a tied head, a tied head
// saved as well and equal to the embedding), and each kind of bad one is an error naming the
// tensor.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/checkpoint.h"
#include "formats/safetensors_writer.h"
#include "models/llama/llama_weights.h"
#include "tests/llama/llama_test_support.h"
#include "tests/support/expect_error.h"

namespace {

using halogen::Checkpoint;
using halogen::LlamaConfig;
using halogen::LlamaTensorSpec;
using halogen::SafetensorsDType;
using halogen::testing::expect_one_line_error;
using halogen_test::TempDir;

std::map<std::string, std::vector<int64_t>> shapes_of(const std::vector<LlamaTensorSpec> &specs) {
    std::map<std::string, std::vector<int64_t>> out;
    for (const auto &s : specs) out[s.name] = s.shape;
    return out;
}

TEST(LlamaWeights, TinyPresetTensors) {
    std::vector<LlamaTensorSpec> specs = halogen::llama_tensor_specs(halogen::llama_preset("tiny"));
    // Embedding, 2 layers of 9, final norm, untied head.
    ASSERT_EQ(specs.size(), 21u);
    EXPECT_EQ(specs.front().name, "model.embed_tokens.weight");
    EXPECT_EQ(specs[1].name, "model.layers.0.input_layernorm.weight");
    EXPECT_EQ(specs.back().name, "lm_head.weight");
    auto shapes = shapes_of(specs);
    // hidden 96, intermediate 256, 6 heads and 2 KV heads of 16, vocab 512.
    EXPECT_EQ(shapes.at("model.embed_tokens.weight"), (std::vector<int64_t>{512, 96}));
    EXPECT_EQ(shapes.at("model.layers.1.self_attn.q_proj.weight"), (std::vector<int64_t>{96, 96}));
    EXPECT_EQ(shapes.at("model.layers.1.self_attn.k_proj.weight"), (std::vector<int64_t>{32, 96}));
    EXPECT_EQ(shapes.at("model.layers.1.self_attn.v_proj.weight"), (std::vector<int64_t>{32, 96}));
    EXPECT_EQ(shapes.at("model.layers.1.self_attn.o_proj.weight"), (std::vector<int64_t>{96, 96}));
    EXPECT_EQ(shapes.at("model.layers.0.mlp.gate_proj.weight"), (std::vector<int64_t>{256, 96}));
    EXPECT_EQ(shapes.at("model.layers.0.mlp.down_proj.weight"), (std::vector<int64_t>{96, 256}));
    EXPECT_EQ(shapes.at("model.layers.0.post_attention_layernorm.weight"), (std::vector<int64_t>{96}));
    EXPECT_EQ(shapes.at("lm_head.weight"), (std::vector<int64_t>{512, 96}));
    // Per layer 2*96 + 2*96*96 + 2*32*96 + 3*256*96 = 98,496; plus 2 tables of 512*96 and a norm.
    EXPECT_EQ(halogen::llama_parameter_count(halogen::llama_preset("tiny")), 2 * 98496 + 2 * 49152 + 96);
}

TEST(LlamaWeights, Llama32_1BTensors) {
    // The published config: 16 layers, hidden 2048, intermediate 8192, 32 heads, 8 KV heads,
    // head_dim 64, vocab 128256, tied (no lm_head.weight).
    LlamaConfig c = halogen::llama_preset("llama-3.2-1b");
    std::vector<LlamaTensorSpec> specs = halogen::llama_tensor_specs(c);
    ASSERT_EQ(specs.size(), 1u + 16 * 9 + 1);
    auto shapes = shapes_of(specs);
    EXPECT_EQ(shapes.count("lm_head.weight"), 0u);
    EXPECT_EQ(shapes.at("model.embed_tokens.weight"), (std::vector<int64_t>{128256, 2048}));
    EXPECT_EQ(shapes.at("model.layers.15.self_attn.q_proj.weight"), (std::vector<int64_t>{2048, 2048}));
    EXPECT_EQ(shapes.at("model.layers.15.self_attn.k_proj.weight"), (std::vector<int64_t>{512, 2048}));
    EXPECT_EQ(shapes.at("model.layers.0.self_attn.v_proj.weight"), (std::vector<int64_t>{512, 2048}));
    EXPECT_EQ(shapes.at("model.layers.0.self_attn.o_proj.weight"), (std::vector<int64_t>{2048, 2048}));
    EXPECT_EQ(shapes.at("model.layers.7.mlp.up_proj.weight"), (std::vector<int64_t>{8192, 2048}));
    EXPECT_EQ(shapes.at("model.layers.7.mlp.down_proj.weight"), (std::vector<int64_t>{2048, 8192}));
    EXPECT_EQ(shapes.at("model.norm.weight"), (std::vector<int64_t>{2048}));
    EXPECT_EQ(shapes.count("model.layers.16.input_layernorm.weight"), 0u);
    // 128256*2048 + 16 * (2*2048*2048 + 2*512*2048 + 3*8192*2048 + 2*2048) + 2048: the "1.24 B".
    EXPECT_EQ(halogen::llama_parameter_count(c), 1'235'814'400);
}

TEST(LlamaWeights, SmolLM2Tensors) {
    LlamaConfig c = halogen::llama_preset("smollm2-135m");
    std::vector<LlamaTensorSpec> specs = halogen::llama_tensor_specs(c);
    EXPECT_EQ(specs.size(), 1u + 30 * 9 + 1);
    EXPECT_EQ(shapes_of(specs).at("model.layers.29.self_attn.k_proj.weight"), (std::vector<int64_t>{192, 576}));
    EXPECT_EQ(halogen::llama_parameter_count(c), 134'515'008);   // SmolLM2-135M's published count
}

// ---- Binding checkpoints written by hand.

struct Tensor {
    std::string name;
    SafetensorsDType dtype;
    std::vector<int64_t> shape;
    char fill = 0;   // every byte of its data
};

// The tiny config's tensors as a good checkpoint holds them (all F32); each test then breaks one.
std::vector<Tensor> good_tensors(const LlamaConfig &c) {
    std::vector<Tensor> out;
    for (const auto &s : halogen::llama_tensor_specs(c)) out.push_back({s.name, SafetensorsDType::F32, s.shape});
    return out;
}

Tensor &named(std::vector<Tensor> &ts, const std::string &name) {
    auto it = std::find_if(ts.begin(), ts.end(), [&](const Tensor &t) { return t.name == name; });
    if (it == ts.end()) throw std::runtime_error("no tensor " + name);
    return *it;
}

void write(const TempDir &dir, const std::vector<Tensor> &ts) {
    std::vector<std::string> buffers;
    buffers.reserve(ts.size());
    std::vector<halogen::SafetensorsEntry> entries;
    for (const Tensor &t : ts) {
        uint64_t n = 1;
        for (int64_t d : t.shape) n *= uint64_t(d);
        buffers.emplace_back(n * halogen::safetensors_dtype_bits(t.dtype) / 8, t.fill);
        entries.push_back({t.name, t.dtype, t.shape, buffers.back().data(), buffers.back().size()});
    }
    halogen::write_safetensors(dir.file("model.safetensors"), entries);
}

TEST(LlamaWeights, BindsEveryTensorOfAGoodCheckpoint) {
    TempDir dir;
    LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<Tensor> ts = good_tensors(c);
    // Dtypes may differ per tensor; an old checkpoint's RoPE table is ignored.
    named(ts, "model.norm.weight").dtype = SafetensorsDType::BF16;
    named(ts, "model.layers.1.mlp.up_proj.weight").dtype = SafetensorsDType::F16;
    ts.push_back({"model.layers.0.self_attn.rotary_emb.inv_freq", SafetensorsDType::F32, {8}});
    write(dir, ts);
    Checkpoint ckpt = Checkpoint::open(dir.str());
    halogen::LlamaWeights w = halogen::bind_llama_weights(ckpt, c);
    ASSERT_EQ(w.layers.size(), 2u);
    EXPECT_FALSE(w.tied());
    EXPECT_EQ(w.embed_tokens, &ckpt.at("model.embed_tokens.weight"));
    EXPECT_EQ(w.lm_head, &ckpt.at("lm_head.weight"));
    EXPECT_EQ(w.norm->dtype, SafetensorsDType::BF16);
    EXPECT_EQ(w.layers[1].up_proj->dtype, SafetensorsDType::F16);
    EXPECT_EQ(w.layers[1].k_proj, &ckpt.at("model.layers.1.self_attn.k_proj.weight"));
    EXPECT_EQ(w.layers[0].down_proj->shape, (std::vector<int64_t>{96, 256}));
    // The references point into the mapped file: no copy.
    const auto &file = ckpt.files().at(0);
    const uint8_t *base = file.tensors().front().data - file.tensors().front().begin;
    EXPECT_EQ(w.layers[1].q_proj->data, base + w.layers[1].q_proj->begin);
}

TEST(LlamaWeights, TiedHeadReadsTheEmbedding) {
    TempDir dir;
    LlamaConfig c = halogen::llama_preset("tiny");
    c.tie_word_embeddings = true;
    write(dir, good_tensors(c));
    Checkpoint ckpt = Checkpoint::open(dir.str());
    halogen::LlamaWeights w = halogen::bind_llama_weights(ckpt, c);
    EXPECT_TRUE(w.tied());
    EXPECT_EQ(w.lm_head, &ckpt.at("model.embed_tokens.weight"));
    EXPECT_EQ(ckpt.find("lm_head.weight"), nullptr);
}

// Binds the tiny config to `ts` and expects an E naming the checkpoint and each needle.
template <typename E>
void expect_bind_error(const std::vector<Tensor> &ts, const LlamaConfig &c, std::initializer_list<std::string> needles) {
    TempDir dir;
    write(dir, ts);
    Checkpoint ckpt = Checkpoint::open(dir.str());
    expect_one_line_error<E>([&] { halogen::bind_llama_weights(ckpt, c); }, dir.str(), needles);
}

TEST(LlamaWeights, MissingTensor) {
    LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<Tensor> ts = good_tensors(c);
    ts.erase(ts.begin() + 10);
    ASSERT_EQ(good_tensors(c)[10].name, "model.layers.1.input_layernorm.weight");
    expect_bind_error<halogen::FormatError>(ts, c, {"tensor 'model.layers.1.input_layernorm.weight' is missing (expected [D] = [96])"});
}

TEST(LlamaWeights, MisshapedTensor) {
    LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<Tensor> ts = good_tensors(c);
    named(ts, "model.layers.0.self_attn.k_proj.weight").shape = {96, 96};   // as if G = H
    expect_bind_error<halogen::ShapeError>(
        ts, c, {"tensor 'model.layers.0.self_attn.k_proj.weight' has shape [96, 96], expected [G*d, D] = [32, 96]"});
    ts = good_tensors(c);
    named(ts, "model.embed_tokens.weight").shape = {96, 512};   // transposed
    expect_bind_error<halogen::ShapeError>(
        ts, c, {"tensor 'model.embed_tokens.weight' has shape [96, 512], expected [V, D] = [512, 96]"});
}

TEST(LlamaWeights, WrongDtype) {
    LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<Tensor> ts = good_tensors(c);
    named(ts, "model.layers.1.mlp.gate_proj.weight").dtype = SafetensorsDType::I32;
    expect_bind_error<halogen::FormatError>(
        ts, c, {"tensor 'model.layers.1.mlp.gate_proj.weight' [256, 96] is I32; a weight must be F32, BF16 or F16"});
    ts = good_tensors(c);
    named(ts, "model.norm.weight").dtype = SafetensorsDType::F64;
    expect_bind_error<halogen::FormatError>(ts, c, {"tensor 'model.norm.weight' [96] is F64"});
}

TEST(LlamaWeights, UnexpectedBias) {
    LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<Tensor> ts = good_tensors(c);
    ts.push_back({"model.layers.0.self_attn.q_proj.bias", SafetensorsDType::F32, {96}});
    expect_bind_error<halogen::FormatError>(
        ts, c, {"tensor 'model.layers.0.self_attn.q_proj.bias' [96] is a bias", "attention_bias and mlp_bias false"});
}

TEST(LlamaWeights, UntiedWithoutHead) {
    LlamaConfig c = halogen::llama_preset("tiny");
    ASSERT_FALSE(c.tie_word_embeddings);
    std::vector<Tensor> ts = good_tensors(c);
    ts.pop_back();
    expect_bind_error<halogen::FormatError>(
        ts, c, {"tensor 'lm_head.weight' is missing (expected [V, D] = [512, 96])", "tie_word_embeddings false"});
}

TEST(LlamaWeights, TiedWithAHeadThatDiffers) {
    LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<Tensor> ts = good_tensors(c);   // holds lm_head.weight
    c.tie_word_embeddings = true;
    named(ts, "model.embed_tokens.weight").fill = 7;
    named(ts, "lm_head.weight").fill = 8;
    expect_bind_error<halogen::FormatError>(
        ts, c, {"tensor 'lm_head.weight' [512, 96] F32 is in the checkpoint and differs from "
                "'model.embed_tokens.weight' [512, 96] F32", "tie_word_embeddings true"});
    // Equal values in another dtype are different bytes: refused too.
    named(ts, "lm_head.weight") = {"lm_head.weight", SafetensorsDType::BF16, {512, 96}, 7};
    expect_bind_error<halogen::FormatError>(ts, c, {"'lm_head.weight' [512, 96] BF16", "'model.embed_tokens.weight' [512, 96] F32"});
}

TEST(LlamaWeights, TiedWithAHeadEqualToTheEmbedding) {
    TempDir dir;
    LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<Tensor> ts = good_tensors(c);
    c.tie_word_embeddings = true;
    named(ts, "model.embed_tokens.weight").fill = 7;
    named(ts, "lm_head.weight").fill = 7;   // some exports save the tied head as well
    write(dir, ts);
    Checkpoint ckpt = Checkpoint::open(dir.str());
    halogen::LlamaWeights w = halogen::bind_llama_weights(ckpt, c);
    EXPECT_TRUE(w.tied());   // the head reads the embedding, not the copy
    EXPECT_EQ(w.lm_head, &ckpt.at("model.embed_tokens.weight"));
}

TEST(LlamaWeights, UnexpectedTensor) {
    LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<Tensor> ts = good_tensors(c);
    ts.push_back({"model.layers.2.input_layernorm.weight", SafetensorsDType::F32, {96}});   // a third layer
    expect_bind_error<halogen::FormatError>(
        ts, c, {"tensor 'model.layers.2.input_layernorm.weight' [96] is not one of the 21 tensors"});
}

}  // namespace
