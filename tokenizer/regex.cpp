// PCRE2 patterns for the pre-tokenizer (regex.h). Two compiled forms: one anchored, tried first
// at the current position (every character of the llama3 and GPT-2 patterns starts a match, so
// this is the common case and skips PCRE2's search set-up), and one unanchored for the search
// when nothing matches there. Both are JIT-compiled when the platform allows.
#include "tokenizer/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "frontend/errors.h"

namespace halogen {

std::string pcre2_pattern_from_oniguruma(const std::string &pattern, const std::string &what) {
    std::string out;
    out.reserve(pattern.size() + 32);
    for (size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c != '\\' || i + 1 == pattern.size()) {
            out += c;
            continue;
        }
        const char e = pattern[++i];
        switch (e) {
        case 's': out += "\\p{White_Space}"; break;
        case 'S': out += "\\P{White_Space}"; break;
        case 'w': case 'W': case 'd': case 'D': case 'b': case 'B': case 'h': case 'H':
            throw FormatError(what + ": the escape \\" + std::string(1, e) +
                              " is not supported (Oniguruma and PCRE2 give it different classes)");
        default: out += '\\'; out += e;
        }
    }
    return out;
}

struct Regex::Impl {
    pcre2_code *anchored = nullptr;
    pcre2_code *search = nullptr;
    pcre2_match_data *data = nullptr;
    bool jit_anchored = false, jit_search = false;

    ~Impl() {
        pcre2_match_data_free(data);
        pcre2_code_free(anchored);
        pcre2_code_free(search);
    }

    static pcre2_code *compile(const std::string &p, uint32_t extra, const std::string &what, bool &jit) {
        int err = 0;
        PCRE2_SIZE offset = 0;
        pcre2_code *code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(p.data()), p.size(),
                                         PCRE2_UTF | PCRE2_UCP | PCRE2_NO_UTF_CHECK | extra, &err, &offset, nullptr);
        if (!code) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            throw FormatError(what + ": the pattern does not compile at offset " + std::to_string(offset) + ": " +
                              reinterpret_cast<const char *>(msg));
        }
        jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
        return code;
    }

    bool run(const pcre2_code *code, bool jit, std::string_view text, size_t from, size_t &start, size_t &end) const {
        const auto *s = reinterpret_cast<PCRE2_SPTR>(text.data());
        const int rc = jit ? pcre2_jit_match(code, s, text.size(), from, 0, data, nullptr)
                           : pcre2_match(code, s, text.size(), from, PCRE2_NO_UTF_CHECK, data, nullptr);
        if (rc < 0) {
            if (rc == PCRE2_ERROR_NOMATCH) return false;
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(rc, msg, sizeof msg);
            throw Error(std::string("pre-tokenizer: PCRE2 failed: ") + reinterpret_cast<const char *>(msg));
        }
        const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(data);
        start = ov[0];
        end = ov[1];
        return true;
    }
};

Regex::Regex(const std::string &pattern, const std::string &what) : impl_(std::make_unique<Impl>()) {
    const std::string p = pcre2_pattern_from_oniguruma(pattern, what);
    impl_->anchored = Impl::compile(p, PCRE2_ANCHORED, what, impl_->jit_anchored);
    impl_->search = Impl::compile(p, 0, what, impl_->jit_search);
    impl_->data = pcre2_match_data_create_from_pattern(impl_->search, nullptr);
}

Regex::~Regex() = default;

bool Regex::match_at(std::string_view text, size_t pos, size_t &end) const {
    size_t start = 0;
    return impl_->run(impl_->anchored, impl_->jit_anchored, text, pos, start, end);
}

bool Regex::find(std::string_view text, size_t from, size_t &start, size_t &end) const {
    if (from < text.size() && impl_->run(impl_->anchored, impl_->jit_anchored, text, from, start, end)) return true;
    return impl_->run(impl_->search, impl_->jit_search, text, from, start, end);
}

}  // namespace halogen
