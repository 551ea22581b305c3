// The attention family: causal grouped-query attention of T queries over a KV cache of S positions
// (frontend/nn/attention.h), q [T, H, D] -> out [T, H*D], with the cache head-major, k and v
// [G, S, D] (docs/families/attention.md says why). The queries sit at the cache's last T positions (p0 = S - T).
#pragma once

#include <cstdint>

#include "halide_gen/compiler/lower.h"
#include "schedules/family.h"

namespace halogen::attention {

Family family();

// Hand schedules (schedules.cpp).
void naive(LoweredGraph &lg, const Halide::Target &target);
void fused(LoweredGraph &lg, const Halide::Target &target);
void decode(LoweredGraph &lg, const Halide::Target &target);

// Whether `decode` runs a step of T queries over S cache positions and G KV heads faster than
// `fused` on `threads` threads: one query (a decode step), at least twice as many threads as KV
// heads (`fused` has a task per KV head, so the other threads sit idle; `decode` keeps them all
// busy but takes up to 1.6x `fused`'s time per thread), and at least kDecodeMinPositions
// positions (below them the keys make too few chunks of work for the phases `decode` adds to
// pay). perf/notes.md has the measurements.
constexpr int64_t kDecodeMinPositions = 2048;
bool decode_is_faster(int64_t T, int64_t S, int64_t G, int threads);

}  // namespace halogen::attention
