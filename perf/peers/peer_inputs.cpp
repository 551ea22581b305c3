// The peers' own inputs (peer_inputs.h).
#include "perf/peers/peer_inputs.h"

#include <cstring>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/nn/linear.h"

namespace halogen::perf {

namespace {

// W [R*P, K] of panels [P, K, R]: W[p*R + r, k] = panels[p, k, r], elements of `e` bytes.
template <std::size_t e>
void unpack(const uint8_t *panels, uint8_t *w, int64_t P, int64_t K, int64_t R) {
    for (int64_t p = 0; p < P; ++p) {
        for (int64_t r = 0; r < R; ++r) {
            uint8_t *row = w + ((p * R + r) * K) * e;
            const uint8_t *from = panels + (p * K * R + r) * e;
            for (int64_t k = 0; k < K; ++k) std::memcpy(row + k * e, from + k * R * e, e);
        }
    }
}

}  // namespace

PeerInputs peer_inputs(const std::string &op, const BufferRefs &inputs) {
    PeerInputs out;
    auto packed = inputs.find("packed");
    if (op != nn::ops::kLinear || packed == inputs.end()) return out;
    const BufferRef &b = packed->second;
    if (b.shape.size() != 3) throw ShapeError(fmt::format("perf: packed weights {} are not [P, K, R]", dims_str(b.shape)));
    const int64_t P = b.shape[0], K = b.shape[1], R = b.shape[2];
    auto w = std::make_shared<Array>(b.dtype, std::vector<int64_t>{P * R, K});
    const auto *from = static_cast<const uint8_t *>(b.data);
    auto *to = static_cast<uint8_t *>(w->ref().data);
    switch (dtype_size(b.dtype)) {
    case 2: unpack<2>(from, to, P, K, R); break;
    case 4: unpack<4>(from, to, P, K, R); break;
    default: throw DTypeError(fmt::format("perf: packed weights of {}", dtype_name(b.dtype)));
    }
    out.refs.emplace("weight_unpacked", w->ref());
    out.owners.push_back(std::move(w));
    return out;
}

}  // namespace halogen::perf
