// The OpenBLAS peer: cblas_sgemm, or cblas_sgemv at M = 1, under one name, "sgemm" (Debian's
// libopenblas-dev, its pthread build), on the cases of a linear (nn.linear), the weight as checkpoints
// store it ([N, K], used transposed).
// Built only when perf/'s CMakeLists.txt finds OpenBLAS.
#pragma once

#include "perf/peers/peer.h"

namespace halogen::perf {

// The "openblas" peer; its ops read the case's buffers in place.
Peer openblas_peer();

}  // namespace halogen::perf
