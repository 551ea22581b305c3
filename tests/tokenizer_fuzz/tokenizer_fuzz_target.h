// The tokenizer fuzz target (tokenizer_fuzz_target.cpp), as the corpus replay driver sees it.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace halogen::tokenizer_fuzz {
int64_t files_read();      // tokenizer.json inputs that built a tokenizer
int64_t files_rejected();  // ... that were rejected with a FormatError
int64_t texts_encoded();   // texts encoded by the fixed tokenizers
}  // namespace halogen::tokenizer_fuzz
