// Group normalization of x [N, C, ...]: the C channels form `groups` groups of C/groups channels;
// each (sample, group) is normalized over its channels and spatial positions (biased variance),
// then scaled per channel:  out[n, c, ...] = (x - mu[n, g(c)]) / sqrt(var[n, g(c)] + eps) * w[c] + b[c]
#pragma once

#include <cstdint>

#include "frontend/node.h"

namespace halogen::nn {

// C must be a constant divisible by groups (ShapeError otherwise). weight, bias: [C] or Tensor().
Tensor group_norm(const Tensor &x, int64_t groups, const Tensor &weight = Tensor(), const Tensor &bias = Tensor(),
                  double eps = 1e-5);

}  // namespace halogen::nn
