// The node every norm (layer_norm, rms_norm, batch_norm_inference, group_norm) names its factor
// 1 / sqrt(var + eps): a schedule computes it once per row, channel or group.
#pragma once

namespace halogen::nn::names {

inline constexpr char kNormScale[] = "norm_scale";

}  // namespace halogen::nn::names
