// Deterministic arrays (random_arrays.h).
#include "frontend/random_arrays.h"

#include <random>

namespace halogen {

Array random_floats(std::vector<int64_t> shape, uint32_t seed, float lo, float hi) {
    Array a(DType::Float32, std::move(shape));
    float *p = a.data<float>();
    uint32_t s = seed * 2654435761u + 1;
    const float scale = (hi - lo) / float(1 << 24);
    for (int64_t k = 0; k < a.size(); ++k) {
        s = s * 1664525u + 1013904223u;   // a linear congruential step; the top 24 bits are used
        p[k] = lo + float(s >> 8) * scale;
    }
    return a;
}

Array random_ids(int64_t count, int64_t max, uint32_t seed) {
    Array ids(DType::Int32, {count});
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int32_t> pick(0, int32_t(max - 1));
    for (int64_t t = 0; t < count; ++t) ids.data<int32_t>()[t] = pick(rng);
    return ids;
}

}  // namespace halogen
