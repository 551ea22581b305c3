// What one forward step of a llama model costs, counted from its config: the weight bytes and KV
// cache bytes it reads and the floating-point operations it does. `halogen llama bench`
// divides them by the machine's limits for the step's bounds: decode by the read bandwidth,
// prefill by the FMA peak.
//
// A step of T tokens at positions p0 ... p0+T-1 reads every layer's matrices and norm weights once,
// the final norm and the head once (the head runs for the last position only), and T rows of the
// embedding; and every layer's cached keys and values (float32) for the p0 + T positions its last
// token sees, at long contexts a good part of a decoded token's reads. Its operations are 2 per
// multiply-add: T x (every layer's matrices) + the head, plus attention's q.k and p.v over the
// positions each token sees, 4 x H x d x (p + 1) per token and layer. Elementwise work is left
// out: norms, RoPE and SiLU are O(T x D), not O(T x D^2), and the softmax's exp is one per score
// (H x (p + 1) per token and layer, a d-th of q.k's operations, though not an FMA).
#pragma once

#include <cstdint>

#include "models/llama/llama_config.h"

namespace halogen {

struct LlamaStepCost {
    double weight_bytes = 0;   // bytes of weights read
    double cache_bytes = 0;    // bytes of the KV cache read: every layer's keys and values, p0 + T positions
    double flops = 0;          // floating-point operations, 2 per multiply-add
};

// `weight_bytes_each` is the kernels' weight element size (4 for float32, 2 for bfloat16).
LlamaStepCost llama_step_cost(const LlamaConfig &c, int64_t weight_bytes_each, int64_t tokens, int64_t start);

// Elements of one layer's matrices (q, k, v, o, gate, up, down).
int64_t llama_layer_matrix_elements(const LlamaConfig &c);

}  // namespace halogen
