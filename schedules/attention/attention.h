// The attention family: causal grouped-query attention of T queries over a KV cache of S positions
// (frontend/nn/attention.h), q [T, H, D] -> out [T, H*D], with the cache head-major, k and v
// [G, S, D] (docs/schedules.md says why). The queries sit at the cache's last T positions (p0 = S - T).
#pragma once

#include "halide_gen/compiler/lower.h"
#include "schedules/family.h"

namespace halogen::attention {

Family family();

// Hand schedules (schedules.cpp).
void naive(LoweredGraph &lg, const Halide::Target &target);
void fused(LoweredGraph &lg, const Halide::Target &target);
void decode(LoweredGraph &lg, const Halide::Target &target);

}  // namespace halogen::attention
