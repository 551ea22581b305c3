// Conversions between float32 and the 16-bit float formats of model checkpoints: bfloat16 (the
// upper half of a float32's bits) and IEEE 754 half precision (float16). The 16-bit values travel
// as their bit patterns (uint16_t), so no 16-bit float type is needed. The array forms read and
// write through memcpy: checkpoint data need not be aligned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace halogen {

// float32 -> bfloat16, rounding to nearest with ties to even, by the bit rule on the float's
// pattern: add 0x7FFF plus the lowest kept bit, keep the upper 16 bits. The same rule handles
// denormals, and a value at or above half an ulp past the largest bfloat16 rounds to infinity.
// A NaN stays a NaN of the same sign, made quiet (its upper payload bits are kept).
inline uint16_t float_to_bfloat16_bits(float x) {
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
    return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

// bfloat16 -> float32: exact (the 16 bits become the float's upper half).
inline float bfloat16_bits_to_float(uint16_t b) {
    uint32_t u = uint32_t(b) << 16;
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// float16 -> float32: exact for every number. Denormals become normal floats, infinities stay
// infinities, and a NaN keeps its sign and payload (shifted into the float's mantissa) and comes
// out quiet, as the IEEE 754 conversion (and x86's F16C instruction) makes it.
float float16_bits_to_float(uint16_t h);

// The same conversions over n values; `src`/`dst` on the 16-bit side may have any alignment.
void bfloat16_to_float(const void *src, float *dst, std::size_t n);
void float16_to_float(const void *src, float *dst, std::size_t n);
void float_to_bfloat16(const float *src, void *dst, std::size_t n);

}  // namespace halogen
