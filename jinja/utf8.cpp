// UTF-8 decoding and Python's character classes (utf8.h).
#include "jinja/utf8.h"

#include <locale.h>
#include <wctype.h>

namespace halogen::jinja::utf8 {

namespace {

// The C.UTF-8 locale, opened once without touching the process's own locale.
locale_t utf8_locale() {
    static locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
    return loc;
}

bool is_unicode(char32_t c) { return c < 0x110000 && !(c >= 0xD800 && c <= 0xDFFF); }

}  // namespace

char32_t next(std::string_view s, size_t &pos) {
    const auto b0 = static_cast<unsigned char>(s[pos]);
    if (b0 < 0x80) {
        ++pos;
        return b0;
    }
    int extra = 0;
    char32_t c = 0, min = 0;
    if ((b0 & 0xE0) == 0xC0) extra = 1, c = b0 & 0x1F, min = 0x80;
    else if ((b0 & 0xF0) == 0xE0) extra = 2, c = b0 & 0x0F, min = 0x800;
    else if ((b0 & 0xF8) == 0xF0) extra = 3, c = b0 & 0x07, min = 0x10000;
    else {
        ++pos;
        return kRawByteBase + b0;
    }
    if (pos + extra >= s.size()) {
        ++pos;
        return kRawByteBase + b0;
    }
    for (int i = 1; i <= extra; ++i) {
        const auto b = static_cast<unsigned char>(s[pos + i]);
        if ((b & 0xC0) != 0x80) {
            ++pos;
            return kRawByteBase + b0;
        }
        c = (c << 6) | (b & 0x3F);
    }
    if (c < min || !is_unicode(c)) {
        ++pos;
        return kRawByteBase + b0;
    }
    pos += extra + 1;
    return c;
}

std::vector<char32_t> decode(std::string_view text) {
    std::vector<char32_t> out;
    out.reserve(text.size());
    for (size_t pos = 0; pos < text.size();) out.push_back(next(text, pos));
    return out;
}

void append(std::string &out, char32_t c) {
    if (c >= kRawByteBase) {
        out.push_back(static_cast<char>(c - kRawByteBase));
    } else if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

std::string encode(const std::vector<char32_t> &chars, size_t begin, size_t end) {
    std::string out;
    for (size_t i = begin; i < end; ++i) append(out, chars[i]);
    return out;
}

std::string encode(char32_t c) {
    std::string out;
    append(out, c);
    return out;
}

size_t length(std::string_view text) {
    size_t n = 0;
    for (size_t pos = 0; pos < text.size(); ++n) next(text, pos);
    return n;
}

bool valid(std::string_view text, size_t *bad_offset) {
    for (size_t pos = 0; pos < text.size();) {
        const size_t at = pos;
        if (next(text, pos) >= kRawByteBase) {
            if (bad_offset) *bad_offset = at;
            return false;
        }
    }
    return true;
}

bool is_space(char32_t c) {
    switch (c) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x1C: case 0x1D: case 0x1E: case 0x1F:
    case 0x20: case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F:
    case 0x3000:
        return true;
    default:
        return c >= 0x2000 && c <= 0x200A;
    }
}

bool is_printable(char32_t c) {
    if (c == ' ') return true;
    if (c >= kRawByteBase || !is_unicode(c) || is_space(c)) return false;
    // Format characters (category Cf), which the C locale counts as printable.
    if (c == 0xAD || (c >= 0x600 && c <= 0x605) || c == 0x61C || c == 0x6DD || c == 0x70F || c == 0x180E ||
        (c >= 0x200B && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) ||
        c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB) || (c >= 0xE000 && c <= 0xF8FF))
        return false;
    if (c < 0x80) return c >= 0x20 && c < 0x7F;
    locale_t loc = utf8_locale();
    return loc ? iswprint_l(static_cast<wint_t>(c), loc) != 0 : true;
}

char32_t to_upper(char32_t c) {
    if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
    locale_t loc = utf8_locale();
    return (loc && is_unicode(c)) ? static_cast<char32_t>(towupper_l(static_cast<wint_t>(c), loc)) : c;
}

char32_t to_lower(char32_t c) {
    if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    locale_t loc = utf8_locale();
    return (loc && is_unicode(c)) ? static_cast<char32_t>(towlower_l(static_cast<wint_t>(c), loc)) : c;
}

bool is_cased_upper(char32_t c) { return to_lower(c) != c; }
bool is_cased_lower(char32_t c) { return to_upper(c) != c; }

size_t space_prefix_end(std::string_view text) {
    size_t pos = 0;
    while (pos < text.size()) {
        size_t after = pos;
        if (!is_space(next(text, after))) break;
        pos = after;
    }
    return pos;
}

size_t space_suffix_begin(std::string_view text) {
    size_t keep = 0;
    for (size_t pos = 0; pos < text.size();) {
        const bool space = is_space(next(text, pos));
        if (!space) keep = pos;
    }
    return keep;
}

}  // namespace halogen::jinja::utf8
