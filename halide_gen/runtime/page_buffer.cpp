// PageBuffer (page_buffer.h).
#include "halide_gen/runtime/page_buffer.h"

#include <sys/mman.h>

#include <new>
#include <utility>

namespace halogen {

PageBuffer::PageBuffer(size_t bytes) : bytes_(bytes) {
    if (bytes == 0) return;
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes, MADV_HUGEPAGE);   // a hint: without transparent huge pages, 4 KiB pages
    data_ = p;
}

PageBuffer::~PageBuffer() {
    if (data_) munmap(data_, bytes_);
}

PageBuffer::PageBuffer(PageBuffer &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

PageBuffer &PageBuffer::operator=(PageBuffer &&other) noexcept {
    if (this != &other) {
        if (data_) munmap(data_, bytes_);
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

}  // namespace halogen
