// Tests of the 16-bit float conversions (frontend/bfloat16.h) against hand-written tables of bit
// patterns. Each row was worked out from the formats' fields (the reasoning is in the comment on
// the row) and cross-checked with PyTorch 1.13 (tests/frontend/bfloat16_torch_check.py prints
// torch's answer for every row). They agree on every row but the NaNs of float32 -> bfloat16, where
// torch drops sign and payload: its vectorized CPU path gives 0xFFFF for every NaN, its scalar
// c10::BFloat16 gives 0x7FC0; here a NaN keeps its sign and upper payload and is made quiet.
// Beyond the tables: every float16 pattern against an independent value computed with ldexp, and a
// sweep of float32 patterns against round-to-nearest-even decided in double precision.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "frontend/bfloat16.h"

namespace {

using halogen::bfloat16_bits_to_float;
using halogen::float16_bits_to_float;
using halogen::float_to_bfloat16_bits;

float from_bits(uint32_t u) {
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

uint32_t bits_of(float x) {
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

struct F32ToBf16 {
    uint32_t f32;
    uint16_t bf16;
    const char *why;
};

// bfloat16 keeps the upper 16 bits of a float32: sign, 8 exponent bits, 7 mantissa bits. The lower
// 16 bits decide the rounding: below 0x8000 round down, above round up, exactly 0x8000 is a tie
// that goes to the even upper half (lowest kept bit 0).
const F32ToBf16 kF32ToBf16[] = {
    {0x00000000, 0x0000, "+0"},
    {0x80000000, 0x8000, "-0"},
    {0x3F800000, 0x3F80, "1.0 is exact"},
    {0xBF800000, 0xBF80, "-1.0 is exact"},
    {0x40490FDB, 0x4049, "pi: lower bits 0x0FDB < half, round down"},
    {0x3DCCCCCD, 0x3DCD, "0.1: lower bits 0xCCCD > half, round up"},
    {0x3F807FFF, 0x3F80, "just below the tie after 1.0: down"},
    {0x3F808000, 0x3F80, "tie between 0x3F80 (even) and 0x3F81: to even, down"},
    {0x3F808001, 0x3F81, "just above the tie: up"},
    {0x3F818000, 0x3F82, "tie between 0x3F81 (odd) and 0x3F82: to even, up"},
    {0xBF818000, 0xBF82, "the same tie, negative: magnitude to even"},
    {0x3F7FFFFF, 0x3F80, "largest float below 1.0: up, carrying into the exponent"},
    {0x7F800000, 0x7F80, "+inf"},
    {0xFF800000, 0xFF80, "-inf"},
    {0x7F7F7FFF, 0x7F7F, "largest float that stays finite: below the tie under 0x7F7F (max bfloat16)"},
    {0x7F7F8000, 0x7F80, "smallest float that rounds to inf: tie, 0x7F7F is odd, so up to 0x7F80 = inf"},
    {0x7F7FFFFF, 0x7F80, "FLT_MAX: above the tie, to inf"},
    {0xFF7F8000, 0xFF80, "the same tie, negative: -inf"},
    {0x7F7E8000, 0x7F7E, "tie under 0x7F7E (even): stays finite"},
    {0x7FC00000, 0x7FC0, "the quiet NaN"},
    {0xFFC00000, 0xFFC0, "negative quiet NaN keeps its sign"},
    {0x7F800001, 0x7FC0, "signaling NaN, payload only in the lower half: quiet bit set, not inf"},
    {0xFF800001, 0xFFC0, "negative signaling NaN"},
    {0x7FA00000, 0x7FE0, "signaling NaN with an upper payload: payload kept, quiet bit set"},
    {0x7FFFFFFF, 0x7FFF, "NaN with every bit set (no carry out of the payload)"},
    {0x00000001, 0x0000, "smallest denormal float: far below half of bfloat16's smallest denormal"},
    {0x80000001, 0x8000, "negative smallest denormal: -0"},
    {0x00008000, 0x0000, "tie between +0 (even) and the smallest bfloat16 denormal 0x0001: to 0"},
    {0x00008001, 0x0001, "just above that tie: the smallest bfloat16 denormal"},
    {0x00018000, 0x0002, "tie between 0x0001 (odd) and 0x0002: up"},
    {0x007F0000, 0x007F, "largest bfloat16 denormal, exact"},
    {0x007F8000, 0x0080, "tie above it: 0x007F is odd, up to the smallest normal 0x0080"},
    {0x007FFFFF, 0x0080, "largest denormal float: up into the smallest normal bfloat16"},
    {0x807FFFFF, 0x8080, "its negative"},
    {0x00800000, 0x0080, "smallest normal float, exact"},
};

TEST(Bfloat16, FromFloatMatchesTheTable) {
    for (const auto &row : kF32ToBf16)
        EXPECT_EQ(float_to_bfloat16_bits(from_bits(row.f32)), row.bf16)
            << std::hex << "float bits 0x" << row.f32 << ": " << row.why;
}

TEST(Bfloat16, ToFloatIsTheUpperHalf) {
    const struct { uint16_t bf16; uint32_t f32; } rows[] = {
        {0x0000, 0x00000000}, {0x8000, 0x80000000}, {0x3F80, 0x3F800000}, {0x0001, 0x00010000},
        {0x7F7F, 0x7F7F0000}, {0x7F80, 0x7F800000}, {0xFF80, 0xFF800000}, {0x7FC1, 0x7FC10000},
        {0xFFFF, 0xFFFF0000},
    };
    for (const auto &row : rows) EXPECT_EQ(bits_of(bfloat16_bits_to_float(row.bf16)), row.f32) << row.bf16;
    // And every bfloat16 survives the trip back (a NaN stays the same NaN: it is quiet already or
    // has its quiet bit set, so compare NaNs by class).
    for (uint32_t b = 0; b <= 0xFFFF; ++b) {
        float x = bfloat16_bits_to_float(static_cast<uint16_t>(b));
        uint16_t back = float_to_bfloat16_bits(x);
        if (std::isnan(x))
            ASSERT_EQ(back, b | 0x0040u) << b;
        else
            ASSERT_EQ(back, b) << b;
    }
}

struct F16ToF32 {
    uint16_t f16;
    uint32_t f32;
    const char *why;
};

// float16: sign, 5 exponent bits (bias 15), 10 mantissa bits. Normal values rebias the exponent to
// 127 and shift the mantissa up 13 bits; denormals m * 2^-24 become normal floats.
const F16ToF32 kF16ToF32[] = {
    {0x0000, 0x00000000, "+0"},
    {0x8000, 0x80000000, "-0"},
    {0x3C00, 0x3F800000, "1.0: exponent 15 -> 127"},
    {0xC000, 0xC0000000, "-2.0"},
    {0x3555, 0x3EAAA000, "0.333251953125: exponent 13 -> 125, mantissa 0x155 << 13"},
    {0x7BFF, 0x477FE000, "65504, the largest float16"},
    {0xFBFF, 0xC77FE000, "-65504"},
    {0x0400, 0x38800000, "smallest normal 2^-14"},
    {0x0001, 0x33800000, "smallest denormal 2^-24"},
    {0x8001, 0xB3800000, "its negative"},
    {0x0002, 0x34000000, "2^-23"},
    {0x0200, 0x38000000, "2^-15, the largest power of two among denormals"},
    {0x03FF, 0x387FC000, "largest denormal 1023 * 2^-24 = 1.111111111b * 2^-15"},
    {0x7C00, 0x7F800000, "+inf"},
    {0xFC00, 0xFF800000, "-inf"},
    {0x7E00, 0x7FC00000, "quiet NaN"},
    {0xFE00, 0xFFC00000, "negative quiet NaN"},
    {0x7C01, 0x7FC02000, "signaling NaN: payload 1 << 13, made quiet"},
    {0x7FFF, 0x7FFFE000, "NaN, every payload bit"},
};

TEST(Float16, ToFloatMatchesTheTable) {
    for (const auto &row : kF16ToF32)
        EXPECT_EQ(bits_of(float16_bits_to_float(row.f16)), row.f32)
            << std::hex << "float16 bits 0x" << row.f16 << ": " << row.why;
}

// Every finite float16 against its value computed from the fields in double precision.
TEST(Float16, EveryPatternAgainstLdexp) {
    for (uint32_t h = 0; h <= 0xFFFF; ++h) {
        int exponent = (h >> 10) & 0x1F;
        int mantissa = h & 0x3FF;
        double sign = (h & 0x8000) ? -1.0 : 1.0;
        float got = float16_bits_to_float(static_cast<uint16_t>(h));
        if (exponent == 0x1F) {
            ASSERT_TRUE(mantissa ? std::isnan(got) : std::isinf(got)) << h;
            ASSERT_EQ(std::signbit(got), (h & 0x8000) != 0) << h;
            continue;
        }
        double want = exponent == 0 ? sign * std::ldexp(mantissa, -24)
                                    : sign * std::ldexp(1024 + mantissa, exponent - 25);
        ASSERT_EQ(static_cast<double>(got), want) << h;
        ASSERT_EQ(std::signbit(got), (h & 0x8000) != 0) << h;
    }
}

// Round to nearest even decided independently: the two bfloat16 neighbours of x (truncation and
// one ulp above in magnitude), the distances to them in double (exact: they fit in 53 bits).
uint16_t reference_bfloat16(uint32_t u) {
    float x = from_bits(u);
    uint16_t down = static_cast<uint16_t>(u >> 16);
    uint16_t up = static_cast<uint16_t>(down + 1);   // the next magnitude (may reach inf)
    double lo = bfloat16_bits_to_float(down), hi = bfloat16_bits_to_float(up);
    // Above the largest finite bfloat16 the next neighbour is inf; RNE measures it as 2^128.
    if (std::isinf(hi)) hi = std::ldexp(std::signbit(x) ? -1.0 : 1.0, 128);
    double d_lo = std::fabs(double(x) - lo), d_hi = std::fabs(hi - double(x));
    if (d_lo < d_hi) return down;
    if (d_hi < d_lo) return up;
    return (down & 1) ? up : down;
}

TEST(Bfloat16, SweepAgainstRoundToNearestEvenInDouble) {
    // A stride prime to 2^32 visits patterns with every lower half; the rows near each tie are
    // added explicitly for a spread of upper halves.
    int64_t checked = 0;
    auto check = [&](uint32_t u) {
        if ((u & 0x7FFFFFFFu) >= 0x7F800000u) return;   // inf and NaN: the tables cover them
        ASSERT_EQ(float_to_bfloat16_bits(from_bits(u)), reference_bfloat16(u)) << std::hex << u;
        ++checked;
    };
    for (uint64_t u = 0; u <= 0xFFFFFFFFull; u += 65521) check(static_cast<uint32_t>(u));
    for (uint32_t upper = 0; upper < 0x10000; upper += 37)
        for (uint32_t lower : {0x7FFFu, 0x8000u, 0x8001u, 0x0000u, 0xFFFFu})
            check((upper << 16) | lower);
    EXPECT_GT(checked, 60000);
}

TEST(Bfloat16, ArrayFormsReadUnalignedMemory) {
    // Three bfloat16 and three float16 values placed at an odd address.
    unsigned char buffer[1 + 6];
    const uint16_t bf[] = {0x3F80, 0xC040, 0x7F80};   // 1, -3, inf
    std::memcpy(buffer + 1, bf, sizeof bf);
    float out[3];
    halogen::bfloat16_to_float(buffer + 1, out, 3);
    EXPECT_EQ(out[0], 1.0f);
    EXPECT_EQ(out[1], -3.0f);
    EXPECT_TRUE(std::isinf(out[2]));
    const uint16_t h[] = {0x3C00, 0xC200, 0x0001};    // 1, -3, 2^-24
    std::memcpy(buffer + 1, h, sizeof h);
    halogen::float16_to_float(buffer + 1, out, 3);
    EXPECT_EQ(out[0], 1.0f);
    EXPECT_EQ(out[1], -3.0f);
    EXPECT_EQ(out[2], std::ldexp(1.0f, -24));
    const float in[] = {1.0f, from_bits(0x3F818000), from_bits(0x7F7FFFFF)};
    halogen::float_to_bfloat16(in, buffer + 1, 3);
    uint16_t back[3];
    std::memcpy(back, buffer + 1, sizeof back);
    EXPECT_EQ(back[0], 0x3F80);
    EXPECT_EQ(back[1], 0x3F82);
    EXPECT_EQ(back[2], 0x7F80);
}

}  // namespace
