// Runs a pre-tokenizer spec (pre_tokenizer_spec.h) on text: the pieces the BPE model then
// encodes one at a time, as Hugging Face's pre-tokenizers split them.
//   Split(pattern, Isolated)  every match and every gap between matches is a piece
//   ByteLevel                 add_prefix_space: " " before a piece not starting with one;
//                             use_regex: Split with GPT-2's pattern (the byte-to-character
//                             mapping itself happens in the model, bpe.h)
//   Digits(individual)        every \p{N} character is a piece
// Empty pieces are dropped. Matching empty strings follows Hugging Face's Oniguruma iterator: an
// empty match right where the previous match ended is skipped by one character.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/pre_tokenizer_spec.h"
#include "tokenizer/regex.h"

namespace halogen {

class PreTokenizer {
public:
    explicit PreTokenizer(const PreTokenizerSpec &spec);

    // Appends the pieces of `text` (valid UTF-8) to `pieces`. A piece points into `text` or,
    // when add_prefix_space made a new string, into `storage`, which must outlive the pieces.
    void split(std::string_view text, std::vector<std::string_view> &pieces, std::deque<std::string> &storage) const;

private:
    struct Step {
        PreTokenizerStep::Kind kind;
        bool add_prefix_space = false;
        std::shared_ptr<const Regex> regex;   // Split, Digits, ByteLevel with use_regex
    };
    std::vector<Step> steps_;
};

// Hugging Face's Split with behavior Isolated, over one piece.
void split_isolated(const Regex &re, std::string_view text, std::vector<std::string_view> &out);

}  // namespace halogen
