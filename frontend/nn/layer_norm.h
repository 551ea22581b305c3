// Layer normalization over the last `normalized_ndim` axes (biased variance, like torch):
//   mu = mean(x), var = mean((x - mu)^2), out = (x - mu) / sqrt(var + eps) * w + b
#pragma once

#include "frontend/nn/norm_scale.h"
#include "frontend/nn/scalar.h"
#include "frontend/node.h"

namespace halogen::nn {

namespace ops {
// What a family built on layer_norm() computes (its Family::op).
inline constexpr char kLayerNorm[] = "nn.layer_norm";
}  // namespace ops

// weight and bias are shaped like the last normalized_ndim axes of x, or Tensor() for none.
Tensor layer_norm(const Tensor &x, int normalized_ndim, const Tensor &weight = Tensor(),
                  const Tensor &bias = Tensor(), const Scalar &eps = 1e-5);

}  // namespace halogen::nn
