// Linear layer: out[..., o] = sum_i x[..., i] * W[o, i] + b[o]   (x @ W^T + b, like torch), and the
// panel layout register-tiled kernels read the weights in.
#pragma once

#include <cstdint>

#include "frontend/node.h"

namespace halogen::nn {

namespace ops {
// What a family computes (its Family::op): linear(), on weights as given or as unpack_panels()
// of packed ones, and pack_panels().
inline constexpr char kLinear[] = "nn.linear";
inline constexpr char kPackPanels[] = "nn.pack_panels";
}  // namespace ops

namespace names {
// The sum over `in`, shaped [..., out, 1]: what a hand schedule looks for.
inline constexpr char kLinearSum[] = "linear_sum";
}  // namespace names

// x: [..., in] float32; weight: [out, in], float32 or bfloat16 (widened to float32 exactly);
// bias: [out] or Tensor() for none. Returns [..., out]; the sum over `in` is names::kLinearSum.
Tensor linear(const Tensor &x, const Tensor &weight, const Tensor &bias = Tensor());

// Weights in panels: W [rows*P, K] as [P, K, rows], the `rows` outputs of a panel side by side for
// each k, so that a kernel reads one panel as one contiguous stream of vectors along the outputs.
// A reshape and a permute (a copy when computed). ShapeError when W's first axis is not a multiple
// of `rows`.
Tensor pack_panels(const Tensor &weight, int64_t rows);
// The packed weights seen as W [rows*P, K] again: a view, for linear().
Tensor unpack_panels(const Tensor &packed);

// Weights in blocks of K: W [N, B*b] as [B, N, b], block j holding columns [j*b, (j+1)*b) of every
// row, so that a kernel that walks the rows block by block (a slice of x small enough to stay in
// the L1) reads one contiguous stream. A reshape and a permute (a copy when computed). ShapeError
// when K is not a multiple of b.
Tensor block_columns(const Tensor &weight, int64_t b);
// The blocked weights seen as W [N, B*b] again: a view, for linear().
Tensor unblock_columns(const Tensor &blocked);

}  // namespace halogen::nn
