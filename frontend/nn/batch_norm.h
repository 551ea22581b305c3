// Batch normalization of x [N, C, ...] per channel c:
//   out[n, c, ...] = (x[n, c, ...] - mean[c]) / sqrt(var[c] + eps) * w[c] + b[c]
// Inference uses the running statistics; training uses the batch statistics over every axis but 1
// (biased variance, as torch's F.batch_norm(training=True) normalizes).
#pragma once

#include "frontend/nn/norm_scale.h"
#include "frontend/nn/scalar.h"
#include "frontend/node.h"

namespace halogen::nn {

namespace ops {
// What a family built on batch_norm_inference() computes (its Family::op).
inline constexpr char kBatchNormInference[] = "nn.batch_norm_inference";
}  // namespace ops

// running_mean, running_var, weight, bias: [C]; weight and bias may be Tensor() for none.
Tensor batch_norm_inference(const Tensor &x, const Tensor &running_mean, const Tensor &running_var,
                            const Tensor &weight = Tensor(), const Tensor &bias = Tensor(), const Scalar &eps = 1e-5);
Tensor batch_norm_training(const Tensor &x, const Tensor &weight = Tensor(), const Tensor &bias = Tensor(),
                           const Scalar &eps = 1e-5);

}  // namespace halogen::nn
