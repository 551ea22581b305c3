// Panels by blocked transposes (panel_packing.h).
#include "models/llama/panel_packing.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace halogen {

namespace {

constexpr int64_t R = kPanelRows;

// Element by element, for columns [k0, K).
template <typename T> void pack_columns(const T *const *rows, T *dst, int64_t k0, int64_t K) {
    for (int64_t k = k0; k < K; ++k) {
        for (int64_t i = 0; i < R; ++i) dst[k * R + i] = rows[i][k];
    }
}

}  // namespace

void pack_panel(const float *const *rows, float *dst, int64_t K) {
#if defined(__SSE2__)
    constexpr int64_t kLine = 16;   // floats in a cache line
    const int64_t blocked = K / 4 * 4;
    for (int64_t k0 = 0; k0 < blocked; k0 += kLine) {
        const int64_t k1 = k0 + kLine < blocked ? k0 + kLine : blocked;
        for (int64_t i = 0; i < R; i += 4) {
            for (int64_t k = k0; k < k1; k += 4) {
                __m128 a = _mm_loadu_ps(rows[i] + k), b = _mm_loadu_ps(rows[i + 1] + k);
                __m128 c = _mm_loadu_ps(rows[i + 2] + k), d = _mm_loadu_ps(rows[i + 3] + k);
                _MM_TRANSPOSE4_PS(a, b, c, d);
                _mm_storeu_ps(dst + k * R + i, a);
                _mm_storeu_ps(dst + (k + 1) * R + i, b);
                _mm_storeu_ps(dst + (k + 2) * R + i, c);
                _mm_storeu_ps(dst + (k + 3) * R + i, d);
            }
        }
    }
    pack_columns(rows, dst, blocked, K);
#else
    pack_columns(rows, dst, 0, K);
#endif
}

void pack_panel(const uint16_t *const *rows, uint16_t *dst, int64_t K) {
#if defined(__SSE2__)
    constexpr int64_t kLine = 32;   // bfloat16 values in a cache line
    const int64_t blocked = K / 8 * 8;
    for (int64_t k0 = 0; k0 < blocked; k0 += kLine) {
        const int64_t k1 = k0 + kLine < blocked ? k0 + kLine : blocked;
        for (int64_t i = 0; i < R; i += 8) {
            for (int64_t k = k0; k < k1; k += 8) {
                __m128i r[8];
                for (int j = 0; j < 8; ++j) r[j] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(rows[i + j] + k));
                // Pairs of rows, then quads, then all eight, interleaved: v[m] holds column k + m.
                const __m128i t0 = _mm_unpacklo_epi16(r[0], r[1]), t1 = _mm_unpackhi_epi16(r[0], r[1]);
                const __m128i t2 = _mm_unpacklo_epi16(r[2], r[3]), t3 = _mm_unpackhi_epi16(r[2], r[3]);
                const __m128i t4 = _mm_unpacklo_epi16(r[4], r[5]), t5 = _mm_unpackhi_epi16(r[4], r[5]);
                const __m128i t6 = _mm_unpacklo_epi16(r[6], r[7]), t7 = _mm_unpackhi_epi16(r[6], r[7]);
                const __m128i u0 = _mm_unpacklo_epi32(t0, t2), u1 = _mm_unpackhi_epi32(t0, t2);
                const __m128i u2 = _mm_unpacklo_epi32(t1, t3), u3 = _mm_unpackhi_epi32(t1, t3);
                const __m128i u4 = _mm_unpacklo_epi32(t4, t6), u5 = _mm_unpackhi_epi32(t4, t6);
                const __m128i u6 = _mm_unpacklo_epi32(t5, t7), u7 = _mm_unpackhi_epi32(t5, t7);
                const __m128i v[8] = {_mm_unpacklo_epi64(u0, u4), _mm_unpackhi_epi64(u0, u4),
                                      _mm_unpacklo_epi64(u1, u5), _mm_unpackhi_epi64(u1, u5),
                                      _mm_unpacklo_epi64(u2, u6), _mm_unpackhi_epi64(u2, u6),
                                      _mm_unpacklo_epi64(u3, u7), _mm_unpackhi_epi64(u3, u7)};
                for (int m = 0; m < 8; ++m) _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + (k + m) * R + i), v[m]);
            }
        }
    }
    pack_columns(rows, dst, blocked, K);
#else
    pack_columns(rows, dst, 0, K);
#endif
}

}  // namespace halogen
