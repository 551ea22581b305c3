// What the grouping pass makes of the graphs the seed cares about: how many kernels, which
// buffers each reads, where reductions are computed, which loops collapse — and that every
// grouped program still computes the interpreter's numbers.
#include <gtest/gtest.h>

#include "frontend/grouping/grouping.h"
#include "frontend/halogen.h"
#include "frontend/nn/nn.h"
#include "halide_gen/compiler/loop_nest.h"
#include "halide_gen/compiler/program.h"
#include "halide_gen/compiler/schedule.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;
using testing::CompiledGraph;
using testing::random_inputs;

const DType F = DType::Float32, I = DType::Int32;
const Dim B = Dim::sym("B"), S = Dim::sym("S");

std::vector<std::string> read_names(const Group &g) {
    std::vector<std::string> out;
    for (const Node *n : g.reads) out.push_back(n->op == Op::Input ? n->name : n->label());
    return out;
}

// One kernel; returns its group.
Group single_group(const Tensor &out) {
    auto groups = group_graph(Graph({out}));
    EXPECT_EQ(groups.size(), 1u);
    return groups.empty() ? Group{} : groups.back();
}

// Every schedule, at the given bindings, against the interpreter.
void expect_numbers(const Tensor &out, const Bindings &b, double tol = 1e-4) {
    Inputs in = random_inputs(Graph({out}), b, 7);
    Array want = interpret(out, in, b);
    for (const std::string &s : schedule_names()) {
        EXPECT_TRUE(arrays_near(want, CompiledGraph(out, s).run(in, b), tol, tol)) << "schedule " << s;
    }
}

Tensor embedding_bs() { return nn::embedding(input("ids", I, {B, S}), input("weight", F, {30, 30})); }

TEST(Grouping, SeedExpressionIsOneKernelWithoutIntermediateBuffers) {
    Tensor seed = where(eq(iconst(2), index_components({3, 3})), iconst(2), iconst(3));
    Group g = single_group(seed);
    EXPECT_TRUE(g.reads.empty());
    Program p(Graph({seed}), "basic");
    LoopNest nest = loop_nest(p.lowered(0));
    EXPECT_EQ(nest.produced.size(), 1u) << nest.stmt;
    EXPECT_TRUE(nest.allocated.empty()) << nest.stmt;
}

TEST(Grouping, EmbeddingIsOneKernelReadingIdsAndWeight) {
    Tensor out = embedding_bs();
    Group g = single_group(out);
    EXPECT_EQ(read_names(g), (std::vector<std::string>{"ids", "weight"}));   // + the output: 3 buffers
    expect_numbers(out, {{"B", 2}, {"S", 3}});
}

TEST(Grouping, EmbeddingFollowedByElementwiseOpsStaysOneKernel) {
    Tensor pos = input("pos", F, {S, 30});
    for (const Tensor &out : {embedding_bs() + pos, nn::gelu(embedding_bs())}) {
        Group g = single_group(out);
        EXPECT_LE(g.reads.size(), 3u);
        expect_numbers(out, {{"B", 2}, {"S", 5}});
    }
}

TEST(Grouping, EmbeddingOverBatchAndSequenceHasOneCollapsedOuterLoop) {
    Group g = single_group(embedding_bs());
    ASSERT_EQ(g.collapsed_axes, (std::vector<std::vector<int>>{{0, 1}, {2}}));
    EXPECT_EQ(shape_str(g.collapsed_shape), "[B*S, 30]");
    // The scheduled kernel iterates the fused batch*seq loop outermost, then the embedding dim.
    Program p(Graph({embedding_bs()}), "basic");
    LoopNest nest = loop_nest(p.lowered(0));
    ASSERT_GE(nest.loops.size(), 2u) << nest.stmt;
    EXPECT_NE(nest.loops[0].find("a0_a1"), std::string::npos) << nest.stmt;
    EXPECT_NE(nest.loops[1].find(".a2"), std::string::npos) << nest.stmt;
}

TEST(Grouping, APositionalTableBroadcastOverBatchKeepsBatchAndSequenceApart) {
    // pos is [S, D]: read with stride 0 along B but D along S, so B and S cannot merge.
    Group g = single_group(embedding_bs() + input("pos", F, {S, 30}));
    EXPECT_EQ(g.collapsed_axes, (std::vector<std::vector<int>>{{0}, {1}, {2}}));
}

TEST(Grouping, NormsAreOneKernelWithStatisticsPerRow) {
    Tensor x = input("x", F, {B, S, 33});
    Tensor w = input("w", F, {33}), b = input("b", F, {33});
    for (const Tensor &out : {nn::layer_norm(x, 1, w, b), nn::rms_norm(x, w)}) {
        Group g = single_group(out);
        EXPECT_FALSE(g.compute_level.empty());
        for (const auto &[node, level] : g.compute_level) EXPECT_EQ(level, 2) << node->label();   // once per (b, s)
        EXPECT_EQ(shape_str(g.collapsed_shape), "[B*S, 33]");
        expect_numbers(out, {{"B", 2}, {"S", 3}});
    }
}

