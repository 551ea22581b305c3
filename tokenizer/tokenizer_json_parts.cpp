// The one-pass tokenizer.json reader (tokenizer_json_parts.h). The hand-written part is a JSON
// scanner for the two large values (an object of string: integer, a list of strings or of string
// pairs) and for finding where each other value ends; what those other values hold is parsed by
// parse_strict_json.
#include "tokenizer/tokenizer_json_parts.h"

#include <cstring>
#include <set>

#include "formats/printable_text.h"
#include "formats/strict_json.h"
#include "frontend/errors.h"
#include "tokenizer/utf8.h"

namespace halogen {

namespace {

using json = nlohmann::json;

class Scanner {
public:
    Scanner(std::string_view text, const std::string &name) : s_(text), name_(name) {}

    [[noreturn]] void fail(const std::string &what) const { throw FormatError(name_ + ": " + what); }
    [[noreturn]] void syntax(const std::string &what) const {
        fail("not valid JSON at byte " + std::to_string(pos_) + ": " + what);
    }

    void ws() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
    }
    bool at(char c) {
        ws();
        return pos_ < s_.size() && s_[pos_] == c;
    }
    void expect(char c) {
        if (!at(c)) syntax(pos_ < s_.size() ? std::string("expected '") + c + "'" : "unexpected end of input");
        ++pos_;
    }
    // After a member or element: true for ',' (another follows), false for the closing `close`.
    bool next(char close) {
        ws();
        if (pos_ < s_.size() && s_[pos_] == ',') {
            ++pos_;
            return true;
        }
        expect(close);
        return false;
    }

    // A JSON string at the current position, unescaped into `out`.
    void string(std::string &out) {
        expect('"');
        out.clear();
        while (true) {
            const size_t start = pos_;
            while (pos_ < s_.size()) {
                const auto c = static_cast<unsigned char>(s_[pos_]);
                if (c == '"' || c == '\\' || c < 0x20) break;
                ++pos_;
            }
            const std::string_view run = s_.substr(start, pos_ - start);
            if (const size_t good = utf8::valid_prefix(run); good != run.size()) {
                pos_ = start + good;
                syntax("ill-formed UTF-8 in a string");
            }
            out.append(run);
            if (pos_ >= s_.size()) syntax("unterminated string");
            const char c = s_[pos_];
            if (c == '"') {
                ++pos_;
                return;
            }
            if (c != '\\') syntax("control character in a string");
            if (++pos_ >= s_.size()) syntax("unterminated string");
            switch (s_[pos_++]) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                uint32_t cp = hex4();
                if (cp >= 0xDC00 && cp <= 0xDFFF) syntax("lone low surrogate in a \\u escape");
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (pos_ + 1 >= s_.size() || s_[pos_] != '\\' || s_[pos_ + 1] != 'u') syntax("lone high surrogate in a \\u escape");
                    pos_ += 2;
                    const uint32_t lo = hex4();
                    if (lo < 0xDC00 || lo > 0xDFFF) syntax("high surrogate not followed by a low one");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                utf8::append_code_point(cp, out);
                break;
            }
            default: --pos_; syntax("invalid escape in a string");
            }
        }
    }

    // A non-negative integer id; what() names it in errors (built only for an error).
    template <typename What> int64_t id(const What &what) {
        ws();
        const size_t start = pos_;
        if (pos_ < s_.size() && s_[pos_] == '-') fail(what() + " is negative");
        int64_t v = 0;
        while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
            if (v > (INT64_MAX - 9) / 10) fail(what() + " is too large");
            v = v * 10 + (s_[pos_++] - '0');
        }
        if (pos_ == start) fail(what() + " is not an integer");
        if (pos_ - start > 1 && s_[start] == '0') syntax("a number with a leading zero");
        if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E')) fail(what() + " is not an integer");
        return v;
    }

    // Any JSON value: its text, checked and parsed by parse_strict_json.
    json value(const std::string &where) {
        ws();
        const size_t start = pos_;
        if (pos_ >= s_.size()) syntax("unexpected end of input");
        const char c = s_[pos_];
        if (c == '{' || c == '[') {
            int depth = 0;
            std::string ignored;
            while (pos_ < s_.size()) {
                const char d = s_[pos_];
                if (d == '"') {
                    string(ignored);
                    continue;
                }
                ++pos_;
                if (d == '{' || d == '[') ++depth;
                if ((d == '}' || d == ']') && --depth == 0) break;
            }
            if (depth != 0) syntax("unexpected end of input");
        } else if (c == '"') {
            std::string ignored;
            string(ignored);
        } else {
            while (pos_ < s_.size() && !std::strchr(",}] \t\r\n", s_[pos_])) ++pos_;
        }
        try {
            return parse_strict_json(std::string(s_.substr(start, pos_ - start)));
        } catch (const StrictJsonError &e) {
            fail(where + ": " + e.what());
        }
    }

    size_t pos() const { return pos_; }
    bool done() {
        ws();
        return pos_ >= s_.size();
    }

