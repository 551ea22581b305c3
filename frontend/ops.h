// The primitive ops of halogen's graph IR, Caten's small set. Everything else (sub, exp, mean,
// matmul, the nn layer) is written with these. Each line gives the op's C-like meaning for one
// output element at index i (a multi-index over the output shape).
#pragma once

#include <string>

namespace halogen {

enum class Op {
    // Leaves
    Input,            // out[i] = caller_buffer[i]
    Const,            // out = c                       (rank 0; a number or a symbolic dim's value)
    IndexComponents,  // out[i] = row_major_linear_index(i)  (arange is the 1-D case)
    // Unary
    Neg,              // out[i] = -a[i]
    Recip,            // out[i] = 1.0f / a[i]
    Sqrt,             // out[i] = sqrtf(a[i])
    Exp2,             // out[i] = exp2f(a[i])
    Log2,             // out[i] = log2f(a[i])
    Sin,              // out[i] = sinf(a[i])
    Not,              // out[i] = !a[i]  (bool)   or  ~a[i]  (int32)
    Cast,             // out[i] = (T)a[i]          (float -> int truncates toward zero)
    // Binary (operands of equal shape and dtype)
    Add,              // out[i] = a[i] + b[i]
    Mul,              // out[i] = a[i] * b[i]
    Max,              // out[i] = isnan(a[i]) ? a[i] : isnan(b[i]) ? b[i] : a[i] > b[i] ? a[i] : b[i]
                      //   (NaN propagates, as in PyTorch; the sign of a zero result is unspecified)
    IDiv,             // out[i] = floor_div(a[i], b[i])  int32, Euclidean (remainder >= 0), x/0 = 0
    Mod,              // out[i] = a[i] - b[i] * floor_div(a[i], b[i])  int32, in [0, |b|), x%0 = 0
    And,              // out[i] = a[i] & b[i]      (bool or int32)
    Or,               // out[i] = a[i] | b[i]
    Xor,              // out[i] = a[i] ^ b[i]
    Ne,               // out[i] = a[i] != b[i]     (result bool)
    Lt,               // out[i] = a[i] < b[i]      (result bool)
    // Ternary
    Where,            // out[i] = cond[i] ? a[i] : b[i]
    // Data-dependent read (what the one-hot rewrite produces; see frontend/rewrites/)
    Gather,           // out[i] = 0 <= idx[i] < a.shape[k] ? a[i with i[k] = idx[i]] : 0   (axis k)
    // Reductions over chosen axes; reduced axes are kept with extent 1
    ReduceSum,        // out[i] = sum over the axes of a[...]     (0 when the axes are empty)
    ReduceMax,        // out[i] = max over the axes of a[...]     (lowest value when empty)
                      //   NaN when any of them is NaN, whatever its position (as Max, as PyTorch)
    // Views: change indexing, never copy
    Reshape,          // out[i] = a[unflatten(flatten(i, out.shape), a.shape)]
    Permute,          // out[i] = a[j] where j[perm[k]] = i[k]
    Expand,           // out[i] = a[j] where j[k] = (a.shape[k] == 1 ? 0 : i[k])
    Slice,            // out[i] = a[start + step * i]           (per axis, step >= 1)
    Pad,              // out[i] = inside(i - lo) ? a[i - lo] : pad_value
    Window,           // out[.., o, r, ..] = a[.., o * stride + r * dilation, ..]   (axis -> two axes)
};

std::string op_name(Op op);   // "add", "index_components", ...
bool is_view(Op op);
bool is_reduce(Op op);
bool is_elementwise(Op op);   // unary, binary and where

}  // namespace halogen
