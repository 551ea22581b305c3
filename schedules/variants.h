// Named variants of each family (frontend/families.h): how the family's graph is prepared, grouped
// and scheduled. All variants of a family compute the same numbers (within float tolerance).
//
//   embedding  onehot          the fused one-hot sum as tinygrad/Caten emit it: per output point,
//                              a loop over the vocabulary with the comparison stored, not inlined
//                              (so Halide cannot trim it) -- O(T*V*D)
//              onehot_permuted the seed's "optimal kernel": tokens parallel, the vocabulary loop
//                              as the reduction, the embedding dim innermost and vectorized, the
//                              one-hot still stored per (token, row) -- O(T*V*D)
//              onehot_inline   the comparison inlined into the reduction, which Halide trims to the
//                              one matching row -- O(T*D)
//              gather          the one-hot rewrite (frontend/rewrites) turns the sum into a gather
//                              -- O(T*D); a large output written with streaming stores (AOT)
//   norms      naive           one kernel per reduction plus one for the normalization
//              fused           one kernel, statistics per row inside it, vectorized, parallel;
//                              a large output written with streaming stores (AOT), LayerNorm's
//                              and RMSNorm's next row then prefetched into the L2
//   conv       naive           the fused group, unscheduled
//              tiled           output-channel and spatial tiles in registers, vectorized, the
//                              window unrolled, parallel outer loop
//   all        adams2019, mullapudi2016, li2018   Halide's autoschedulers (AOT only)
#pragma once

#include <string>
#include <vector>

#include <Halide.h>

#include "halide_gen/lower.h"

namespace halogen {

struct Variant {
    std::string name;
    std::string summary;                     // one line, for tables and docs
    bool rewrite_one_hot = false;            // apply the one-hot rewrite before grouping
    bool fuse_reductions = true;             // false: every reduction is its own kernel
    std::string autoscheduler;               // "Adams2019", "Mullapudi2016", "Li2018", or "" (hand)
    // The hand schedule of one lowered group (nullptr: Halide's defaults).
    void (*schedule)(LoweredGraph &lg, const Halide::Target &target) = nullptr;
    // Write a large output with non-temporal stores (where a vector store is aligned): it would
    // not stay in the cache anyway, and a cached store first reads the line it writes. Halide 14
    // has no directive for it: the AOT build adds a twin kernel whose compiled stores are
    // rewritten (halide_gen/streaming_stores.h, listed in halide_gen/CMakeLists.txt), and the
    // runner calls it from streaming_threshold_bytes() of output on (halide_gen/aot_runner.h).
    // JIT kernels keep cached stores.
    bool streaming_stores = false;
};

// The variants of a family, slowest first ("norms" for layernorm/rmsnorm/batchnorm/groupnorm,
// "conv" for conv1d/2d/3d are accepted too). Error for an unknown family.
const std::vector<Variant> &variants_of(const std::string &family);
const Variant &find_variant(const std::string &family, const std::string &name);

// Hand schedules, one file per family (schedules/<family>.cpp).
void schedule_embedding_onehot(LoweredGraph &lg, const Halide::Target &target);
void schedule_embedding_onehot_permuted(LoweredGraph &lg, const Halide::Target &target);
void schedule_embedding_onehot_inline(LoweredGraph &lg, const Halide::Target &target);
void schedule_embedding_gather(LoweredGraph &lg, const Halide::Target &target);
void schedule_norm_naive(LoweredGraph &lg, const Halide::Target &target);
void schedule_norm_fused(LoweredGraph &lg, const Halide::Target &target);
void schedule_conv_tiled(LoweredGraph &lg, const Halide::Target &target);

}  // namespace halogen
