// An allocator for std::vector whose storage starts on a 64-byte boundary: a cache line, and one
// AVX-512 vector. Halide's own buffers and PyTorch's tensors are aligned at least this much. A
// plain std::vector of a large size is not (glibc returns a page plus 16 bytes), and then every
// full-width vector store of a kernel straddles two cache lines: a row copy into such an output
// took 5 to 10 % longer than into an aligned one (perf/notes.md, "Aligned buffers").
#pragma once

#include <cstddef>
#include <new>

namespace halogen {

template <typename T> struct CacheLineAllocator {
    using value_type = T;
    static constexpr std::align_val_t kAlignment{64};

    CacheLineAllocator() = default;
    template <typename U> CacheLineAllocator(const CacheLineAllocator<U> &) {}

    T *allocate(std::size_t n) { return static_cast<T *>(::operator new(n * sizeof(T), kAlignment)); }
    void deallocate(T *p, std::size_t) { ::operator delete(p, kAlignment); }

    template <typename U> bool operator==(const CacheLineAllocator<U> &) const { return true; }
    template <typename U> bool operator!=(const CacheLineAllocator<U> &) const { return false; }
};

}  // namespace halogen
