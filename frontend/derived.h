// Ops derived from the primitives, each written only with them (no new node kinds).
#pragma once

#include <vector>

#include "frontend/node.h"

namespace halogen {

Tensor sub(const Tensor &a, const Tensor &b);     // a + (-b)
Tensor div(const Tensor &a, const Tensor &b);     // float: a * recip(b); int32: idiv(a, b)
Tensor eq(const Tensor &a, const Tensor &b);      // !(a != b)
Tensor le(const Tensor &a, const Tensor &b);      // !(b < a)
Tensor gt(const Tensor &a, const Tensor &b);      // b < a
Tensor ge(const Tensor &a, const Tensor &b);      // !(a < b)
Tensor exp(const Tensor &a);                      // exp2(a * log2(e))
Tensor log(const Tensor &a);                      // log2(a) * ln(2)
Tensor square(const Tensor &a);                   // a * a

// Reductions that drop the reduced axes unless keepdim.
Tensor sum(const Tensor &a, const std::vector<int> &axes, bool keepdim = false);
Tensor max(const Tensor &a, const std::vector<int> &axes, bool keepdim = false);
Tensor mean(const Tensor &a, const std::vector<int> &axes, bool keepdim = false);  // float32

// [..., M, K] x [..., K, N] -> [..., M, N]; leading axes broadcast.
// Built as sum over K of a[..., M, K, 1] * b[..., 1, K, N].
Tensor matmul(const Tensor &a, const Tensor &b);

// The tensors one after another along `axis`: each padded to the total extent there and chosen by
// where(arange < end of its part). Extents along the axis must be constants; the other axes and
// the dtypes equal.
Tensor concat(const std::vector<Tensor> &parts, int axis);

Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor operator/(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a);

}  // namespace halogen
