// The byte-level BPE model: one pre-token in, its token ids out, merging as Hugging Face's BPE
// does: the pair of adjacent symbols with the lowest merge rank first, the leftmost of equal
// ranks first, until no adjacent pair has a merge. With ignore_merges a pre-token that is in the
// vocab is that one token. Merge ranks live in a hash map keyed by the pair of ids; results are
// cached per pre-token (keyed by its raw bytes), so repeated words cost one lookup.
// BpeModel is not movable: its index points at its own token list.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/bpe_vocab.h"
#include "tokenizer/flat_tables.h"
#include "tokenizer/piece_cache.h"

namespace halogen {

class BpeModel {
public:
    // From this many merges on, two threads resolve them at construction (a small vocabulary's
    // thread would cost more than it saves).
    static constexpr size_t kParallelMerges = 20000;

    // FormatError for a merge naming a token outside the vocab, or whose joined token is not in
    // it (the first such merge in rank order), and for a token given twice. `parallel_from`:
    // tests set it to check that both ways give the same model.
    explicit BpeModel(const BpeVocab &vocab, size_t parallel_from = kParallelMerges);

    // A merge as the model holds it: the pair of ids, the id they make and its rank.
    struct IdMerge {
        int32_t left, right, id;
        uint32_t rank;
    };
    // The model from `tokens` (the vocab by id, taken over) and merges already resolved to ids
    // (merges() of a model built from the same vocab: tokenizer_snapshot.h); vocab's tokens and
    // merges are not read, its other fields are. FormatError for an id outside the vocab and for
    // a token given twice.
    BpeModel(std::vector<std::string> tokens, const BpeVocab &vocab, const std::vector<IdMerge> &merges);
    // Every merge (a pair listed twice appears once, with its last rank), in the order of the
    // model's table: the constructor above inserts them in that order into a table of the same
    // size, touching its slots in order instead of at random.
    std::vector<IdMerge> merges() const;
    ~BpeModel();
    BpeModel(const BpeModel &) = delete;
    BpeModel &operator=(const BpeModel &) = delete;

    // Appends the ids of one pre-token given as raw bytes (mapped to the byte-level alphabet
    // here). Not thread-safe: the cache is shared (Tokenizer::encode serialises calls).
    void encode(std::string_view raw, std::vector<int32_t> &out);

    // The id of a byte-level token string, or -1.
    int32_t id_of(std::string_view token) const;
    size_t size() const { return tokens_.size(); }
    const std::string &token(int32_t id) const { return tokens_[static_cast<size_t>(id)]; }
    size_t merge_count() const { return merges_.size(); }

    // Pre-tokens cached so far (the cache is emptied when it reaches its capacity).
    size_t cached() const;

private:
    struct ResolvedMerge;
    void index_tokens(const BpeVocab &vocab);
    void resolve_merges(const BpeVocab &vocab, size_t parallel_from);
    // Resolves merges [begin, end) into `resolved`; returns `end`, or the index of the first merge
    // that names a token outside the vocab, with `problem` saying so.
    size_t resolve_range(const BpeVocab &vocab, size_t begin, size_t end, std::vector<ResolvedMerge> &resolved,
                         std::string &problem) const;
    void merge(std::string_view raw, std::vector<int32_t> &out);

    std::vector<std::string> tokens_;
    TokenIndex ids_;
    MergeTable merges_;
    int32_t byte_ids_[256];
    bool ignore_merges_;
    int32_t unk_id_ = -1;
    bool fuse_unk_ = false;

    std::unique_ptr<PieceCache> cache_;
};

}  // namespace halogen
