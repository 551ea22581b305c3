// What the safetensors reader's sources (safetensors_header.cpp, safetensors_file.cpp) share;
// not an API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace halogen {

// The header length N from a file's first bytes, checked: the file holds 8 bytes, N is within the
// format's limit and within the file. FormatError naming `name` otherwise.
uint64_t safetensors_header_length(std::string_view file_start, uint64_t file_size, const std::string &name);

}  // namespace halogen
