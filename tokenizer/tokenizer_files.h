// A model directory's tokenizer: tokenizer.json (hf_tokenizer_json.h) and, when present,
// tokenizer_config.json with the chat template and the names of the BOS and EOS tokens. A
// directory holding only these files (no weights) is enough.
//
// tokenizer_config.json fields read: chat_template (a string, or a list of {"name", "template"}
// from which "default" is taken), bos_token and eos_token (a string or {"content": ...}),
// add_bos_token (true / false). Other fields are ignored; a field of the wrong type is an error.
// The end-of-turn id (eot_id) is that of <|eot_id|> (llama3) or <|im_end|> (SmolLM2), if present.
#pragma once

#include <optional>
#include <string>

#include "tokenizer/bpe_vocab.h"

namespace halogen {

struct TokenizerFiles {
    BpeVocab vocab;                    // bos_id / eos_id set from bos_token / eos_token
    std::string chat_template;         // empty when the config has none
    std::string bos_token, eos_token;  // empty when not named
    std::optional<bool> add_bos_token;
};

// FormatError naming the file for a missing tokenizer.json or a malformed file.
TokenizerFiles read_tokenizer_files(const std::string &dir);

// tokenizer_config.json's fields from its text (for tests and tools), applied to `files`.
void apply_tokenizer_config(const std::string &text, const std::string &name, TokenizerFiles &files);

}  // namespace halogen
