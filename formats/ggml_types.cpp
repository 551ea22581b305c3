// ggml's type table and the dispatch of dequantize_row / quantize_row (see ggml_types.h).
#include "formats/ggml_types.h"

#include <fmt/format.h>

#include <array>
#include <cstring>

#include "formats/float16_encode.h"
#include "formats/ggml_blocks.h"
#include "frontend/bfloat16.h"
#include "frontend/errors.h"

namespace halogen {

namespace {

constexpr uint32_t kQK_K = 256;   // the K-quants' super-block

// Indexed by type id; sizes as ggml-common.h's block structs.
constexpr std::array<GgmlTypeInfo, 40> kTypes = {{
    {"F32", 1, 4, true},                    // 0
    {"F16", 1, 2, true},                    // 1
    {"Q4_0", 32, 18, true},                 // 2
    {"Q4_1", 32, 20, false},                // 3
    {"Q4_2 (removed)", 0, 0, false},        // 4
    {"Q4_3 (removed)", 0, 0, false},        // 5
    {"Q5_0", 32, 22, false},                // 6
    {"Q5_1", 32, 24, false},                // 7
    {"Q8_0", 32, 34, true},                 // 8
    {"Q8_1", 32, 36, false},                // 9
    {"Q2_K", kQK_K, 84, false},             // 10
    {"Q3_K", kQK_K, 110, false},            // 11
    {"Q4_K", kQK_K, 144, true},             // 12
    {"Q5_K", kQK_K, 176, false},            // 13
    {"Q6_K", kQK_K, 210, true},             // 14
    {"Q8_K", kQK_K, 292, false},            // 15
    {"IQ2_XXS", kQK_K, 66, false},          // 16
    {"IQ2_XS", kQK_K, 74, false},           // 17
    {"IQ3_XXS", kQK_K, 98, false},          // 18
    {"IQ1_S", kQK_K, 50, false},            // 19
    {"IQ4_NL", 32, 18, false},              // 20
    {"IQ3_S", kQK_K, 110, false},           // 21
    {"IQ2_S", kQK_K, 82, false},            // 22
    {"IQ4_XS", kQK_K, 136, false},          // 23
    {"I8", 1, 1, false},                    // 24
    {"I16", 1, 2, false},                   // 25
    {"I32", 1, 4, false},                   // 26
    {"I64", 1, 8, false},                   // 27
    {"F64", 1, 8, false},                   // 28
    {"IQ1_M", kQK_K, 56, false},            // 29
    {"BF16", 1, 2, true},                   // 30
    {"Q4_0_4_4 (removed)", 0, 0, false},    // 31
    {"Q4_0_4_8 (removed)", 0, 0, false},    // 32
    {"Q4_0_8_8 (removed)", 0, 0, false},    // 33
    {"TQ1_0", kQK_K, 54, false},            // 34
    {"TQ2_0", kQK_K, 66, false},            // 35
    {"IQ4_NL_4_4 (removed)", 0, 0, false},  // 36
    {"IQ4_NL_4_8 (removed)", 0, 0, false},  // 37
    {"IQ4_NL_8_8 (removed)", 0, 0, false},  // 38
    {"MXFP4", 32, 17, false},               // 39
}};

// The row's block count, checked: a supported type and a whole number of blocks.
int64_t supported_blocks(GgmlType t, int64_t n, const char *what) {
    const GgmlTypeInfo *info = ggml_type_info(t);
    if (!info || !info->supported)
        throw DTypeError(fmt::format("{}: type {} is not supported (only {})", what, ggml_type_name(t),
                                     ggml_supported_types_text()));
    if (n < 0 || n % info->block_elements != 0)
        throw ShapeError(fmt::format("{}: {} elements of {} are not a whole number of its {}-element blocks", what, n,
                                     info->name, info->block_elements));
    return n / info->block_elements;
}

[[noreturn]] void throw_out_of_range(float v, int64_t i, GgmlType t) {
    throw DTypeError(fmt::format("quantize_row: element {} ({}) is beyond {}'s range", i, v, ggml_type_name(t)));
}

void check_finite(const float *src, int64_t n, GgmlType t) {
    for (int64_t i = 0; i < n; ++i) {
        uint32_t u;
        std::memcpy(&u, &src[i], sizeof u);
        if ((u & 0x7F800000u) == 0x7F800000u)
            throw DTypeError(fmt::format("quantize_row: element {} is {}; only finite values quantize to {}", i,
                                         src[i], ggml_type_name(t)));
    }
}

}  // namespace

const GgmlTypeInfo *ggml_type_info(uint32_t id) { return id < kTypes.size() ? &kTypes[id] : nullptr; }

std::string ggml_type_name(uint32_t id) {
    if (const GgmlTypeInfo *info = ggml_type_info(id)) return std::string(info->name);
    return fmt::format("ggml type {}", id);
}

bool ggml_type_supported(GgmlType t) {
    const GgmlTypeInfo *info = ggml_type_info(t);
    return info && info->supported;
}

std::string_view ggml_supported_types_text() { return "F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K"; }

uint64_t ggml_row_bytes(GgmlType t, uint64_t n) {
    const GgmlTypeInfo *info = ggml_type_info(t);
    if (!info || info->block_elements == 0)
        throw ShapeError(fmt::format("{} has no block size", ggml_type_name(t)));
    if (n % info->block_elements != 0)
        throw ShapeError(fmt::format("{} elements of {} are not a whole number of its {}-element blocks", n,
                                     info->name, info->block_elements));
    uint64_t bytes;
    if (__builtin_mul_overflow(n / info->block_elements, uint64_t(info->block_bytes), &bytes))
        throw ShapeError(fmt::format("{} elements of {} take more than 2^64 bytes", n, info->name));
    return bytes;
}

void dequantize_row(GgmlType t, const void *src, float *out, int64_t n) {
    const int64_t blocks = supported_blocks(t, n, "dequantize_row");
    const auto *bytes = static_cast<const uint8_t *>(src);
    switch (t) {
    case GgmlType::F32: std::memcpy(out, src, static_cast<size_t>(n) * sizeof(float)); return;
    case GgmlType::F16: float16_to_float(src, out, static_cast<size_t>(n)); return;
    case GgmlType::BF16: bfloat16_to_float(src, out, static_cast<size_t>(n)); return;
    case GgmlType::Q8_0: ggml_blocks::dequantize_q8_0(bytes, out, blocks); return;
    case GgmlType::Q4_0: ggml_blocks::dequantize_q4_0(bytes, out, blocks); return;
    case GgmlType::Q4_K: ggml_blocks::dequantize_q4_k(bytes, out, blocks); return;
    case GgmlType::Q6_K: ggml_blocks::dequantize_q6_k(bytes, out, blocks); return;
    default: break;
    }
    throw DTypeError(fmt::format("dequantize_row: type {} has no decoder", ggml_type_name(t)));   // unreachable: the table says supported
}

void quantize_row(GgmlType t, const float *src, void *dst, int64_t n) {
    const int64_t blocks = supported_blocks(t, n, "quantize_row");
    auto *bytes = static_cast<uint8_t *>(dst);
    if (t == GgmlType::F32) {
        std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(float));
        return;
    }
    check_finite(src, n, t);
    switch (t) {
    case GgmlType::F16:
        for (int64_t i = 0; i < n; ++i) {
            const uint16_t h = float_to_float16_bits(src[i]);
            if ((h & 0x7C00u) == 0x7C00u) throw_out_of_range(src[i], i, t);
            ggml_blocks::store_u16(bytes + 2 * i, h);
        }
        return;
    case GgmlType::BF16:
        for (int64_t i = 0; i < n; ++i) {
            const uint16_t h = float_to_bfloat16_bits(src[i]);
            if ((h & 0x7F80u) == 0x7F80u) throw_out_of_range(src[i], i, t);
            ggml_blocks::store_u16(bytes + 2 * i, h);
        }
        return;
    case GgmlType::Q8_0: ggml_blocks::quantize_q8_0(src, bytes, blocks); return;
    case GgmlType::Q4_0: ggml_blocks::quantize_q4_0(src, bytes, blocks); return;
    case GgmlType::Q4_K: ggml_blocks::quantize_q4_k(src, bytes, blocks); return;
    case GgmlType::Q6_K: ggml_blocks::quantize_q6_k(src, bytes, blocks); return;
    default: break;
    }
    throw DTypeError(fmt::format("quantize_row: type {} has no encoder", ggml_type_name(t)));   // unreachable
}

}  // namespace halogen
