// The norms: LayerNorm and RMSNorm over the last axis, BatchNorm (inference) and GroupNorm over
// channels, each written with the nn layer (frontend/nn/), sharing their schedules.
#pragma once

#include "halide_gen/compiler/lower.h"
#include "schedules/family.h"

namespace halogen::norms {

Family layernorm();
Family rmsnorm();
Family batchnorm();
Family groupnorm();

// The fused schedule of every norm (schedules.cpp); `naive` is Halide's defaults, unfused.
void fused(LoweredGraph &lg, const Halide::Target &target);

}  // namespace halogen::norms
