// RoPE from primitives: x viewed as [T, H, 2, D/2] (the two halves), both rotated halves computed
// from the half views and chosen per half with `where`, then viewed back as [T, H, D].
#include "frontend/nn/rope.h"

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen::nn {

Tensor rope(const Tensor &x, const Tensor &cos, const Tensor &sin) {
    const auto bad = [&](const std::string &why) {
        return ShapeError(fmt::format("rope: x {}, cos {}, sin {}: {}", shape_str(x.shape()), shape_str(cos.shape()),
                                      shape_str(sin.shape()), why));
    };
    if (x.dtype() != DType::Float32 || cos.dtype() != DType::Float32 || sin.dtype() != DType::Float32) {
        throw DTypeError(fmt::format("rope: x, cos and sin must be float32, got {}, {}, {}", dtype_name(x.dtype()),
                                     dtype_name(cos.dtype()), dtype_name(sin.dtype())));
    }
    if (x.rank() != 3) throw bad("x must be [T, H, D]");
    const Dim T = x.shape()[0], H = x.shape()[1], D = x.shape()[2];
    const std::optional<Dim> half = D.divided_by(2);
    if (!half) throw bad("the head dim D must be even");
    const Shape table = {T, *half};
    if (cos.shape() != table || sin.shape() != table) throw bad("cos and sin must be [T, D/2]");

    const Tensor halves = reshape(x, {T, H, Dim(2), *half});
    const Tensor x1 = slice(halves, 2, Dim(0), Dim(1));   // [T, H, 1, D/2]
    const Tensor x2 = slice(halves, 2, Dim(1), Dim(2));
    const Tensor c = reshape(cos, {T, Dim(1), Dim(1), *half});
    const Tensor s = reshape(sin, {T, Dim(1), Dim(1), *half});
    const Tensor first = sub(mul(x1, c), mul(x2, s));
    const Tensor second = add(mul(x2, c), mul(x1, s));
    const Tensor is_first = lt(reshape(arange(Dim(2)), {Dim(1), Dim(1), Dim(2), Dim(1)}), iconst(1));
    return reshape(named(where(is_first, first, second), names::kRope), {T, H, D});
}

}  // namespace halogen::nn
