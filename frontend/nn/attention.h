// Causal grouped-query attention over a KV cache, from primitives (as torch's
// scaled_dot_product_attention with is_causal over a cache, repeated KV heads):
//   q [T, G, R, D]   query t sits at position p0 + t, with p0 = S - T (the cache ends at the last
//                    query's position); query head h = g*R + r reads KV head g (R = H / G)
//   k, v [G, S, D]   the cache, head-major: each KV head's S positions contiguous (a model writes
//                    a step's T rows of each head at positions p0 ... p0+T-1)
//   scores[t, g, r, s] = (q[t, g, r, :] . k[s, g, :]) / sqrt(D), clamped to [-1e37, 1e37]
//   visible(t, s)      = s <= p0 + t                                          (the causal mask)
//   e[t, g, r, s]      = exp(scores - max over visible s)
//   out[t, g, r, :]    = (sum over visible s of e[t, g, r, s] * v[s, g, :])
//                        / (sum over visible s of e[t, g, r, s])                 -> [T, G, R, D]
// The clamp keeps a score that overflowed to +-inf finite (no inf - inf in the softmax). Each of
// the three reductions over s reads where(visible, x, its identity) (-inf for the max, 0 for the
// sums): the lowering then loops over the visible keys only, so a causal prefill computes no score,
// exp or product of a masked key (halide_gen/compiler/lower.cpp, masked reductions).
//
// The nodes are named for hand schedules (names:: below). The division by the row's sum comes
// after the sum over s, once per output rather than once per key (torch's softmax divides first:
// the two differ by rounding).
#pragma once

#include "frontend/node.h"

namespace halogen::nn {

namespace ops {
// What a family built on attention() computes (its Family::op).
inline constexpr char kAttention[] = "nn.attention";
}  // namespace ops

namespace names {
inline constexpr char kAttnScores[] = "attn_scores";     // q.k, [T, G, R, S, 1] before the reduced axis is dropped
inline constexpr char kAttnLogits[] = "attn_logits";     // the scaled and clamped scores, [T, G, R, S]
inline constexpr char kAttnMax[] = "attn_max";           // the softmax's row maximum, [T, G, R, 1]
inline constexpr char kAttnExp[] = "attn_exp";           // unnormalized probabilities (only visible keys are read)
inline constexpr char kAttnSum[] = "attn_sum";           // the softmax's row sum, [T, G, R, 1]
inline constexpr char kAttnInvSum[] = "attn_inv_sum";    // 1 / attn_sum, which scales a row's output
inline constexpr char kAttnOut[] = "attn_out";           // the sum over s of e * v, [T, G, R, 1, D]
}  // namespace names

// ShapeError when the shapes do not fit together; DTypeError unless all are float32.
Tensor attention(const Tensor &q, const Tensor &k, const Tensor &v);

}  // namespace halogen::nn
