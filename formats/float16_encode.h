// float32 -> IEEE 754 half precision (float16), the encoding ggml stores its block scales and F16
// tensors in. (The exact decoding, float16 -> float32, is frontend/bfloat16.h's.)
#pragma once

#include <cstdint>

namespace halogen {

// Rounds to the nearest float16, ties to even, as the IEEE conversion (and x86's F16C
// instruction, ggml's conversion on such CPUs) does: values from 65520 up become infinity,
// values below the smallest normal become subnormals or zero. A NaN stays a NaN of the same
// sign, made quiet, keeping the upper bits of its payload.
uint16_t float_to_float16_bits(float x);

}  // namespace halogen
