// The template lexer (lexer.h), following Jinja's lexing rules with trim_blocks and lstrip_blocks.
#include "jinja/lexer.h"

#include <cstdio>
#include <cstdlib>

#include "jinja/template_error.h"
#include "jinja/utf8.h"

namespace halogen::jinja {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

std::string normalize(std::string_view source) {
    std::string out;
    out.reserve(source.size());
    for (size_t i = 0; i < source.size(); ++i) {
        if (source[i] == '\r') {
            out += '\n';
            if (i + 1 < source.size() && source[i + 1] == '\n') ++i;
        } else {
            out += source[i];
        }
    }
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

class Lexer {
public:
    explicit Lexer(std::string src) : src_(std::move(src)) {}

    std::vector<Token> run() {
        while (pos_ < src_.size()) {
            const size_t start = find_tag(pos_);
            if (start == std::string::npos) {
                emit_text(src_.substr(pos_), line_at(pos_));
                break;
            }
            lex_tag(start);
        }
        tokens_.push_back({TokenKind::End, "", line_at(src_.size())});
        return std::move(tokens_);
    }

private:
    int line_at(size_t at) {
        if (at < counted_) counted_ = 0, line_ = 1;
        for (; counted_ < at && counted_ < src_.size(); ++counted_)
            if (src_[counted_] == '\n') ++line_;
        return line_;
    }

    [[noreturn]] void fail(size_t at, const std::string &what) { throw TemplateError(line_at(at), what); }

    size_t find_tag(size_t from) const {
        for (size_t i = src_.find('{', from); i != std::string::npos; i = src_.find('{', i + 1))
            if (i + 1 < src_.size() && (src_[i + 1] == '{' || src_[i + 1] == '%' || src_[i + 1] == '#')) return i;
        return std::string::npos;
    }

    bool at(size_t p, std::string_view s) const { return src_.compare(p, s.size(), s) == 0; }

    size_t skip_space(size_t p) const { return p + utf8::space_prefix_end(std::string_view(src_).substr(p)); }

    void emit_text(std::string text, int line) {
        if (!text.empty()) tokens_.push_back({TokenKind::Text, std::move(text), line});
    }

    // The text before a tag, with the tag's whitespace control applied.
    std::string strip_before(std::string text, char sign, bool variable) const {
        if (sign == '-') return text.substr(0, utf8::space_suffix_begin(text));
        if (sign == '+' || variable) return text;
        const size_t nl = text.rfind('\n');
        const size_t l_pos = nl == std::string::npos ? 0 : nl + 1;
        if (l_pos > 0 || line_starting_) {
            const std::string_view rest = std::string_view(text).substr(l_pos);
            if (!rest.empty() && utf8::space_prefix_end(rest) == rest.size()) text.resize(l_pos);
        }
        return text;
    }

    // "{%(-|+|)\s*raw\s*(-%}\s*|%})" at p: the position after it, or npos.
    size_t raw_begin_end(size_t p) const {
        size_t q = p + 2;
        if (q < src_.size() && (src_[q] == '-' || src_[q] == '+')) ++q;
        q = skip_space(q);
        if (!at(q, "raw")) return std::string::npos;
        q = skip_space(q + 3);
        if (at(q, "-%}")) return skip_space(q + 3);
        if (at(q, "%}")) return q + 2;
        return std::string::npos;
    }

    // The end of a block or comment tag at p ("+%}", "-%}\s*", "%}\n?"): the position after it, or npos.
    size_t tag_end(size_t p, char close) const {
        const std::string end = std::string(1, close) + "}";
        if (at(p, "+" + end)) return p + 3;
        if (at(p, "-" + end)) return skip_space(p + 3);
        if (at(p, end)) return (p + 2 < src_.size() && src_[p + 2] == '\n') ? p + 3 : p + 2;
        return std::string::npos;
    }

    void lex_tag(size_t start) {
        const char type = src_[start + 1];
        size_t after = start + 2;
        const char sign = (after < src_.size() && (src_[after] == '-' || src_[after] == '+')) ? src_[after] : 0;
        const int text_line = line_at(pos_);
        const size_t raw_end = type == '%' ? raw_begin_end(start) : std::string::npos;
        emit_text(strip_before(src_.substr(pos_, start - pos_), sign, type == '{'), text_line);
        if (sign) ++after;
        if (raw_end != std::string::npos) {
            line_starting_ = src_[raw_end - 1] == '\n';
            lex_raw(start, raw_end);
        } else if (type == '#') {
            lex_comment(start, after);
        } else {
            lex_expression_tag(start, after, type == '{');
        }
    }

    void lex_comment(size_t start, size_t p) {
        for (; p < src_.size(); ++p) {
            const size_t end = tag_end(p, '#');
            if (end != std::string::npos) {
                pos_ = end;
                line_starting_ = src_[end - 1] == '\n';
                return;
            }
        }
        fail(start, "the comment opened here is not closed (no '#}')");
    }

    void lex_raw(size_t start, size_t content) {
        for (size_t q = src_.find("{%", content); q != std::string::npos; q = src_.find("{%", q + 1)) {
            size_t r = q + 2;
            const char sign = (r < src_.size() && (src_[r] == '-' || src_[r] == '+')) ? src_[r] : 0;
            if (sign) ++r;
            r = skip_space(r);
            if (!at(r, "endraw")) continue;
            const size_t end = tag_end(skip_space(r + 6), '%');
            if (end == std::string::npos) continue;
            emit_text(strip_before(src_.substr(content, q - content), sign, false), line_at(content));
            pos_ = end;
            line_starting_ = src_[end - 1] == '\n';
            return;
        }
        fail(start, "the raw block opened here is not closed (no '{% endraw %}')");
    }

    void lex_expression_tag(size_t start, size_t p, bool variable) {
        const int line = line_at(start);
        tokens_.push_back({variable ? TokenKind::VariableBegin : TokenKind::BlockBegin, "", line});
        std::string balance;   // the closing brackets expected, innermost last
        for (;;) {
            if (p >= src_.size())
                fail(start, std::string("the ") + (variable ? "'{{'" : "'{%'") + " tag opened here is not closed");
            if (balance.empty()) {
                size_t end = std::string::npos;
                if (variable) {
                    if (at(p, "-}}")) end = skip_space(p + 3);
                    else if (at(p, "}}")) end = p + 2;
                } else {
                    end = tag_end(p, '%');
                }
                if (end != std::string::npos) {
                    tokens_.push_back({variable ? TokenKind::VariableEnd : TokenKind::BlockEnd, "", line_at(p)});
                    pos_ = end;
                    line_starting_ = src_[end - 1] == '\n';
                    return;
                }
            }
            const size_t space_end = skip_space(p);
            if (space_end != p) {
                p = space_end;
                continue;
            }
            p = lex_token(p, balance);
        }
    }

    // Digits with single underscores between them, from p: the end, or p if none.
    size_t digits(size_t p, bool (*is_digit_of)(char)) const {
        if (p >= src_.size() || !is_digit_of(src_[p])) return p;
        size_t q = p + 1;
        while (q < src_.size()) {
            if (is_digit_of(src_[q])) ++q;
            else if (src_[q] == '_' && q + 1 < src_.size() && is_digit_of(src_[q + 1])) q += 2;
            else break;
        }
        return q;
    }

    static std::string without_underscores(std::string_view s) {
        std::string out;
        for (char c : s)
            if (c != '_') out += c;
        return out;
    }

    size_t lex_number(size_t p) {
        const int line = line_at(p);
        // A float: digits, then a fraction and/or an exponent (not right after a '.').
        if (p == 0 || src_[p - 1] != '.') {
            size_t q = digits(p, is_digit);
            bool fraction = false, exponent = false;
            if (q < src_.size() && src_[q] == '.' && digits(q + 1, is_digit) > q + 1) {
                q = digits(q + 1, is_digit);
                fraction = true;
            }
            if (q < src_.size() && (src_[q] == 'e' || src_[q] == 'E')) {
                size_t e = q + 1;
                if (e < src_.size() && (src_[e] == '+' || src_[e] == '-')) ++e;
                if (digits(e, is_digit) > e) {
                    q = digits(e, is_digit);
                    exponent = true;
                }
            }
            if (fraction || exponent) {
                const std::string text = without_underscores(std::string_view(src_).substr(p, q - p));
                tokens_.push_back({TokenKind::Float, text, line, 0, std::strtod(text.c_str(), nullptr)});
                return q;
            }
        }
        int base = 10;
        size_t q;
        const char x = p + 1 < src_.size() ? static_cast<char>(src_[p + 1] | 0x20) : 0;
        auto digit_run = [&](size_t from, bool (*ok)(char)) {   // (_?d)+ after a base prefix
            size_t r = from;
            while (r < src_.size()) {
                if (ok(src_[r])) ++r;
                else if (src_[r] == '_' && r + 1 < src_.size() && ok(src_[r + 1])) r += 2;
                else break;
            }
            return r;
        };
        static bool (*const bin)(char) = [](char c) { return c == '0' || c == '1'; };
        static bool (*const oct)(char) = [](char c) { return c >= '0' && c <= '7'; };
        static bool (*const hex)(char) = [](char c) {
            return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
        };
        static bool (*const zero)(char) = [](char c) { return c == '0'; };
        if (src_[p] == '0' && (x == 'b' || x == 'o' || x == 'x')) {
            base = x == 'b' ? 2 : (x == 'o' ? 8 : 16);
            q = digit_run(p + 2, base == 2 ? bin : (base == 8 ? oct : hex));
            if (q == p + 2) q = p + 1;   // a lone 0
            if (q == p + 1) base = 10;
        } else if (src_[p] == '0') {
            q = digit_run(p + 1, zero);
        } else {
            q = digits(p, is_digit);
        }
        std::string text = without_underscores(std::string_view(src_).substr(p, q - p));
        if (base != 10) text = text.substr(2);
        errno = 0;
        const unsigned long long v = std::strtoull(text.c_str(), nullptr, base);
        if (errno == ERANGE || v > static_cast<unsigned long long>(INT64_MAX))
            fail(p, "the integer literal " + src_.substr(p, q - p) + " does not fit in 64 bits");
        tokens_.push_back({TokenKind::Integer, src_.substr(p, q - p), line, static_cast<int64_t>(v)});
        return q;
    }

    // Python's unicode-escape decoding of a string literal's body.
    std::string unescape(size_t p, size_t end) {
        std::string out;
        while (p < end) {
            if (src_[p] != '\\') {
                out += src_[p++];
                continue;
            }
            const size_t esc = p;
            ++p;
            const char c = src_[p];
            auto hex_escape = [&](int n) {
                uint32_t v = 0;
                for (int i = 1; i <= n; ++i) {
                    const char h = p + i < end ? static_cast<char>(src_[p + i] | 0x20) : 0;
                    if (!(is_digit(h) || (h >= 'a' && h <= 'f')))
                        fail(esc, std::string("a string literal has a truncated \\") + c + " escape");
                    v = v * 16 + static_cast<uint32_t>(is_digit(h) ? h - '0' : h - 'a' + 10);
                }
                if (v > 0x10FFFF) fail(esc, "a string literal escapes a code point above U+10FFFF");
                utf8::append(out, v);
                p += n + 1;
            };
            switch (c) {
            case '\\': out += '\\'; ++p; break;
            case '\'': out += '\''; ++p; break;
            case '"': out += '"'; ++p; break;
            case 'a': out += '\a'; ++p; break;
            case 'b': out += '\b'; ++p; break;
            case 'f': out += '\f'; ++p; break;
            case 'n': out += '\n'; ++p; break;
            case 'r': out += '\r'; ++p; break;
            case 't': out += '\t'; ++p; break;
            case 'v': out += '\v'; ++p; break;
            case '\n': ++p; break;
            case 'x': hex_escape(2); break;
            case 'u': hex_escape(4); break;
            case 'U': hex_escape(8); break;
            case 'N': fail(esc, "a string literal uses a \\N{...} escape, which is not supported");
            default:
                if (c >= '0' && c <= '7') {
                    uint32_t v = 0;
                    for (int i = 0; i < 3 && p < end && src_[p] >= '0' && src_[p] <= '7'; ++i) v = v * 8 + static_cast<uint32_t>(src_[p++] - '0');
                    utf8::append(out, v);
                } else if (static_cast<unsigned char>(c) >= 0x80) {
                    // Python sees this character as its own backslash escape ("\xe9"), after the backslash.
                    size_t q = p;
                    const char32_t cp = utf8::next(src_, q);
                    char buf[16];
                    if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
                    else if (cp < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
                    else std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(cp));
                    out += buf;   // the backslash and the escape's letters, as text
                    p = q;
                } else {
                    out += '\\';
                    out += c;
                    ++p;
                }
            }
        }
        return out;
    }

    size_t lex_string(size_t p) {
        const char quote = src_[p];
        size_t q = p + 1;
        while (q < src_.size() && src_[q] != quote) q += (src_[q] == '\\' && q + 1 < src_.size()) ? 2 : 1;
        if (q >= src_.size()) fail(p, "a string literal is not closed");
        tokens_.push_back({TokenKind::String, unescape(p + 1, q), line_at(p)});
        return q + 1;
    }

    size_t lex_token(size_t p, std::string &balance) {
        const char c = src_[p];
        if (is_digit(c)) return lex_number(p);
        if (is_name_start(c)) {
            size_t q = p + 1;
            while (q < src_.size() && is_name_char(src_[q])) ++q;
            tokens_.push_back({TokenKind::Name, src_.substr(p, q - p), line_at(p)});
            return q;
        }
        if (c == '\'' || c == '"') return lex_string(p);
        static const char *const two[] = {"//", "**", "==", "!=", ">=", "<="};
        for (const char *op : two)
            if (at(p, op)) {
                tokens_.push_back({TokenKind::Operator, op, line_at(p)});
                return p + 2;
            }
        if (std::string_view("+-/*%~[](){}><=.:|,;").find(c) == std::string_view::npos) {
            size_t q = p;
            const std::string ch = utf8::encode(utf8::next(src_, q));
            fail(p, "unexpected character '" + ch + "' in a tag");
        }
        if (c == '(' || c == '[' || c == '{') balance += (c == '(' ? ')' : (c == '[' ? ']' : '}'));
        if (c == ')' || c == ']' || c == '}') {
            if (balance.empty()) fail(p, std::string("unexpected '") + c + "'");
            if (balance.back() != c) fail(p, std::string("unexpected '") + c + "', expected '" + balance.back() + "'");
            balance.pop_back();
        }
        tokens_.push_back({TokenKind::Operator, std::string(1, c), line_at(p)});
        return p + 1;
    }

    std::string src_;
    size_t pos_ = 0;
    size_t counted_ = 0;
    int line_ = 1;
    bool line_starting_ = true;
    std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) {
    size_t bad = 0;
    if (!utf8::valid(source, &bad)) {
        int line = 1;
        for (size_t i = 0; i < bad; ++i) line += source[i] == '\n';
        throw TemplateError(line, "the template is not valid UTF-8 (byte " + std::to_string(bad) + ")");
    }
    return Lexer(normalize(source)).run();
}

const char *describe(const Token &t) {
    switch (t.kind) {
    case TokenKind::Text: return "template text";
    case TokenKind::VariableBegin: return "'{{'";
    case TokenKind::VariableEnd: return "end of print statement ('}}')";
    case TokenKind::BlockBegin: return "'{%'";
    case TokenKind::BlockEnd: return "end of statement block ('%}')";
    case TokenKind::Name: return "a name";
    case TokenKind::String: return "a string";
    case TokenKind::Integer: return "an integer";
    case TokenKind::Float: return "a float";
    case TokenKind::Operator: return "an operator";
    case TokenKind::End: return "end of template";
    }
    return "?";
}

}  // namespace halogen::jinja
