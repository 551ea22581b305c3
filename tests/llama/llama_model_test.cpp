// The compiled llama model (models/llama/llama_model.h) against the reference model
// (models/llama/llama_reference.h) on tiny random checkpoints: the same logits after prefill,
// chunked steps and decode, the same greedy picks, f32 and bf16 weights (kept bf16, or converted
// at load), a tied head, heads that do not add up to hidden_size; and the kernels the grouping
// pass cuts a layer into.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/errors.h"
#include "formats/checkpoint.h"
#include "models/llama/llama_graph.h"
#include "models/llama/llama_reference.h"
#include "models/llama/random_llama.h"
#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/loop_nest.h"
#include "halide_gen/compiler/pipeline.h"
#include "halide_gen/compiler/program.h"
#include "halide_gen/compiler/types.h"
#include "halide_gen/runtime/kernel_pool.h"
#include "models/llama/llama_model.h"
#include "models/llama/llama_recipe.h"
#include "schedules/attention/attention.h"
#include "tests/llama/llama_test_support.h"
#include "tests/support/expect_error.h"

namespace {

using halogen::Checkpoint;
using halogen::DType;
using halogen::LlamaModel;
using halogen::LlamaReference;
using halogen::SafetensorsDType;
using halogen_test::max_diff;
using halogen_test::TempDir;

// A tiny random checkpoint kept open for the model (which reads weights from the mapping).
struct Tiny {
    TempDir dir;
    halogen::LlamaConfig config;
    std::unique_ptr<Checkpoint> ckpt;
    halogen::LlamaWeights weights;
    Tiny(const halogen::LlamaConfig &c, SafetensorsDType dtype, uint64_t seed) : config(c) {
        halogen::write_random_llama(c, dir.str(), dtype, seed);
        ckpt = std::make_unique<Checkpoint>(Checkpoint::open(dir.str()));
        weights = halogen::bind_llama_weights(*ckpt, c);
    }
};

const std::vector<int32_t> kPrompt = {1, 17, 200, 3, 99, 42, 255, 0};

// The tiny preset with heads of 32 dims, which panels of 32 rows fit (llama_fits_panels): the
// model packs its projections' weights; the tiny preset's heads of 16 keep them in rows. Three
// query heads over one KV head (GQA, 3 per group) keep hidden_size 96, so the o and down
// projections' 96 outputs are a task of two panels and one of a single panel.
halogen::LlamaConfig tiny_panels() {
    halogen::LlamaConfig c = halogen::llama_preset("tiny");
    c.head_dim = 32;
    c.num_attention_heads = 3;
    c.num_key_value_heads = 1;
    return c;
}

// The correctness tests run on both weight layouts, each the default for its config.
struct Layout {
    const char *name;
    halogen::LlamaConfig (*config)();
    bool panels;
};
halogen::LlamaConfig tiny_rows() { return halogen::llama_preset("tiny"); }
void PrintTo(const Layout &l, std::ostream *os) { *os << l.name; }   // gtest's (and ctest's) name of the parameter
class LlamaLayouts : public ::testing::TestWithParam<Layout> {
protected:
    halogen::LlamaConfig config() const { return GetParam().config(); }
};
INSTANTIATE_TEST_SUITE_P(Weights, LlamaLayouts,
                         ::testing::Values(Layout{"rows", tiny_rows, false}, Layout{"panels", tiny_panels, true}),
                         [](const auto &info) { return std::string(info.param.name); });

// The tiny model's layer part as the model's Program builds it (grouped, lowered, scheduled by the
// llama recipe) but not compiled: its loop nests are all a structure test reads.
halogen::Pipeline layer_pipeline(int64_t down_block = 0, bool panels = false, bool decode_attention = false) {
    const halogen::LlamaConfig c = panels ? tiny_panels() : halogen::llama_preset("tiny");
    const halogen::Graph g = halogen::build_llama_parts(c, DType::Float32, down_block, panels).layer;
    halogen::PipelineInputs in;
    for (const halogen::Node *n : g.inputs())
        in.buffers.emplace(n->name, Halide::ImageParam(halogen::halide_type(n->dtype), int(n->shape.size()), n->name));
    for (const std::string &s : halogen::scalar_dims(g)) in.scalar_dims.emplace(s, Halide::Param<int32_t>(s));
    return halogen::build_pipeline(g, halogen::llama_recipe(decode_attention), in, halogen::host_target());
}

TEST_P(LlamaLayouts, MatchesTheReferenceInPrefillStepsAndDecode) {
    Tiny m(config(), SafetensorsDType::F32, 5);
    LlamaReference ref(m.weights, {64});
    LlamaModel model(m.weights, {64});
    EXPECT_EQ(model.weight_dtype(), DType::Float32);
    EXPECT_EQ(model.panels(), GetParam().panels);
    EXPECT_LE(max_diff(model.prefill(kPrompt), ref.prefill(kPrompt)), 1e-4);
    EXPECT_LE(max_diff(model.decode(77), ref.decode(77)), 1e-4);
    EXPECT_LE(max_diff(model.step({5, 6, 7}), ref.step({5, 6, 7})), 1e-4);
    EXPECT_EQ(model.position(), 12);
    EXPECT_THROW(model.step({}), halogen::ShapeError);
}

TEST_P(LlamaLayouts, DecodeEqualsALongerPrefill) {
    Tiny m(config(), SafetensorsDType::F32, 9);
    LlamaModel model(m.weights, {64});
    std::vector<int32_t> ids = kPrompt;
    model.prefill(ids);
    const std::vector<float> decoded = model.decode(77);
    ids.push_back(77);
    EXPECT_LE(max_diff(decoded, model.prefill(ids)), 1e-5);
}

TEST_P(LlamaLayouts, GreedyPicksEqualTheReferences) {
    Tiny m(config(), SafetensorsDType::F32, 11);
    LlamaReference ref(m.weights, {64});
    LlamaModel model(m.weights, {64});
    const std::vector<int32_t> want = ref.greedy(kPrompt, 16);
    std::vector<float> logits = model.prefill(kPrompt);
    std::vector<int32_t> got;
    for (int k = 0; k < 16; ++k) {
        got.push_back(halogen::argmax(logits));
        if (k + 1 < 16) logits = model.decode(got.back());
    }
    EXPECT_EQ(got, want);
}

TEST_P(LlamaLayouts, Bf16WeightsStayBf16OrConvertAtLoad) {
    Tiny m(config(), SafetensorsDType::BF16, 5);
    LlamaReference ref(m.weights, {32});   // widened to f32 at bind
    const std::vector<float> want = ref.prefill(kPrompt);
    LlamaModel kept(m.weights, {32});
    EXPECT_EQ(kept.weight_dtype(), DType::BFloat16);
    EXPECT_LE(max_diff(kept.prefill(kPrompt), want), 1e-4);
    EXPECT_LE(max_diff(kept.decode(77), ref.decode(77)), 1e-4);
    LlamaModel widened(m.weights, {32, DType::Float32});
    EXPECT_LE(max_diff(widened.prefill(kPrompt), want), 1e-4);
}

TEST_P(LlamaLayouts, F32WeightsConvertToBf16AtLoad) {
    Tiny f32(config(), SafetensorsDType::F32, 5);
    Tiny bf16(config(), SafetensorsDType::BF16, 5);   // the same values, rounded
    LlamaModel converted(f32.weights, {32, DType::BFloat16});
    LlamaReference ref(bf16.weights, {32});
    EXPECT_LE(max_diff(converted.prefill(kPrompt), ref.prefill(kPrompt)), 1e-4);
}

// Panels only where they fit: asked for on heads of 16 dims, the model names the config's sizes;
// a config that fits them can still keep its weights in rows.
TEST(LlamaModel, PanelsOnlyWhereTheyFit) {
    Tiny rows(halogen::llama_preset("tiny"), SafetensorsDType::F32, 5);
    halogen::LlamaModelOptions options;
    options.context = 16;
    options.panels = true;
    halogen::testing::expect_error<halogen::ConfigError>([&] { LlamaModel model(rows.weights, options); },
                                                     {"panels of 32 rows", "head_dim 16"});
    Tiny fits(tiny_panels(), SafetensorsDType::F32, 5);
    options.panels = false;
    LlamaModel model(fits.weights, options);
    LlamaReference ref(fits.weights, {16});
    EXPECT_FALSE(model.panels());
    EXPECT_LE(max_diff(model.prefill(kPrompt), ref.prefill(kPrompt)), 1e-4);
    EXPECT_LE(max_diff(model.decode(77), ref.decode(77)), 1e-4);
}

// The down projection's weight copied into blocks of K (the 1B's default, here blocks of 64 of the
// tiny model's 256): the same logits in prefill and decode, f32 and bf16 weights.
TEST(LlamaModel, DownWeightInBlocksMatchesTheReference) {
    for (SafetensorsDType dtype : {SafetensorsDType::F32, SafetensorsDType::BF16}) {
        Tiny m(halogen::llama_preset("tiny"), dtype, 7);
        LlamaReference ref(m.weights, {32});
        halogen::LlamaModelOptions options;
        options.context = 32;
        options.down_block = 64;
        LlamaModel model(m.weights, options);
        EXPECT_LE(max_diff(model.prefill(kPrompt), ref.prefill(kPrompt)), 1e-4);
        EXPECT_LE(max_diff(model.decode(77), ref.decode(77)), 1e-4);
        EXPECT_LE(max_diff(model.decode(3), ref.decode(3)), 1e-4);
    }
    EXPECT_EQ(halogen::llama_down_block(halogen::llama_preset("llama-3.2-1b")), 2048);   // I = 8192
    EXPECT_EQ(halogen::llama_down_block(halogen::llama_preset("tiny")), 0);             // I = 256
}

// Heads that do not add up to hidden_size, as transformers allows (q_proj [H*d, D], o_proj
// [D, H*d]): 4 heads of 32 over hidden 96 in panels (128 query features), 4 of 16 in rows (64).
TEST(LlamaModel, HeadsNeedNotAddUpToHiddenSize) {
    for (const int64_t head_dim : {32, 16}) {
        halogen::LlamaConfig c = halogen::llama_preset("tiny");
        c.num_attention_heads = 4;
        c.num_key_value_heads = 2;
        c.head_dim = head_dim;
        ASSERT_NE(c.num_attention_heads * c.head_dim, c.hidden_size);
        Tiny m(c, SafetensorsDType::F32, 13);
        LlamaReference ref(m.weights, {32});
        LlamaModel model(m.weights, {32});
        EXPECT_EQ(model.panels(), head_dim == 32) << head_dim;
        EXPECT_LE(max_diff(model.prefill(kPrompt), ref.prefill(kPrompt)), 1e-4) << head_dim;
        EXPECT_LE(max_diff(model.decode(77), ref.decode(77)), 1e-4) << head_dim;
        EXPECT_LE(max_diff(model.step({5, 6, 7}), ref.step({5, 6, 7})), 1e-4) << head_dim;
    }
}

TEST_P(LlamaLayouts, TiedHeadReadsTheEmbedding) {
    halogen::LlamaConfig c = config();
    c.tie_word_embeddings = true;
    Tiny m(c, SafetensorsDType::F32, 3);
    LlamaReference ref(m.weights, {32});
    LlamaModel model(m.weights, {32});
    EXPECT_LE(max_diff(model.prefill(kPrompt), ref.prefill(kPrompt)), 1e-4);
}

// The weights the kernels read (what `llama bench` measures its read limit on): every parameter
// once, in the kernels' dtype; a tied head adds no second table.
TEST(LlamaModel, WeightBuffersHoldEveryParameterOnce) {
    auto bytes = [](const LlamaModel &model) {
        int64_t n = 0;
        for (const halogen::BufferRef &b : model.weight_buffers()) {
            int64_t e = int64_t(halogen::dtype_size(b.dtype));
            for (int64_t d : b.shape) e *= d;
            n += e;
        }
        return n;
    };
    const halogen::LlamaConfig untied = halogen::llama_preset("tiny");
    Tiny m(untied, SafetensorsDType::F32, 3);
    EXPECT_EQ(bytes(LlamaModel(m.weights, {8})), halogen::llama_parameter_count(untied) * 4);
    Tiny packed(tiny_panels(), SafetensorsDType::F32, 3);   // the projections packed in panels: as many bytes
    EXPECT_EQ(bytes(LlamaModel(packed.weights, {8})), halogen::llama_parameter_count(tiny_panels()) * 4);
    halogen::LlamaConfig tied = untied;
    tied.tie_word_embeddings = true;
    Tiny t(tied, SafetensorsDType::F32, 3);
    EXPECT_EQ(bytes(LlamaModel(t.weights, {8, DType::BFloat16})), halogen::llama_parameter_count(tied) * 2);
}

// Loading reports its steps: the three programs compiled in turn and the weights read, rising to
// every byte of the checkpoint's tensors (a tied head counted once), the same with a conversion.
// The programs compile while the weights are read, so the two kinds of report interleave; each
// kind keeps its own order, and the reports come one at a time.
TEST(LlamaModel, ReportsProgramsCompiledAndWeightsRead) {
    halogen::LlamaConfig c = halogen::llama_preset("tiny");
    c.tie_word_embeddings = true;
    Tiny m(c, SafetensorsDType::BF16, 3);
    for (const DType d : {DType::BFloat16, DType::Float32}) {
        std::vector<uint64_t> compiled, read;
        std::atomic<int> inside{0};
        bool overlapped = false;
        halogen::LlamaModelOptions options;
        options.context = 8;
        options.weights = d;
        options.cache.enabled = false;   // compiled here whatever the kernel cache holds
        options.progress = [&](const halogen::LlamaLoadProgress &p) {
            overlapped |= ++inside > 1;
            if (p.stage == "compile") {
                EXPECT_EQ(p.total, 3u);
                compiled.push_back(p.done);
            } else {
                EXPECT_EQ(p.stage, "weights");
                EXPECT_EQ(p.total, uint64_t(halogen::llama_parameter_count(c)) * 2);
                read.push_back(p.done);
            }
            --inside;
        };
        LlamaModel model(m.weights, options);
        EXPECT_FALSE(overlapped) << "two reports at once";
        EXPECT_EQ(compiled, (std::vector<uint64_t>{1, 2, 3}));
        ASSERT_FALSE(read.empty());
        EXPECT_TRUE(std::is_sorted(read.begin(), read.end()) && std::adjacent_find(read.begin(), read.end()) == read.end());
        EXPECT_EQ(read.back(), uint64_t(halogen::llama_parameter_count(c)) * 2);
    }
}

TEST(LlamaModel, FiveKernelsPerLayer) {
    Tiny m(halogen::llama_preset("tiny"), SafetensorsDType::F32, 5);
    LlamaModel model(m.weights, {16});
    // qkv projection with its norm and RoPE; attention; o projection with the residual add;
    // gate and up with their norm and SiLU; down with the residual add.
    EXPECT_EQ(model.layer_kernels(), 5);
    EXPECT_EQ(model.embed_kernels(), 1);
    EXPECT_EQ(model.head_kernels(), 1);
}

// The kernel's own Funcs of the projection sums (a loop nest also shows the kernels it reads).
std::vector<std::string> projection_sums(const halogen::LoweredGraph &lg) {
    std::vector<std::string> sums;
    for (const auto &[node, f] : lg.funcs)
        if (node->name == "linear_sum") sums.push_back(f.name());
    return sums;
}

// Whether one loop of the nest holds every one of `parts` in its name.
bool has_loop(const halogen::LoopNest &nest, const std::vector<std::string> &parts) {
    for (const std::string &loop : nest.loops) {
        if (std::all_of(parts.begin(), parts.end(), [&](const std::string &p) { return loop.find(p) != std::string::npos; }))
            return true;
    }
    return false;
}

// Each projection kernel of a layer runs the matmul family's dot schedule around its prologue
// (norm, SiLU) and epilogue (RoPE, residual): K split and summed in a vector-wide partial
// (rfactor's "_intm" Func) inside a parallel tile loop.
TEST(LlamaModel, ProjectionKernelsRunTheDotSchedule) {
    const halogen::Pipeline layer = layer_pipeline();
    int projections = 0;
    for (const halogen::LoweredGraph &lg : layer.lowered) {
        const int k = int(&lg - layer.lowered.data());
        const halogen::LoopNest nest = halogen::loop_nest(lg);
        const std::vector<std::string> sums = projection_sums(lg);
        if (sums.empty()) continue;
        ++projections;
        for (const std::string &sum : sums) {
            // Loops over the sum's K split, in rfactor's Func: by vectors for every count of
            // tokens ("k_o"), and in one token's own reduction, each row's whole dot product in
            // turn ("k_o1", nothing around it over K).
            EXPECT_TRUE(has_loop(nest, {"_intm", sum + "_r$x.k_o:"})) << "kernel " << k << ": " << sum;
            EXPECT_TRUE(has_loop(nest, {"_intm", sum + "_r$x.k_o1:"})) << "kernel " << k << ": " << sum;
        }
        EXPECT_TRUE(has_loop(nest, {lg.out.name() + ".s0.", ":parallel"})) << "kernel " << k;
    }
    EXPECT_EQ(projections, 4);   // qkv, o, gate and up, down
}

// With the weights in panels each projection kernel runs the matmul family's `tiled` schedule
// instead: one token's K in parts side by side (rfactor's "_intm" Func, its loop "k_in"), every
// other count of tokens in groups (a loop "go" over the token groups, K whole inside), none of
// dot's loops ("k_o"), inside a parallel task loop.
TEST(LlamaModel, ProjectionKernelsOnPanelsRunTheTiledSchedule) {
    const halogen::Pipeline layer = layer_pipeline(0, true);
    int projections = 0;
    for (const halogen::LoweredGraph &lg : layer.lowered) {
        const int k = int(&lg - layer.lowered.data());
        const halogen::LoopNest nest = halogen::loop_nest(lg);
        const std::vector<std::string> sums = projection_sums(lg);
        if (sums.empty()) continue;
        ++projections;
        for (const std::string &sum : sums) {
            // rfactor's Func is named after the sum (less a "$n" suffix), "_intm" where Halide puts it.
            EXPECT_TRUE(has_loop(nest, {sum.substr(0, sum.find('$')), "_intm", ".k_in:"})) << "kernel " << k << ": " << sum;
            EXPECT_TRUE(has_loop(nest, {sum + ".s1.", ".go:"})) << "kernel " << k << ": " << sum;
            EXPECT_FALSE(has_loop(nest, {sum, ".k_o"})) << "kernel " << k << ": " << sum;
        }
        EXPECT_TRUE(has_loop(nest, {lg.out.name() + ".s0.", ":parallel"})) << "kernel " << k;
    }
    EXPECT_EQ(projections, 4);   // qkv, o, gate and up, down
}

// The layer's one attention kernel (the group that computes attn_scores).
const halogen::LoweredGraph &attention_kernel(const halogen::Pipeline &layer) {
    const halogen::LoweredGraph *found = nullptr;
    for (const halogen::LoweredGraph &lg : layer.lowered) {
        if (!lg.has_func("attn_scores")) continue;
        EXPECT_EQ(found, nullptr) << "a second attention kernel";
        found = &lg;
    }
    if (found == nullptr) throw std::runtime_error("the layer has no attention kernel");
    return *found;
}

// The attention kernel runs the attention family's fused schedule: a parallel task per KV head and
// tile of queries, the scores computed inside it, never the whole [T, G, R, S] in memory.
TEST(LlamaModel, AttentionKernelRunsTheFusedSchedule) {
    const halogen::Pipeline layer = layer_pipeline();
    const halogen::LoweredGraph &lg = attention_kernel(layer);
    const halogen::LoopNest nest = halogen::loop_nest(lg);
    const std::string scores = lg.func("attn_scores").name();
    std::string task;   // the output's loop over (KV head, tile of queries), fused and parallel
    for (const std::string &loop : nest.loops) {
        const std::string end = ".task:parallel";
        if (loop.rfind(lg.out.name() + ".s0.", 0) == 0 && loop.size() > end.size() &&
            loop.compare(loop.size() - end.size(), end.size(), end) == 0)
            task = loop.substr(0, loop.size() - std::string(":parallel").size());
    }
    ASSERT_NE(task, "") << nest.stmt;
    // The scores' loops sit inside the task loop.
    const size_t task_at = nest.stmt.find("parallel (" + task), scores_at = nest.stmt.find("for (" + scores + ".s1.");
    ASSERT_NE(scores_at, std::string::npos) << nest.stmt;
    EXPECT_LT(task_at, scores_at) << nest.stmt;
}

// The command line's names of LlamaModelOptions::decode_attention: each listed name is taken,
// another is a ConfigError naming it.
TEST(LlamaModel, DecodeAttentionByName) {
    EXPECT_EQ(halogen::llama_decode_attention_names(), (std::vector<std::string>{"auto", "fused", "decode"}));
    EXPECT_EQ(halogen::llama_decode_attention("auto"), std::nullopt);
    EXPECT_EQ(halogen::llama_decode_attention("fused"), false);
    EXPECT_EQ(halogen::llama_decode_attention("decode"), true);
    halogen::testing::expect_one_line_error<halogen::ConfigError>([] { halogen::llama_decode_attention("split"); },
                                                                  "llama model", {"'split'"});
}

// The layer program of one-token steps (LlamaModelOptions::decode_attention) runs the attention
// family's decode schedule: the scores computed at the root, parallel over chunks of keys, and no
// task per KV head.
TEST(LlamaModel, DecodeAttentionKernelSplitsTheKeys) {
    const halogen::Pipeline layer = layer_pipeline(0, false, true);
    const halogen::LoweredGraph &lg = attention_kernel(layer);
    const halogen::LoopNest nest = halogen::loop_nest(lg);
    EXPECT_TRUE(has_loop(nest, {lg.func("attn_scores").name() + ".s1.", ".s_chunk:parallel"})) << nest.stmt;
    EXPECT_FALSE(has_loop(nest, {lg.out.name() + ".s0.", ".task:"})) << nest.stmt;
}

// Sets the kernels' threads for one scope.
struct KernelThreads {
    int before = halogen::kernel_threads();
    explicit KernelThreads(int n) { halogen::set_kernel_threads(n); }
    ~KernelThreads() { halogen::set_kernel_threads(before); }
};

// One-token steps through the decode attention, asked for, on one KV head: the same logits as the
// reference and as a longer prefill; steps of more ids keep the fused one.
TEST(LlamaModel, DecodeAttentionMatchesTheReference) {
    const KernelThreads threads(2);
    Tiny m(tiny_panels(), SafetensorsDType::F32, 5);
    LlamaReference ref(m.weights, {64});
    halogen::LlamaModelOptions options;
    options.context = 64;
    options.decode_attention = true;
    LlamaModel model(m.weights, options);
    EXPECT_EQ(model.attention_schedule(1), "decode");
    EXPECT_EQ(model.attention_schedule(3), "fused");
    std::vector<int32_t> ids = kPrompt;
    EXPECT_LE(max_diff(model.prefill(ids), ref.prefill(ids)), 1e-4);
    std::vector<float> decoded;
    for (int32_t id : {77, 3, 250}) {
        decoded = model.decode(id);
        EXPECT_LE(max_diff(decoded, ref.decode(id)), 1e-4) << "id " << id;
        ids.push_back(id);
    }
    EXPECT_LE(max_diff(decoded, model.prefill(ids)), 1e-5);
}

// By default the one-token program is compiled where it can win (twice as many threads as KV
// heads at construction, a context of kDecodeMinPositions or more), and a step runs it where
// attention::decode_is_faster says so for that step: from kDecodeMinPositions positions on, with
// twice as many threads as KV heads.
TEST(LlamaModel, DecodeAttentionWhereItIsFaster) {
    const KernelThreads threads(2);
    halogen::LlamaConfig c = tiny_panels();   // one KV head
    c.max_position_embeddings = 4096;
    Tiny m(c, SafetensorsDType::F32, 7);
    const int64_t S = halogen::attention::kDecodeMinPositions;
    std::vector<int32_t> prompt(size_t(S - 1));
    for (size_t i = 0; i < prompt.size(); ++i) prompt[i] = int32_t((7 * i + 1) % 256);

    uint64_t programs = 0;
    halogen::LlamaModelOptions options;
    options.context = S + 4;
    options.progress = [&](const halogen::LlamaLoadProgress &p) {
        if (p.stage == "compile" || p.stage == "load") programs = p.total;   // compiled, or from the cache
    };
    LlamaModel model(m.weights, options);
    EXPECT_EQ(programs, 4u);
    EXPECT_EQ(model.attention_schedule(1), "fused");   // one position
    options.decode_attention = false;
    LlamaModel fused(m.weights, options);
    EXPECT_EQ(programs, 3u);

    EXPECT_LE(max_diff(model.prefill(prompt), fused.prefill(prompt)), 1e-5);
    EXPECT_EQ(model.attention_schedule(1), "decode");   // the step's S = kDecodeMinPositions
    EXPECT_EQ(fused.attention_schedule(1), "fused");
    {
        const KernelThreads one(1);   // as many threads as KV heads
        EXPECT_EQ(model.attention_schedule(1), "fused");
    }
    EXPECT_LE(max_diff(model.decode(9), fused.decode(9)), 1e-5);

    options.decode_attention.reset();
    const KernelThreads one(1);   // at construction, as many threads as KV heads: not compiled
    LlamaModel one_thread(m.weights, options);
    EXPECT_EQ(programs, 3u);
}

// One token takes a path of its own in each projection (the sum's specialization, rfactored
// apart): each row's dot product in turn (above); on a weight in blocks of K (the down
// projection's, llama_down_block), block by block (a loop "kb" around the rows, "kbi" inside them).
TEST(LlamaModel, OneTokenWalksABlockedWeightBlockByBlock) {
    for (int64_t block : {int64_t(64)}) {
        const halogen::Pipeline layer = layer_pipeline(block);
        int blocked = 0, whole_rows = 0;
        for (const halogen::LoweredGraph &lg : layer.lowered) {
            const halogen::LoopNest nest = halogen::loop_nest(lg);
            for (const auto &[node, f] : lg.funcs) {
                if (node->name != "linear_sum") continue;
                // The one-token reduction's loops over K (a loop nest also shows the kernels it reads).
                const std::string k = f.name() + "_r$x.k_o1";   // the one-token split of the sum's RVar
                bool kb = false, kbi = false, k_o1 = false;
                for (const std::string &loop : nest.loops) {
                    kb |= loop.find(k + ".kb:") != std::string::npos;
                    kbi |= loop.find(k + ".kbi:") != std::string::npos;
                    k_o1 |= loop.find(k + ":") != std::string::npos;
                }
                blocked += kb && kbi && !k_o1;
                whole_rows += k_o1 && !kb;
            }
        }
        EXPECT_EQ(blocked, 1) << "block " << block;      // the down projection
        EXPECT_EQ(whole_rows, 4) << "block " << block;   // qkv, o, gate, up
    }
}

TEST(LlamaModel, ANanInAWeightPropagatesAsInTheReference) {
    // One NaN planted in the file, in layer 0's down projection: every later row mixes it in
    // (residual, then norms), so every logit is NaN, in both models; greedy then picks id 0
    // (argmax's first element: no value compares larger than a NaN). No crash, no error.
    TempDir dir;
    const halogen::LlamaConfig c = halogen::llama_preset("tiny");
    halogen::write_random_llama(c, dir.str(), SafetensorsDType::F32, 5);
    const std::string file = dir.file("model.safetensors");
    uint64_t at = 0;
    {
        const Checkpoint ckpt = Checkpoint::open(dir.str());
        const halogen::SafetensorsTensor *t = ckpt.find("model.layers.0.mlp.down_proj.weight");
        ASSERT_NE(t, nullptr);
        at = ckpt.files()[0].header().data_offset + t->begin;
    }
    {
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        f.seekp(static_cast<std::streamoff>(at));
        f.write(reinterpret_cast<const char *>(&nan), sizeof nan);
    }
    const Checkpoint ckpt = Checkpoint::open(dir.str());
    const halogen::LlamaWeights w = halogen::bind_llama_weights(ckpt, c);
    LlamaModel model(w, {16});
    LlamaReference ref(w, {16});
    for (const std::vector<float> &logits : {model.prefill(kPrompt), ref.prefill(kPrompt)}) {
        ASSERT_EQ(logits.size(), 512u);
        for (float v : logits) ASSERT_TRUE(std::isnan(v));
        EXPECT_EQ(halogen::argmax(logits), 0);
    }
}

TEST(LlamaModel, RejectsAContextPastTheConfigsPositions) {
    Tiny m(halogen::llama_preset("tiny"), SafetensorsDType::F32, 5);   // max_position_embeddings 1024
    halogen::testing::expect_one_line_error<halogen::ConfigError>([&] { LlamaModel model(m.weights, {1025}); }, "llama model",
                                                                  {"context of 1025", "max_position_embeddings (1024)"});
}

TEST(LlamaModel, RejectsStepsPastTheContext) {
    Tiny m(halogen::llama_preset("tiny"), SafetensorsDType::F32, 5);
    LlamaModel model(m.weights, {8});
    model.prefill(kPrompt);
    EXPECT_THROW(model.decode(1), halogen::ShapeError);
}

}  // namespace
