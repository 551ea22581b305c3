// N-dimensional convolution (cross-correlation, like torch's convNd), for any n >= 1 spatial dims:
//   out[b, k, o1..on] = bias[k] + sum_{c < C/G, r1..rn}
//       xpad[b, g*C/G + c, o1*s1 + r1*d1, ..., on*sn + rn*dn] * w[k, c, r1..rn],   g = k / (K/G)
// where xpad is x zero-padded by p_i on both sides of spatial axis i.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/node.h"

namespace halogen::nn {

namespace ops {
// What a family built on conv() computes (its Family::op).
inline constexpr char kConv[] = "nn.conv";
}  // namespace ops

namespace names {
// Named for schedules: the zero-padded input (when there is padding) and the reduction.
inline constexpr char kConvPad[] = "conv_pad";
inline constexpr char kConvSum[] = "conv_sum";
}  // namespace names

struct ConvOptions {
    std::vector<int64_t> stride;     // one per spatial axis; empty means all 1
    std::vector<int64_t> padding;    // zero padding on both sides; empty means all 0
    std::vector<int64_t> dilation;   // empty means all 1
    int64_t groups = 1;
};

// x: [N, C, L1..Ln]; w: [K, C/groups, R1..Rn] with constant kernel extents; bias: [K] or Tensor().
// Returns [N, K, O1..On], O_i = (L_i + 2 p_i - d_i (R_i - 1) - 1) / s_i + 1.
Tensor conv(const Tensor &x, const Tensor &w, const Tensor &bias = Tensor(), const ConvOptions &o = {});

}  // namespace halogen::nn
