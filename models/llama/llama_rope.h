// RoPE inverse frequencies of a llama config, in float32, computed as transformers computes them
// (modeling_rope_utils: _compute_default_rope_parameters and _compute_llama3_parameters):
//   inv_i = 1 / theta^(2i/d), i = 0 ... d/2 - 1, with 2i/d and the power in float32;
//   llama3 scaling (factor f, low_freq_factor l, high_freq_factor h, original context L), with the
//   wavelength w_i = 2*pi / inv_i: keep inv_i if w_i < L/h; use inv_i / f if w_i > L/l; otherwise,
//   with s = (L / w_i - l) / (h - l), use (1 - s) * inv_i / f + s * inv_i.
// Each float32 operation is the one torch performs, in its order; in particular torch evaluates a
// scalar divided by a tensor, x / t, as reciprocal(t) * x (two roundings). One step differs: the
// power theta^(2i/d) here is the float nearest the exact value (computed in double), where torch's
// vectorized powf (SLEEF, 1-ulp accuracy) can be 1 ulp off. Given torch's unscaled frequencies,
// apply_llama3_scaling reproduces its scaled ones bit for bit (tests/frontend/llama_rope_test.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/llama/llama_config.h"

namespace halogen {

std::vector<float> rope_inverse_frequencies(const LlamaConfig &c);   // head_dim / 2 values
std::vector<float> rope_inverse_frequencies(int64_t head_dim, double rope_theta,
                                            const std::optional<Llama3RopeScaling> &scaling);
// The llama3 scaling step alone, applied in place to unscaled inverse frequencies.
void apply_llama3_scaling(std::vector<float> &inv_freq, const Llama3RopeScaling &scaling);

// The cos/sin tables RoPE reads (frontend/nn/rope.h), rows for positions p0 ... p0+rows-1, each
// row-major [rows, inv_freq.size()]. As transformers computes them: the angle is the float32
// product position * inv_i (its float32 matmul of one term); cos and sin of that float32 angle are
// computed in double and rounded, i.e. correctly rounded, where torch's vectorized cos/sin (SLEEF)
// are within 1 ulp of that.
struct RopeTables {
    int64_t rows = 0, half = 0;
    std::vector<float> cos, sin;
};
RopeTables rope_tables(const std::vector<float> &inv_freq, int64_t p0, int64_t rows);

}  // namespace halogen
