// The llama step graph's structure (models/llama/llama_graph.h) on the tiny preset: its inputs
// (ids, RoPE rows, caches, every weight by its checkpoint name), its outputs (last-position logits,
// each layer's k/v rows) with their symbolic shapes, and the named nodes schedules look for.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "models/llama/llama_graph.h"
#include "models/llama/llama_weights.h"

namespace {

using halogen::DType;
using halogen::Dim;
using halogen::Shape;

std::set<std::string> node_names(const halogen::Graph &g) {
    std::set<std::string> names;
    for (const halogen::Node *n : g.nodes())
        if (n->op != halogen::Op::Input && !n->name.empty()) names.insert(n->name);
    return names;
}

TEST(LlamaGraph, InputsAreIdsRopeRowsCachesAndEveryWeightByName) {
    for (bool tied : {false, true}) {
        halogen::LlamaConfig c = halogen::llama_preset("tiny");
        c.tie_word_embeddings = tied;
        const halogen::LlamaStepGraph step = build_llama_step(c);
        const Dim T = Dim::sym("T"), C = Dim::sym("C");
        EXPECT_EQ(step.graph.symbols(), (std::set<std::string>{"C", "S", "T"}));

        std::map<std::string, std::pair<DType, Shape>> want;
        want["ids"] = {DType::Int32, {T}};
        want["rope_cos"] = want["rope_sin"] = {DType::Float32, {T, Dim(8)}};
        for (int i = 0; i < 2; ++i) {
            want[halogen::llama_k_cache_name(i)] = want[halogen::llama_v_cache_name(i)] = {DType::Float32, {Dim(2), C, Dim(16)}};
        }
        std::vector<std::string> weights;
        for (const auto &spec : halogen::llama_tensor_specs(c)) {
            want[spec.name] = {DType::Float32, Shape(spec.shape.begin(), spec.shape.end())};
            weights.push_back(spec.name);
        }
        EXPECT_EQ(step.weight_inputs, weights);
        EXPECT_EQ(want.count("lm_head.weight"), tied ? 0u : 1u);

        std::map<std::string, std::pair<DType, Shape>> got;
        for (const halogen::Node *n : step.graph.inputs()) got[n->name] = {n->dtype, n->shape};
        EXPECT_EQ(got, want) << "tied " << tied;
        EXPECT_EQ(got.size(), tied ? 27u : 28u);   // ids, 2 RoPE rows, 4 caches, 20 or 21 weights
    }
}

TEST(LlamaGraph, OutputsAreLastLogitsThenEachLayersNewRows) {
    const halogen::LlamaStepGraph step = build_llama_step(halogen::llama_preset("tiny"));
    const Dim T = Dim::sym("T");
    const auto &out = step.graph.outputs();
    ASSERT_EQ(out.size(), 5u);
    EXPECT_EQ(out[0].shape(), (Shape{Dim(1), Dim(512)}));
    EXPECT_EQ(out[0].node().name, "logits");
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(out[1 + 2 * i].node().name, "layer" + std::to_string(i) + ".k_new");
        EXPECT_EQ(out[2 + 2 * i].node().name, "layer" + std::to_string(i) + ".v_new");
        for (int k : {1, 2}) {
            EXPECT_EQ(out[k + 2 * i].shape(), (Shape{T, Dim(2), Dim(16)}));
            EXPECT_EQ(out[k + 2 * i].dtype(), DType::Float32);
        }
    }
}

TEST(LlamaGraph, NamesTheNodesSchedulesLookFor) {
    const std::set<std::string> names = node_names(build_llama_step(halogen::llama_preset("tiny")).graph);
    for (const char *n : {"embed", "last", "final_norm", "logits"}) EXPECT_TRUE(names.count(n)) << n;
    for (int i = 0; i < 2; ++i) {
        for (const char *part : {"attn_norm", "qkv", "qkv_rope", "k_new", "v_new", "k_all", "v_all", "attn", "o",
                                 "attn_residual", "mlp_norm", "gate", "up", "swiglu", "down", "out"}) {
            const std::string name = "layer" + std::to_string(i) + "." + part;
            EXPECT_TRUE(names.count(name)) << name;
        }
    }
    EXPECT_FALSE(names.count("layer2.qkv"));
    // The nn layer's own names are there too: one linear sum per projection (q, k and v as one) and the head.
    const halogen::LlamaStepGraph step = build_llama_step(halogen::llama_preset("tiny"));
    int linears = 0;
    for (const halogen::Node *n : step.graph.nodes()) linears += n->name == "linear_sum";
    EXPECT_EQ(linears, 2 * 5 + 1);   // q, k and v stacked into one
}

TEST(LlamaGraph, BuildsTheOneBPreset) {
    // 16 layers, tied head, 32 heads over 8 KV heads of 64: built without binding any weight.
    const halogen::LlamaStepGraph step = build_llama_step(halogen::llama_preset("llama-3.2-1b"), DType::BFloat16);
    EXPECT_EQ(step.graph.inputs().size(), 3u + 2 * 16 + 1 + 16 * 9 + 1);   // ids, RoPE, caches, weights
    EXPECT_EQ(step.graph.outputs().size(), 1u + 2 * 16);
    EXPECT_EQ(step.graph.outputs()[0].shape(), (Shape{Dim(1), Dim(128256)}));
    EXPECT_EQ(step.graph.outputs()[32].shape(), (Shape{Dim::sym("T"), Dim(8), Dim(64)}));
}

TEST(LlamaGraph, Bf16WeightsAreBf16InputsEachReadThroughACast) {
    const halogen::LlamaStepGraph step = build_llama_step(halogen::llama_preset("tiny"), DType::BFloat16);
    for (const halogen::Node *n : step.graph.inputs()) {
        const bool weight = n->name.find(".weight") != std::string::npos;
        EXPECT_EQ(n->dtype == DType::BFloat16, weight) << n->name;
    }
    int readers = 0;
    for (const halogen::Node *n : step.graph.nodes()) {
        for (const halogen::Tensor &in : n->inputs) {
            if (in.dtype() != DType::BFloat16) continue;
            EXPECT_EQ(n->op, halogen::Op::Cast) << n->label() << " reads bfloat16 " << in.node().label();
            ++readers;
        }
    }
    EXPECT_GE(readers, 21);
    EXPECT_THROW(build_llama_step(halogen::llama_preset("tiny"), DType::Int32), halogen::DTypeError);
}

}  // namespace
