// float16 -> float32 by fields, and the array forms of the 16-bit conversions (frontend/bfloat16.h).
#include "frontend/bfloat16.h"

namespace halogen {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "16-bit values are read little-endian as is");

float float16_bits_to_float(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1Fu;
    uint32_t mantissa = h & 0x3FFu;
    uint32_t u;
    if (exponent == 0x1F) {                      // infinity or NaN: all exponent bits set
        // A NaN comes out quiet, as IEEE 754 conversions (and x86's F16C) make it.
        u = sign | 0x7F800000u | (mantissa << 13) | (mantissa ? 0x00400000u : 0u);
    } else if (exponent != 0) {                  // normal: rebias 15 -> 127
        u = sign | ((exponent + (127 - 15)) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {                  // signed zero
        u = sign;
    } else {                                     // denormal mantissa * 2^-24: normalize it
        int shift = 0;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            ++shift;
        }
        // The leading bit now sits at 2^10; the value is 1.m * 2^(-14 - shift).
        u = sign | (uint32_t(127 - 14 - shift) << 23) | ((mantissa & 0x3FFu) << 13);
    }
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

void bfloat16_to_float(const void *src, float *dst, std::size_t n) {
    const unsigned char *s = static_cast<const unsigned char *>(src);
    for (std::size_t i = 0; i < n; ++i) {
        uint16_t b;
        std::memcpy(&b, s + 2 * i, sizeof b);
        dst[i] = bfloat16_bits_to_float(b);
    }
}

void float16_to_float(const void *src, float *dst, std::size_t n) {
    const unsigned char *s = static_cast<const unsigned char *>(src);
    for (std::size_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, s + 2 * i, sizeof h);
        dst[i] = float16_bits_to_float(h);
    }
}

void float_to_bfloat16(const float *src, void *dst, std::size_t n) {
    unsigned char *d = static_cast<unsigned char *>(dst);
    for (std::size_t i = 0; i < n; ++i) {
        uint16_t b = float_to_bfloat16_bits(src[i]);
        std::memcpy(d + 2 * i, &b, sizeof b);
    }
}

}  // namespace halogen
