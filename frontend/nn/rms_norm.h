// RMS normalization over the last axis:  out = x * 1 / sqrt(mean(x^2) + eps) * w
#pragma once

#include "frontend/nn/norm_scale.h"
#include "frontend/nn/scalar.h"
#include "frontend/node.h"

namespace halogen::nn {

namespace ops {
// What a family built on rms_norm() computes (its Family::op).
inline constexpr char kRmsNorm[] = "nn.rms_norm";
}  // namespace ops

// x: [..., D]; weight: [D] or Tensor() for none.
Tensor rms_norm(const Tensor &x, const Tensor &weight = Tensor(), const Scalar &eps = 1e-6);

}  // namespace halogen::nn
