// RMSNorm: out = x * recip(sqrt(mean(x * x, {-1}, keepdim) + eps)) * weight.
// The per-row factor 1 / sqrt(var + eps) is the node names::kNormScale, computed once per row by schedules.
#include "frontend/nn/rms_norm.h"

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"

namespace halogen::nn {

Tensor rms_norm(const Tensor &x, const Tensor &weight, const Scalar &eps) {
    if (x.rank() < 1 || (weight.defined() && (weight.rank() != 1 || weight.shape()[0] != x.shape().back()))) {
        throw ShapeError(fmt::format("rms_norm: x {} does not fit weight {}", shape_str(x.shape()),
                                     weight.defined() ? shape_str(weight.shape()) : std::string("none")));
    }
    Tensor y = mul(x, named(recip(sqrt(add(mean(square(x), {-1}, true), eps.value))), names::kNormScale));
    return weight.defined() ? mul(y, weight) : y;
}

}  // namespace halogen::nn
