// Decoding one token at a time, for printing text as a model generates it. push(id) returns
// the text that is complete so far; bytes of a UTF-8 sequence that the next token may still
// complete wait for it. Ill-formed bytes become U+FFFD exactly where Tokenizer::decode (and
// Hugging Face's ByteLevel decoder with String::from_utf8_lossy) puts them, so the pieces joined
// equal the whole decode of the same ids.
#pragma once

#include <cstdint>
#include <string>

#include "tokenizer/tokenizer.h"

namespace halogen {

class StreamDecoder {
public:
    // `tokenizer` must outlive the decoder.
    explicit StreamDecoder(const Tokenizer &tokenizer, bool skip_special_tokens = false);

    // The text completed by `id` (possibly empty).
    std::string push(int32_t id);
    // The bytes of one token, for callers that decode without ids.
    std::string push_bytes(const std::string &bytes);
    // The rest: a sequence cut off at the end becomes one U+FFFD. The decoder is then empty.
    std::string finish();

    // Bytes waiting for the next token (at most 3).
    size_t pending() const { return pending_.size(); }

private:
    const Tokenizer &tokenizer_;
    bool skip_special_;
    std::string pending_;
};

}  // namespace halogen
