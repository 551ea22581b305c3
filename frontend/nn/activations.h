// Activations, elementwise unless noted:
//   relu(x)    = max(x, 0)
//   sigmoid(x) = 1 / (1 + exp(-x))
//   tanh(x)    = 2 * sigmoid(2x) - 1
//   gelu(x)    = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   (torch gelu(approximate='tanh'))
//   silu(x)    = x * sigmoid(x)
//   softmax(x, axis) = exp(x - max) / sum(exp(x - max))   along `axis`
#pragma once

#include "frontend/node.h"

namespace halogen::nn {

Tensor relu(const Tensor &x);
Tensor sigmoid(const Tensor &x);
Tensor tanh(const Tensor &x);
Tensor gelu(const Tensor &x);
Tensor silu(const Tensor &x);
Tensor softmax(const Tensor &x, int axis = -1);

}  // namespace halogen::nn
