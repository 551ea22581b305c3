// The JSON graph fuzz target (graph_json_fuzz_target.cpp), as the corpus replay driver sees it.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace halogen::graph_json_fuzz {
int64_t grouped();    // inputs that parsed and were grouped so far
int64_t rejected();   // inputs that graph_from_json or group_graph rejected with a halogen::Error
}  // namespace halogen::graph_json_fuzz
