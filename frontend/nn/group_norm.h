// Group normalization of x [N, C, ...]: the C channels form `groups` groups of C/groups channels;
// each (sample, group) is normalized over its channels and spatial positions (biased variance),
// then scaled per channel:  out[n, c, ...] = (x - mu[n, g(c)]) / sqrt(var[n, g(c)] + eps) * w[c] + b[c]
#pragma once

#include <cstdint>

#include "frontend/nn/norm_scale.h"
#include "frontend/nn/scalar.h"
#include "frontend/node.h"

namespace halogen::nn {

namespace ops {
// What a family built on group_norm() or group_norm_grouped() computes (its Family::op).
inline constexpr char kGroupNorm[] = "nn.group_norm";
}  // namespace ops

// C must be divisible by groups: a constant, or a multiple such as 32*CG (ShapeError otherwise).
// weight, bias: [C] or Tensor().
Tensor group_norm(const Tensor &x, int64_t groups, const Tensor &weight = Tensor(), const Tensor &bias = Tensor(),
                  const Scalar &eps = 1e-5);

// The same on channels already split into groups: xg [N, G, C/G, ...], weight, bias [G, C/G] or
// Tensor(); returns [N, G, C/G, ...]. Every index is affine in the grouped layout, so the grouping
// pass fuses it into one kernel even when C/G is symbolic (docs/grouping.md).
Tensor group_norm_grouped(const Tensor &xg, const Tensor &weight = Tensor(), const Tensor &bias = Tensor(),
                          const Scalar &eps = 1e-5);

}  // namespace halogen::nn
