// Host arrays: dense, row-major tensors in memory. `Array` owns its bytes, 64-byte aligned;
// `BufferRef` points at memory a caller owns (an Array, a NumPy file's data, a model's weights)
// without copying it, at any alignment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/cache_line_allocator.h"
#include "frontend/dtype.h"

namespace halogen {

struct BufferRef {
    void *data = nullptr;
    DType dtype = DType::Float32;
    std::vector<int64_t> shape;        // row-major, dense: the last axis is contiguous
};

class Array {
public:
    Array() = default;
    Array(DType dtype, std::vector<int64_t> shape);   // zero-filled

    DType dtype() const { return dtype_; }
    const std::vector<int64_t> &shape() const { return shape_; }
    int64_t size() const;                             // element count

    template <typename T> T *data() { return reinterpret_cast<T *>(bytes_.data()); }
    template <typename T> const T *data() const { return reinterpret_cast<const T *>(bytes_.data()); }

    // Element k as a double (exact for every float32, int32, bool and bfloat16 value), and back
    // (a bfloat16 rounds to nearest even).
    double get(int64_t k) const;
    void set(int64_t k, double v);

    BufferRef ref() { return {bytes_.data(), dtype_, shape_}; }

private:
    DType dtype_ = DType::Float32;
    std::vector<int64_t> shape_;
    std::vector<uint8_t, CacheLineAllocator<uint8_t>> bytes_;
};

std::string dims_str(const std::vector<int64_t> &shape);   // "[3, 30]"

// Largest |a[k] - b[k]| of two arrays, by value whatever their element types: infinite when a
// difference is NaN or the shapes differ. How `halogen compare` and the benchmarks check one kernel's output against another's.
double max_abs_diff(const Array &a, const Array &b);

}  // namespace halogen
