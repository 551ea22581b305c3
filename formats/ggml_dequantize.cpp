// ggml's quantized blocks decoded to float32 (Q8_0, Q4_0, Q4_K, Q6_K; see ggml_types.h), with the
// float operations of ggml's reference dequantize_row_* in the same order: every product and
// difference rounded to float32 on its own (the library is compiled with -ffp-contract=off, so
// none becomes a fused multiply-add), float16 scales converted exactly.
#include "formats/ggml_blocks.h"
#include "frontend/bfloat16.h"

namespace halogen::ggml_blocks {

void dequantize_q8_0(const uint8_t *src, float *out, int64_t blocks) {
    for (int64_t b = 0; b < blocks; ++b, src += kQ8_0Bytes, out += kQ8_0Elements) {
        const float d = float16_bits_to_float(load_u16(src));
        const auto *q = reinterpret_cast<const int8_t *>(src + 2);
        for (int j = 0; j < kQ8_0Elements; ++j) out[j] = static_cast<float>(q[j]) * d;
    }
}

void dequantize_q4_0(const uint8_t *src, float *out, int64_t blocks) {
    for (int64_t b = 0; b < blocks; ++b, src += kQ4_0Bytes, out += kQ4_0Elements) {
        const float d = float16_bits_to_float(load_u16(src));
        const uint8_t *qs = src + 2;
        for (int j = 0; j < 16; ++j) {
            out[j] = static_cast<float>((qs[j] & 0x0F) - 8) * d;
            out[j + 16] = static_cast<float>((qs[j] >> 4) - 8) * d;
        }
    }
}

void dequantize_q4_k(const uint8_t *src, float *out, int64_t blocks) {
    for (int64_t b = 0; b < blocks; ++b, src += kQ4_KBytes) {
        const float d = float16_bits_to_float(load_u16(src));
        const float dmin = float16_bits_to_float(load_u16(src + 2));
        const uint8_t *scales = src + 4;
        const uint8_t *qs = src + 16;
        // Four runs of 32 bytes; run r holds sub-block 2r in its low nibbles, 2r + 1 in its high.
        for (int r = 0; r < 4; ++r, qs += 32) {
            uint8_t sc, m;
            q4_k_scale_min(scales, 2 * r, sc, m);
            const float d_lo = d * static_cast<float>(sc), m_lo = dmin * static_cast<float>(m);
            q4_k_scale_min(scales, 2 * r + 1, sc, m);
            const float d_hi = d * static_cast<float>(sc), m_hi = dmin * static_cast<float>(m);
            for (int l = 0; l < 32; ++l) *out++ = d_lo * static_cast<float>(qs[l] & 0x0F) - m_lo;
            for (int l = 0; l < 32; ++l) *out++ = d_hi * static_cast<float>(qs[l] >> 4) - m_hi;
        }
    }
}

void dequantize_q6_k(const uint8_t *src, float *out, int64_t blocks) {
    for (int64_t b = 0; b < blocks; ++b, src += kQ6_KBytes) {
        const uint8_t *ql = src;
        const uint8_t *qh = src + 128;
        const auto *scales = reinterpret_cast<const int8_t *>(src + 192);
        const float d = float16_bits_to_float(load_u16(src + 208));
        // Two halves of 128 values; in a half, value l + 32 k (l < 32, k < 4) takes its low 4 bits
        // from ql[l + 32 (k % 2)] (low nibble for k < 2, high for k >= 2) and its high 2 bits from
        // bits 2k, 2k + 1 of qh[l]; its scale is scales[l / 16 + 2 k]. x = (d * scale) * q, the
        // product d * scale formed once for the 16 lanes that share it (the same float either way).
        for (int half = 0; half < 2; ++half, ql += 64, qh += 32, scales += 8, out += 128) {
            for (int s = 0; s < 2; ++s) {   // lanes 16 s .. 16 s + 15 share their four scales
                const float c0 = d * static_cast<float>(scales[s]), c1 = d * static_cast<float>(scales[s + 2]);
                const float c2 = d * static_cast<float>(scales[s + 4]), c3 = d * static_cast<float>(scales[s + 6]);
                for (int l = 16 * s; l < 16 * s + 16; ++l) {
                    const int q0 = ((ql[l] & 0x0F) | (((qh[l] >> 0) & 3) << 4)) - 32;
                    const int q1 = ((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) - 32;
                    const int q2 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                    const int q3 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                    out[l] = c0 * static_cast<float>(q0);
                    out[l + 32] = c1 * static_cast<float>(q1);
                    out[l + 64] = c2 * static_cast<float>(q2);
                    out[l + 96] = c3 * static_cast<float>(q3);
                }
            }
        }
    }
}

}  // namespace halogen::ggml_blocks
