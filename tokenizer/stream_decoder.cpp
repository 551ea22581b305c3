// Streaming decode (stream_decoder.h): the pending bytes plus the new ones are converted up to
// the last position where the outcome cannot change; a sequence that is valid so far but cut
// off at the end waits.
#include "tokenizer/stream_decoder.h"

#include "tokenizer/utf8.h"

namespace halogen {

StreamDecoder::StreamDecoder(const Tokenizer &tokenizer, bool skip_special_tokens)
    : tokenizer_(tokenizer), skip_special_(skip_special_tokens) {}

std::string StreamDecoder::push(int32_t id) {
    if (!tokenizer_.has_id(id) || (skip_special_ && tokenizer_.is_special(id))) return {};
    return push_bytes(tokenizer_.token_bytes(id));
}

std::string StreamDecoder::push_bytes(const std::string &bytes) {
    pending_ += bytes;
    std::string out;
    size_t pos = 0;
    while (pos < pending_.size()) {
        const size_t good = utf8::valid_prefix(std::string_view(pending_).substr(pos));
        out.append(pending_, pos, good);
        pos += good;
        if (pos >= pending_.size()) break;
        const utf8::Step st = utf8::step(pending_, pos);
        if (st.kind == utf8::Step::Truncated) break;   // the next token may complete it
        out += utf8::replacement_character;
        pos += st.length;
    }
    pending_.erase(0, pos);
    return out;
}

std::string StreamDecoder::finish() {
    std::string out = pending_.empty() ? std::string() : std::string(utf8::replacement_character);
    pending_.clear();
    return out;
}

}  // namespace halogen
