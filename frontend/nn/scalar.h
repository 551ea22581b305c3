// A scalar operand of an nn op (a norm's eps): a number, which becomes a constant node, or a
// rank-0 float32 tensor, e.g. a kernel input set at run time.
#pragma once

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/node.h"
#include "frontend/primitives.h"

namespace halogen::nn {

struct Scalar {
    Tensor value;
    Scalar(double v) : value(fconst(v)) {}   // NOLINT: a number is a scalar
    Scalar(Tensor t) : value(std::move(t)) {   // NOLINT: so is a rank-0 float32 tensor
        if (value.rank() != 0 || value.dtype() != DType::Float32) {
            throw ShapeError(fmt::format("nn: a scalar operand must be a rank-0 float32 tensor, got {} of shape {}",
                                         dtype_name(value.dtype()), shape_str(value.shape())));
        }
    }
};

}  // namespace halogen::nn
