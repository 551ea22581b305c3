// A pre-tokenizer pattern compiled with PCRE2 (UTF, UCP, JIT). Hugging Face's tokenizers runs
// these patterns with Oniguruma, whose \s is Unicode's White_Space; PCRE2's \s with UCP also
// takes U+180E, so \s and \S are rewritten to \p{White_Space} and \P{White_Space} (the two then
// agree on every code point). Escapes whose classes differ between the two engines (\w \W \d
// \D \b \B \h \H) are refused rather than run with other meanings.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace halogen {

class Regex {
public:
    // FormatError naming `what` and PCRE2's reason when the pattern does not compile.
    Regex(const std::string &pattern, const std::string &what);
    ~Regex();
    Regex(const Regex &) = delete;
    Regex &operator=(const Regex &) = delete;

    // The leftmost match at or after `from` in `text` (valid UTF-8; `from` on a character
    // boundary): true and its [start, end), or false. Not thread-safe (one match buffer).
    bool find(std::string_view text, size_t from, size_t &start, size_t &end) const;

    // Whether the pattern matches at `pos` exactly (anchored).
    bool match_at(std::string_view text, size_t pos, size_t &end) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The pattern with Oniguruma's meaning in PCRE2's syntax (see above); FormatError for a refused
// escape.
std::string pcre2_pattern_from_oniguruma(const std::string &pattern, const std::string &what);

}  // namespace halogen
