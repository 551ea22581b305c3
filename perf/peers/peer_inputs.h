// Buffers the peers take beside a case's own inputs: where a family's kernel takes a linear's
// weight packed into panels (`packed` [P, K, R], nn::pack_panels), the peers take the weight as
// checkpoints store it, [R*P, K], under `weight_unpacked` -- the same values, unpacked here into
// memory of their own, once per buffer set of a prepared case.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/array.h"
#include "frontend/contract.h"

namespace halogen::perf {

struct PeerInputs {
    BufferRefs refs;                              // by name, beside the case's inputs
    std::vector<std::shared_ptr<Array>> owners;
};

// What the peers take beside `inputs` (a case's, in the kernel's layout) of a family of `op`;
// nothing for most ops.
PeerInputs peer_inputs(const std::string &op, const BufferRefs &inputs);

}  // namespace halogen::perf
