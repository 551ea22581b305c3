// UTF-8 as the tokenizer needs it: how far a byte string is valid, one character read at a
// time, and the lossy conversion Rust's String::from_utf8_lossy makes (Hugging Face's ByteLevel
// decoder ends with it): each maximal ill-formed subpart becomes one U+FFFD, the Unicode
// standard's "substitution of maximal subparts" (chapter 3, U+FFFD substitution).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace halogen::utf8 {

// What the bytes at `pos` hold: a complete character of `length` bytes (`valid`), the start of
// one cut off by the end of the text (`truncated`, length = the bytes present, all fitting), or
// an ill-formed subpart of `length` bytes (>= 1) that one U+FFFD replaces.
struct Step {
    enum Kind { Valid, Truncated, Invalid } kind;
    size_t length;
    uint32_t code_point;   // Valid only
};
Step step(std::string_view text, size_t pos);

// The length of the longest valid UTF-8 prefix of `text`.
size_t valid_prefix(std::string_view text);
inline bool is_valid(std::string_view text) { return valid_prefix(text) == text.size(); }

// Appends `text` with every ill-formed subpart replaced by U+FFFD; a sequence cut off at the end
// also counts as one ill-formed subpart.
void append_lossy(std::string_view text, std::string &out);
inline std::string lossy(std::string_view text) {
    std::string out;
    append_lossy(text, out);
    return out;
}

inline constexpr std::string_view replacement_character = "\xEF\xBF\xBD";

// UTF-8 of one code point (below 0x110000).
void append_code_point(uint32_t cp, std::string &out);

}  // namespace halogen::utf8
