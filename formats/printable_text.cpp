// Untrusted text made fit for a one-line message (see printable_text.h).
#include "formats/printable_text.h"

namespace halogen {

std::string printable_text(std::string_view s, size_t max_len) {
    std::string out;
    for (size_t i = 0; i < s.size() && i < max_len; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    if (s.size() > max_len) out += "...";
    return out;
}

}  // namespace halogen
