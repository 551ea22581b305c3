// LayerNorm: mu = mean(x, last axes), xc = x - mu, var = mean(xc * xc), out = xc * recip(sqrt(var + eps)),
// then * weight and + bias (which broadcast over the leading axes). Only mean/sub/mul/sqrt/recip.
// The per-row factor 1 / sqrt(var + eps) is the node names::kNormScale, computed once per row by schedules.
#include "frontend/nn/layer_norm.h"

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"

namespace halogen::nn {

Tensor layer_norm(const Tensor &x, int normalized_ndim, const Tensor &weight, const Tensor &bias, const Scalar &eps) {
    if (normalized_ndim < 1 || normalized_ndim > x.rank()) {
        throw ShapeError(fmt::format("layer_norm: cannot normalize the last {} axes of {}", normalized_ndim,
                                     shape_str(x.shape())));
    }
    const Shape tail(x.shape().end() - normalized_ndim, x.shape().end());
    for (const Tensor *p : {&weight, &bias}) {
        if (p->defined() && p->shape() != tail) {
            throw ShapeError(fmt::format("layer_norm: weight/bias {} must have shape {} (x {})",
                                         shape_str(p->shape()), shape_str(tail), shape_str(x.shape())));
        }
    }
    std::vector<int> axes;
    for (int k = x.rank() - normalized_ndim; k < x.rank(); ++k) axes.push_back(k);
    Tensor xc = sub(x, mean(x, axes, true));
    Tensor var = mean(square(xc), axes, true);
    Tensor y = mul(xc, named(recip(sqrt(add(var, eps.value))), names::kNormScale));
    if (weight.defined()) y = mul(y, weight);
    if (bias.defined()) y = add(y, bias);
    return y;
}

}  // namespace halogen::nn
