// A caller buffer's extents in Halide's order (dimension 0 is the last, contiguous halogen axis),
// checked against Halide's 32-bit indexing, and its host pointer as Halide must see it. Shared by
// the JIT, family kernels and AOT calls.
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

inline bool is_empty(const BufferRef &b) {
    for (int64_t d : b.shape) {
        if (d == 0) return true;
    }
    return false;
}

// A non-empty buffer needs memory: with a null host pointer Halide would only answer a bounds
// query (see halide_host) and report success.
inline void check_host(const BufferRef &b, const std::string &role) {
    if (b.data == nullptr && !is_empty(b)) throw BufferError(fmt::format("{}: null data pointer", role));
}

// The host pointer to hand Halide. An empty buffer may have no memory at all (an empty Array's,
// or std::vector's, data() is null), but Halide reads a null host pointer as a *bounds query*:
// the pipeline then only fills in the region it would need and returns success without computing
// anything, so a non-empty output next to an empty input (a table with V = 0, a conv with C = 0)
// was silently left unwritten. An empty buffer therefore gets a valid dummy address, which Halide
// never dereferences: it has no element to read, and a kernel that asks for one fails its bounds
// check (tests/schedules/edge_cases_test.cpp hands every variant an empty input on a page that
// faults on any access).
inline void *halide_host(const BufferRef &b) {
    alignas(64) static uint8_t empty_buffer_host[64];
    return b.data == nullptr && is_empty(b) ? empty_buffer_host : b.data;
}

}  // namespace halogen
