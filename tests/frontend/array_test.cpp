// Array: its storage is zero-filled and starts on a 64-byte boundary at every size, copies too.
#include <gtest/gtest.h>

#include <cstdint>

#include "frontend/array.h"

namespace halogen {
namespace {

bool cache_line_aligned(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; }

TEST(Array, StorageIsCacheLineAlignedAtEverySize) {
    // A large std::vector<uint8_t> comes from mmap at a page plus 16 bytes: the sizes that matter.
    for (int64_t n : {1, 3, 1000, 1 << 20, 64 << 20}) {
        Array a(DType::Float32, {n});
        EXPECT_TRUE(cache_line_aligned(a.data<float>())) << n << " floats";
        Array copy = a;
        EXPECT_TRUE(cache_line_aligned(copy.data<float>())) << "copy of " << n << " floats";
        EXPECT_TRUE(cache_line_aligned(a.ref().data)) << n << " floats";
    }
}

TEST(Array, StartsZeroedAndCopiesValues) {
    Array a(DType::Int32, {3, 5});
    for (int64_t k = 0; k < a.size(); ++k) EXPECT_EQ(a.get(k), 0) << k;
    a.set(7, -4);
    const Array copy = a;
    EXPECT_EQ(copy.get(7), -4);
    EXPECT_EQ(copy.shape(), (std::vector<int64_t>{3, 5}));
}

}  // namespace
}  // namespace halogen
