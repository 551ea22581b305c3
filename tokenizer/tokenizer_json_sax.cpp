// The one-pass tokenizer.json reader (tokenizer_json_sax.h): a SAX handler that builds a DOM
// except under model.vocab and model.merges.
#include "tokenizer/tokenizer_json_sax.h"

#include <set>

#include "formats/printable_text.h"
#include "formats/strict_json.h"
#include "frontend/errors.h"

namespace halogen {

namespace {

using json = nlohmann::json;

class Handler : public nlohmann::json_sax<json> {
public:
    Handler(TokenizerJsonParts &parts, const std::string &name) : parts_(parts), name_(name) {}

    bool null() override { return value(json(nullptr)); }
    bool boolean(bool v) override { return value(json(v)); }
    bool number_integer(number_integer_t v) override { return id_or_value(v, json(v)); }
    bool number_unsigned(number_unsigned_t v) override {
        return id_or_value(v > static_cast<uint64_t>(INT64_MAX) ? -1 : static_cast<int64_t>(v), json(v));
    }
    bool number_float(number_float_t v, const string_t &) override {
        if (mode_ == Mode::Vocab) fail("model.vocab: the id of '" + printable_text(key_, 60) + "' is not an integer");
        return value(json(v));
    }
    bool binary(binary_t &) override { fail("binary values are not JSON"); }
    bool string(string_t &v) override {
        if (mode_ == Mode::Vocab) fail("model.vocab: the id of '" + printable_text(key_, 60) + "' is not an integer");
        if (mode_ == Mode::Merges) {
            merge_string(v);
            return true;
        }
        if (mode_ == Mode::MergePair) {
            if (pair_.size() == 2) fail_merge("is not a pair of two tokens");
            pair_.push_back(std::move(v));
            return true;
        }
        return value(json(std::move(v)));
    }

    bool start_object(std::size_t) override {
        if (mode_ != Mode::Dom) fail(mode_ == Mode::Vocab ? "model.vocab: the id of '" + printable_text(key_, 60) + "' is not an integer"
                                                           : "model.merges: merge " + std::to_string(parts_.merges.size()) +
                                                                 " is neither \"a b\" nor [\"a\", \"b\"]");
        if (at_model_field("vocab")) {
            if (parts_.has_vocab) fail("key 'vocab' appears twice");
            parts_.has_vocab = true;
            mode_ = Mode::Vocab;
            return true;
        }
        open(json::object());
        keys_.emplace_back();
        return true;
    }
    bool key(string_t &k) override {
        if (mode_ == Mode::Vocab) {
            key_ = std::move(k);
            return true;
        }
        if (!keys_.back().insert(k).second) fail("key '" + printable_text(k, 60) + "' appears twice");
        key_ = std::move(k);
        return true;
    }
    bool end_object() override {
        if (mode_ == Mode::Vocab) {
            mode_ = Mode::Dom;
            return true;
        }
        keys_.pop_back();
        close();
        return true;
    }
    bool start_array(std::size_t) override {
        if (mode_ == Mode::Vocab) fail("model.vocab: the id of '" + printable_text(key_, 60) + "' is not an integer");
        if (mode_ == Mode::Merges) {
            if (merge_kind_ == MergeKind::Strings) fail("model.merges mixes \"a b\" strings and [a, b] pairs");
            merge_kind_ = MergeKind::Pairs;
            mode_ = Mode::MergePair;
            pair_.clear();
            return true;
        }
        if (mode_ == Mode::MergePair) fail_merge("is not a pair of two tokens");
        if (at_model_field("merges")) {
            if (parts_.has_merges) fail("key 'merges' appears twice");
            parts_.has_merges = true;
            mode_ = Mode::Merges;
            return true;
        }
        open(json::array());
        return true;
    }
    bool end_array() override {
        if (mode_ == Mode::MergePair) {
            if (pair_.size() != 2) fail_merge("is not a pair of two tokens");
            parts_.merges.emplace_back(std::move(pair_[0]), std::move(pair_[1]));
            mode_ = Mode::Merges;
            return true;
        }
        if (mode_ == Mode::Merges) {
            mode_ = Mode::Dom;
            return true;
        }
        close();
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &ex) override {
        fail("not valid JSON: " + printable_text(json_exception_reason(ex), 160));
    }

private:
    enum class Mode { Dom, Vocab, Merges, MergePair };
    enum class MergeKind { Unknown, Strings, Pairs };

    [[noreturn]] void fail(const std::string &what) const { throw FormatError(name_ + ": " + what); }
    [[noreturn]] void fail_merge(const std::string &what) const {
        fail("model.merges: merge " + std::to_string(parts_.merges.size()) + " " + what);
    }

    // Whether the container about to open is model.<field> (the model object directly under the root).
    bool at_model_field(const char *field) const {
        return stack_.size() == 2 && key_ == field && stack_keys_.size() == 2 && stack_keys_[1] == "model";
    }

    bool id_or_value(int64_t id, json v) {
        if (mode_ == Mode::Vocab) {
            if (id < 0) fail("model.vocab: the id of '" + printable_text(key_, 60) + "' is negative or too large");
            parts_.vocab.emplace_back(std::move(key_), id);
            return true;
        }
        if (mode_ != Mode::Dom) fail_merge("is neither \"a b\" nor [\"a\", \"b\"]");
        return value(std::move(v));
    }

    void merge_string(std::string &v) {
        if (merge_kind_ == MergeKind::Pairs) fail("model.merges mixes \"a b\" strings and [a, b] pairs");
        merge_kind_ = MergeKind::Strings;
        const size_t space = v.find(' ');
        if (space == std::string::npos || v.find(' ', space + 1) != std::string::npos)
            fail_merge("'" + printable_text(v, 60) + "' is not two tokens separated by one space");
        parts_.merges.emplace_back(v.substr(0, space), v.substr(space + 1));
    }

    // The slot the next value goes into: the root, the end of an array, or the current key.
    json &slot() {
        if (stack_.empty()) return parts_.rest;
        json &top = *stack_.back();
        if (top.is_array()) {
            top.push_back(nullptr);
            return top.back();
        }
        return top[key_];
    }
    bool value(json v) {
        if (mode_ != Mode::Dom) fail_merge("is neither \"a b\" nor [\"a\", \"b\"]");
        slot() = std::move(v);
        return true;
    }
    void open(json v) {
        const std::string under = stack_.empty() || stack_.back()->is_array() ? std::string() : key_;
        json &s = slot();
        s = std::move(v);
        stack_.push_back(&s);
        stack_keys_.push_back(under);
    }
    void close() {
        stack_.pop_back();
        stack_keys_.pop_back();
    }

    TokenizerJsonParts &parts_;
    const std::string &name_;
    Mode mode_ = Mode::Dom;
    MergeKind merge_kind_ = MergeKind::Unknown;
    std::vector<json *> stack_;
    std::vector<std::string> stack_keys_;     // the key each open container sits under
    std::vector<std::set<std::string>> keys_;  // keys seen in each open object
    std::string key_;
    std::vector<std::string> pair_;
};

}  // namespace

TokenizerJsonParts parse_tokenizer_json_parts(std::string_view text, const std::string &name) {
    if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
        throw FormatError(name + ": not valid JSON (NUL byte at " + std::to_string(nul) + ")");
    TokenizerJsonParts parts;
    Handler handler(parts, name);
    json::sax_parse(text.begin(), text.end(), &handler);
    return parts;
}

}  // namespace halogen
