// Deterministic arrays for cases and tests: the same bytes in `halogen compare`, perf/ and the
// suite for the same seed.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/array.h"

namespace halogen {

// float32 values in [lo, hi), from a fast generator (a 2 GiB table must not take minutes).
Array random_floats(std::vector<int64_t> shape, uint32_t seed, float lo = -1, float hi = 1);
// int32 values, uniform in [0, max).
Array random_ids(int64_t count, int64_t max, uint32_t seed);

}  // namespace halogen
