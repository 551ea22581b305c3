// The embedding family: out[t..., d] = weight[ids[t...], d], written as Caten and tinygrad write
// it -- a one-hot reduction over the vocabulary (frontend/nn/embedding.h) -- with the schedules
// that turn it from O(T*V*D) into a gather.
#pragma once

#include "halide_gen/compiler/lower.h"
#include "schedules/family.h"

namespace halogen::embedding {

Family family();

// Hand schedules (schedules.cpp).
void onehot(LoweredGraph &lg, const Halide::Target &target);
void onehot_permuted(LoweredGraph &lg, const Halide::Target &target);
void onehot_inline(LoweredGraph &lg, const Halide::Target &target);
void gather(LoweredGraph &lg, const Halide::Target &target);

}  // namespace halogen::embedding
