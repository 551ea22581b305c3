// Embedding lookup as a one-hot reduction:
//   out[t..., d] = sum_v (ids[t...] == v ? W[v, d] : 0)
// so an id outside [0, V) selects no row and gives a zero row.
#pragma once

#include "frontend/node.h"

namespace halogen::nn {

namespace ops {
// What a family built on embedding() computes (its Family::op).
inline constexpr char kEmbedding[] = "nn.embedding";
}  // namespace ops

namespace names {
// Named for schedules: the comparison ids == v, [..., V, 1], and the sum over v, [..., 1, D].
inline constexpr char kEmbeddingOneHot[] = "embedding_one_hot";
inline constexpr char kEmbeddingSum[] = "embedding_sum";
}  // namespace names

// ids: int32 [...]; weight: [V, D]. Returns [..., D] with weight's dtype.
Tensor embedding(const Tensor &ids, const Tensor &weight);

}  // namespace halogen::nn
