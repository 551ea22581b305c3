// Rotary position embeddings (RoPE) in HF's rotate_half convention: element i of a head pairs with
// element i + d/2, and for the frequency index i < d/2 at the row's position,
//   y[i]       = x[i] * cos_i - x[i + d/2] * sin_i
//   y[i + d/2] = x[i + d/2] * cos_i + x[i] * sin_i
// which is torch's x * cat(cos, cos) + rotate_half(x) * cat(sin, sin).
//
// Positions enter as the rows of the cos/sin tables: row t of `cos`/`sin` holds the values at the
// position of x's row t (p0 + t when x holds positions p0 ... p0+T-1). The tables are computed at
// load time from the inverse frequencies (models/llama/llama_rope.h: rope_tables), so the kernel
// needs no cos op and a caller passes the rows of its positions as a view of one table.
#pragma once

#include "frontend/node.h"

namespace halogen::nn {

namespace names {
// The rotated rows, [T, H, D] before the output's reshape.
inline constexpr char kRope[] = "rope";
}  // namespace names

// x: [T, H, D] float32 with D even; cos, sin: [T, D/2] float32. Returns [T, H, D]. ShapeError
// when the shapes do not fit.
Tensor rope(const Tensor &x, const Tensor &cos, const Tensor &sin);

}  // namespace halogen::nn
