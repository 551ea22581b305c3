// How the llama parts' groups are scheduled: the one-hot rewrite (the embedding becomes a gather),
// then one schedule per group, chosen by what the group computes.
#pragma once

#include "halide_gen/compiler/recipe.h"

namespace halogen {

Recipe llama_recipe();

}  // namespace halogen
