// The benchmark grid: each case is a family at one shape, with its inputs made on first use (a
// 2 GiB embedding table is filled only when a selected benchmark needs it) and the work one call
// does, so that times become GB/s or GFLOP/s.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frontend/family_inputs.h"

namespace halogen::perf {

struct BenchCase {
    std::string name;                   // "embedding:V=128256,D=4096,T=16,ids=fresh", "conv2d:1x64x56x56,k=64x3x3"
    std::string family;                 // the AOT family
    std::string reference;              // the variant the other results are checked against
    std::vector<std::string> variants;  // halogen variants timed on this case
    double bytes = 0;                   // bytes one call of an O(n) implementation reads and writes
    double flops = 0;                   // useful floating-point operations of one call (conv), else 0
    std::function<FamilyInputs()> make; // the inputs and output shape
    // Embedding: `id_sets` sets of T ids, one per call in turn (1: hot ids, the same rows each call;
    // more: fresh ids, together touching more rows than the last-level cache holds).
    int64_t id_sets = 0, vocab = 0;
};

// Bytes of table rows that an embedding case's fresh id sets touch together: twice the
// last-level cache (halide_gen/host_caches.h, the size the AOT runner's streaming threshold also
// uses), and at least 128 MiB: 128 MiB of the 2 GiB llama3-8B table on a 32 MiB L3.
int64_t fresh_id_bytes();

// The grid of issue 5: the llama3-8B embedding by tokens (hot and fresh ids) and by vocabulary,
// the norms, conv1d/2d/3d. `quick` is the regression subset that CI runs.
std::vector<BenchCase> benchmark_grid(bool quick);

// What issue 5's goals compare (perf/report_lib/goals.py): the tokens sweep's `gather`, the
// norms' `fused` and conv's `tiled`, each on the full grid's shapes.
std::vector<BenchCase> goals_grid();

// Whether a peer's "<peer>:<op>" is a reference of a goal of `family`: index_select for the
// embedding, oneDNN's convolutions (NCHW and its own layout) for conv, every norm op.
bool goal_reference(const std::string &family, const std::string &impl);

// The kernels with a streamed twin (LayerNorm and RMSNorm `fused` on 1 x R x 4096, the gather
// with hot and fresh ids) at outputs of 2 to 48 MiB, to place the AOT runner's streaming
// threshold: halogen_perf --streaming-sweep times each with cached and with streaming stores.
std::vector<BenchCase> streaming_sweep_grid();

}  // namespace halogen::perf
