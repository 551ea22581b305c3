// The byte-level alphabet (byte_level.h), built from its definition: printable ASCII '!'..'~',
// Latin-1 U+00A1..U+00AC and U+00AE..U+00FF stand for themselves; the remaining bytes, in
// increasing order, take U+0100, U+0101, ...
#include "tokenizer/byte_level.h"

#include <array>
#include <cstdint>

#include "tokenizer/utf8.h"

namespace halogen::byte_level {

namespace {

struct Alphabet {
    std::array<std::string, 256> chars;
    std::array<int16_t, 0x144> byte_of;   // code point -> byte, -1 when not in the alphabet

    Alphabet() {
        byte_of.fill(-1);
        uint32_t next = 0x100;
        for (uint32_t b = 0; b < 256; ++b) {
            const bool itself = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            const uint32_t cp = itself ? b : next++;
            utf8::append_code_point(cp, chars[b]);
            byte_of[cp] = static_cast<int16_t>(b);
        }
    }
};

const Alphabet &alphabet() {
    static const Alphabet a;
    return a;
}

}  // namespace

const std::string &char_of(unsigned char b) { return alphabet().chars[b]; }

void append_encoded(std::string_view raw, std::string &out) {
    const Alphabet &a = alphabet();
    for (const char c : raw) out += a.chars[static_cast<unsigned char>(c)];
}

std::string encode(std::string_view raw) {
    std::string out;
    out.reserve(raw.size() * 2);
    append_encoded(raw, out);
    return out;
}

bool decode(std::string_view text, std::string &out) {
    const Alphabet &a = alphabet();
    size_t pos = 0;
    while (pos < text.size()) {
        const utf8::Step st = utf8::step(text, pos);
        if (st.kind != utf8::Step::Valid || st.code_point >= a.byte_of.size() || a.byte_of[st.code_point] < 0)
            return false;
        out += static_cast<char>(a.byte_of[st.code_point]);
        pos += st.length;
    }
    return true;
}

}  // namespace halogen::byte_level
