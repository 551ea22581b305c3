// GroupNorm (C a multiple of G, possibly symbolic: 32*CG): reshape x [N, C, L...] -> [N, G, C/G, L...], take mean and biased variance over every
// axis after G (keepdim), normalize, reshape back to [N, C, L...], then * w[C, 1..] + b[C, 1..].
#include "frontend/nn/group_norm.h"

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen::nn {

Tensor group_norm(const Tensor &x, int64_t groups, const Tensor &weight, const Tensor &bias, double eps) {
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
    Shape per_c(x.rank() - 1, Dim(1));
    per_c[0] = C;
    for (const Tensor *p : {&weight, &bias}) {
        if (p->defined() && (p->rank() != 1 || p->shape()[0] != C)) {
            throw ShapeError(fmt::format("group_norm: weight/bias must have shape [{}], got {} (x {})", C.str(),
                                         shape_str(p->shape()), shape_str(x.shape())));
        }
    }
    Shape grouped = {x.shape()[0], Dim(groups), *per_group};
    grouped.insert(grouped.end(), x.shape().begin() + 2, x.shape().end());
    std::vector<int> axes;
    for (int k = 2; k < int(grouped.size()); ++k) axes.push_back(k);
    Tensor xg = reshape(x, grouped);
    Tensor xc = sub(xg, mean(xg, axes, true));
    Tensor var = mean(square(xc), axes, true);
    Tensor y = reshape(mul(xc, recip(sqrt(add(var, fconst(eps))))), x.shape());
    if (weight.defined()) y = mul(y, reshape(weight, per_c));
    if (bias.defined()) y = add(y, reshape(bias, per_c));
    return y;
}

}  // namespace halogen::nn
