// GroupNorm: reshape x [N, C, L...] -> [N, G, C/G, L...] (C a multiple of G, possibly symbolic:
// 32*CG), take mean and biased variance over every axis after G (keepdim), normalize, scale by
// w and b viewed as [G, C/G], and reshape back to [N, C, L...].
// The per-group factor 1 / sqrt(var + eps) is the node names::kNormScale, computed once per group by schedules.
#include "frontend/nn/group_norm.h"

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen::nn {

Tensor group_norm_grouped(const Tensor &xg, const Tensor &weight, const Tensor &bias, const Scalar &eps) {
    if (xg.rank() < 3) {
        throw ShapeError(fmt::format("group_norm: grouped x must be [N, G, C/G, ...], got {}", shape_str(xg.shape())));
    }
    const Shape per_channel = {xg.shape()[1], xg.shape()[2]};
    for (const Tensor *p : {&weight, &bias}) {
        if (p->defined() && p->shape() != per_channel) {
            throw ShapeError(fmt::format("group_norm: grouped weight/bias must have shape {}, got {} (x {})",
                                         shape_str(per_channel), shape_str(p->shape()), shape_str(xg.shape())));
        }
    }
    Shape per_c(xg.rank() - 1, Dim(1));   // [G, C/G, 1...]: broadcast over N and the spatial axes
    per_c[0] = per_channel[0];
    per_c[1] = per_channel[1];
    std::vector<int> axes;
    for (int k = 2; k < xg.rank(); ++k) axes.push_back(k);
    Tensor xc = sub(xg, mean(xg, axes, true));
    Tensor var = mean(square(xc), axes, true);
    Tensor y = mul(xc, named(recip(sqrt(add(var, eps.value))), names::kNormScale));
    if (weight.defined()) y = mul(y, reshape(weight, per_c));
    if (bias.defined()) y = add(y, reshape(bias, per_c));
    return y;
}

Tensor group_norm(const Tensor &x, int64_t groups, const Tensor &weight, const Tensor &bias, const Scalar &eps) {
    if (x.rank() < 2) {
        throw ShapeError(fmt::format("group_norm: x must be [N, C, ...], got {}", shape_str(x.shape())));
    }
    const Dim C = x.shape()[1];
    const auto per_group = groups >= 1 ? C.divided_by(groups) : std::nullopt;
    if (!per_group) {
        throw ShapeError(fmt::format("group_norm: {} groups do not divide the channels of x {} (C must be a "
                                     "multiple of groups, e.g. 96 or 32*CG for 32 groups)",
                                     groups, shape_str(x.shape())));
    }
    for (const Tensor *p : {&weight, &bias}) {
        if (p->defined() && (p->rank() != 1 || p->shape()[0] != C)) {
            throw ShapeError(fmt::format("group_norm: weight/bias must have shape [{}], got {} (x {})", C.str(),
                                         shape_str(p->shape()), shape_str(x.shape())));
        }
    }
    const Shape per_channel = {Dim(groups), *per_group};
    Shape grouped = {x.shape()[0], Dim(groups), *per_group};
    grouped.insert(grouped.end(), x.shape().begin() + 2, x.shape().end());
    auto split = [&](const Tensor &p) { return p.defined() ? reshape(p, per_channel) : Tensor(); };
    return reshape(group_norm_grouped(reshape(x, grouped), split(weight), split(bias), eps), x.shape());
}

}  // namespace halogen::nn
