// ggml's tensor element types, as GGUF files store them: each type id with its name, its block
// (how many elements one block holds and how many bytes it takes) and whether halogen reads and
// writes it. Quantized types store a row as consecutive blocks; a row's length must be a whole
// number of blocks.
//
// Supported (dequantize_row and quantize_row): F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K, the
// types of llama files (a Q4_K_M file mixes Q4_K and Q6_K; a Q4_0 file may hold a Q6_K
// embedding). Every other id ggml defines is known by name and size only, so that a file holding
// one is read and its tensor named in the error when its values are asked for.
//
// Block layouts (little-endian; f16 is IEEE half precision; docs/formats.md draws them):
//   Q8_0  32 values, 34 bytes:  f16 d | i8 q[32]                       x = q * d
//   Q4_0  32 values, 18 bytes:  f16 d | u8 qs[16]                      x = (nibble - 8) * d, value j
//                               the low nibble of qs[j], value j + 16 its high nibble
//   Q4_K 256 values, 144 bytes: f16 d | f16 dmin | u8 scales[12] | u8 qs[128]: 8 sub-blocks of 32,
//                               each with a 6-bit scale sc and a 6-bit min m packed in `scales`;
//                               x = (d * sc) * q - (dmin * m)
//   Q6_K 256 values, 210 bytes: u8 ql[128] | u8 qh[64] | i8 scales[16] | f16 d: 16 sub-blocks of
//                               16, q a 6-bit value (4 low bits in ql, 2 high in qh) minus 32;
//                               x = (d * scale) * q
// Dequantization is bit-exact with ggml's reference (dequantize_row_* in ggml-quants.c): the same
// float operations in the same order, never fused (this library's sources are compiled with
// -ffp-contract=off).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace halogen {

// The type ids of ggml's enum ggml_type (the values GGUF files store). Ids ggml has removed
// (4, 5, 31-33, 36-38) are known to ggml_type_info but have no enumerator.
enum class GgmlType : uint32_t {
    F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9,
    Q2_K = 10, Q3_K = 11, Q4_K = 12, Q5_K = 13, Q6_K = 14, Q8_K = 15,
    IQ2_XXS = 16, IQ2_XS = 17, IQ3_XXS = 18, IQ1_S = 19, IQ4_NL = 20, IQ3_S = 21, IQ2_S = 22,
    IQ4_XS = 23, I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28, IQ1_M = 29, BF16 = 30,
    TQ1_0 = 34, TQ2_0 = 35, MXFP4 = 39,
};

// One id of ggml's type table.
struct GgmlTypeInfo {
    std::string_view name;        // as llama.cpp's file types spell it: "F32", "Q4_K", "IQ2_XXS", ...
    uint32_t block_elements = 0;  // 0 for an id ggml has removed (no file may use it)
    uint32_t block_bytes = 0;
    bool supported = false;       // dequantize_row / quantize_row handle it
};

// The table's row for `id`, or null for an id ggml does not define (anything from 40 up).
const GgmlTypeInfo *ggml_type_info(uint32_t id);
inline const GgmlTypeInfo *ggml_type_info(GgmlType t) { return ggml_type_info(static_cast<uint32_t>(t)); }

// "Q4_K"; "ggml type 99" for an id outside the table.
std::string ggml_type_name(uint32_t id);
inline std::string ggml_type_name(GgmlType t) { return ggml_type_name(static_cast<uint32_t>(t)); }

bool ggml_type_supported(GgmlType t);

// "F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K": for error messages.
std::string_view ggml_supported_types_text();

// The bytes of n elements of `t` (n a whole number of blocks): n / block_elements * block_bytes.
// A ShapeError when n is not a whole number of blocks or `t` is a removed or unknown id.
uint64_t ggml_row_bytes(GgmlType t, uint64_t n);

// Decodes n values of type `t` from `src` (n / block_elements blocks, any alignment) into `out`,
// bit-exactly as ggml's reference does. A DTypeError naming the type when it is not supported, a
// ShapeError when n is not a whole number of blocks.
void dequantize_row(GgmlType t, const void *src, float *out, int64_t n);

// Encodes n values into n / block_elements blocks of `t` at `dst` (any alignment). F32 is copied
// as is; F16 and BF16 round to nearest even; Q8_0 and Q4_0 follow ggml's reference quantizers
// (the same bytes); Q4_K and Q6_K search each sub-block's scale (and min) by least squares
// (ggml_quantize_k.cpp describes the method). Except for F32, a value that is not finite, or too
// large for the type (an F16 or BF16 value, or a block's float16 scale, that would round to
// infinity) is a DTypeError naming it; so is an unsupported type. A partial block is a ShapeError.
void quantize_row(GgmlType t, const float *src, void *dst, int64_t n);

}  // namespace halogen
