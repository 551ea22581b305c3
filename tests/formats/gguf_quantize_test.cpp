// The encoders of ggml's types (quantize_row, formats/ggml_types.h): hand-computed Q8_0 and Q4_0
// blocks (their rounding is ggml's), the error of quantize -> dequantize within stated bounds on
// several distributions, blocks of zeros, constants and +-max, and the refusals (values that are
// not finite or too large, partial blocks, unsupported types). ggml's own encoders are compared
// in gguf_ggml_file_test.cpp.
//
// The bounds, per block of largest magnitude M (the block of 32 for Q8_0 and Q4_0, the super-block
// of 256 for the K types):
//   Q8_0  |x - x'| <= M / 254 + M / 2048   half a step of d = M / 127, plus d's float16 rounding
//                                           (at most 2^-11 relative) times 127
//   Q4_0  |x - x'| <= M / 8 + M / 2048     the grid runs from -8 d to 7 d with d = (the value of
//                                           magnitude M) / -8, so that value's opposite sign is
//                                           clipped one step short; float16 rounding as above
//   Q4_K  |x - x'| <= 0.15 M and relative RMS <= 0.072 on normal data (measured over these
//                                           distributions: worst 0.11 M, 0.125 M on 2000 normal
//                                           super-blocks; ggml's reference quantizer has 0.0713
//                                           relative RMS on normal data)
//   Q6_K  |x - x'| <= 0.04 M and relative RMS <= 0.018 on normal data (measured: worst 0.03 M;
//                                           ggml's 0.0178)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "formats/ggml_types.h"
#include "frontend/errors.h"

namespace {

using halogen::GgmlType;

std::vector<uint8_t> encode(GgmlType t, const std::vector<float> &x) {
    std::vector<uint8_t> out(halogen::ggml_row_bytes(t, x.size()));
    halogen::quantize_row(t, x.data(), out.data(), static_cast<int64_t>(x.size()));
    return out;
}

std::vector<float> round_trip(GgmlType t, const std::vector<float> &x) {
    std::vector<uint8_t> q = encode(t, x);
    std::vector<float> y(x.size());
    halogen::dequantize_row(t, q.data(), y.data(), static_cast<int64_t>(x.size()));
    return y;
}

uint16_t u16_at(const std::vector<uint8_t> &b, size_t at) { return static_cast<uint16_t>(b[at] | (b[at + 1] << 8)); }

TEST(GgmlQuantize, Q8_0RoundsHalfAwayFromZero) {
    // M = 127, so d = 1 (float16 0x3C00) and q = round(x): 0.5 -> 1, -63.5 -> -64, 2.5 -> 3, 2.49 -> 2.
    std::vector<float> x(32, 0.0f);
    x[0] = 127.0f, x[1] = -63.5f, x[2] = 0.5f, x[3] = 2.5f, x[4] = 2.49f, x[5] = -127.0f;
    std::vector<uint8_t> b = encode(GgmlType::Q8_0, x);
    EXPECT_EQ(u16_at(b, 0), 0x3C00);
    const auto *q = reinterpret_cast<const int8_t *>(&b[2]);
    EXPECT_EQ(q[0], 127);
    EXPECT_EQ(q[1], -64);
    EXPECT_EQ(q[2], 1);
    EXPECT_EQ(q[3], 3);
    EXPECT_EQ(q[4], 2);
    EXPECT_EQ(q[5], -127);
    EXPECT_EQ(q[6], 0);
}

TEST(GgmlQuantize, Q4_0GridFromTheLargestMagnitude) {
    // The largest magnitude is -4 (first): d = -4 / -8 = 0.5 (0x3800), 1/d = 2, nibble =
    // min(15, trunc(2x + 8.5)): -4 -> 0.5 -> 0; 4 -> 16.5 -> 15 (clipped: decodes to 3.5);
    // 1.2 -> 10.9 -> 10 (decodes to 1); -0.3 -> 7.9 -> 7 (-0.5); 0 -> 8.
    std::vector<float> x(32, 0.0f);
    x[0] = -4.0f, x[1] = 4.0f, x[2] = 1.2f, x[16] = -0.3f;
    std::vector<uint8_t> b = encode(GgmlType::Q4_0, x);
    EXPECT_EQ(u16_at(b, 0), 0x3800);
    EXPECT_EQ(b[2], 0x00 | (7 << 4));   // x0 low nibble 0, x16 high nibble 7
    EXPECT_EQ(b[3], 15 | (8 << 4));     // x1 15, x17 8
    EXPECT_EQ(b[4], 10 | (8 << 4));     // x2 10, x18 8
    std::vector<float> y = round_trip(GgmlType::Q4_0, x);
    EXPECT_EQ(y[0], -4.0f);
    EXPECT_EQ(y[1], 3.5f);
    EXPECT_EQ(y[2], 1.0f);
    EXPECT_EQ(y[16], -0.5f);
    EXPECT_EQ(y[5], 0.0f);
}

struct Distribution {
    const char *name;
    std::function<float(std::mt19937 &, int)> draw;
};

const std::vector<Distribution> &distributions() {
    static const std::vector<Distribution> d = {
        {"normal", [](std::mt19937 &g, int) { return std::normal_distribution<float>(0, 1)(g); }},
        {"weights", [](std::mt19937 &g, int) { return std::normal_distribution<float>(0, 0.02f)(g); }},
        {"positive", [](std::mt19937 &g, int) { return std::uniform_real_distribution<float>(0, 1)(g); }},
        {"negative", [](std::mt19937 &g, int) { return std::uniform_real_distribution<float>(-1.5f, -0.5f)(g); }},
        {"outliers", [](std::mt19937 &g, int i) {
             return std::normal_distribution<float>(0, i % 61 == 3 ? 40.0f : 0.02f)(g); }},
        {"large", [](std::mt19937 &g, int) { return std::normal_distribution<float>(0, 3000)(g); }},
        {"sparse", [](std::mt19937 &g, int i) { return i % 7 ? 0.0f : std::normal_distribution<float>(0, 1)(g); }},
    };
    return d;
}

// The largest |x - x'| / M over the blocks of `block` values.
double worst_relative_error(const std::vector<float> &x, const std::vector<float> &y, size_t block) {
    double worst = 0;
    for (size_t b = 0; b < x.size(); b += block) {
        float m = 0, e = 0;
        for (size_t i = b; i < b + block; ++i) {
            m = std::max(m, std::fabs(x[i]));
            e = std::max(e, std::fabs(x[i] - y[i]));
        }
        if (m > 0) worst = std::max(worst, double(e) / m);
    }
    return worst;
}

double relative_rms(const std::vector<float> &x, const std::vector<float> &y) {
    double se = 0, sx = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        se += double(x[i] - y[i]) * (x[i] - y[i]);
        sx += double(x[i]) * x[i];
    }
    return std::sqrt(se / sx);
}

