// The machine's limits (host_limits.h). Compiled for the build machine's own ISA (-march=native), as
// the AOT kernels are (Halide's host target), so the FMA peak uses the same vector width.
#include "halide_gen/runtime/host_limits.h"

#include <cstdint>
#include <cstring>

#include <immintrin.h>
#include <omp.h>

namespace halogen {

namespace {

// One vector of floats, and independent accumulators enough to cover FMA latency x units with
// a and b beside them in the registers: AVX-512, 16 of its 32; AVX2, 12 of its 16 (16 chains of
// two ymm halves each spilled, and measured a tenth of the peak).
#ifdef __AVX512F__
constexpr int kLanes = 16;
constexpr int kChains = 16;
#else
constexpr int kLanes = 8;
constexpr int kChains = 12;
#endif
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));
constexpr int kReadStreams = 8;   // read_memory: streams per thread

// Runs body(begin, end) on `threads` OpenMP threads, each on its share [begin, end) of n items.
template <typename Body> void in_shares(std::size_t n, int threads, Body body) {
#pragma omp parallel num_threads(threads)
    {
        const auto part = std::size_t(omp_get_thread_num()), parts = std::size_t(threads);
        body(n * part / parts, n * (part + 1) / parts);
    }
}

}  // namespace

double fma_peak(long rounds, int threads) {
    float sink = 0;
#pragma omp parallel num_threads(threads) reduction(+ : sink)
    {
        Vec acc[kChains], a, b;
        for (int k = 0; k < kLanes; ++k) a[k] = 0.999f, b[k] = 0.001f;
        for (int c = 0; c < kChains; ++c) acc[c] = a * float(c);
        for (long r = 0; r < rounds; ++r) {
#pragma GCC unroll 16
            for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * a + b;   // contracted to one FMA
        }
        Vec total = acc[0];
        for (int c = 1; c < kChains; ++c) total += acc[c];
        sink += total[0];
    }
    __asm__ volatile("" : : "x"(sink));
    return 2.0 * kLanes * kChains * double(rounds) * threads;
}

BandwidthBuffers::BandwidthBuffers(std::size_t floats) : x_(floats, 1.0f), y_(floats, 2.0f) {}

void BandwidthBuffers::copy(int threads) {
    in_shares(x_.size(), threads, [&](std::size_t begin, std::size_t end) {
        std::memcpy(y_.data() + begin, x_.data() + begin, (end - begin) * sizeof(float));
    });
}

float read_memory(const void *data, std::size_t bytes, int threads) {
    const auto *x = static_cast<const unsigned char *>(data);
    const std::size_t n = bytes / sizeof(float);
    float total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
        const auto part = std::size_t(omp_get_thread_num()), parts = std::size_t(threads);
        const std::size_t begin = n * part / parts, end = n * (part + 1) / parts;
        // The thread's share as kReadStreams equal pieces read side by side, a vector of each per
        // step (one sequential stream per thread reads DRAM markedly slower), then what is left.
        const std::size_t piece = (end - begin) / kReadStreams / kLanes * kLanes;
        Vec acc[kReadStreams] = {};
        for (std::size_t k = 0; k < piece; k += kLanes) {
            for (int c = 0; c < kReadStreams; ++c) {
                Vec v;
                std::memcpy(&v, x + (begin + c * piece + k) * sizeof(float), sizeof v);
                acc[c] += v;
            }
        }
        float part_sum = 0;
        for (int c = 0; c < kReadStreams; ++c) {
            for (int l = 0; l < kLanes; ++l) part_sum += acc[c][l];
        }
        for (std::size_t k = begin + kReadStreams * piece; k < end; ++k) {
            float v;
            std::memcpy(&v, x + k * sizeof(float), sizeof v);
            part_sum += v;
        }
        total += part_sum;
    }
    return total;
}

float BandwidthBuffers::read(int threads) { return read_memory(x_.data(), x_.size() * sizeof(float), threads); }

void BandwidthBuffers::stream(int threads) {
    const float a = 1.0001f, b = 0.5f;
    const float *x = x_.data();
    float *y = y_.data();
    in_shares(x_.size(), threads, [&](std::size_t begin, std::size_t end) {
        std::size_t k = begin;
#ifdef __AVX512F__
        // Streaming (non-temporal) stores, as memcpy uses for large copies: y is written without
        // being read into the cache first, so the pass moves exactly the bytes it counts.
        for (; k < end && reinterpret_cast<uintptr_t>(y + k) % 64 != 0; ++k) y[k] = a * x[k] + b;
        const __m512 va = _mm512_set1_ps(a), vb = _mm512_set1_ps(b);
        for (; k + 16 <= end; k += 16) _mm512_stream_ps(y + k, _mm512_fmadd_ps(va, _mm512_loadu_ps(x + k), vb));
        _mm_sfence();
#endif
        for (; k < end; ++k) y[k] = a * x[k] + b;
    });
}

void BandwidthBuffers::stream_cached(int threads) {
    const float a = 1.0001f, b = 0.5f;
    const float *x = x_.data();
    float *y = y_.data();
    in_shares(x_.size(), threads, [&](std::size_t begin, std::size_t end) {
        // Vectorized by the compiler; it never emits non-temporal stores for a plain loop.
        for (std::size_t k = begin; k < end; ++k) y[k] = a * x[k] + b;
    });
}

}  // namespace halogen
