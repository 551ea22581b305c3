// BatchNorm: per-channel vectors [C] are reshaped to [C, 1, ..., 1] so they broadcast against
// x [N, C, L...]; then out = (x - mean) * recip(sqrt(var + eps)) * w + b. Training mode takes
// mean = mean(x, all axes but 1, keepdim) and var = mean((x - mean)^2, same axes).
// The per-channel factor 1 / sqrt(var + eps) is the node names::kNormScale, computed once per channel by schedules.
#include "frontend/nn/batch_norm.h"

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen::nn {

namespace {

// A [C] vector as [C, 1, ..., 1], broadcastable against x [N, C, ...]; ShapeError if not [C].
Tensor per_channel(const Tensor &v, const Tensor &x, const char *what) {
    if (v.rank() != 1 || v.shape()[0] != x.shape()[1]) {
        throw ShapeError(fmt::format("batch_norm: {} must have shape [{}], got {} (x {})", what,
                                     x.shape()[1].str(), shape_str(v.shape()), shape_str(x.shape())));
    }
    Shape s(x.rank() - 1, Dim(1));
    s[0] = v.shape()[0];
    return reshape(v, s);
}

void check_x(const Tensor &x) {
    if (x.rank() < 2) {
        throw ShapeError(fmt::format("batch_norm: x must be [N, C, ...], got {}", shape_str(x.shape())));
    }
}

Tensor normalize(const Tensor &x, const Tensor &mu, const Tensor &var, const Tensor &weight, const Tensor &bias,
                 const Scalar &eps) {
    Tensor y = mul(sub(x, mu), named(recip(sqrt(add(var, eps.value))), names::kNormScale));
    if (weight.defined()) y = mul(y, per_channel(weight, x, "weight"));
    if (bias.defined()) y = add(y, per_channel(bias, x, "bias"));
    return y;
}

}  // namespace

Tensor batch_norm_inference(const Tensor &x, const Tensor &running_mean, const Tensor &running_var,
                            const Tensor &weight, const Tensor &bias, const Scalar &eps) {
    check_x(x);
    return normalize(x, per_channel(running_mean, x, "running_mean"), per_channel(running_var, x, "running_var"),
                     weight, bias, eps);
}

Tensor batch_norm_training(const Tensor &x, const Tensor &weight, const Tensor &bias, const Scalar &eps) {
    check_x(x);
    std::vector<int> axes = {0};
    for (int k = 2; k < x.rank(); ++k) axes.push_back(k);
    Tensor mu = mean(x, axes, true);
    Tensor var = mean(square(sub(x, mu)), axes, true);
    return normalize(x, mu, var, weight, bias, eps);
}

}  // namespace halogen::nn
