// Hugging Face's tokenizer.json read into a BpeVocab (bpe_vocab.h), strictly: what this
// tokenizer does not support is an error naming the component, never ignored.
//
// Supported: version "1.0"; truncation and padding null; normalizer null; pre_tokenizer null,
// Split (Regex or String pattern, behavior Isolated, invert false), ByteLevel, Digits
// (individual_digits true) or a Sequence of them; model BPE (vocab with ids 0..N-1, merges as
// "a b" strings or ["a", "b"] pairs, ignore_merges, unk_token, fuse_unk; dropout null or 0,
// byte_fallback false, no continuing_subword_prefix or end_of_word_suffix); added_tokens;
// post_processor null, ByteLevel, TemplateProcessing (its "single" template) or a Sequence of
// them; decoder ByteLevel. Example error: "tokenizer.json: normalizer 'NFC' is not supported".
#pragma once

#include <string>
#include <string_view>

#include "tokenizer/bpe_vocab.h"

namespace halogen {

// FormatError "<name>: ..." for anything malformed or unsupported.
BpeVocab parse_hf_tokenizer_json(std::string_view text, const std::string &name = "tokenizer.json");

// The file at `path` (FormatError naming the path when it cannot be read).
BpeVocab read_hf_tokenizer_json(const std::string &path);

}  // namespace halogen
