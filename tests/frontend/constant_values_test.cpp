// frontend/constant_values.h: which nodes are constants, and their folded values, checked against
// values worked out by hand (IEEE float arithmetic, ops.h's meaning of each op).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "frontend/constant_values.h"
#include "frontend/halogen.h"

namespace halogen {
namespace {

const double kInf = std::numeric_limits<double>::infinity();

TEST(ConstantValues, FoldsElementwiseOpsAndViewsOfConstants) {
    Tensor two = fconst(2.0);
    Tensor sum = add(two, fconst(0.5));                      // 2.5
    Tensor grown = expand(reshape(sum, {1, 1}), {3, 4});      // views keep the value
    Tensor cmp = lt(grown, fconst(3.0));                      // true
    Tensor pick = where(cmp, fconst(-1.0), fconst(7.0));      // -1
    Tensor x = input("x", DType::Float32, {3, 4});
    Tensor mixed = add(x, pick);                              // reads an input: not a constant
    Graph g({mixed});
    auto known = constant_values(g);
    EXPECT_EQ(known.at(sum.get()), 2.5);
    EXPECT_EQ(known.at(grown.get()), 2.5);
    EXPECT_EQ(known.at(cmp.get()), 1.0);
    EXPECT_EQ(known.at(pick.get()), -1.0);
    EXPECT_EQ(known.count(x.get()), 0u);
    EXPECT_EQ(known.count(mixed.get()), 0u);
    EXPECT_FALSE(has_non_finite_constant(g));
}

TEST(ConstantValues, LeavesOutPadsDimValuesAndReductions) {
    Tensor c = expand(reshape(fconst(1.0), {1}), {4});
    Tensor padded = pad(c, {1}, {1}, 0.0);                     // 0 at the edges, 1 inside
    Tensor summed = sum(c, {0});                               // a reduction: computed, not folded
    Tensor n = dim_const(Dim::sym("N"), DType::Int32);              // known only once N is bound
    Graph g({padded, summed, n});
    auto known = constant_values(g);
    EXPECT_EQ(known.count(padded.get()), 0u);
    EXPECT_EQ(known.count(summed.get()), 0u);
    EXPECT_EQ(known.count(n.get()), 0u);
    EXPECT_EQ(known.at(c.get()), 1.0);
}

TEST(ConstantValues, FindsInfAndNaNFoldedFromFiniteConstants) {
    Tensor zero = fconst(0.0);
    Tensor l = log2(zero), r = recip(zero), s = sqrt(fconst(-1.0)), e = exp2(fconst(200.0));
    Tensor big = mul(fconst(1e30), fconst(1e30));              // overflows float32
    Graph g({l, r, s, e, big});
    auto known = constant_values(g);
    EXPECT_EQ(known.at(l.get()), -kInf);
    EXPECT_EQ(known.at(r.get()), kInf);
    EXPECT_TRUE(std::isnan(known.at(s.get())));
    EXPECT_EQ(known.at(e.get()), kInf);
    EXPECT_EQ(known.at(big.get()), kInf);
    EXPECT_TRUE(has_non_finite_constant(g));
    EXPECT_FALSE(has_non_finite_constant(Graph({recip(fconst(4.0))})));
}

}  // namespace
}  // namespace halogen
