// The safetensors fuzz target (safetensors_fuzz_target.cpp), as the corpus replay driver sees it.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace halogen::safetensors_fuzz {
int64_t parsed();     // inputs the reader accepted so far
int64_t rejected();   // inputs it rejected with a FormatError
}  // namespace halogen::safetensors_fuzz
