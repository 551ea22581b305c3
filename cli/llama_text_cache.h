// A llama model's text side opened through the kernel cache's folder, for the llama commands: a
// model directory's tokenizer is built from tokenizer.json once, and later starts read a snapshot
// of the built tables (tokenizer/tokenizer_snapshot.h) instead -- for llama3's 128k-token vocab,
// a few MB read in place of the JSON scan and 280k merges resolved by string look-ups.
//
// A snapshot is an entry of the kernel cache (halide_gen/runtime/kernel_cache.h) under
// `tokenizers/`, keyed on the sizes and hashes of tokenizer.json and tokenizer_config.json and on
// halogen's build (a new build writes its own snapshot format). A damaged or unreadable entry is
// built anew and replaced; an unwritable folder leaves the tokenizer built, uncached. GGUF files
// are read as open_llama_text reads them. It lives with the commands because it joins the
// model's text side (models/llama/llama_text.h, no Halide) to the kernel cache (halide_gen/).
#pragma once

#include <string>

#include "halide_gen/compiler/compile_cache.h"
#include "models/llama/llama_text.h"

namespace halogen {

// Where the tokenizer came from on the last call in this process (for tests and reports).
enum class TextFrom { snapshot, built };

// open_llama_text, through the cache when `cache.enabled`. `from`, when given, says which way the
// tokenizer came.
LlamaText open_cached_llama_text(const std::string &model, const CompileCacheOptions &cache, TextFrom *from = nullptr);

}  // namespace halogen
