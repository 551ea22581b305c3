// Panels packed by blocked transposes (models/llama/panel_packing.h) against the definition,
// dst[k * 32 + i] = rows[i][k], element by element: float32 and bfloat16 bits, for K a multiple of
// the blocks and a cache line, and K with a tail the blocks do not cover; rows anywhere in memory
// (unaligned).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "models/llama/panel_packing.h"

namespace {

using halogen::kPanelRows;

template <typename T> void expect_packed_as_defined(int64_t K, uint32_t seed) {
    std::mt19937 rng(seed);
    // Rows at odd element offsets of one buffer, so no row starts on a vector boundary.
    std::vector<T> source(size_t(kPanelRows * (K + 3) + 1));
    for (T &v : source) v = T(rng() % 60000);
    const T *rows[kPanelRows];
    for (int64_t i = 0; i < kPanelRows; ++i) rows[i] = source.data() + 1 + i * (K + 3);
    std::vector<T> got(size_t(kPanelRows * K), T(-1));
    halogen::pack_panel(rows, got.data(), K);
    for (int64_t k = 0; k < K; ++k) {
        for (int64_t i = 0; i < kPanelRows; ++i) ASSERT_EQ(got[size_t(k * kPanelRows + i)], rows[i][k]) << "K " << K << " k " << k << " i " << i;
    }
}

TEST(PanelPacking, IsTheDefinitionForEveryK) {
    for (int64_t K : {1, 3, 4, 7, 8, 15, 16, 31, 32, 33, 40, 96, 100, 2048, 2051}) {
        expect_packed_as_defined<float>(K, uint32_t(K));
        expect_packed_as_defined<uint16_t>(K, uint32_t(K) + 1);
    }
}

}  // namespace
