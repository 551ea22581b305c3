// The oneDNN peer (Debian's libdnnl 2.6, OpenMP runtime): convolutions on the caller's NCHW
// buffers and in oneDNN's own blocked layout (with the activation reorders timed on their own),
// layer and batch normalization. oneDNN 2.6 has no RMSNorm, GroupNorm or embedding primitive.
#pragma once

#include "perf/peers/peer.h"

namespace halogen::perf {

Peer onednn_peer();

}  // namespace halogen::perf
