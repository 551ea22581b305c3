// Peer libraries (PyTorch's C++ library, oneDNN, OpenBLAS) computing the same cases as halogen's families, in
// the same process, so that every figure in docs/perf.md can be a ratio measured in one run.
// A peer sets a case up once -- plans, weights in its own layout, outputs allocated and touched --
// and then only its timed calls run; nothing on the timed path allocates.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "frontend/array.h"

namespace halogen::perf {

// A case in the layouts of halogen's kernels (the families' graphs, schedules/<home>/: the
// caller's tensors viewed with the axes a kernel does not care about collapsed), every buffer
// dense and row-major. A peer computes it by the op the family declares (Family::op,
// frontend/nn/<op>.h), whatever the family:
//   nn.embedding       ids int32 [T], weight [V, D]                                  -> [T, D]
//   nn.layer_norm      x [R, D], weight [D], bias [D]; eps 1e-5                      -> [R, D]
//   nn.rms_norm        x [R, D], weight [D]; out = x / sqrt(mean(x^2) + 1e-6) * w    -> [R, D]
//   nn.batch_norm_inference  x [N, C, S], mean, var, weight, bias [C]; eps 1e-5      -> [N, C, S]
//   nn.group_norm      x [N, G, C/G, S], weight, bias [G, C/G]; G groups, eps 1e-5
//                      (the same memory as x [N, C, S] and weight [C])            -> [N, G, C/G, S]
//   nn.conv            x [N, C, L1..Ln], weight [K, C, 3 x n], bias [K]; stride 1, pad 1 -> [N, K, L1..Ln]
//   nn.linear          x [M, K], weight [N, K] (bias [N])                             -> [M, N]
//                      or x [M, K] and the weight packed, `packed`, beside which the peers take
//                      it as checkpoints store it, [N, K], under `weight_unpacked` (peer_inputs.h)
//   nn.pack_panels     (no peer packs panels)
// The norms' eps comes as a rank-0 input `eps` too; the peers use the families' defaults.
struct PeerCase {
    std::string family;                        // for messages
    std::string op;                            // what the peer computes: Family::op
    std::map<std::string, BufferRef> inputs;   // by the family's input names
    BufferRef output;                          // preallocated and touched, in the layout above
};

// One timed operation of a peer on a case.
struct PeerOp {
    std::string name;              // what it is: "index_select", "conv (nchw)", "reorder dst from own layout"
    std::function<void()> run;     // one call on preallocated memory
    bool writes_output = false;    // after run(), PeerCase::output holds the result (it is checked)
    // Work of one call when it differs from the case's own (a reorder moves other bytes); 0: the case's.
    double bytes = 0, flops = 0;
    // The check's bound on |err| when the op rounds its inputs to a narrower type than the case
    // computes in (oneDNN's bfloat16 matmul rounds x too); 0: the case's tolerance.
    double tolerance = 0;
};

struct Peer {
    std::string name;                                             // "libtorch", "onednn"
    std::function<void(int threads)> set_threads;                 // before a case's ops are made
    std::function<std::vector<PeerOp>(const PeerCase &)> ops;     // empty: no such operation
    bool calls_blas = false;   // its ops run in the process's BLAS, whose threads perf records beside them
};

// The peers found at configure time (perf/CMakeLists.txt); none when neither library is installed.
std::vector<Peer> peers();

}  // namespace halogen::perf

namespace halogen::perf {

struct BenchCase;

// A linear's weight [N, K] as checkpoints store it: the kernel's own `weight`, or `weight_unpacked`.
const BufferRef &unpacked_weight(const PeerCase &c);

// The names of the operations `peer` makes for a family, read off the family's tiny case (they do
// not depend on the shape), so that benchmarks can be registered before any real case is filled.
std::vector<std::string> peer_op_names(const Peer &peer, const BenchCase &tiny);

}  // namespace halogen::perf
