// The PyTorch C++ peer: libtorch (ATen) operators on halogen's family cases, called as a PyTorch
// user would call them, on tensors that wrap the case's own buffers. Built only when perf/'s
// CMakeLists.txt finds Torch.
#pragma once

#include "perf/peers/peer.h"

namespace halogen::perf {

// The "libtorch" peer. Its ops wrap the case's buffers without copying them: the case must outlive
// the ops made from it.
Peer torch_peer();

}  // namespace halogen::perf
