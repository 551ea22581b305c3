// The view layer: ops that change how a tensor is indexed without copying it. Each builds one
// view node (see ops.h); the lowering turns it into index arithmetic on the producer.
#pragma once

#include <string>
#include <vector>

#include "frontend/node.h"

namespace halogen {

Tensor reshape(const Tensor &a, const Shape &shape);        // same element count
Tensor permute(const Tensor &a, const std::vector<int> &perm);
Tensor expand(const Tensor &a, const Shape &shape);         // size-1 axes grow; leading axes may be added
// Elements start, start+step, ... below stop along `axis`. Negative start/stop are not allowed.
Tensor slice(const Tensor &a, int axis, const Dim &start, const Dim &stop, int64_t step = 1);
Tensor stride(const Tensor &a, const std::vector<int64_t> &steps);  // every steps[k]-th element
// Grows each axis by lo[k] before and hi[k] after; the new elements hold `value`.
Tensor pad(const Tensor &a, const std::vector<int64_t> &lo, const std::vector<int64_t> &hi, double value = 0);

// Sliding windows along `axis`: that axis (extent L) becomes two, [O, size], with
// out[.., o, r, ..] = a[.., o * stride + r * dilation, ..] and O = (L - dilation*(size-1) - 1)/stride + 1.
Tensor window(const Tensor &a, int axis, int64_t size, int64_t stride = 1, int64_t dilation = 1);

// NumPy broadcasting: the shape all `shapes` broadcast to; ShapeError naming `op` if none.
Shape broadcast_shapes(const std::string &op, const std::vector<Shape> &shapes);
Tensor broadcast_to(const Tensor &a, const Shape &shape);
// Axes made non-negative, checked in range and unique, sorted; AxisError naming `op` otherwise.
std::vector<int> normalize_axes(const std::string &op, const std::vector<int> &axes, const Shape &shape);

}  // namespace halogen
