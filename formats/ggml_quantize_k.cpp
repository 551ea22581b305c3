// Q4_K and Q6_K encoders: a least-squares search of each sub-block's scale (and min), then the
// super-block's float16 scales and the sub-blocks' 6- or 8-bit multipliers chosen against the
// values the decoder will produce. Written for halogen (not ggml's search, which weights values by
// their magnitude); the method, in steps:
//
// Q4_K (x = (d * sc) * q - (dmin * m), q in 0..15, sc and m in 0..63), for each sub-block of 32:
//   1. Fit a step s >= 0 and an offset o <= 0 (o = -min) so that x ~ s q + o: for 7 grids from
//      lo = min(x, 0) to hi = max(x) with 14.4 to 15.6 steps, round each value to the grid, fit
//      (s, o) to those q by least squares (an o > 0, which the format cannot hold, is fitted again
//      with o = 0) and round again; keep the fit of least squared error.
//   2. Over the super-block: d = max s / 63, dmin = max min / 63, both rounded to float16 (a
//      nonzero one too small for float16 becomes its smallest subnormal, not zero). A subnormal
//      scale k 2^-24 is coarse, so the next 8 are tried too (with step 3), keeping the best.
//   3. For each sub-block, sc = round(s / d) and m = round(min / dmin), then the 3 x 3 pairs
//      around them (kept in 0..63) are each tried with the q that round best under the decoder's
//      own arithmetic; the pair of least squared error is kept.
// Q6_K (x = (d * sc) * q, q in -32..31, sc in -128..127), for each sub-block of 16:
//   1. Fit a signed scale s (x ~ s q): for 7 grids mapping the value of largest magnitude to
//      -31.4 to -32.6 (the grid's long side), round, refit s = sum(x q) / sum(q q) and round
//      again; keep the fit of least squared error.
//   2. d, rounded to float16 (as in Q4_K's step 2), is the smallest step that keeps every
//      s / d in -128..127: (largest s) / -128 when the scales are all positive, and so on.
//   3. sc = round(s / d) and its two neighbours (kept in -128..127) are tried as in Q4_K's step 3.
// A block of zeros encodes as zeros; a constant block decodes to the constant up to its float16
// scales' rounding. tests/formats/gguf_quantize_test.cpp states and checks the error bounds.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "formats/float16_encode.h"
#include "formats/ggml_blocks.h"
#include "frontend/bfloat16.h"
#include "frontend/errors.h"

