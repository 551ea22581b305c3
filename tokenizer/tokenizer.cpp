// Encoding and decoding (tokenizer.h).
#include "tokenizer/tokenizer.h"

#include <algorithm>

#include "frontend/errors.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/utf8.h"

namespace halogen {

namespace {

std::vector<AddedToken> with_normalized(const std::vector<AddedToken> &all, bool normalized) {
    std::vector<AddedToken> out;
    for (const AddedToken &t : all)
        if (t.normalized == normalized) out.push_back(t);
    return out;
}

// What Hugging Face's ByteLevel decoder makes of one token string: its bytes when every
// character is in the byte-level alphabet, else the string's own UTF-8.
std::string decoded_bytes(const std::string &token) {
    std::string out;
    if (byte_level::decode(token, out)) return out;
    return token;
}

}  // namespace

Tokenizer::Tokenizer(const BpeVocab &vocab) : Tokenizer(vocab, std::make_unique<BpeModel>(vocab)) {}

Tokenizer::Tokenizer(const BpeVocab &vocab, std::unique_ptr<BpeModel> model)
    : model_(std::move(model)), pre_tokenizer_(vocab.pre_tokenizer),
      raw_added_(with_normalized(vocab.added, false)), normalized_added_(with_normalized(vocab.added, true)),
      prefix_ids_(vocab.prefix_ids), suffix_ids_(vocab.suffix_ids), bos_id_(vocab.bos_id), eos_id_(vocab.eos_id),
      eot_id_(vocab.eot_id) {
    const size_t n_model = model_->size();
    size_t size = n_model;
    // Added tokens take their id from the model's vocab when their content is in it, else the
    // next id after the model's vocab and the added tokens so far (Hugging Face's rule); the id
    // the description gives must agree.
    int64_t next_id = static_cast<int64_t>(n_model);
    for (const AddedToken &t : vocab.added) {
        if (t.content.empty()) throw FormatError(vocab.source + ": added token " + std::to_string(t.id) + " has empty content");
        if (added_ids_.count(t.content)) throw FormatError(vocab.source + ": added token '" + t.content + "' is given twice");
        const int32_t in_model = model_->id_of(t.content);
        const int64_t expected = in_model >= 0 ? in_model : next_id++;
        if (t.id != expected)
            throw FormatError(vocab.source + ": added token '" + t.content + "' has id " + std::to_string(t.id) + ", expected " +
                              std::to_string(expected) + (in_model >= 0 ? " (its id in the vocab)" : " (the next free id)"));
        added_ids_[t.content] = t.id;
        added_content_[t.id] = t.content;
        size = std::max(size, static_cast<size_t>(t.id) + 1);
    }
    bytes_.resize(size);
    present_.assign(size, 0);
    special_.assign(size, 0);
    for (size_t i = 0; i < n_model; ++i) {
        bytes_[i] = decoded_bytes(model_->token(static_cast<int32_t>(i)));
        present_[i] = 1;
    }
    for (const AddedToken &t : vocab.added) {
        bytes_[static_cast<size_t>(t.id)] = decoded_bytes(t.content);
        present_[static_cast<size_t>(t.id)] = 1;
        special_[static_cast<size_t>(t.id)] = t.special;
    }
    auto check = [&](int32_t id, const char *what) {
        if (id != -1 && !has_id(id))
            throw FormatError(vocab.source + ": " + what + " id " + std::to_string(id) + " is not in the vocab (size " +
                              std::to_string(size) + ")");
    };
    for (const int32_t id : prefix_ids_) check(id, "post-processor");
    for (const int32_t id : suffix_ids_) check(id, "post-processor");
    check(bos_id_, "bos");
    check(eos_id_, "eos");
    check(eot_id_, "eot");
}

Tokenizer::~Tokenizer() = default;

const std::string &Tokenizer::token_bytes(int32_t id) const {
    static const std::string none;
    return has_id(id) ? bytes_[static_cast<size_t>(id)] : none;
}

std::string Tokenizer::id_to_token(int32_t id) const {
    if (const auto it = added_content_.find(id); it != added_content_.end()) return it->second;
    if (id >= 0 && static_cast<size_t>(id) < model_->size()) return model_->token(id);
    return {};
}

int32_t Tokenizer::token_to_id(std::string_view token) const {
    if (const auto it = added_ids_.find(std::string(token)); it != added_ids_.end()) return it->second;
    return model_->id_of(token);
}

void Tokenizer::encode_text(std::string_view text, std::vector<int32_t> &out) const {
    // Valid UTF-8 runs go through the pre-tokenizer; each ill-formed subpart is a piece alone.
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t good = utf8::valid_prefix(text.substr(pos));
        if (good > 0) {
            pre_tokens_.clear();
            storage_.clear();
            pre_tokenizer_.split(text.substr(pos, good), pre_tokens_, storage_);
            for (const std::string_view p : pre_tokens_) model_->encode(p, out);
            pos += good;
        }
        if (pos < text.size()) {
            const size_t bad = utf8::step(text, pos).length;
            model_->encode(text.substr(pos, bad), out);
            pos += bad;
        }
    }
}

std::vector<int32_t> Tokenizer::encode(std::string_view text, bool add_special_tokens) const {
    std::lock_guard<std::mutex> lock(encode_lock_);
    std::vector<int32_t> out;
    out.reserve(text.size() / 4 + 8);
    if (add_special_tokens) out.insert(out.end(), prefix_ids_.begin(), prefix_ids_.end());
    pieces_.clear();
    if (raw_added_.empty()) {
        if (!text.empty()) pieces_.push_back({text, -1});
    } else {
        raw_added_.split(text, pieces_);
    }
    for (const TextPiece &piece : pieces_) {
        if (piece.id >= 0) {
            out.push_back(piece.id);
            continue;
        }
        if (normalized_added_.empty()) {
            encode_text(piece.text, out);
            continue;
        }
        sub_pieces_.clear();
        normalized_added_.split(piece.text, sub_pieces_);
        for (const TextPiece &sub : sub_pieces_) {
            if (sub.id >= 0) {
                out.push_back(sub.id);
            } else {
                encode_text(sub.text, out);
            }
        }
    }
    if (add_special_tokens) out.insert(out.end(), suffix_ids_.begin(), suffix_ids_.end());
    return out;
}

std::string Tokenizer::decode_bytes(const std::vector<int32_t> &ids, bool skip_special_tokens) const {
    std::string out;
    for (const int32_t id : ids) {
        if (!has_id(id) || (skip_special_tokens && special_[static_cast<size_t>(id)])) continue;
        out += bytes_[static_cast<size_t>(id)];
    }
    return out;
}

std::string Tokenizer::decode(const std::vector<int32_t> &ids, bool skip_special_tokens) const {
    return utf8::lossy(decode_bytes(ids, skip_special_tokens));
}

}  // namespace halogen
