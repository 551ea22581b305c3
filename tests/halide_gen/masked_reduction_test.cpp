// A reduction over where(mask, x, identity) is lowered with the mask as its domain: the loop over
// the reduced axis stops where a causal mask ends, and what x reads there is neither computed nor
// asked for. Its values are checked against the interpreter in ops_jit_test.cpp.
#include <limits>
#include <regex>

#include <gtest/gtest.h>

#include "frontend/halogen.h"
#include "halide_gen/compiler/loop_nest.h"

namespace halogen {
namespace {

const DType F = DType::Float32, I = DType::Int32;

// keep[t, s] = s <= t + 2 over x [T, T + 2]: the causal mask of T queries at the end of a cache.
Tensor causal_keep(const Dim &T) {
    return le(reshape(arange(T + Dim(2)), {Dim(1), T + Dim(2)}), add(reshape(arange(T), {T, Dim(1)}), dim_const(Dim(2), I)));
}

// The extents of the reduction loops in the lowered statement, each with the bound Halide
// tightened it to when it did: "new_max.s + 2 where new_max.s = min(a0 + 1, T)", a0 the row.
std::vector<std::string> reduction_extents(const Tensor &out) {
    const LoopNest nest = loop_nest(lower(Graph({out})));
    std::vector<std::string> extents;
    const std::regex loop(R"(for \([^,]*_r\$x, 0, ([^\n]*)\) \{)");
    const std::regex tightened(R"(let [^ ]*new_max\.s = ([^\n]*))");
    std::smatch bound;
    // The output's row loop "<func>.s0.a0" reads as a0.
    const std::string where = std::regex_search(nest.stmt, bound, tightened)
                                  ? " where new_max.s = " + std::regex_replace(bound[1].str(), std::regex(R"([^ (]*\.s0\.a0)"), "a0")
                                  : "";
    for (std::sregex_iterator it(nest.stmt.begin(), nest.stmt.end(), loop), end; it != end; ++it) {
        const std::string extent = (*it)[1];
        extents.push_back(std::regex_replace(extent, std::regex(R"([^ ]*new_max\.s)"), "new_max.s") +
                          (extent.find("new_max") != std::string::npos ? where : ""));
    }
    return extents;
}

TEST(MaskedReduction, CausalSumLoopsOnlyOverVisibleKeys) {
    const Dim T = Dim::sym("T");
    const Tensor x = input("x", F, {T, T + Dim(2)});
    // Row a0 sums keys 0 .. a0 + 2, not x's T + 2.
    EXPECT_EQ(reduction_extents(reduce_sum(where(causal_keep(T), x, fconst(0)), {1})),
              std::vector<std::string>{"new_max.s + 2 where new_max.s = min(a0 + 1, T)"});
}

TEST(MaskedReduction, CausalMaxWithLowestMaskLoopsOnlyOverVisibleKeys) {
    const Dim T = Dim::sym("T");
    const Tensor x = input("x", F, {T, T + Dim(2)});
    const Tensor masked = where(causal_keep(T), x, fconst(-std::numeric_limits<double>::infinity()));
    EXPECT_EQ(reduction_extents(reduce_max(masked, {1})),
              std::vector<std::string>{"new_max.s + 2 where new_max.s = min(a0 + 1, T)"});
}

TEST(MaskedReduction, AnotherMaskedValueKeepsTheWholeAxis) {
    // where(keep, x, 1) is not the sum's identity: every key is summed, as written.
    const Dim T = Dim::sym("T");
    const Tensor x = input("x", F, {T, T + Dim(2)});
    const std::vector<std::string> extents = reduction_extents(reduce_sum(where(causal_keep(T), x, fconst(1)), {1}));
    ASSERT_EQ(extents.size(), 1u);
    EXPECT_EQ(extents[0].find("new_max"), std::string::npos) << extents[0];
}

}  // namespace
}  // namespace halogen
