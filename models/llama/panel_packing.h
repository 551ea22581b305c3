// One panel of a projection's weight, as the llama layer's kernels read it: 32 rows of K values
// side by side, dst[k * 32 + i] = rows[i][k] (nn::pack_panels). The copy is a transpose of 32 x K,
// done 8 x 8 (bfloat16 bits) or 4 x 4 (float32) elements at a time in SSE2 registers, which every
// x86-64 CPU has, a cache line of each row at a time; where SSE2 is missing, and for a K that is
// not a multiple of the block, element by element. Loading the 1B spends a third of its time here
// (perf/notes.md).
#pragma once

#include <cstdint>

namespace halogen {

constexpr int64_t kPanelRows = 32;

void pack_panel(const float *const *rows, float *dst, int64_t K);
void pack_panel(const uint16_t *const *rows, uint16_t *dst, int64_t K);

}  // namespace halogen
