// Reshape segmentation: which input axes feed which output axes.
#include <gtest/gtest.h>

#include "frontend/reshape_segments.h"

namespace halogen {
namespace {

std::vector<std::vector<int>> flat(const std::optional<std::vector<ReshapeSegment>> &s) {
    std::vector<std::vector<int>> out;
    for (const auto &x : *s) out.push_back({x.in_begin, x.in_end, x.out_begin, x.out_end});
    return out;
}

TEST(ReshapeSegments, SplitsAndMerges) {
    auto s = reshape_segments({2, 12, 5}, {2, 3, 4, 5});
    ASSERT_TRUE(s);
    EXPECT_EQ(flat(s), (std::vector<std::vector<int>>{{0, 1, 0, 1}, {1, 2, 1, 3}, {2, 3, 3, 4}}));
    s = reshape_segments({4, 6}, {3, 8});   // 4*6 = 3*8 with no common prefix: one segment
    ASSERT_TRUE(s);
    EXPECT_EQ(flat(s), (std::vector<std::vector<int>>{{0, 2, 0, 2}}));
}

TEST(ReshapeSegments, UnitAxesCarryNoIndex) {
    const Dim S = Dim::sym("S");
    auto s = reshape_segments({S, 30}, {1, S, 30});
    ASSERT_TRUE(s);
    EXPECT_EQ(flat(s), (std::vector<std::vector<int>>{{0, 1, 1, 2}, {1, 2, 2, 3}}));
    s = reshape_segments({}, {1, 1});
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->empty());
}

TEST(ReshapeSegments, SymbolicMergeIsOneSegment) {
    const Dim B = Dim::sym("B"), S = Dim::sym("S");
    auto s = reshape_segments({B, S, 7}, {B * S, 7});
    ASSERT_TRUE(s);
    EXPECT_EQ(flat(s), (std::vector<std::vector<int>>{{0, 2, 0, 1}, {2, 3, 1, 2}}));
}

TEST(ReshapeSegments, SymbolicProductsThatNeverMeet) {
    const Dim B = Dim::sym("B"), S = Dim::sym("S");
    EXPECT_FALSE(reshape_segments({B, S}, {S, B}));
}

}  // namespace
}  // namespace halogen