private:
    uint32_t hex4() {
        if (pos_ + 4 > s_.size()) syntax("unterminated \\u escape");
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = s_[pos_++];
            v <<= 4;
            if (h >= '0' && h <= '9') v |= static_cast<uint32_t>(h - '0');
            else if (h >= 'a' && h <= 'f') v |= static_cast<uint32_t>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') v |= static_cast<uint32_t>(h - 'A' + 10);
            else syntax("invalid \\u escape");
        }
        return v;
    }

    std::string_view s_;
    const std::string &name_;
    size_t pos_ = 0;
};

// An entry takes at least 6 bytes of text ("a":1,); reserving for the rest of the file at a
// typical 16 bytes an entry avoids moving the list as it grows (reserved pages that are never
// written cost no memory).
size_t expected_entries(const Scanner &sc, size_t text_size) { return (text_size - sc.pos()) / 16; }

void read_vocab(Scanner &sc, TokenizerJsonParts &parts, size_t text_size) {
    parts.vocab.reserve(expected_entries(sc, text_size));
    sc.expect('{');
    if (sc.at('}')) {
        sc.expect('}');
        return;
    }
    std::string token;
    do {
        sc.string(token);
        sc.expect(':');
        const int64_t id = sc.id([&] { return "model.vocab: the id of '" + printable_text(token, 60) + "'"; });
        parts.vocab.emplace_back(token, id);
    } while (sc.next('}'));
}

void read_merges(Scanner &sc, TokenizerJsonParts &parts, size_t text_size) {
    parts.merges.reserve(expected_entries(sc, text_size));
    sc.expect('[');
    if (sc.at(']')) {
        sc.expect(']');
        return;
    }
    bool pairs = sc.at('[');
    std::string a, b;
    do {
        const auto merge = [&] { return "model.merges: merge " + std::to_string(parts.merges.size()); };
        if (sc.at('[') != pairs) sc.fail("model.merges mixes \"a b\" strings and [a, b] pairs");
        if (!sc.at('[') && !sc.at('"')) sc.fail(merge() + " is neither \"a b\" nor [\"a\", \"b\"]");
        if (pairs) {
            sc.expect('[');
            if (!sc.at('"')) sc.fail(merge() + " is not a pair of two tokens");
            sc.string(a);
            if (!sc.next(']')) sc.fail(merge() + " is not a pair of two tokens");
            if (!sc.at('"')) sc.fail(merge() + " is not a pair of two tokens");
            sc.string(b);
            if (sc.next(']')) sc.fail(merge() + " is not a pair of two tokens");
            parts.merges.emplace_back(std::move(a), std::move(b));
        } else {
            sc.string(a);
            const size_t space = a.find(' ');
            if (space == std::string::npos || a.find(' ', space + 1) != std::string::npos)
                sc.fail(merge() + " '" + printable_text(a, 60) + "' is not two tokens separated by one space");
            parts.merges.emplace_back(a.substr(0, space), a.substr(space + 1));
        }
    } while (sc.next(']'));
}

}  // namespace

TokenizerJsonParts parse_tokenizer_json_parts(std::string_view text, const std::string &name) {
    if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
        throw FormatError(name + ": not valid JSON (NUL byte at " + std::to_string(nul) + ")");
    TokenizerJsonParts parts;
    Scanner sc(text, name);
    if (!sc.at('{')) {
        // Not an object: the strict reader says what it is (or why it is not JSON).
        parts.rest = sc.value("the top level");
        return parts;
    }
    parts.rest = json::object();
    sc.expect('{');
    std::set<std::string> keys;
    std::string key;
    if (!sc.at('}')) {
        do {
            sc.string(key);
            if (!keys.insert(key).second) sc.fail("key '" + printable_text(key, 60) + "' appears twice");
            sc.expect(':');
            if (key != "model" || !sc.at('{')) {
                parts.rest[key] = sc.value(key);
                continue;
            }
            json &model = parts.rest["model"] = json::object();
            sc.expect('{');
            std::set<std::string> model_keys;
            if (sc.at('}')) {
                sc.expect('}');
                continue;
            }
            do {
                sc.string(key);
                if (!model_keys.insert(key).second) sc.fail("model: key '" + printable_text(key, 60) + "' appears twice");
                sc.expect(':');
                if (key == "vocab" && sc.at('{')) {
                    parts.has_vocab = true;
                    read_vocab(sc, parts, text.size());
                } else if (key == "merges" && sc.at('[')) {
                    parts.has_merges = true;
                    read_merges(sc, parts, text.size());
                } else {
                    model[key] = sc.value("model." + key);
                }
            } while (sc.next('}'));
        } while (sc.next('}'));
    } else {
        sc.expect('}');
    }
    if (!sc.done()) sc.syntax("text after the top-level object");
    return parts;
}

}  // namespace halogen
