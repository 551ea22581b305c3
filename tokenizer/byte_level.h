// GPT-2's byte-level alphabet: each of the 256 byte values written as one printable Unicode
// character (bytes that are printable Latin-1 stand for themselves; the other 68 take U+0100
// upwards, in byte order), so that a vocab of strings can hold any byte sequence.
#pragma once

#include <string>
#include <string_view>

namespace halogen::byte_level {

// The UTF-8 of the character that stands for byte `b`.
const std::string &char_of(unsigned char b);

// `raw` with every byte replaced by its character.
std::string encode(std::string_view raw);
void append_encoded(std::string_view raw, std::string &out);

// The bytes a byte-level string stands for; false (out unspecified) when `text` holds a
// character outside the alphabet or is not valid UTF-8.
bool decode(std::string_view text, std::string &out);

}  // namespace halogen::byte_level
