// Helpers shared by the safetensors sources (safetensors_*.cpp, checkpoint.cpp) and the llama
// weights binding (frontend/llama/llama_weights.cpp); not an API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace halogen {

// Untrusted text made fit for a one-line message: printable ASCII only ('?' for the rest), cut
// after max_len characters with "...".
std::string printable_text(std::string_view s, size_t max_len = 96);

// The header length N from a file's first bytes, checked: the file holds 8 bytes, N is within the
// format's limit and within the file. FormatError naming `name` otherwise.
uint64_t safetensors_header_length(std::string_view file_start, uint64_t file_size, const std::string &name);

}  // namespace halogen
