// UTF-8 steps, validity and the lossy conversion (utf8.h). The accepted second bytes follow the
// Unicode standard's table of well-formed byte sequences (Table 3-7).
#include "tokenizer/utf8.h"

#include <cstring>

namespace halogen::utf8 {

Step step(std::string_view text, size_t pos) {
    const auto *s = reinterpret_cast<const unsigned char *>(text.data());
    const size_t n = text.size();
    const unsigned b = s[pos];
    if (b < 0x80) return {Step::Valid, 1, b};
    size_t need;
    unsigned lo = 0x80, hi = 0xBF;   // the range of the second byte
    uint32_t cp;
    if (b >= 0xC2 && b <= 0xDF) {
        need = 1, cp = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
        need = 2, cp = b & 0x0F;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3, cp = b & 0x07;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
    } else {
        return {Step::Invalid, 1, 0};
    }
    size_t i = 1;
    for (; i <= need; ++i) {
        if (pos + i >= n) return {Step::Truncated, i, 0};
        const unsigned c = s[pos + i];
        const unsigned l = i == 1 ? lo : 0x80, h = i == 1 ? hi : 0xBF;
        if (c < l || c > h) return {Step::Invalid, i, 0};
        cp = (cp << 6) | (c & 0x3F);
    }
    return {Step::Valid, need + 1, cp};
}

size_t valid_prefix(std::string_view text) {
    size_t pos = 0;
    const size_t n = text.size();
    while (pos < n) {
        // Eight ASCII bytes at a time: the common case.
        while (pos + 8 <= n) {
            uint64_t w;
            std::memcpy(&w, text.data() + pos, 8);
            if (w & 0x8080808080808080ull) break;
            pos += 8;
        }
        if (pos >= n) break;
        // Two-byte characters (the byte-level alphabet's Ġ and its kin) without the general step.
        const auto b0 = static_cast<unsigned char>(text[pos]);
        if (b0 < 0x80) {
            ++pos;
            continue;
        }
        if (b0 >= 0xC2 && b0 <= 0xDF && pos + 1 < n && (static_cast<unsigned char>(text[pos + 1]) & 0xC0) == 0x80) {
            pos += 2;
            continue;
        }
        const Step st = step(text, pos);
        if (st.kind != Step::Valid) return pos;
        pos += st.length;
    }
    return pos;
}

void append_lossy(std::string_view text, std::string &out) {
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t good = valid_prefix(text.substr(pos));
        out.append(text.data() + pos, good);
        pos += good;
        if (pos >= text.size()) break;
        out.append(replacement_character);
        pos += step(text, pos).length;
    }
}

void append_code_point(uint32_t cp, std::string &out) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

}  // namespace halogen::utf8
