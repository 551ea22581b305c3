// A llama step's weight bytes and operations (models/llama/llama_cost.h), counted by hand for the
// tiny preset: D 96, I 256, 2 layers, 6 query heads and 2 KV heads of 16, vocabulary 256, untied.
#include <gtest/gtest.h>

#include "models/llama/llama_config.h"
#include "models/llama/llama_cost.h"

namespace {

TEST(LlamaCost, CountsTheTinyPresetByHand) {
    const halogen::LlamaConfig c = halogen::llama_preset("tiny");
    // q 96x96 + k, v 32x96 each + o 96x96 + gate, up, down 256x96 each.
    EXPECT_EQ(halogen::llama_layer_matrix_elements(c), 9216 + 2 * 3072 + 9216 + 3 * 24576);
    // One token: the file's 295392 parameters less the embedding table (512 x 96), plus its row.
    const halogen::LlamaStepCost one = halogen::llama_step_cost(c, 4, 1, 0);
    EXPECT_DOUBLE_EQ(one.weight_bytes, (295392.0 - 49152 + 96) * 4);
    EXPECT_DOUBLE_EQ(halogen::llama_step_cost(c, 2, 1, 0).weight_bytes, (295392.0 - 49152 + 96) * 2);
    // Three tokens at positions 2, 3, 4 see 3 + 4 + 5 = 12 keys: per layer 2 x 3 x 98304 for the
    // matrices and 4 x 6 x 16 x 12 for attention; the head once, 2 x 512 x 96.
    const halogen::LlamaStepCost three = halogen::llama_step_cost(c, 4, 3, 2);
    EXPECT_DOUBLE_EQ(three.flops, 2 * (2.0 * 3 * 98304 + 4 * 6 * 16 * 12) + 2.0 * 512 * 96);
    EXPECT_DOUBLE_EQ(three.weight_bytes, one.weight_bytes + 2 * 96 * 4);   // two more embedding rows
    // The cache: 2 layers x keys and values x 2 KV heads x 16 floats, at the 1 and the 5 positions
    // the last token sees.
    EXPECT_DOUBLE_EQ(one.cache_bytes, 2 * 2 * 2 * 16 * 4 * 1.0);
    EXPECT_DOUBLE_EQ(three.cache_bytes, 2 * 2 * 2 * 16 * 4 * 5.0);
}

}  // namespace
