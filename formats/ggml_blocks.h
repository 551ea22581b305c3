// What the ggml type sources share (ggml_types.cpp, ggml_dequantize.cpp, ggml_quantize.cpp,
// ggml_quantize_k.cpp): the block geometry and the per-type row functions, each over `blocks`
// whole blocks. Not an API: callers use dequantize_row / quantize_row (ggml_types.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace halogen::ggml_blocks {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ggml blocks are read as little-endian memory");

constexpr int kQ8_0Elements = 32, kQ8_0Bytes = 34;    // f16 d | i8 q[32]
constexpr int kQ4_0Elements = 32, kQ4_0Bytes = 18;    // f16 d | u8 qs[16]
constexpr int kQ4_KElements = 256, kQ4_KBytes = 144;  // f16 d | f16 dmin | u8 scales[12] | u8 qs[128]
constexpr int kQ6_KElements = 256, kQ6_KBytes = 210;  // u8 ql[128] | u8 qh[64] | i8 scales[16] | f16 d

inline uint16_t load_u16(const uint8_t *p) {
    uint16_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store_u16(uint8_t *p, uint16_t v) { std::memcpy(p, &v, sizeof v); }

// Q4_K's 6-bit scale and min of sub-block j (0..7) from the 12 packed bytes: sub-blocks 0-3 keep
// theirs in the low 6 bits of bytes j (scale) and j + 4 (min); sub-blocks 4-7 keep their low 4
// bits in the nibbles of byte j + 4 (scale low, min high) and their top 2 bits in the top 2 bits
// of bytes j - 4 (scale) and j (min).
inline void q4_k_scale_min(const uint8_t *scales, int j, uint8_t &sc, uint8_t &m) {
    if (j < 4) {
        sc = scales[j] & 63;
        m = scales[j + 4] & 63;
    } else {
        sc = static_cast<uint8_t>((scales[j + 4] & 0x0F) | ((scales[j - 4] >> 6) << 4));
        m = static_cast<uint8_t>((scales[j + 4] >> 4) | ((scales[j] >> 6) << 4));
    }
}

// The inverse: packs eight 6-bit scales and mins into 12 bytes.
inline void q4_k_pack_scales(const uint8_t sc[8], const uint8_t m[8], uint8_t *scales) {
    for (int j = 0; j < 4; ++j) {
        scales[j] = static_cast<uint8_t>((sc[j] & 63) | ((sc[j + 4] >> 4) << 6));
        scales[j + 4] = static_cast<uint8_t>((m[j] & 63) | ((m[j + 4] >> 4) << 6));
        scales[j + 8] = static_cast<uint8_t>((sc[j + 4] & 0x0F) | ((m[j + 4] & 0x0F) << 4));
    }
}

void dequantize_q8_0(const uint8_t *src, float *out, int64_t blocks);
void dequantize_q4_0(const uint8_t *src, float *out, int64_t blocks);
void dequantize_q4_k(const uint8_t *src, float *out, int64_t blocks);
void dequantize_q6_k(const uint8_t *src, float *out, int64_t blocks);

// The quantizers check their input (finite, scales that fit float16) and throw DTypeError.
void quantize_q8_0(const float *src, uint8_t *dst, int64_t blocks);
void quantize_q4_0(const float *src, uint8_t *dst, int64_t blocks);
void quantize_q4_k(const float *src, uint8_t *dst, int64_t blocks);
void quantize_q6_k(const float *src, uint8_t *dst, int64_t blocks);

}  // namespace halogen::ggml_blocks
