// The one-hot rewrite: where it fires (Embedding, and graphs that are not Embeddings, on any
// axis), where it must not, and that the rewritten graph computes the original's numbers with no
// vocabulary loop left.
#include <cmath>

#include <gtest/gtest.h>

#include "frontend/grouping/grouping.h"
#include "frontend/halogen.h"
#include "frontend/nn/nn.h"
#include "frontend/rewrites/one_hot_gather.h"
#include "halide_gen/compiler/loop_nest.h"
#include "halide_gen/compiler/program.h"
#include "halide_gen/compiler/schedule.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;
using testing::CompiledGraph;

const DType F = DType::Float32, I = DType::Int32;

int rewrites_in(const Tensor &out) {
    int n = -1;
    rewrite_one_hot_reductions(Graph({out}), &n);
    return n;
}

// The rewritten graph against the original, through the interpreter and every schedule.
void expect_same_numbers(const Tensor &out, const Inputs &in, const Bindings &b = {}) {
    Graph rewritten = rewrite_one_hot_reductions(Graph({out}));
    Array want = interpret(out, in, b);
    EXPECT_TRUE(arrays_near(want, interpret(rewritten, in, b)[0])) << "interpreter";
    for (const std::string &s : schedule_names()) {
        Program p(rewritten, s);
        Array got(want.dtype(), want.shape());
        BufferRefs refs;
        Inputs copies = in;
        for (auto &[name, a] : copies) refs.emplace(name, a.ref());
        p.run(refs, {got.ref()}, b);
        EXPECT_TRUE(arrays_near(want, got)) << "schedule " << s;
    }
}

Array ints(const std::vector<int64_t> &shape, const std::vector<int32_t> &v) {
    Array a(I, shape);
    for (std::size_t k = 0; k < v.size(); ++k) a.set(int64_t(k), v[k]);
    return a;
}

Array floats(const std::vector<int64_t> &shape, uint32_t seed) {
    Array a(F, shape);
    for (int64_t k = 0; k < a.size(); ++k) a.set(k, std::sin(double(k * 7 + seed)));
    return a;
}

TEST(OneHotGather, FiresOnEmbeddingAndKeepsItsNumbers) {
    const Dim B = Dim::sym("B"), S = Dim::sym("S");
    Tensor out = nn::embedding(input("ids", I, {B, S}), input("weight", F, {30, 30}));
    EXPECT_EQ(rewrites_in(out), 1);
    // ids 0 and V-1, repeated, negative and past the end (zero rows); NaN in a row nobody selects.
    Array w = floats({30, 30}, 1);
    for (int d = 0; d < 30; ++d) w.set(17 * 30 + d, NAN);
    expect_same_numbers(out, {{"ids", ints({2, 4}, {0, 29, 3, 3, -1, 30, 1000, 5})}, {"weight", w}}, {{"B", 2}, {"S", 4}});
}

TEST(OneHotGather, LeavesNoVocabularyLoop) {
    Tensor out = nn::embedding(input("ids", I, {Dim::sym("T")}), input("weight", F, {128, 16}));
    Graph rewritten = rewrite_one_hot_reductions(Graph({out}));
    auto groups = group_graph(rewritten);
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_TRUE(groups[0].compute_level.empty());   // no reduction left
    Program p(rewritten, "basic");
    LoopNest nest = loop_nest(p.lowered(0));
    EXPECT_EQ(nest.loops.size(), 2u) << nest.stmt;   // tokens and the embedding dim, nothing over V
}

TEST(OneHotGather, FiresOnATakeAlongTheLastAxis) {
    // out[n] = M[n, idx[n]]: not an Embedding, the table is per row.
    Tensor m = input("m", F, {5, 9}), idx = input("idx", I, {5});
    Tensor onehot = eq(reshape(arange(9), {1, 9}), reshape(idx, {5, 1}));
    Tensor out = sum(where(onehot, m, fconst(0)), {1});
    EXPECT_EQ(rewrites_in(out), 1);
    expect_same_numbers(out, {{"m", floats({5, 9}, 2)}, {"idx", ints({5}, {0, 8, 4, -3, 9})}});
}

TEST(OneHotGather, FiresOnTheFirstAxisWithAnIntegerTable) {
    // out[j] = A[sel[j], j], summing over axis 0, int32 values.
    Tensor a = input("a", I, {6, 4}), sel = input("sel", I, {4});
    Tensor onehot = eq(sel, reshape(arange(6), {6, 1}));   // arange on the right-hand side
    Tensor out = sum(where(onehot, a, iconst(0)), {0});
    EXPECT_EQ(rewrites_in(out), 1);
    Array av(I, {6, 4});
    for (int k = 0; k < 24; ++k) av.set(k, k * 3 - 20);
    expect_same_numbers(out, {{"a", av}, {"sel", ints({4}, {5, 0, 2, 6})}});
}

TEST(OneHotGather, DoesNotFireWhenTheComparedTensorIsNotTheCoordinate) {
    Tensor m = input("m", F, {5, 9}), idx = input("idx", I, {5, 1});
    Tensor doubled = mul(reshape(arange(9), {1, 9}), iconst(2));              // 2*v, not v
    Tensor shifted = reshape(slice(arange(10), 0, 1, 10), {1, 9});             // v + 1
    Tensor wrong_axis = expand(reshape(arange(5), {5, 1}), {5, 9});            // the row, not v
    for (const Tensor &p : {doubled, shifted, wrong_axis}) {
        EXPECT_EQ(rewrites_in(sum(where(eq(p, idx), m, fconst(0)), {1})), 0);
    }
}

TEST(OneHotGather, DoesNotFireWhenTheSelectorDependsOnTheSummedAxis) {
    Tensor m = input("m", F, {5, 9}), e = input("e", I, {5, 9});
    EXPECT_EQ(rewrites_in(sum(where(eq(reshape(arange(9), {1, 9}), e), m, fconst(0)), {1})), 0);
}

TEST(OneHotGather, DoesNotFireOnOtherReductionsOrNonZeroElse) {
    Tensor m = input("m", F, {5, 9}), idx = input("idx", I, {5, 1});
    Tensor onehot = eq(reshape(arange(9), {1, 9}), idx);
    EXPECT_EQ(rewrites_in(sum(where(onehot, m, fconst(1)), {1})), 0);          // else branch is 1
    EXPECT_EQ(rewrites_in(max(where(onehot, m, fconst(0)), {1})), 0);          // a max, not a sum
    EXPECT_EQ(rewrites_in(where(eq(iconst(2), index_components({3, 3})), iconst(2), iconst(3))), 0);   // no reduction
}

}  // namespace
}  // namespace halogen