TEST(GgmlQuantize, ErrorWithinBounds) {
    struct Bound { GgmlType type; size_t block; double max_relative, normal_rms; };
    const Bound bounds[] = {{GgmlType::Q8_0, 32, 1.0 / 254 + 1.0 / 2048, 0.006},
                            {GgmlType::Q4_0, 32, 1.0 / 8 + 1.0 / 2048, 0.09},
                            {GgmlType::Q4_K, 256, 0.15, 0.072},
                            {GgmlType::Q6_K, 256, 0.04, 0.018}};
    for (const Distribution &d : distributions()) {
        std::mt19937 gen(42);
        std::vector<float> x(256 * 64);
        for (size_t i = 0; i < x.size(); ++i) x[i] = d.draw(gen, static_cast<int>(i));
        for (const Bound &b : bounds) {
            std::vector<float> y = round_trip(b.type, x);
            EXPECT_LE(worst_relative_error(x, y, b.block), b.max_relative) << halogen::ggml_type_name(b.type) << " " << d.name;
            if (std::string(d.name) == "normal") {
                EXPECT_LE(relative_rms(x, y), b.normal_rms) << halogen::ggml_type_name(b.type);
            }
        }
    }
}

TEST(GgmlQuantize, TinyValuesKeepAScale) {
    // Values of 1e-5: the K types' super-block scale is below float16's normal range; it becomes
    // a subnormal (at worst the smallest) instead of zero, so the values survive.
    std::mt19937 gen(3);
    std::vector<float> x(256);
    for (float &v : x) v = std::normal_distribution<float>(0, 1e-5f)(gen);
    for (GgmlType t : {GgmlType::Q4_K, GgmlType::Q6_K}) {
        std::vector<float> y = round_trip(t, x);
        EXPECT_LE(worst_relative_error(x, y, 256), 0.5) << halogen::ggml_type_name(t);
        EXPECT_LE(relative_rms(x, y), 0.1) << halogen::ggml_type_name(t);
    }
}

const GgmlType kTypes[] = {GgmlType::F16, GgmlType::BF16, GgmlType::Q8_0, GgmlType::Q4_0, GgmlType::Q4_K,
                           GgmlType::Q6_K};

TEST(GgmlQuantize, ZeroBlocksDecodeToZeros) {
    const std::vector<float> x(512, 0.0f);
    for (GgmlType t : kTypes) {
        for (float v : round_trip(t, x)) ASSERT_EQ(v, 0.0f) << halogen::ggml_type_name(t);
    }
}

