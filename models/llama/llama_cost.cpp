// A llama step's weight bytes and operations (llama_cost.h).
#include "models/llama/llama_cost.h"

namespace halogen {

int64_t llama_layer_matrix_elements(const LlamaConfig &c) {
    const int64_t D = c.hidden_size, I = c.intermediate_size, d = c.head_dim;
    const int64_t q = c.num_attention_heads * d, kv = c.num_key_value_heads * d;
    return D * (q + 2 * kv) + q * D + 3 * D * I;
}

LlamaStepCost llama_step_cost(const LlamaConfig &c, int64_t weight_bytes_each, int64_t tokens, int64_t start) {
    const double D = double(c.hidden_size), L = double(c.num_hidden_layers), V = double(c.vocab_size);
    const double layer = double(llama_layer_matrix_elements(c));
    LlamaStepCost cost;
    const double elements = L * (layer + 2 * D) + D + V * D + double(tokens) * D;   // layers, final norm, head, embedding rows
    cost.weight_bytes = elements * double(weight_bytes_each);
    const double kv_row = double(c.num_key_value_heads) * double(c.head_dim) * sizeof(float);
    cost.cache_bytes = L * 2.0 * kv_row * double(start + tokens);
    // Keys each token sees: p + 1 for p in [start, start + tokens).
    const double seen = double(tokens) * double(start) + double(tokens) * double(tokens + 1) / 2;
    const double attention = 4.0 * double(c.num_attention_heads) * double(c.head_dim) * seen;
    cost.flops = L * (2.0 * double(tokens) * layer + attention) + 2.0 * V * D;
    return cost;
}

}  // namespace halogen
