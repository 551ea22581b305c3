// Linear layer: out[..., o] = sum_i x[..., i] * W[o, i] + b[o]   (x @ W^T + b, like torch).
#pragma once

#include "frontend/node.h"

namespace halogen::nn {

// x: [..., in]; weight: [out, in]; bias: [out] or Tensor() for none. Returns [..., out].
Tensor linear(const Tensor &x, const Tensor &weight, const Tensor &bias = Tensor());

}  // namespace halogen::nn
