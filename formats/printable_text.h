// Untrusted text (a key, a tensor name or a header read from a file) made fit for a one-line
// error message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace halogen {

// Printable ASCII only ('?' for every other byte), cut after max_len characters with "...".
std::string printable_text(std::string_view s, size_t max_len = 96);

}  // namespace halogen
