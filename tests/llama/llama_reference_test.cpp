// The reference llama model (models/llama/llama_reference.h) on the tiny preset's random
// weights, against itself: cached decode equals a longer prefill, bf16 weights equal their values
// widened to f32 (whether widened at bind or by the graph), greedy picks follow the logits, the
// context is enforced.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "formats/checkpoint.h"
#include "models/llama/llama_reference.h"
#include "models/llama/random_llama.h"
#include "tests/llama/llama_test_support.h"

namespace {

using halogen::Checkpoint;
using halogen::LlamaReference;
using halogen::SafetensorsDType;
using halogen_test::max_diff;
using halogen_test::TempDir;

// A tiny random model written, opened and bound: the reference copies the weights, so the
// checkpoint may go once the model is made.
std::unique_ptr<LlamaReference> tiny_model(const halogen::LlamaConfig &c, SafetensorsDType dtype, uint64_t seed,
                                           const halogen::LlamaReferenceOptions &options = {}) {
    TempDir dir;
    halogen::write_random_llama(c, dir.str(), dtype, seed);
    const Checkpoint ckpt = Checkpoint::open(dir.str());
    return std::make_unique<LlamaReference>(halogen::bind_llama_weights(ckpt, c), options);
}

const std::vector<int32_t> kPrompt = {1, 17, 200, 3, 99, 42, 255, 0};

TEST(LlamaReference, PrefillThenDecodeEqualsLongerPrefill) {
    auto m = tiny_model(halogen::llama_preset("tiny"), SafetensorsDType::F32, 5, {64});
    std::vector<int32_t> ids = kPrompt;
    m->prefill(ids);
    EXPECT_EQ(m->position(), 8);
    const std::vector<float> decoded = m->decode(77);
    EXPECT_EQ(m->position(), 9);
    ids.push_back(77);
    const std::vector<float> full = m->prefill(ids);
    ASSERT_EQ(full.size(), 512u);
    EXPECT_LE(max_diff(decoded, full), 1e-5);
    // Two steps of several tokens (a chunked prefill) give the same logits as well.
    m->prefill({1, 17, 200});
    const std::vector<float> chunked = m->step({3, 99, 42, 255, 0, 77});
    EXPECT_LE(max_diff(chunked, full), 1e-5);
    // And a different last token gives different logits (the step reads its ids).
    EXPECT_GT(max_diff(m->prefill({1, 17, 200, 3, 99, 42, 255, 0, 78}), full), 1e-3);
}

TEST(LlamaReference, Bf16WeightsEqualTheirValuesWidenedToF32) {
    const halogen::LlamaConfig c = halogen::llama_preset("tiny");
    // The same seed's F32 values rounded to bf16: widened at bind, and bf16 inputs the graph casts.
    auto widened = tiny_model(c, SafetensorsDType::BF16, 9, {32});
    auto in_graph = tiny_model(c, SafetensorsDType::BF16, 9, {32, true});
    auto f32 = tiny_model(c, SafetensorsDType::F32, 9, {32});
    for (const halogen::Node *n : in_graph->step_graph().graph.inputs()) {
        if (n->name == "model.norm.weight") {
            EXPECT_EQ(n->dtype, halogen::DType::BFloat16);
        }
    }
    const std::vector<float> a = widened->prefill(kPrompt), b = in_graph->prefill(kPrompt), full = f32->prefill(kPrompt);
    EXPECT_LE(max_diff(a, b), 1e-4);
    // Rounding the weights to bf16 moves the logits, by much more than the tolerance above.
    EXPECT_GT(max_diff(a, full), 1e-4);
    EXPECT_LE(max_diff(a, full), 5e-2);
}

TEST(LlamaReference, GreedyPicksTheArgmaxAndDecodesIt) {
    auto m = tiny_model(halogen::llama_preset("tiny"), SafetensorsDType::F32, 5, {32});
    const std::vector<int32_t> picks = m->greedy({1, 2, 3}, 3);
    ASSERT_EQ(picks.size(), 3u);
    EXPECT_EQ(m->position(), 5);   // 3 prompt tokens and the first 2 picks decoded
    std::vector<int32_t> ids = {1, 2, 3};
    for (int32_t pick : picks) {
        EXPECT_EQ(halogen::argmax(m->prefill(ids)), pick);
        ids.push_back(pick);
    }
    EXPECT_EQ(halogen::argmax({0.5f, 2.0f, -1.0f, 2.0f}), 1);
}

TEST(LlamaReference, StepsMustFitTheContext) {
    auto m = tiny_model(halogen::llama_preset("tiny"), SafetensorsDType::F32, 5, {4});
    EXPECT_EQ(m->context(), 4);
    m->prefill({1, 2, 3});
    m->decode(4);
    EXPECT_THROW(m->decode(5), halogen::ShapeError);
    EXPECT_THROW(m->prefill({}), halogen::ShapeError);
    EXPECT_THROW(m->prefill({1, 2, 3, 4, 5}), halogen::ShapeError);
    EXPECT_EQ(tiny_model(halogen::llama_preset("tiny"), SafetensorsDType::F32, 5)->context(), 1024);
}

}  // namespace
