// How the llama parts' groups are scheduled: the one-hot rewrite (the embedding becomes a gather),
// then one schedule per group, chosen by what the group computes. The attention group takes the
// attention family's `fused` schedule, or with `decode_attention` its `decode` one (the keys split
// across the threads: the model's program for one-token steps on machines with twice as many
// threads as KV heads).
#pragma once

#include "halide_gen/compiler/recipe.h"

namespace halogen {

Recipe llama_recipe(bool decode_attention = false);

}  // namespace halogen
