// UTF-8 text as Python's str sees it: code points, the characters str.isspace() takes for
// whitespace, case mapping and printability. The template engine measures, indexes, slices and
// strips strings by code point, as Jinja does. Bytes that are not valid UTF-8 are kept, each as
// one code point of its own above U+10FFFF, so that decoding and encoding give the bytes back.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace halogen::jinja::utf8 {

constexpr char32_t kRawByteBase = 0x110000;   // a byte that is not valid UTF-8: kRawByteBase + byte

std::vector<char32_t> decode(std::string_view text);
void append(std::string &out, char32_t c);
std::string encode(const std::vector<char32_t> &chars, size_t begin, size_t end);
std::string encode(char32_t c);

// Reads one code point at text[pos], advancing pos.
char32_t next(std::string_view text, size_t &pos);

size_t length(std::string_view text);                          // in code points
bool valid(std::string_view text, size_t *bad_offset = nullptr);

bool is_space(char32_t c);                                     // Python's str.isspace()
bool is_printable(char32_t c);                                 // Python's str.isprintable(), near enough
char32_t to_upper(char32_t c);                                 // one-to-one mappings (the C.UTF-8 locale's)
char32_t to_lower(char32_t c);
bool is_cased_upper(char32_t c);
bool is_cased_lower(char32_t c);

// Byte offsets of text with Python's str.strip() whitespace removed from one or both ends.
size_t space_prefix_end(std::string_view text);
size_t space_suffix_begin(std::string_view text);

}  // namespace halogen::jinja::utf8
