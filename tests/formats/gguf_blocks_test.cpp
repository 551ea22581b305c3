// Dequantization of ggml's block types (formats/ggml_types.h), bit for bit: blocks built by hand
// here with their values worked out in the comments (scale signs, zero scales, nibble order,
// Q4_K's 6-bit scale packing, Q6_K's split quants), and the fixture blocks of
// tests/fixtures/gguf/blocks.json decoded by an independent Python implementation
// (tests/fixtures/gguf/generate.py). Also float32 -> float16 rounding, against numpy's conversion
// and exhaustively against the exact float16 -> float32 decoding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "formats/float16_encode.h"
#include "formats/ggml_types.h"
#include "frontend/bfloat16.h"
#include "frontend/errors.h"

namespace {

using halogen::GgmlType;

uint32_t bits_of(float x) {
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

std::vector<float> decode(GgmlType t, const std::vector<uint8_t> &bytes, int64_t n) {
    std::vector<float> out(static_cast<size_t>(n), -12345.0f);
    halogen::dequantize_row(t, bytes.data(), out.data(), n);
    return out;
}

// ---- Hand-made blocks

TEST(GgmlDequantize, Q8_0ByHand) {
    // d = float16 0x3800 = 0.5; x = q * d.
    std::vector<uint8_t> b(34, 0);
    b[0] = 0x00, b[1] = 0x38;
    const int8_t q[] = {-128, 127, 0, 1, -1, 3};
    std::memcpy(&b[2], q, sizeof q);
    std::vector<float> x = decode(GgmlType::Q8_0, b, 32);
    EXPECT_EQ(x[0], -64.0f);   // -128 * 0.5
    EXPECT_EQ(x[1], 63.5f);    // 127 * 0.5
    EXPECT_EQ(x[2], 0.0f);
    EXPECT_EQ(x[3], 0.5f);
    EXPECT_EQ(x[4], -0.5f);
    EXPECT_EQ(x[5], 1.5f);
    // A negative scale flips every sign: d = 0xC000 = -2, so q = 3 gives -6 and q = -128 gives 256.
    b[0] = 0x00, b[1] = 0xC0;
    x = decode(GgmlType::Q8_0, b, 32);
    EXPECT_EQ(x[5], -6.0f);
    EXPECT_EQ(x[0], 256.0f);
    // A zero scale gives zeros, signed as q * (+0): -0 for negative q, +0 otherwise.
    b[0] = 0x00, b[1] = 0x00;
    x = decode(GgmlType::Q8_0, b, 32);
    EXPECT_EQ(bits_of(x[0]), 0x80000000u);
    EXPECT_EQ(bits_of(x[1]), 0x00000000u);
}

TEST(GgmlDequantize, Q4_0NibbleOrder) {
    // d = 0x3C00 = 1. Value j (< 16) is the low nibble of qs[j] minus 8, value j + 16 the high one.
    std::vector<uint8_t> b(18, 0x88);   // every nibble 8: value 0
    b[0] = 0x00, b[1] = 0x3C;
    b[2] = 0x1F;    // qs[0]: low F -> x0 = 15 - 8 = 7;  high 1 -> x16 = 1 - 8 = -7
    b[3] = 0x80;    // qs[1]: low 0 -> x1 = -8;          high 8 -> x17 = 0
    b[17] = 0xF0;   // qs[15]: low 0 -> x15 = -8;        high F -> x31 = 7
    std::vector<float> x = decode(GgmlType::Q4_0, b, 32);
    EXPECT_EQ(x[0], 7.0f);
    EXPECT_EQ(x[16], -7.0f);
    EXPECT_EQ(x[1], -8.0f);
    EXPECT_EQ(x[17], 0.0f);
    EXPECT_EQ(x[15], -8.0f);
    EXPECT_EQ(x[31], 7.0f);
    EXPECT_EQ(x[5], 0.0f);
    // d = 0xB800 = -0.5: x0 = 7 * -0.5 = -3.5, x1 = -8 * -0.5 = 4.
    b[1] = 0xB8;
    x = decode(GgmlType::Q4_0, b, 32);
    EXPECT_EQ(x[0], -3.5f);
    EXPECT_EQ(x[1], 4.0f);
    EXPECT_EQ(x[16], 3.5f);
}

// Q4_K with d = 0.5 (0x3800), dmin = 0.25 (0x3400) and these sub-block scales and mins:
//   j:   0   1   2   3   4   5   6   7
//   sc:  1  63   0  10  17  48   0  63
//   m:   2   0  63  20  33   5   0  63
// packed into 12 bytes by hand: bytes 0-3 hold sc0..sc3 in their low 6 bits and the top 2 bits of
// sc4..sc7 (17 = 01 0001, 48 = 11 0000, 0, 63 = 11 1111) in bits 6-7; bytes 4-7 the same for the
// mins (m4 = 33 = 10 0001, m5 = 5 = 00 0101, 0, 63); bytes 8-11 the low nibbles, sc in the low half:
//   byte 0 = 1 | 01 << 6 = 0x41      byte 4 = 2 | 10 << 6 = 0x82      byte 8  = 0x1 | 0x1 << 4 = 0x11
//   byte 1 = 63 | 11 << 6 = 0xFF     byte 5 = 0 | 00 << 6 = 0x00      byte 9  = 0x0 | 0x5 << 4 = 0x50
//   byte 2 = 0 | 00 << 6 = 0x00      byte 6 = 63 | 00 << 6 = 0x3F     byte 10 = 0x00
//   byte 3 = 10 | 11 << 6 = 0xCA     byte 7 = 20 | 11 << 6 = 0xD4     byte 11 = 0xF | 0xF << 4 = 0xFF
// Each 32-byte run r of qs holds sub-block 2r in its low nibbles and 2r + 1 in its high ones; byte
// l of every run here is (l % 16) | (15 - l % 16) << 4, so q = l % 16 in even sub-blocks and
// 15 - l % 16 in odd ones. x = (d * sc) * q - (dmin * m).
std::vector<uint8_t> q4_k_hand_block(uint8_t d_hi, uint8_t dmin_hi) {
    std::vector<uint8_t> b(144);
    b[0] = 0x00, b[1] = d_hi, b[2] = 0x00, b[3] = dmin_hi;
    const uint8_t scales[12] = {0x41, 0xFF, 0x00, 0xCA, 0x82, 0x00, 0x3F, 0xD4, 0x11, 0x50, 0x00, 0xFF};
    std::memcpy(&b[4], scales, 12);
    for (int r = 0; r < 4; ++r)
        for (int l = 0; l < 32; ++l) b[16 + 32 * r + l] = static_cast<uint8_t>((l % 16) | ((15 - l % 16) << 4));
    return b;
}

TEST(GgmlDequantize, Q4_KScalePackingByHand) {
    std::vector<float> x = decode(GgmlType::Q4_K, q4_k_hand_block(0x38, 0x34), 256);
    // sub-block 0 (sc 1, m 2): 0.5 q - 0.5
    EXPECT_EQ(x[0 * 32 + 0], -0.5f);     // q 0
    EXPECT_EQ(x[0 * 32 + 3], 1.0f);      // q 3: 1.5 - 0.5
    EXPECT_EQ(x[0 * 32 + 31], 7.0f);     // q 15: 7.5 - 0.5
    // sub-block 1 (sc 63, m 0): 31.5 (15 - l % 16)
    EXPECT_EQ(x[1 * 32 + 0], 472.5f);    // 31.5 * 15
    EXPECT_EQ(x[1 * 32 + 15], 0.0f);
    // sub-block 2 (sc 0, m 63): -15.75 everywhere
    for (int l = 0; l < 32; ++l) EXPECT_EQ(x[2 * 32 + l], -15.75f) << l;
    // sub-block 3 (sc 10, m 20): 5 (15 - l % 16) - 5
    EXPECT_EQ(x[3 * 32 + 0], 70.0f);
    EXPECT_EQ(x[3 * 32 + 15], -5.0f);
    // sub-block 4 (sc 17, m 33: both use the top-bit packing): 8.5 q - 8.25
    EXPECT_EQ(x[4 * 32 + 0], -8.25f);
    EXPECT_EQ(x[4 * 32 + 2], 8.75f);     // 17 - 8.25
    // sub-block 5 (sc 48, m 5): 24 (15 - l % 16) - 1.25
    EXPECT_EQ(x[5 * 32 + 0], 358.75f);   // 360 - 1.25
    EXPECT_EQ(x[5 * 32 + 14], 22.75f);   // 24 - 1.25
    // sub-block 6 (sc 0, m 0): 0
    EXPECT_EQ(bits_of(x[6 * 32 + 7]), 0u);
    // sub-block 7 (sc 63, m 63): 31.5 (15 - l % 16) - 15.75
    EXPECT_EQ(x[7 * 32 + 0], 456.75f);
    EXPECT_EQ(x[7 * 32 + 15], -15.75f);
}

TEST(GgmlDequantize, Q4_KScaleSignsAndZeros) {
    // d = -0.5 (0xB800): sub-block 0 gives (-0.5 * 1) * 3 - 0.5 = -2 at l = 3.
    std::vector<float> x = decode(GgmlType::Q4_K, q4_k_hand_block(0xB8, 0x34), 256);
    EXPECT_EQ(x[3], -2.0f);
    EXPECT_EQ(x[1 * 32 + 0], -472.5f);
    // dmin = -0.25 (0xB400): the mins add: sub-block 2 is +15.75.
    x = decode(GgmlType::Q4_K, q4_k_hand_block(0x38, 0xB4), 256);
    EXPECT_EQ(x[2 * 32 + 9], 15.75f);
    EXPECT_EQ(x[3], 2.0f);   // 1.5 + 0.5
    // d = 0: only the mins remain, x = -dmin * m: sub-block 3 is -5 everywhere.
    x = decode(GgmlType::Q4_K, q4_k_hand_block(0x00, 0x34), 256);
    for (int l = 0; l < 32; ++l) EXPECT_EQ(x[3 * 32 + l], -5.0f) << l;
    // dmin = 0: only the scaled quants: sub-block 7 at l = 0 is 472.5.
    x = decode(GgmlType::Q4_K, q4_k_hand_block(0x38, 0x00), 256);
    EXPECT_EQ(x[7 * 32 + 0], 472.5f);
}

// Q6_K with d = 0.25 (0x3400) and scales {1, -1, 2, -2, 3, -3, 4, -4, 127, -128, 0, 5, 6, 7, 8, 9}.
// Value i lies in half h = i / 128, group k = (i % 128) / 32, lane l = i % 32, with scale
// scales[8h + l/16 + 2k]; its 6 bits are a nibble of ql[64h + l + 32(k % 2)] (low for k < 2) and
// bits 2k, 2k+1 of qh[32h + l]; q = bits - 32. Every ql byte 0 and qh byte 0xAA (fields of 2)
// store 32, q = 0; then, by hand:
//   i = 0   (h0 k0 l0):  ql[0] low F,  qh[0] bits 0-1 = 3: 63 - 32 = 31, scale 1:  0.25 * 31 = 7.75
//   i = 32  (h0 k1 l0):  ql[32] low 0, qh[0] bits 2-3 = 0:  0 - 32 = -32, scale 2:  0.5 * -32 = -16
//   i = 64  (h0 k2 l0):  ql[0] high 1, qh[0] bits 4-5 = 2: 33 - 32 = 1,   scale 3:  0.75 * 1 = 0.75
//   i = 96  (h0 k3 l0):  ql[32] high F, qh[0] bits 6-7 = 1: 31 - 32 = -1, scale 4: 1 * -1 = -1
//     so ql[0] = 0x1F, ql[32] = 0xF0, qh[0] = 3 | 0 << 2 | 2 << 4 | 1 << 6 = 0x63
//   i = 145 (h1 k0 l17): ql[81] low 5, qh[49] bits 0-1 = 2: 37 - 32 = 5, scale[9] = -128: -32 * 5 = -160
//   i = 244 (h1 k3 l20): ql[116] high C, qh[52] bits 6-7 = 0: 12 - 32 = -20, scale[15] = 9:
//     2.25 * -20 = -45; qh[52] = 0x2A keeps its other fields at 2
TEST(GgmlDequantize, Q6_KByHand) {
    std::vector<uint8_t> b(210, 0);
    for (int i = 128; i < 192; ++i) b[i] = 0xAA;
    const int8_t scales[16] = {1, -1, 2, -2, 3, -3, 4, -4, 127, -128, 0, 5, 6, 7, 8, 9};
    std::memcpy(&b[192], scales, 16);
    b[208] = 0x00, b[209] = 0x34;
    b[0] = 0x1F, b[32] = 0xF0, b[128 + 0] = 0x63;
    b[64 + 17] = 0x05;
    b[64 + 32 + 20] = 0xC0, b[128 + 32 + 20] = 0x2A;
    std::vector<float> x = decode(GgmlType::Q6_K, b, 256);
    EXPECT_EQ(x[0], 7.75f);
    EXPECT_EQ(x[32], -16.0f);
    EXPECT_EQ(x[64], 0.75f);
    EXPECT_EQ(x[96], -1.0f);
    EXPECT_EQ(x[145], -160.0f);
    EXPECT_EQ(x[244], -45.0f);
    for (int i = 0; i < 256; ++i) {
        if (i != 0 && i != 32 && i != 64 && i != 96 && i != 145 && i != 244) EXPECT_EQ(x[i], 0.0f) << i;
    }
    // A negative d flips them; a zero d gives zeros.
    b[209] = 0xB4;
    x = decode(GgmlType::Q6_K, b, 256);
    EXPECT_EQ(x[0], -7.75f);
    EXPECT_EQ(x[145], 160.0f);
    b[209] = 0x00;
    x = decode(GgmlType::Q6_K, b, 256);
    for (int i = 0; i < 256; ++i) EXPECT_EQ(x[i], 0.0f) << i;
}

TEST(GgmlDequantize, FloatTypesAreExact) {
    // F16 0x3555 = 0.333251953125, 0x0001 = 2^-24, 0xFBFF = -65504; BF16 0x3EAB = 0.333984375.
    std::vector<uint8_t> f16 = {0x55, 0x35, 0x01, 0x00, 0xFF, 0xFB};
    std::vector<float> x = decode(GgmlType::F16, f16, 3);
    EXPECT_EQ(x[0], 0.333251953125f);
    EXPECT_EQ(x[1], std::ldexp(1.0f, -24));
    EXPECT_EQ(x[2], -65504.0f);
    std::vector<uint8_t> bf16 = {0xAB, 0x3E};
    EXPECT_EQ(decode(GgmlType::BF16, bf16, 1)[0], 0.333984375f);
    const float f = 1.0f / 3.0f;
    std::vector<uint8_t> f32(4);
    std::memcpy(f32.data(), &f, 4);
    EXPECT_EQ(decode(GgmlType::F32, f32, 1)[0], f);
}

TEST(GgmlDequantize, RefusesOtherTypesAndPartialBlocks) {
    std::vector<uint8_t> b(256);
    float out[256];
    EXPECT_THROW(halogen::dequantize_row(GgmlType::Q5_K, b.data(), out, 256), halogen::DTypeError);
    EXPECT_THROW(halogen::dequantize_row(static_cast<GgmlType>(4), b.data(), out, 32), halogen::DTypeError);
    EXPECT_THROW(halogen::dequantize_row(static_cast<GgmlType>(99), b.data(), out, 32), halogen::DTypeError);
    EXPECT_THROW(halogen::dequantize_row(GgmlType::Q4_K, b.data(), out, 128), halogen::ShapeError);
    try {
        halogen::dequantize_row(GgmlType::IQ2_XXS, b.data(), out, 256);
        FAIL() << "no error";
    } catch (const halogen::DTypeError &e) {
        EXPECT_NE(std::string(e.what()).find("IQ2_XXS"), std::string::npos) << e.what();
    }
}

TEST(GgmlTypes, TableMatchesGgml) {
    // Block sizes from ggml-common.h's structs: a few by hand.
    struct Row { uint32_t id; const char *name; uint32_t elements, bytes; bool supported; };
    const Row rows[] = {{0, "F32", 1, 4, true},     {1, "F16", 1, 2, true},      {2, "Q4_0", 32, 18, true},
                        {8, "Q8_0", 32, 34, true},  {12, "Q4_K", 256, 144, true}, {14, "Q6_K", 256, 210, true},
                        {30, "BF16", 1, 2, true},   {13, "Q5_K", 256, 176, false}, {10, "Q2_K", 256, 84, false},
                        {23, "IQ4_XS", 256, 136, false}, {39, "MXFP4", 32, 17, false}};
    for (const Row &r : rows) {
        const halogen::GgmlTypeInfo *info = halogen::ggml_type_info(r.id);
        ASSERT_NE(info, nullptr) << r.id;
        EXPECT_EQ(info->name, r.name);
        EXPECT_EQ(info->block_elements, r.elements) << r.name;
        EXPECT_EQ(info->block_bytes, r.bytes) << r.name;
        EXPECT_EQ(info->supported, r.supported) << r.name;
    }
    EXPECT_EQ(halogen::ggml_type_info(4)->block_elements, 0u);   // Q4_2, removed
    EXPECT_EQ(halogen::ggml_type_info(40), nullptr);
    EXPECT_EQ(halogen::ggml_type_name(77), "ggml type 77");
    EXPECT_EQ(halogen::ggml_row_bytes(GgmlType::Q4_K, 512), 288u);
    EXPECT_THROW(halogen::ggml_row_bytes(GgmlType::Q4_K, 100), halogen::ShapeError);
}

// ---- The independent Python decoder's blocks

nlohmann::json fixture() {
    std::ifstream in(std::string(HALOGEN_GGUF_FIXTURES_DIR) + "/blocks.json");
    EXPECT_TRUE(in.good());
    return nlohmann::json::parse(in);
}

std::vector<uint8_t> from_hex(const std::string &hex) {
    std::vector<uint8_t> out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return out;
}

TEST(GgmlDequantize, MatchesIndependentDecoderBitForBit) {
    const nlohmann::json f = fixture();
    int cases = 0;
    for (const auto &[type_name, list] : f.at("types").items()) {
        GgmlType type{};
        bool found = false;
        for (uint32_t id = 0; id < 40; ++id) {
            const halogen::GgmlTypeInfo *info = halogen::ggml_type_info(id);
            if (info && info->name == type_name) type = static_cast<GgmlType>(id), found = true;
        }
        ASSERT_TRUE(found) << type_name;
        for (const auto &c : list) {
            const std::vector<uint8_t> blocks = from_hex(c.at("blocks"));
            const auto want = c.at("values").get<std::vector<uint32_t>>();
            std::vector<float> got = decode(type, blocks, static_cast<int64_t>(want.size()));
            for (size_t i = 0; i < want.size(); ++i)
                ASSERT_EQ(bits_of(got[i]), want[i]) << type_name << " '" << c.at("name").get<std::string>()
                                                    << "' value " << i << ": got " << got[i];
            ++cases;
        }
    }
    EXPECT_GE(cases, 20);
}

TEST(Float16Encode, MatchesNumpy) {
    const nlohmann::json f = fixture();
    for (const auto &pair : f.at("float16_encode")) {
        const uint32_t in = pair[0];
        float x;
        std::memcpy(&x, &in, 4);
        EXPECT_EQ(halogen::float_to_float16_bits(x), pair[1].get<uint32_t>()) << x << " (bits " << std::hex << in << ")";
    }
}

TEST(Float16Encode, RoundTripsEveryHalfAndRoundsMidpointsToEven) {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        if ((h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0) continue;   // NaN: checked below
        const float x = halogen::float16_bits_to_float(static_cast<uint16_t>(h));
        ASSERT_EQ(halogen::float_to_float16_bits(x), h) << std::hex << h;
        // The midpoint to the next half of larger magnitude (exact in float32) goes to the even one.
        if ((h & 0x7FFF) >= 0x7BFF) continue;   // the largest finite half's midpoint rounds to infinity
        const float next = halogen::float16_bits_to_float(static_cast<uint16_t>(h + 1));
        const float mid = x + (next - x) / 2;
        const uint32_t even = (h & 1) ? h + 1 : h;
        ASSERT_EQ(halogen::float_to_float16_bits(mid), even) << std::hex << h;
        // Just above and below the midpoint: the nearer one.
        ASSERT_EQ(halogen::float_to_float16_bits(std::nextafter(mid, next)), h + 1) << std::hex << h;
        ASSERT_EQ(halogen::float_to_float16_bits(std::nextafter(mid, x)), h) << std::hex << h;
    }
    EXPECT_EQ(halogen::float_to_float16_bits(65519.996f), 0x7BFF);
    EXPECT_EQ(halogen::float_to_float16_bits(65520.0f), 0x7C00);
    const uint16_t nan = halogen::float_to_float16_bits(std::nanf(""));
    EXPECT_EQ(nan & 0x7C00, 0x7C00);
    EXPECT_NE(nan & 0x03FF, 0);
}

}  // namespace
