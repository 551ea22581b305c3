// Activations from primitives: relu = maximum(x, 0); sigmoid = recip(1 + exp(-x)) (exp is exp2 of a
// scaled input); tanh = 2 * sigmoid(2x) - 1; gelu and silu from tanh and sigmoid; softmax subtracts
// the max along the axis (reduce_max, keepdim) before exp, then multiplies by recip of the sum.
#include "frontend/nn/activations.h"

#include <cmath>

#include "frontend/derived.h"
#include "frontend/primitives.h"

namespace halogen::nn {

Tensor relu(const Tensor &x) { return maximum(x, x.dtype() == DType::Int32 ? iconst(0) : fconst(0)); }

Tensor sigmoid(const Tensor &x) { return recip(add(fconst(1), exp(neg(x)))); }

Tensor tanh(const Tensor &x) { return sub(mul(fconst(2), sigmoid(mul(fconst(2), x))), fconst(1)); }

Tensor gelu(const Tensor &x) {
    const double k = std::sqrt(2.0 / M_PI);
    Tensor inner = mul(fconst(k), add(x, mul(fconst(0.044715), mul(x, square(x)))));
    return mul(mul(fconst(0.5), x), add(fconst(1), nn::tanh(inner)));
}

Tensor silu(const Tensor &x) { return mul(x, sigmoid(x)); }

Tensor softmax(const Tensor &x, int axis) {
    Tensor e = exp(sub(x, max(x, {axis}, true)));
    return mul(e, recip(sum(e, {axis}, true)));
}

}  // namespace halogen::nn
