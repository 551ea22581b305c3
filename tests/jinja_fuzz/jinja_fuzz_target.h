// The chat-template fuzz target (jinja_fuzz_target.cpp), as the corpus replay driver sees it.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace halogen::jinja_fuzz {
int64_t rendered();   // templates that parsed and rendered so far
int64_t rejected();   // templates that threw a TemplateError (raise_exception included)
}  // namespace halogen::jinja_fuzz
