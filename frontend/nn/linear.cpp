// Linear: x [..., K] viewed as [..., 1, K] times W [N, K] (broadcast to [..., N, K]), summed over
// K into [..., N, 1] ("linear_sum"), viewed as [..., N], plus a broadcast bias. K is the last
// axis of both operands: the dot-product form over contiguous memory, with no permute of W.
// Panels: W [T*P, K] -> reshape [P, T, K] -> permute [P, K, T]; and back with the inverse views.
// Blocks of K: W [N, B*b] -> reshape [N, B, b] -> permute [B, N, b]; and back.
#include "frontend/nn/linear.h"

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen::nn {

Tensor linear(const Tensor &x, const Tensor &weight, const Tensor &bias) {
    auto shapes = [&] {
        return fmt::format("x {}, weight {}, bias {}", shape_str(x.shape()), shape_str(weight.shape()),
                           bias.defined() ? shape_str(bias.shape()) : std::string("none"));
    };
    if (x.rank() < 1 || weight.rank() != 2 || x.shape().back() != weight.shape()[1] ||
        (bias.defined() && (bias.rank() != 1 || bias.shape()[0] != weight.shape()[0]))) {
        throw ShapeError(fmt::format("linear: x [..., K], weight [N, K] and bias [N] do not fit: {}", shapes()));
    }
    if (x.dtype() != DType::Float32 || (weight.dtype() != DType::Float32 && weight.dtype() != DType::BFloat16) ||
        (bias.defined() && bias.dtype() != DType::Float32)) {
        throw DTypeError(fmt::format("linear: takes float32 x and bias and a float32 or bfloat16 weight, got x {}, "
                                     "weight {}{} ({})",
                                     dtype_name(x.dtype()), dtype_name(weight.dtype()),
                                     bias.defined() ? ", bias " + dtype_name(bias.dtype()) : std::string(), shapes()));
    }
    const Tensor w = weight.dtype() == DType::Float32 ? weight : cast(weight, DType::Float32);
    Shape rows = x.shape();
    rows.insert(rows.end() - 1, Dim(1));                                             // [..., 1, K]
    Tensor total = named(reduce_sum(mul(reshape(x, rows), w), {-1}), names::kLinearSum);  // [..., N, 1]
    Shape out = x.shape();
    out.back() = weight.shape()[0];
    Tensor y = reshape(total, out);                                                  // [..., N]
    return bias.defined() ? add(y, bias) : y;
}

Tensor pack_panels(const Tensor &weight, int64_t rows) {
    const std::optional<Dim> panels = weight.rank() == 2 && rows > 0 ? weight.shape()[0].divided_by(rows) : std::nullopt;
    if (!panels) {
        throw ShapeError(fmt::format("pack_panels: weight {} must be [{}*P, K]: its rows a multiple of {}",
                                     shape_str(weight.shape()), rows, rows));
    }
    return permute(reshape(weight, {*panels, rows, weight.shape()[1]}), {0, 2, 1});
}

Tensor unpack_panels(const Tensor &packed) {
    if (packed.rank() != 3) {
        throw ShapeError(fmt::format("unpack_panels: packed weights must be [P, K, T], got {}", shape_str(packed.shape())));
    }
    const Shape &s = packed.shape();
    return reshape(permute(packed, {0, 2, 1}), {s[0] * s[2], s[1]});
}

Tensor block_columns(const Tensor &weight, int64_t b) {
    const std::optional<Dim> blocks = weight.rank() == 2 && b > 0 ? weight.shape()[1].divided_by(b) : std::nullopt;
    if (!blocks) {
        throw ShapeError(fmt::format("block_columns: weight {} must be [N, {}*B]: its columns a multiple of {}",
                                     shape_str(weight.shape()), b, b));
    }
    return permute(reshape(weight, {weight.shape()[0], *blocks, Dim(b)}), {1, 0, 2});
}

Tensor unblock_columns(const Tensor &blocked) {
    if (blocked.rank() != 3) {
        throw ShapeError(fmt::format("unblock_columns: blocked weights must be [B, N, b], got {}", shape_str(blocked.shape())));
    }
    const Shape &s = blocked.shape();
    return reshape(permute(blocked, {1, 0, 2}), {s[1], s[0] * s[2]});
}

}  // namespace halogen::nn
