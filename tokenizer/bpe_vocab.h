// The neutral description of a byte-level BPE tokenizer: what a tokenizer.json
// (hf_tokenizer_json.h) or a GGUF file's tokenizer.ggml.* keys say, before anything is built
// from it (tokenizer.h builds the tokenizer).
//
// From a GGUF file: tokens = tokenizer.ggml.tokens, merges = tokenizer.ggml.merges ("a b"
// strings split at the space), pre_tokenizer = pre_tokenizer_for_gguf(tokenizer.ggml.pre), an
// AddedToken for each id whose tokenizer.ggml.token_type is CONTROL (special) or USER_DEFINED
// (added_tokens_from_token_types), bos/eos/eot ids from tokenizer.ggml.bos_token_id etc., and
// prefix_ids = {bos} when tokenizer.ggml.add_bos_token is true.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tokenizer/pre_tokenizer_spec.h"

namespace halogen {

// A token matched in the text before pre-tokenizing, as Hugging Face's AddedToken.
struct AddedToken {
    int32_t id = -1;
    std::string content;       // the text matched (and what decode shows)
    bool special = false;      // skipped by decode(..., skip_special = true)
    bool lstrip = false;       // the match takes the white space before it
    bool rstrip = false;       // the match takes the white space after it
    bool single_word = false;  // matches only with no word character on either side
    bool normalized = true;    // matched in a second pass, after the normalized=false tokens
};

// GGUF's token types (tokenizer.ggml.token_type).
enum class TokenType : int32_t { Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6 };

struct BpeVocab {
    // Where the description came from (a file's path), named first in every error about it.
    std::string source = "tokenizer";
    // The model's vocab by id (0 .. N-1), in byte-level form (GPT-2's byte-to-unicode map).
    std::vector<std::string> tokens;
    // Merges by rank (first = applied first): the left and right token of each pair.
    std::vector<std::pair<std::string, std::string>> merges;
    // A pre-token that is itself a token is one token, without merging (llama3).
    bool ignore_merges = false;
    // A character missing from the vocab becomes this token (empty: it is dropped, as Hugging
    // Face does); fuse_unk joins consecutive unknowns into one.
    std::string unk_token;
    bool fuse_unk = false;

    PreTokenizerSpec pre_tokenizer;
    std::vector<AddedToken> added;   // in the order given

    // The post-processor: ids put before and after the text when special tokens are added.
    std::vector<int32_t> prefix_ids;
    std::vector<int32_t> suffix_ids;

    // Ids of the special tokens a model runner needs, -1 when unknown.
    int32_t bos_id = -1;
    int32_t eos_id = -1;
    int32_t eot_id = -1;
};

// The added tokens a GGUF file implies: CONTROL ids as special tokens, USER_DEFINED ids as
// non-special ones (the token's text is its content, as written in the vocab).
std::vector<AddedToken> added_tokens_from_token_types(const std::vector<std::string> &tokens,
                                                      const std::vector<int32_t> &token_types);

}  // namespace halogen