namespace halogen::ggml_blocks {

namespace {

constexpr int kSearchGrids = 7;    // candidate grids a sub-block's fit starts from
constexpr int kRefits = 1;          // least-squares fits after each grid's first rounding
constexpr int kSubnormalTries = 8;  // larger float16 scales tried after a subnormal one

// The nearest integer to v (halves away from zero), kept in [lo, hi]. Clamped first, so that the
// conversion is defined for any v (an infinity from a tiny divisor included; NaN gives lo).
int round_clamped(float v, int lo, int hi) {
    const float c = std::min(static_cast<float>(hi), std::max(static_cast<float>(lo), v));
    return static_cast<int>(c + std::copysign(0.5f, c));   // branch-free: signs are random
}

// The float16 bits of a super-block scale; a DTypeError when it overflows.
// A nonzero scale too small for float16 becomes its smallest subnormal (2^-24, with v's sign)
// rather than zero: the sub-blocks' multipliers, then below their maximum, still encode values.
uint16_t super_scale(float v, const char *type, int64_t block) {
    uint16_t bits = float_to_float16_bits(v);
    if ((bits & 0x7C00u) == 0x7C00u)
        throw DTypeError(fmt::format("quantize_row: super-block {} of {} needs a scale of {}, too large for float16",
                                     block, type, v));
    if ((bits & 0x7FFFu) == 0 && v != 0.0f) bits = static_cast<uint16_t>((bits & 0x8000u) | 1u);
    return bits;
}

// ---- Q4_K

struct AffineFit {
    float step = 0.0f;   // s >= 0
    float min = 0.0f;    // -o >= 0
};

// Least-squares (s, o) for x ~ s q + o over n values with o <= 0, s >= 0; false when degenerate.
bool fit_affine(const float *x, const int *q, int n, float &s, float &o) {
    double sq = 0, sx = 0, sqq = 0, sqx = 0;
    for (int i = 0; i < n; ++i) {
        sq += q[i];
        sx += x[i];
        sqq += double(q[i]) * q[i];
        sqx += double(q[i]) * x[i];
    }
    const double det = n * sqq - sq * sq;
    if (det <= 0) return false;   // every q the same
    double step = (n * sqx - sq * sx) / det;
    double off = (sx - step * sq) / n;
    if (off > 0) {   // the format's offset is -dmin * m <= 0: fit the step alone
        off = 0;
        step = sqx / sqq;
    }
    if (!(step > 0)) return false;
    s = static_cast<float>(step);
    o = static_cast<float>(off);
    return true;
}

// Squared errors are summed in double: a block of huge values must not make every candidate's
// error infinite (its scales then fail the float16 check instead of encoding zeros).
double affine_error(const float *x, const int *q, int n, float s, float o) {
    double e = 0;
    for (int i = 0; i < n; ++i) {
        const double r = double(s) * q[i] + o - x[i];
        e += r * r;
    }
    return e;
}

AffineFit fit_q4_k_sub_block(const float *x) {
    constexpr int n = 32;
    float lo = 0.0f, hi = x[0];
    for (int i = 0; i < n; ++i) {
        lo = std::min(lo, x[i]);
        hi = std::max(hi, x[i]);
    }
    AffineFit best{0.0f, -lo};   // a constant sub-block (hi == lo): every value is lo
    if (!(hi > lo)) return best;
    double best_error = affine_error(x, std::array<int, n>{}.data(), n, 0.0f, lo);
    std::array<int, n> q;
    for (int g = 0; g < kSearchGrids; ++g) {
        const float steps = 15.0f + 0.2f * static_cast<float>(g - kSearchGrids / 2);
        float s = (hi - lo) / steps, o = lo;
        float inv = steps / (hi - lo);
        for (int i = 0; i < n; ++i) q[i] = round_clamped((x[i] - o) * inv, 0, 15);
        for (int k = 0; k < kRefits; ++k) {
            if (!fit_affine(x, q.data(), n, s, o)) break;
            inv = 1.0f / s;
            for (int i = 0; i < n; ++i) q[i] = round_clamped((x[i] - o) * inv, 0, 15);
        }
        const double e = affine_error(x, q.data(), n, s, o);
        if (e < best_error) {
            best_error = e;
            best = {s, -o};
        }
    }
    return best;
}

// Squared error of a sub-block under decoded constants: step d1 = d * sc, offset m1 = dmin * m,
// each q rounded to its nearest value of the grid; writes the q.
double q4_k_encode_sub_block(const float *x, float d1, float m1, uint8_t *q) {
    double e = 0;
    const float inv = d1 > 0 ? 1.0f / d1 : 0.0f;
    for (int i = 0; i < 32; ++i) {
        q[i] = static_cast<uint8_t>(round_clamped((x[i] + m1) * inv, 0, 15));
        const float decoded = d1 * static_cast<float>(q[i]) - m1;
        const double r = double(decoded) - x[i];
        e += r * r;
    }
    return e;
}

// Step 3 of Q4_K for given super-block scales: each sub-block's best (sc, m) near the ideal and
// its quants. Returns the block's squared error.
struct Q4KChoice {
    uint8_t sc[8], m[8], q[256];
};
double q4_k_choose(const float *x, const std::array<AffineFit, 8> &fits, float d, float dmin, Q4KChoice &out) {
    double total = 0;
    for (int j = 0; j < 8; ++j) {
        const int sc0 = d > 0 ? round_clamped(fits[j].step / d, 0, 63) : 0;
        const int m0 = dmin > 0 ? round_clamped(fits[j].min / dmin, 0, 63) : 0;
        double best = INFINITY;
        uint8_t trial[32];
        for (int a = std::max(0, sc0 - 1); a <= std::min(63, sc0 + 1); ++a) {
            for (int b = std::max(0, m0 - 1); b <= std::min(63, m0 + 1); ++b) {
                const double e = q4_k_encode_sub_block(x + 32 * j, d * static_cast<float>(a),
                                                      dmin * static_cast<float>(b), trial);
                if (e < best) {
                    best = e;
                    out.sc[j] = static_cast<uint8_t>(a);
                    out.m[j] = static_cast<uint8_t>(b);
                    std::copy(trial, trial + 32, out.q + 32 * j);
                }
            }
        }
        total += best;
    }
    return total;
}

// A subnormal float16 scale k 2^-24 is coarse (relative step 1 / k): the next few larger ones,
// with smaller multipliers, may multiply out closer. Tries them with `error_of(bits)` and returns
// the best bits (normal scales are returned as they are).
template <class ErrorOf> uint16_t refine_subnormal_scale(uint16_t bits, const ErrorOf &error_of) {
    if ((bits & 0x7C00u) != 0 || (bits & 0x03FFu) == 0) return bits;
    uint16_t best = bits;
    double best_error = error_of(bits);
    for (uint16_t t = 1; t <= kSubnormalTries; ++t) {
        const auto candidate = static_cast<uint16_t>(bits + t);   // same sign, a step larger in magnitude
        const double e = error_of(candidate);
        if (e < best_error) best_error = e, best = candidate;
    }
    return best;
}

void quantize_q4_k_block(const float *x, uint8_t *dst, int64_t block) {
    std::array<AffineFit, 8> fits;
    float max_step = 0.0f, max_min = 0.0f;
    for (int j = 0; j < 8; ++j) {
        fits[j] = fit_q4_k_sub_block(x + 32 * j);
        max_step = std::max(max_step, fits[j].step);
        max_min = std::max(max_min, fits[j].min);
    }
    uint16_t d_bits = super_scale(max_step / 63.0f, "Q4_K", block);
    uint16_t dmin_bits = super_scale(max_min / 63.0f, "Q4_K", block);
    Q4KChoice choice;
    d_bits = refine_subnormal_scale(d_bits, [&](uint16_t b) {
        return q4_k_choose(x, fits, float16_bits_to_float(b), float16_bits_to_float(dmin_bits), choice);
    });
    dmin_bits = refine_subnormal_scale(dmin_bits, [&](uint16_t b) {
        return q4_k_choose(x, fits, float16_bits_to_float(d_bits), float16_bits_to_float(b), choice);
    });
    q4_k_choose(x, fits, float16_bits_to_float(d_bits), float16_bits_to_float(dmin_bits), choice);

    store_u16(dst, d_bits);
    store_u16(dst + 2, dmin_bits);
    q4_k_pack_scales(choice.sc, choice.m, dst + 4);
    uint8_t *qs = dst + 16;   // run r: sub-block 2r in the low nibbles, 2r + 1 in the high
    for (int r = 0; r < 4; ++r)
        for (int l = 0; l < 32; ++l)
            qs[32 * r + l] = static_cast<uint8_t>(choice.q[64 * r + l] | (choice.q[64 * r + 32 + l] << 4));
}

// ---- Q6_K

double q6_k_error(const float *x, const int *q, int n, float s) {
    double e = 0;
    for (int i = 0; i < n; ++i) {
        const double r = double(s) * q[i] - x[i];
        e += r * r;
    }
    return e;
}

float fit_q6_k_sub_block(const float *x) {
    constexpr int n = 16;
    float vmax = 0.0f;
    for (int i = 0; i < n; ++i)
        if (std::fabs(x[i]) > std::fabs(vmax)) vmax = x[i];
    if (vmax == 0.0f) return 0.0f;
    float best_s = 0.0f;
    double best_error = q6_k_error(x, std::array<int, n>{}.data(), n, 0.0f);
    std::array<int, n> q;
    for (int g = 0; g < kSearchGrids; ++g) {
        const float levels = 32.0f + 0.2f * static_cast<float>(g - kSearchGrids / 2);
        float s = vmax / -levels;
        float inv = -levels / vmax;
        for (int i = 0; i < n; ++i) q[i] = round_clamped(x[i] * inv, -32, 31);
        for (int k = 0; k < kRefits; ++k) {
            double sqx = 0, sqq = 0;
            for (int i = 0; i < n; ++i) {
                sqx += double(q[i]) * x[i];
                sqq += double(q[i]) * q[i];
            }
            if (sqq == 0 || sqx == 0) break;
            s = static_cast<float>(sqx / sqq);
            inv = 1.0f / s;
            for (int i = 0; i < n; ++i) q[i] = round_clamped(x[i] * inv, -32, 31);
        }
        const double e = q6_k_error(x, q.data(), n, s);
        if (e < best_error) {
            best_error = e;
            best_s = s;
        }
    }
    return best_s;
}

// Step 3 of Q6_K for a given super-block scale: each sub-block's best sc near the ideal and its
// quants (stored + 32). Returns the block's squared error.
struct Q6KChoice {
    int8_t sc[16];
    uint8_t q[256];
};
double q6_k_choose(const float *x, const std::array<float, 16> &scales, float d, Q6KChoice &out) {
    double total = 0;
    for (int j = 0; j < 16; ++j) {
        const int sc0 = d != 0.0f ? round_clamped(scales[j] / d, -128, 127) : 0;
        double best = INFINITY;
        for (int a = std::max(-128, sc0 - 1); a <= std::min(127, sc0 + 1); ++a) {
            const float c = d * static_cast<float>(a);
            const float inv = c != 0.0f ? 1.0f / c : 0.0f;
            double e = 0;
            uint8_t trial[16];
            for (int i = 0; i < 16; ++i) {
                const int v = round_clamped(x[16 * j + i] * inv, -32, 31);
                trial[i] = static_cast<uint8_t>(v + 32);
                const double r = double(c * static_cast<float>(v)) - x[16 * j + i];
                e += r * r;
            }
            if (e < best) {
                best = e;
                out.sc[j] = static_cast<int8_t>(a);
                std::copy(trial, trial + 16, out.q + 16 * j);
            }
        }
        total += best;
    }
    return total;
}

void quantize_q6_k_block(const float *x, uint8_t *dst, int64_t block) {
    std::array<float, 16> scales;
    float most_positive = 0.0f, most_negative = 0.0f;   // the largest s of each sign, as magnitudes
    for (int j = 0; j < 16; ++j) {
        scales[j] = fit_q6_k_sub_block(x + 16 * j);
        most_positive = std::max(most_positive, scales[j]);
        most_negative = std::max(most_negative, -scales[j]);
    }
    // sc = s / d must lie in -128..127: a negative d takes the positive scales to the long side.
    const float negative_d = std::max(most_positive / 128.0f, most_negative / 127.0f);
    const float positive_d = std::max(most_positive / 127.0f, most_negative / 128.0f);
    const float d_wanted = negative_d <= positive_d ? -negative_d : positive_d;
    Q6KChoice choice;
    const uint16_t d_bits = refine_subnormal_scale(super_scale(d_wanted, "Q6_K", block), [&](uint16_t b) {
        return q6_k_choose(x, scales, float16_bits_to_float(b), choice);
    });
    q6_k_choose(x, scales, float16_bits_to_float(d_bits), choice);

    // Halves of 128 values: value l + 32 k of a half keeps its low 4 bits in ql[l + 32 (k % 2)]
    // (low nibble for k < 2, high for k >= 2) and its high 2 bits in bits 2k, 2k + 1 of qh[l].
    uint8_t *ql = dst, *qh = dst + 128;
    for (int h = 0; h < 2; ++h) {
        const uint8_t *v = choice.q + 128 * h;
        for (int l = 0; l < 32; ++l) {
            ql[64 * h + l] = static_cast<uint8_t>((v[l] & 0x0F) | ((v[l + 64] & 0x0F) << 4));
            ql[64 * h + l + 32] = static_cast<uint8_t>((v[l + 32] & 0x0F) | ((v[l + 96] & 0x0F) << 4));
            qh[32 * h + l] = static_cast<uint8_t>((v[l] >> 4) | ((v[l + 32] >> 4) << 2) | ((v[l + 64] >> 4) << 4) |
                                                  ((v[l + 96] >> 4) << 6));
        }
    }
    std::memcpy(dst + 192, choice.sc, 16);
    store_u16(dst + 208, d_bits);
}

}  // namespace

void quantize_q4_k(const float *src, uint8_t *dst, int64_t blocks) {
    for (int64_t b = 0; b < blocks; ++b) quantize_q4_k_block(src + kQ4_KElements * b, dst + kQ4_KBytes * b, b);
}

void quantize_q6_k(const float *src, uint8_t *dst, int64_t blocks) {
    for (int64_t b = 0; b < blocks; ++b) quantize_q6_k_block(src + kQ6_KElements * b, dst + kQ6_KBytes * b, b);
}

}  // namespace halogen::ggml_blocks
