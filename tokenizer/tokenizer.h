// A byte-level BPE tokenizer built from a BpeVocab (bpe_vocab.h), encoding and decoding as
// Hugging Face's tokenizers does for llama3, GPT-2 and SmolLM2 (docs/tokenizer.md):
//
// encode(text, add_special_tokens)
//   1. added tokens are split out (added_tokens.h): first those with normalized = false, then,
//      in the remaining text, those with normalized = true (there is no normalizer, so both
//      passes see the same text);
//   2. the rest is pre-tokenized (pre_tokenizer.h) and each piece encoded by the BPE model;
//   3. with add_special_tokens, the post-processor's ids (the BOS) go around the result.
//   Text that is not valid UTF-8 (Hugging Face takes only valid strings) is encoded too: each
//   ill-formed subpart is a piece of its own, so decode_bytes gives the bytes back.
//
// decode(ids, skip_special)
//   each token's characters mapped back to bytes (a token with a character outside the
//   byte-level alphabet, like an added token with a space, gives its own UTF-8), the bytes of all
//   tokens joined, then ill-formed UTF-8 replaced by U+FFFD as String::from_utf8_lossy does.
//   Ids outside the vocab are skipped, as Hugging Face skips them.
//
// encode is safe to call from several threads (it holds a lock); decode is const.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/added_tokens.h"
#include "tokenizer/bpe.h"
#include "tokenizer/bpe_vocab.h"
#include "tokenizer/pre_tokenizer.h"

namespace halogen {

class Tokenizer {
public:
    // FormatError when the vocab is inconsistent (a merge outside the vocab, an added token
    // whose id disagrees with the vocab, a post-processor id outside it, ...).
    explicit Tokenizer(const BpeVocab &vocab);
    // The tokenizer around a BPE model already built from `vocab` (tokenizer_snapshot.h builds it
    // from resolved merges); the rest as above.
    Tokenizer(const BpeVocab &vocab, std::unique_ptr<BpeModel> model);
    ~Tokenizer();

    std::vector<int32_t> encode(std::string_view text, bool add_special_tokens = true) const;

    std::string decode(const std::vector<int32_t> &ids, bool skip_special_tokens = false) const;
    // The bytes the ids stand for, before the U+FFFD replacement.
    std::string decode_bytes(const std::vector<int32_t> &ids, bool skip_special_tokens = false) const;

    // One more than the largest id (model vocab and added tokens).
    int32_t vocab_size() const { return static_cast<int32_t>(bytes_.size()); }
    // Whether `id` names a token (ids inside vocab_size may still be unused).
    bool has_id(int32_t id) const { return id >= 0 && id < vocab_size() && present_[static_cast<size_t>(id)]; }
    bool is_special(int32_t id) const { return has_id(id) && special_[static_cast<size_t>(id)]; }
    // The bytes one token stands for (empty for an unknown id).
    const std::string &token_bytes(int32_t id) const;
    // The token string as the vocab writes it (byte-level form), or an added token's content;
    // empty for an unknown id.
    std::string id_to_token(int32_t id) const;
    // An added token's id by content, else the model's id of a byte-level string; -1 if none.
    int32_t token_to_id(std::string_view token) const;

    const BpeModel &model() const { return *model_; }

    int32_t bos_id() const { return bos_id_; }
    int32_t eos_id() const { return eos_id_; }
    int32_t eot_id() const { return eot_id_; }
    const std::vector<int32_t> &prefix_ids() const { return prefix_ids_; }
    const std::vector<int32_t> &suffix_ids() const { return suffix_ids_; }

private:
    void encode_text(std::string_view text, std::vector<int32_t> &out) const;

    std::unique_ptr<BpeModel> model_;
    PreTokenizer pre_tokenizer_;
    AddedTokenMatcher raw_added_, normalized_added_;
    std::unordered_map<std::string, int32_t> added_ids_;
    std::unordered_map<int32_t, std::string> added_content_;
    std::vector<std::string> bytes_;   // by id: what the token decodes to
    std::vector<char> present_, special_;
    std::vector<int32_t> prefix_ids_, suffix_ids_;
    int32_t bos_id_, eos_id_, eot_id_;
    mutable std::mutex encode_lock_;
    // Scratch for encode, kept to avoid allocating on every call.
    mutable std::vector<TextPiece> pieces_, sub_pieces_;
    mutable std::vector<std::string_view> pre_tokens_;
    mutable std::deque<std::string> storage_;
};

}  // namespace halogen
