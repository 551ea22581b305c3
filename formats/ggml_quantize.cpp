// Q8_0 and Q4_0 encoders, the same algorithm as ggml's reference quantizers (quantize_row_q8_0_ref,
// quantize_row_q4_0_ref), so they write the bytes ggml writes: one float16 scale a block of 32
// from the block's largest magnitude, each value rounded on that grid. The scale must fit float16:
// a block whose scale would round to infinity is a DTypeError (ggml would store infinity).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "formats/float16_encode.h"
#include "formats/ggml_blocks.h"
#include "frontend/errors.h"

namespace halogen::ggml_blocks {

namespace {

// The scale's float16 bits; a DTypeError naming the block when it overflows.
uint16_t block_scale(float d, const char *type, int64_t block, float largest) {
    const uint16_t bits = float_to_float16_bits(d);
    if ((bits & 0x7C00u) == 0x7C00u)
        throw DTypeError(fmt::format("quantize_row: block {} of {} has a value of magnitude {}, too large for the "
                                     "type's float16 scale", block, type, largest));
    return bits;
}

}  // namespace

// d = max |x| / 127 and q = round(x / d), half away from zero; x / d is x times 1 / d (0 when d is).
void quantize_q8_0(const float *src, uint8_t *dst, int64_t blocks) {
    for (int64_t b = 0; b < blocks; ++b, src += kQ8_0Elements, dst += kQ8_0Bytes) {
        float amax = 0.0f;
        for (int j = 0; j < kQ8_0Elements; ++j) amax = std::max(amax, std::fabs(src[j]));
        const float d = amax / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst, block_scale(d, "Q8_0", b, amax));
        auto *q = reinterpret_cast<int8_t *>(dst + 2);
        for (int j = 0; j < kQ8_0Elements; ++j) q[j] = static_cast<int8_t>(std::round(src[j] * id));
    }
}

// The value of largest magnitude (the first, with its sign) becomes nibble 0: d = that value / -8,
// so the grid runs from -8 d (that value) to 7 d; nibble = min(15, trunc(x / d + 8.5)).
void quantize_q4_0(const float *src, uint8_t *dst, int64_t blocks) {
    for (int64_t b = 0; b < blocks; ++b, src += kQ4_0Elements, dst += kQ4_0Bytes) {
        float amax = 0.0f, vmax = 0.0f;
        for (int j = 0; j < kQ4_0Elements; ++j) {
            if (amax < std::fabs(src[j])) {
                amax = std::fabs(src[j]);
                vmax = src[j];
            }
        }
        const float d = vmax / -8.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        store_u16(dst, block_scale(d, "Q4_0", b, amax));
        uint8_t *qs = dst + 2;
        for (int j = 0; j < 16; ++j) {
            // x * id lies in [-8, 8] (up to rounding), so the sum is positive and truncation is a floor.
            const int lo = std::min(15, static_cast<int>(src[j] * id + 8.5f));
            const int hi = std::min(15, static_cast<int>(src[j + 16] * id + 8.5f));
            qs[j] = static_cast<uint8_t>(lo | (hi << 4));
        }
    }
}

}  // namespace halogen::ggml_blocks