TEST(Grouping, BatchNormInferenceAndGroupNormAreOneKernel) {
    Tensor x = input("x", F, {B, 8, 5, 3});
    auto c = [](const char *name) { return input(name, F, {8}); };
    Tensor bn = nn::batch_norm_inference(x, c("mean"), c("var"), c("w"), c("b"));
    Tensor gn = nn::group_norm(x, 4, c("w"), c("b"));
    EXPECT_TRUE(single_group(bn).compute_level.empty());
    Group g = single_group(gn);
    for (const auto &[node, level] : g.compute_level) EXPECT_EQ(level, 1) << node->label();   // once per sample
    expect_numbers(bn, {{"B", 2}});
    expect_numbers(gn, {{"B", 2}});
}

TEST(Grouping, ConvWithBiasAndReluIsOneKernelInEveryRank) {
    struct Case { Shape x, w; };
    for (const Case &c : {Case{{2, 3, 9}, {4, 3, 3}}, Case{{1, 3, 6, 5}, {4, 3, 3, 3}}, Case{{1, 2, 4, 5, 3}, {3, 2, 2, 3, 2}}}) {
        const std::size_t n = c.x.size() - 2;
        nn::ConvOptions o{std::vector<int64_t>(n, 1), std::vector<int64_t>(n, 1), std::vector<int64_t>(n, 1), 1};
        Tensor out = nn::relu(nn::conv(input("x", F, c.x), input("w", F, c.w), input("bias", F, {c.w[0]}), o));
        Group g = single_group(out);
        EXPECT_EQ(read_names(g), (std::vector<std::string>{"x", "w", "bias"}));
        expect_numbers(out, {});
    }
}

TEST(Grouping, SoftmaxFusesReduceThenReduceOverTheSameRows) {
    Tensor out = nn::softmax(input("x", F, {B, 17}), -1);
    Group g = single_group(out);
    EXPECT_EQ(g.compute_level.size(), 2u);   // the max, then the sum of exp(x - max)
    for (const auto &[node, level] : g.compute_level) EXPECT_EQ(level, 1) << node->label();
    expect_numbers(out, {{"B", 3}});
}

TEST(Grouping, ColumnStatisticsBroadcastOverOuterRowsAreMaterialized) {
    // mean over axis 0 is needed whole by every row: no loop level computes it once without a
    // buffer, so it gets its own kernel.
    Tensor x = input("x", F, {B, 6});
    Tensor out = x - mean(x, {0}, true);
    auto groups = group_graph(Graph({out}));
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_TRUE(is_reduce(groups[0].anchor->op));
    EXPECT_EQ(groups[1].reads.size(), 2u);   // x and the column sums
    expect_numbers(out, {{"B", 4}});
}

TEST(Grouping, MaterializeCutsAGemmChainIntoOneKernelPerProjection) {
    // Two projections in a row: rule 3 computes the first one's row inside the second's loop over
    // rows (no recompute, so it is allowed); materialize() makes it a kernel of its own, with the
    // epilogue (a residual add) inside the producing kernel.
    Tensor x = input("x", F, {B, 8});
    Tensor w1 = input("w1", F, {6, 8}), w2 = input("w2", F, {8, 6});
    Tensor fused = nn::linear(nn::linear(x, w1), w2);
    EXPECT_EQ(group_graph(Graph({fused})).size(), 1u);
    Tensor first = materialize(nn::linear(x, w1) + fconst(1));
    Tensor cut = x + nn::linear(first, w2);
    auto groups = group_graph(Graph({cut}));
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].anchor, first.get());
    EXPECT_EQ(groups[0].compute_level.size(), 1u);   // the first linear's sum, inside its kernel
    EXPECT_EQ(read_names(groups[1]), (std::vector<std::string>{first.node().label(), "w2", "x"}));
    expect_numbers(cut, {{"B", 5}});
    // A pure node marked is stored as well, and keeps its name; an input cannot be marked.
    Tensor marked = named(materialize(x * fconst(2)), "doubled");
    EXPECT_EQ(group_graph(Graph({marked + fconst(1)})).size(), 2u);
    EXPECT_EQ(marked.node().name, "doubled");
    EXPECT_THROW(materialize(x), GraphError);
}

TEST(Grouping, AReductionReadByTwoKernelsIsMaterializedOnce) {
    Tensor x = input("x", F, {4, 5});
    Tensor s = sum(x, {1});
    Graph g({s + fconst(1), s * fconst(2)});
    auto groups = group_graph(g);
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(groups[0].anchor, s.node().inputs[0].get());   // the reduce_sum under sum's reshape
    Program p(g, "simd");
    Inputs in = random_inputs(g, {}, 3);
    Array a(F, {4}), b(F, {4});
    p.run({{"x", in.at("x").ref()}}, {a.ref(), b.ref()});
    auto want = interpret(g, in);
    EXPECT_TRUE(arrays_near(want[0], a, 1e-5, 1e-5));
    EXPECT_TRUE(arrays_near(want[1], b, 1e-5, 1e-5));
}

}  // namespace
}  // namespace halogen
