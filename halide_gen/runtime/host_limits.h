// The machine's limits, measured in the same process as the kernels so that every kernel's rate can
// be given as a fraction of them: fp32 FMA peak, copy bandwidth in cache and from DRAM, read
// bandwidth (a sum over x: what a GEMV that streams its weights can reach), and a
// one-pass streaming kernel (y = a * x + b), once with non-temporal stores (the limit) and once
// with ordinary stores, which first read each output line into the cache (read for ownership), as
// every store a Halide 14 kernel emits does. Each runs on `threads` OpenMP threads.
#pragma once

#include <cstddef>
#include <vector>

#include "frontend/cache_line_allocator.h"

namespace halogen {

// Register-bound FMAs: `rounds` rounds over independent accumulators per thread. Returns the
// floating-point operations done (2 per FMA lane).
double fma_peak(long rounds, int threads);

// Reads `bytes` at `data` once as floats (any alignment; a sum, vectorized), split over `threads`
// OpenMP threads, each reading its share as 8 streams side by side (one stream per thread reads
// DRAM well below what the core can: 12 against 19-21 GB/s on one Zen 3 thread), and returns the
// sum (NaN when the bytes are not floats: it only keeps the reads).
float read_memory(const void *data, std::size_t bytes, int threads);

// Preallocated, touched, cache-line aligned buffers for the bandwidth limits (aligned as the
// kernels' buffers are, frontend/array.h).
class BandwidthBuffers {
public:
    explicit BandwidthBuffers(std::size_t floats);
    std::size_t floats() const { return x_.size(); }
    double copy_bytes() const { return 2.0 * double(floats()) * sizeof(float); }   // read + write
    double read_bytes() const { return double(floats()) * sizeof(float); }
    float read(int threads);    // the sum of x, vectorized: reads x once, writes nothing
    void copy(int threads);     // y = x
    void stream(int threads);          // y = a * x + b, non-temporal stores
    void stream_cached(int threads);   // y = a * x + b, ordinary stores
private:
    std::vector<float, CacheLineAllocator<float>> x_, y_;
};

}  // namespace halogen
