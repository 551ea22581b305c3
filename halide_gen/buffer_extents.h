// A caller buffer's extents in Halide's order (dimension 0 is the last, contiguous halogen axis),
// checked against Halide's 32-bit indexing. Shared by the JIT, family kernels and AOT calls.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "frontend/array.h"
#include "frontend/errors.h"

namespace halogen {

inline std::vector<int> halide_extents(const BufferRef &b, const std::string &role) {
    std::vector<int> sizes;
    for (auto it = b.shape.rbegin(); it != b.shape.rend(); ++it) {
        if (*it > std::numeric_limits<int32_t>::max()) {
            throw BufferError(fmt::format("{}: extent {} exceeds Halide's 32-bit indexing", role, *it));
        }
        sizes.push_back(static_cast<int>(*it));
    }
    return sizes;
}

}  // namespace halogen
