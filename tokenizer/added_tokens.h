// Added tokens split out of the text before pre-tokenizing, as Hugging Face's AddedVocabulary
// does: the leftmost match, the longest of those starting there; a single_word token only where
// no word character (Rust regex's \w: Alphabetic, marks, Nd, Pc, Join_Control) touches it on
// either side; lstrip takes the white space before the match (not what an earlier match took),
// rstrip the white space after it. The search goes on after the match, even one single_word
// discarded.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tokenizer/bpe_vocab.h"

namespace halogen {

// A piece of text: plain text (id -1) or an added token's id and the text it covers.
struct TextPiece {
    std::string_view text;
    int32_t id = -1;
};

class AddedTokenMatcher {
public:
    explicit AddedTokenMatcher(std::vector<AddedToken> tokens);
    bool empty() const { return tokens_.empty(); }

    // Appends the pieces of `text` (any bytes; white space and word characters are read where
    // the bytes are valid UTF-8) to `out`. An empty text gives no piece.
    void split(std::string_view text, std::vector<TextPiece> &out) const;

private:
    std::vector<AddedToken> tokens_;
    std::array<std::vector<uint32_t>, 256> by_first_byte_;   // token indices, longest first
    int only_first_byte_ = -1;   // the first byte of every token, when they share one (memchr finds it)
};

}  // namespace halogen
