// Memory for a large buffer that is written once, whole, right after it is made (a weight packed
// at load): anonymous pages that the caller's first writes bring in, asked for as transparent huge
// pages, and not zero-filled in user space (an Array's storage is: one more pass over every byte).
// With 2 MiB pages a 2.5 GB weight set takes about 1,200 page faults instead of 600,000, and the
// threads that write it fault their own pages in at the same time.
#pragma once

#include <cstddef>

namespace halogen {

class PageBuffer {
public:
    PageBuffer() = default;
    // `bytes` of memory, 64-byte aligned (page aligned); its contents are zero until written, as
    // fresh anonymous pages are. std::bad_alloc when the system has no more.
    explicit PageBuffer(size_t bytes);
    ~PageBuffer();
    PageBuffer(PageBuffer &&other) noexcept;
    PageBuffer &operator=(PageBuffer &&other) noexcept;
    PageBuffer(const PageBuffer &) = delete;
    PageBuffer &operator=(const PageBuffer &) = delete;

    void *data() const { return data_; }
    size_t size() const { return bytes_; }

private:
    void *data_ = nullptr;
    size_t bytes_ = 0;
};

}  // namespace halogen
