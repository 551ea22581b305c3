// Builders for the primitive ops (see ops.h for each op's meaning). Binary ops and `where`
// broadcast their operands NumPy-style (through expand views); operands must share a dtype.
// Shape and dtype errors are raised here, when the graph is built.
#pragma once

#include <string>
#include <vector>

#include "frontend/node.h"

namespace halogen {

// Leaves
Tensor input(const std::string &name, DType dtype, const Shape &shape);
Tensor fconst(double value);                     // float32 scalar
Tensor iconst(int64_t value);                    // int32 scalar
Tensor bconst(bool value);                       // bool scalar
Tensor dim_const(const Dim &d, DType dtype);     // a dim's value, known once symbols are bound
Tensor index_components(const Shape &shape);     // int32, row-major linear index of each element
Tensor arange(const Dim &n);                     // index_components({n})

// Unary
Tensor neg(const Tensor &a);
Tensor recip(const Tensor &a);
Tensor sqrt(const Tensor &a);
Tensor exp2(const Tensor &a);
Tensor log2(const Tensor &a);
Tensor sin(const Tensor &a);
Tensor not_(const Tensor &a);
Tensor cast(const Tensor &a, DType to);

// Binary
Tensor add(const Tensor &a, const Tensor &b);
Tensor mul(const Tensor &a, const Tensor &b);
Tensor maximum(const Tensor &a, const Tensor &b);
Tensor idiv(const Tensor &a, const Tensor &b);
Tensor mod(const Tensor &a, const Tensor &b);
Tensor and_(const Tensor &a, const Tensor &b);
Tensor or_(const Tensor &a, const Tensor &b);
Tensor xor_(const Tensor &a, const Tensor &b);
Tensor ne(const Tensor &a, const Tensor &b);
Tensor lt(const Tensor &a, const Tensor &b);

// Ternary
Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b);

// out[i] = a[i with i[axis] = idx[i]] where 0 <= idx[i] < a.shape[axis], else 0. idx is int32 and
// has a's shape with extent 1 at `axis` (the result's shape).
Tensor gather(const Tensor &a, int axis, const Tensor &idx);

// The same value as `t`, its node named `name`: how the nn layer marks the nodes a hand schedule
// addresses (as Halide's apps name their Funcs). A schedule looks a name up in its lowered group
// (LoweredGraph::func) and fails naming it when it is not there.
Tensor named(const Tensor &t, const std::string &name);

// The same value as `t`, stored to memory by a kernel of its own: the grouping pass makes it the
// anchor of a group (docs/grouping.md, rule 1), as tinygrad's contiguous() does. How a model marks
// where its kernels end, e.g. after a projection and its epilogue, so a GEMM is not computed row by
// row inside the next one. Keeps the node's name.
Tensor materialize(const Tensor &t);

// Reductions: the reduced axes stay, with extent 1. Negative axes count from the end.
Tensor reduce_sum(const Tensor &a, const std::vector<int> &axes);
Tensor reduce_max(const Tensor &a, const std::vector<int> &axes);

}  // namespace halogen
