// The .npy fuzz target (npy_fuzz_target.cpp), as the corpus replay driver sees it.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace halogen::npy_fuzz {
int64_t parsed();     // inputs that read_npy accepted so far
int64_t rejected();   // inputs it rejected with an NpyError
}  // namespace halogen::npy_fuzz
