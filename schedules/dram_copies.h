// How many copies of a case's buffer make each call read it from DRAM: a call that takes the next
// copy each time (CaseInputs::buffer_sets) finds nothing of it in the caches, as a model's layers
// find their weights and KV caches one after another.
#pragma once

#include <cstdint>

namespace halogen {

// Copies of `bytes` that together hold four times the last-level cache (at least 32 MiB of it).
int64_t dram_copies(double bytes);

}  // namespace halogen