TEST(GgmlQuantize, ConstantBlocksDecodeToTheConstant) {
    // Up to the float16 rounding of the scales (2^-11 relative, here checked at 2^-9) while those
    // are normal float16 numbers (BF16: its own rounding, 2^-9); for tiny values the scales are
    // subnormal, with a coarser step.
    for (float c : {0.75f, -3.5f, 0.0625f, -1234.5f, 20.0f}) {
        const std::vector<float> x(512, c);
        for (GgmlType t : kTypes) {
            const double bound = std::fabs(c) * std::ldexp(1.0, t == GgmlType::BF16 ? -8 : -9);
            for (float v : round_trip(t, x)) ASSERT_NEAR(v, c, bound) << halogen::ggml_type_name(t) << " " << c;
        }
    }
    const std::vector<float> tiny(512, 1e-3f);
    for (GgmlType t : kTypes) {
        for (float v : round_trip(t, tiny)) ASSERT_NEAR(v, 1e-3f, 1e-3f / 64) << halogen::ggml_type_name(t);
    }
}

TEST(GgmlQuantize, PlusMinusMax) {
    // Blocks of +M, -M and 0: each value is on every grid up to the scales' rounding, except in
    // Q4_0, whose grid runs from -8 d to 7 d with -8 d the block's first value of magnitude M: a
    // value of the opposite sign is clipped to 7/8 of it.
    const float m = 6.25f;
    std::vector<float> x(512);
    for (size_t i = 0; i < x.size(); ++i) x[i] = i % 3 == 0 ? m : i % 3 == 1 ? -m : 0.0f;
    for (GgmlType t : kTypes) {
        std::vector<float> y = round_trip(t, x);
        for (size_t i = 0; i < x.size(); ++i) {
            size_t first = i / 32 * 32;
            while (x[first] == 0.0f) ++first;
            if (t == GgmlType::Q4_0 && x[i] == -x[first])
                ASSERT_EQ(y[i], x[i] * 7 / 8) << i;
            else
                ASSERT_NEAR(y[i], x[i], m * std::ldexp(1.0, -9)) << halogen::ggml_type_name(t) << " " << i;
        }
    }
}

template <class Error> void expect_error(GgmlType t, const std::vector<float> &x, const std::string &needle) {
    std::vector<uint8_t> out(1 << 12);
    try {
        halogen::quantize_row(t, x.data(), out.data(), static_cast<int64_t>(x.size()));
        FAIL() << "no error for " << halogen::ggml_type_name(t) << ", expected " << needle;
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

TEST(GgmlQuantize, Refusals) {
    std::vector<float> x(256, 1.0f);
    x[17] = std::numeric_limits<float>::quiet_NaN();
    for (GgmlType t : kTypes) expect_error<halogen::DTypeError>(t, x, "element 17 is nan");
    x[17] = -std::numeric_limits<float>::infinity();
    expect_error<halogen::DTypeError>(GgmlType::Q4_K, x, "element 17 is -inf");
    x[17] = 1.0f;
    // Too large for the float16 scales (or for F16 / BF16 themselves).
    x[3] = 1e7f;
    expect_error<halogen::DTypeError>(GgmlType::Q8_0, x, "block 0 of Q8_0");
    expect_error<halogen::DTypeError>(GgmlType::Q4_0, x, "block 0 of Q4_0");
    expect_error<halogen::DTypeError>(GgmlType::F16, x, "element 3 (10000000) is beyond F16's range");
    x[3] = 1e12f;
    expect_error<halogen::DTypeError>(GgmlType::Q4_K, x, "super-block 0 of Q4_K");
    expect_error<halogen::DTypeError>(GgmlType::Q6_K, x, "super-block 0 of Q6_K");
    x[3] = 3.4e38f;
    expect_error<halogen::DTypeError>(GgmlType::BF16, x, "beyond BF16's range");
    x[3] = -1e30f;   // the Q4_K min would overflow
    expect_error<halogen::DTypeError>(GgmlType::Q4_K, x, "super-block 0 of Q4_K");
    // A partial block, an unsupported type.
    expect_error<halogen::ShapeError>(GgmlType::Q4_K, std::vector<float>(100, 1.0f), "not a whole number");
    expect_error<halogen::DTypeError>(GgmlType::Q5_K, std::vector<float>(256, 1.0f), "Q5_K is not supported");
}

TEST(GgmlQuantize, FloatTypesRoundToNearestEven) {
    // 1 + 2^-11 is halfway between float16's 1 and 1 + 2^-10: to the even one, 1. 1 + 3 * 2^-11
    // rounds up to 1 + 2^-9 (even). bfloat16: 1 + 2^-8 is halfway: to 1.
    const std::vector<float> x = {1.0f + std::ldexp(1.0f, -11), 1.0f + 3 * std::ldexp(1.0f, -11),
                                  1.0f + std::ldexp(1.0f, -8), -2.0f};
    std::vector<float> h = round_trip(GgmlType::F16, x);
    EXPECT_EQ(h[0], 1.0f);
    EXPECT_EQ(h[1], 1.0f + std::ldexp(1.0f, -9));
    EXPECT_EQ(h[3], -2.0f);
    std::vector<float> b = round_trip(GgmlType::BF16, x);
    EXPECT_EQ(b[2], 1.0f);
    EXPECT_EQ(round_trip(GgmlType::F32, x), x);
}

}  // namespace
