// Linear: out = x @ W^T + b, built as matmul(x, permute(W, {1, 0})) plus a broadcast add.
// A rank-1 x is treated as one row ([in] -> [1, in] -> [out]).
#include "frontend/nn/linear.h"

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen::nn {

Tensor linear(const Tensor &x, const Tensor &weight, const Tensor &bias) {
    auto fail = [&] {
        return ShapeError(fmt::format("linear: x {} does not fit weight {} and bias {}", shape_str(x.shape()),
                                      shape_str(weight.shape()),
                                      bias.defined() ? shape_str(bias.shape()) : std::string("none")));
    };
    if (x.rank() < 1 || weight.rank() != 2 || x.shape().back() != weight.shape()[1]) throw fail();
    if (bias.defined() && (bias.rank() != 1 || bias.shape()[0] != weight.shape()[0])) throw fail();
    Tensor wt = permute(weight, {1, 0});                                        // [in, out]
    Tensor y = x.rank() == 1 ? reshape(matmul(reshape(x, {1, x.shape()[0]}), wt), {weight.shape()[0]})
                             : matmul(x, wt);                                    // [..., out]
    return bias.defined() ? add(y, bias) : y;
}

}  // namespace halogen::nn
