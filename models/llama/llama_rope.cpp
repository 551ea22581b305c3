// RoPE inverse frequencies, step by step as transformers computes them in torch, and the cos/sin
// tables at given positions (see llama_rope.h).
#include "models/llama/llama_rope.h"

#include <fmt/format.h>

#include "frontend/errors.h"

#include <cmath>

namespace halogen {

std::vector<float> rope_inverse_frequencies(const LlamaConfig &c) {
    return rope_inverse_frequencies(c.head_dim, c.rope_theta, c.rope_scaling);
}

std::vector<float> rope_inverse_frequencies(int64_t head_dim, double rope_theta,
                                            const std::optional<Llama3RopeScaling> &scaling) {
    if (head_dim <= 0 || head_dim % 2 != 0)
        throw ConfigError(fmt::format("rope: head_dim {} is not a positive even number", head_dim));
    if (!(rope_theta > 1) || !std::isfinite(rope_theta))
        throw ConfigError(fmt::format("rope: rope_theta {} is not a number above 1", rope_theta));

    // inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)): float32 operands, the
    // power rounded once from double, the reciprocal in float32.
    const float base = static_cast<float>(rope_theta);
    const float dim = static_cast<float>(head_dim);
    std::vector<float> inv(static_cast<size_t>(head_dim / 2));
    for (size_t i = 0; i < inv.size(); ++i) {
        float exponent = static_cast<float>(2 * i) / dim;
        float power = static_cast<float>(std::pow(static_cast<double>(base), static_cast<double>(exponent)));
        inv[i] = 1.0f / power;
    }
    if (scaling) apply_llama3_scaling(inv, *scaling);
    return inv;
}

void apply_llama3_scaling(std::vector<float> &inv, const Llama3RopeScaling &s) {
    // The Python scalars: the two wavelength bounds are computed in double and compared in float32.
    const double context = static_cast<double>(s.original_max_position_embeddings);
    const float low_freq_wavelen = static_cast<float>(context / s.low_freq_factor);
    const float high_freq_wavelen = static_cast<float>(context / s.high_freq_factor);
    const float two_pi = static_cast<float>(2 * M_PI);
    const float factor = static_cast<float>(s.factor);
    const float low = static_cast<float>(s.low_freq_factor);
    const float band = static_cast<float>(s.high_freq_factor - s.low_freq_factor);
    const float context_f = static_cast<float>(context);
    for (float &v : inv) {
        float wavelen = (1.0f / v) * two_pi;                      // 2 * math.pi / inv_freq
        if (wavelen < high_freq_wavelen) continue;                // high frequencies: kept
        if (wavelen > low_freq_wavelen) {                         // low frequencies: divided
            v = v / factor;
            continue;
        }
        float smooth = ((1.0f / wavelen) * context_f - low) / band;   // (L / wavelen - l) / (h - l)
        v = (1.0f - smooth) * v / factor + smooth * v;
    }
}

RopeTables rope_tables(const std::vector<float> &inv_freq, int64_t p0, int64_t rows) {
    if (p0 < 0 || rows < 0) throw ShapeError(fmt::format("rope_tables: positions {} + [0, {}) are negative", p0, rows));
    RopeTables t;
    t.rows = rows;
    t.half = int64_t(inv_freq.size());
    t.cos.resize(std::size_t(rows * t.half));
    t.sin.resize(t.cos.size());
    for (int64_t r = 0; r < rows; ++r) {
        const float position = float(p0 + r);
        for (int64_t i = 0; i < t.half; ++i) {
            const float angle = position * inv_freq[std::size_t(i)];   // one float32 rounding, as torch's
            t.cos[std::size_t(r * t.half + i)] = float(std::cos(double(angle)));
            t.sin[std::size_t(r * t.half + i)] = float(std::sin(double(angle)));
        }
    }
    return t;
}

}  // namespace halogen
