#include "schedules/dram_copies.h"

#include <algorithm>
#include <cmath>

#include "halide_gen/runtime/host_caches.h"

namespace halogen {

int64_t dram_copies(double bytes) {
    const double llc = double(std::max<int64_t>(last_level_cache_bytes(), int64_t(32) << 20));
    return std::max<int64_t>(1, int64_t(std::ceil(4 * llc / bytes)));
}

}  // namespace halogen
