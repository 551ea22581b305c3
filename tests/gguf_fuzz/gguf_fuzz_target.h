// The GGUF fuzz target (gguf_fuzz_target.cpp), as the corpus replay driver sees it.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace halogen::gguf_fuzz {
int64_t opened();           // inputs the reader accepted so far
int64_t rejected();         // inputs it rejected with a FormatError
int64_t blocks_decoded();   // tensors of a supported type whose first block (or all) was decoded
}  // namespace halogen::gguf_fuzz
