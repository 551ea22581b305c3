// Splitting added tokens out of text (added_tokens.h).
#include "tokenizer/added_tokens.h"

#include <algorithm>
#include <cstring>

#include "tokenizer/regex.h"
#include "tokenizer/utf8.h"

namespace halogen {

namespace {

const Regex &white_space() {
    static const Regex re("\\p{White_Space}", "added tokens");
    return re;
}

const Regex &word_char() {
    static const Regex re("[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]", "added tokens");
    return re;
}

// The character that starts at `pos`, if valid: its bytes; else empty.
std::string_view char_at(std::string_view text, size_t pos) {
    const utf8::Step st = utf8::step(text, pos);
    return st.kind == utf8::Step::Valid ? text.substr(pos, st.length) : std::string_view{};
}

// The character that ends at `end` (> 0), if valid: its bytes; else empty.
std::string_view char_before(std::string_view text, size_t end) {
    size_t start = end - 1;
    while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    const std::string_view c = char_at(text, start);
    return start + c.size() == end ? c : std::string_view{};
}

bool is(const Regex &re, std::string_view c) {
    size_t end = 0;
    return !c.empty() && re.match_at(c, 0, end) && end == c.size();
}

}  // namespace

AddedTokenMatcher::AddedTokenMatcher(std::vector<AddedToken> tokens) : tokens_(std::move(tokens)) {
    for (uint32_t i = 0; i < tokens_.size(); ++i) {
        if (tokens_[i].content.empty()) continue;   // Hugging Face ignores an empty added token
        by_first_byte_[static_cast<unsigned char>(tokens_[i].content[0])].push_back(i);
    }
    int distinct = 0;
    for (int b = 0; b < 256; ++b) {
        if (by_first_byte_[static_cast<size_t>(b)].empty()) continue;
        ++distinct;
        only_first_byte_ = b;
    }
    if (distinct != 1) only_first_byte_ = -1;
    for (auto &list : by_first_byte_)
        std::stable_sort(list.begin(), list.end(),
                         [&](uint32_t a, uint32_t b) { return tokens_[a].content.size() > tokens_[b].content.size(); });
}

void AddedTokenMatcher::split(std::string_view text, std::vector<TextPiece> &out) const {
    if (text.empty()) return;
    size_t start_offset = 0;   // the end of the last piece written
    size_t pos = 0;
    while (pos < text.size()) {
        if (only_first_byte_ >= 0) {
            const void *p = std::memchr(text.data() + pos, only_first_byte_, text.size() - pos);
            if (!p) break;
            pos = static_cast<size_t>(static_cast<const char *>(p) - text.data());
        }
        const auto &candidates = by_first_byte_[static_cast<unsigned char>(text[pos])];
        const AddedToken *hit = nullptr;
        for (const uint32_t i : candidates) {
            const std::string &c = tokens_[i].content;
            if (text.compare(pos, c.size(), c) == 0) {
                hit = &tokens_[i];
                break;
            }
        }
        if (!hit) {
            ++pos;
            continue;
        }
        size_t start = pos, stop = pos + hit->content.size();
        pos = stop;
        if (hit->single_word) {
            const bool word_before = start > 0 && is(word_char(), char_before(text, start));
            const bool word_after = stop < text.size() && is(word_char(), char_at(text, stop));
            if (word_before || word_after) continue;
        }
        if (hit->lstrip) {
            size_t s = start;
            while (s > 0) {
                const std::string_view c = char_before(text, s);
                if (!is(white_space(), c)) break;
                s -= c.size();
            }
            start = std::max(s, start_offset);
        }
        if (hit->rstrip) {
            while (stop < text.size()) {
                const std::string_view c = char_at(text, stop);
                if (!is(white_space(), c)) break;
                stop += c.size();
            }
        }
        if (start < start_offset) start = start_offset;   // never reached for tokens not starting with white space
        if (start_offset < start) out.push_back({text.substr(start_offset, start - start_offset), -1});
        out.push_back({text.substr(start, stop - start), hit->id});
        start_offset = stop;
    }
    if (start_offset < text.size()) out.push_back({text.substr(start_offset), -1});
}

}  // namespace halogen
