// The pre-tokenizer steps run one after another over the pieces (pre_tokenizer.h).
#include "tokenizer/pre_tokenizer.h"

#include "tokenizer/utf8.h"

namespace halogen {

namespace {

size_t char_length(std::string_view text, size_t pos) {
    const utf8::Step st = utf8::step(text, pos);
    return st.length;
}

}  // namespace

void split_isolated(const Regex &re, std::string_view text, std::vector<std::string_view> &out) {
    size_t prev = 0;            // the end of the last piece written
    size_t search_from = 0;
    bool have_last = false;
    size_t last_match_end = 0;
    while (search_from <= text.size()) {
        size_t start, end;
        if (!re.find(text, search_from, start, end)) break;
        if (start == end && have_last && last_match_end == end) {
            // An empty match where the previous one ended: step over one character.
            if (search_from >= text.size()) break;
            search_from += char_length(text, search_from);
            continue;
        }
        search_from = end;
        have_last = true;
        last_match_end = end;
        if (start > prev) out.push_back(text.substr(prev, start - prev));
        if (end > start) out.push_back(text.substr(start, end - start));
        prev = end;
    }
    if (prev < text.size()) out.push_back(text.substr(prev));
}

PreTokenizer::PreTokenizer(const PreTokenizerSpec &spec) {
    static const std::shared_ptr<const Regex> gpt2 =
        std::make_shared<const Regex>(gpt2_pattern(), "pre-tokenizer ByteLevel");
    static const std::shared_ptr<const Regex> digits = std::make_shared<const Regex>("\\p{N}", "pre-tokenizer Digits");
    for (const PreTokenizerStep &s : spec) {
        Step step;
        step.kind = s.kind;
        switch (s.kind) {
        case PreTokenizerStep::Kind::Split:
            step.regex = std::make_shared<const Regex>(s.pattern, "pre-tokenizer Split");
            break;
        case PreTokenizerStep::Kind::ByteLevel:
            step.add_prefix_space = s.add_prefix_space;
            if (s.use_regex) step.regex = gpt2;
            break;
        case PreTokenizerStep::Kind::Digits:
            step.regex = digits;
            break;
        }
        // A ByteLevel step that neither adds a space nor splits leaves the pieces as they are.
        if (step.kind == PreTokenizerStep::Kind::ByteLevel && !step.add_prefix_space && !step.regex) continue;
        steps_.push_back(std::move(step));
    }
}

void PreTokenizer::split(std::string_view text, std::vector<std::string_view> &pieces,
                         std::deque<std::string> &storage) const {
    if (text.empty()) return;
    if (steps_.empty()) {
        pieces.push_back(text);
        return;
    }
    // The last step writes straight into `pieces`; earlier ones into scratch lists.
    std::vector<std::string_view> current{text}, next;
    for (size_t k = 0; k < steps_.size(); ++k) {
        const Step &step = steps_[k];
        std::vector<std::string_view> &out = k + 1 == steps_.size() ? pieces : next;
        for (std::string_view piece : current) {
            if (piece.empty()) continue;
            if (step.add_prefix_space && piece.front() != ' ') {
                storage.emplace_back();
                storage.back().reserve(piece.size() + 1);
                storage.back() += ' ';
                storage.back() += piece;
                piece = storage.back();
            }
            if (step.regex) {
                split_isolated(*step.regex, piece, out);
            } else {
                out.push_back(piece);
            }
        }
        if (k + 1 < steps_.size()) {
            current.swap(next);
            next.clear();
        }
    }
}

}  // namespace halogen
