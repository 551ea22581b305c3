// The machine limits' read (halide_gen/runtime/host_limits.h): each thread's share is read as
// several streams side by side, and every float of the range is summed exactly once, whatever the
// length, the alignment and the thread count.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "halide_gen/runtime/host_limits.h"

namespace {

TEST(HostLimits, ReadMemorySumsEveryFloatOnce) {
    std::vector<float> data(20000 + 1);
    for (std::size_t k = 0; k < data.size(); ++k) data[k] = float(k % 7 + 1);   // small integers: exact sums
    for (std::size_t n : {0, 1, 5, 127, 128, 129, 1023, 4096, 20000}) {
        for (std::size_t offset : {0, 1}) {   // the second one misaligned by a float
            double want = 0;
            for (std::size_t k = 0; k < n; ++k) want += data[offset + k];
            for (int threads : {1, 2, 3}) {
                EXPECT_EQ(double(halogen::read_memory(data.data() + offset, n * sizeof(float), threads)), want)
                    << "n=" << n << " offset=" << offset << " threads=" << threads;
            }
        }
    }
}

}  // namespace
