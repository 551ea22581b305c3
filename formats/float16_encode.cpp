// float32 -> float16 with round-to-nearest-even, on the bit patterns (see float16_encode.h).
#include "formats/float16_encode.h"

#include <cstring>

namespace halogen {

namespace {

// `value >> shift` rounded to nearest, ties to the even result (shift in 1..31).
uint32_t shift_round_even(uint32_t value, unsigned shift) {
    const uint32_t kept = value >> shift;
    const uint32_t rest = value & ((1u << shift) - 1);
    const uint32_t half = 1u << (shift - 1);
    return (rest > half || (rest == half && (kept & 1))) ? kept + 1 : kept;
}

}  // namespace

uint16_t float_to_float16_bits(float x) {
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    const auto sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    const uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u | ((a >> 13) & 0x03FFu));   // NaN, quiet
    if (a >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);   // 65520 and up (and infinity)
    if (a >= 0x38800000u)   // 2^-14 and up: a normal float16; move the exponent bias from 127 to 15
        return static_cast<uint16_t>(sign | shift_round_even(a - 0x38000000u, 13));
    // Below 2^-14: a float16 subnormal, counted in units of 2^-24. A normal float of biased
    // exponent e is m * 2^(e - 150) with m its 24-bit significand, so (e - 150 + 24) = -(126 - e)
    // is the shift; from 25 bits the value is below 2^-25 and rounds to zero (as do float
    // subnormals).
    const uint32_t e = a >> 23;
    if (e < 102) return sign;
    const uint32_t m = (a & 0x007FFFFFu) | 0x00800000u;
    return static_cast<uint16_t>(sign | shift_round_even(m, 126 - e));   // 1024 carries into the smallest normal
}

}  // namespace halogen
