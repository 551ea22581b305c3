// The BPE merge loop and its per-pre-token cache (bpe.h).
//
// The loop is Hugging Face's: a min-heap of candidate merges ordered by (rank, position); a
// popped candidate whose symbols have changed since it was pushed is dropped; after a merge the
// pairs the new symbol forms with its neighbours are pushed. Symbols live in one array with
// prev/next links; a merged-away symbol has length 0.
#include "tokenizer/bpe.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "frontend/errors.h"
#include "tokenizer/byte_level.h"

namespace halogen {

namespace {

uint64_t pair_key(int32_t a, int32_t b) { return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b); }

// The cache: pre-token bytes -> a run of ids in one arena. Keys are copied into chunks that never
// move, so the map can key on string_views.
constexpr size_t kCacheEntries = 1 << 16;
constexpr size_t kCacheKeyMax = 256;   // longer pre-tokens are not cached
constexpr size_t kChunk = 1 << 16;

}  // namespace

struct BpeModel::Cache {
    std::unordered_map<std::string_view, std::pair<uint32_t, uint32_t>> map;   // -> (offset, count) in ids
    std::vector<int32_t> ids;
    std::vector<std::unique_ptr<char[]>> chunks;
    size_t used_in_chunk = kChunk;

    Cache() { map.reserve(kCacheEntries); }

    void clear() {
        map.clear();
        ids.clear();
        chunks.clear();
        used_in_chunk = kChunk;
    }

    std::string_view keep(std::string_view key) {
        if (used_in_chunk + key.size() > kChunk) {
            chunks.push_back(std::make_unique<char[]>(kChunk));
            used_in_chunk = 0;
        }
        char *p = chunks.back().get() + used_in_chunk;
        std::memcpy(p, key.data(), key.size());
        used_in_chunk += key.size();
        return {p, key.size()};
    }
};

BpeModel::BpeModel(const BpeVocab &vocab)
    : tokens_(vocab.tokens), ignore_merges_(vocab.ignore_merges), fuse_unk_(vocab.fuse_unk),
      cache_(std::make_unique<Cache>()) {
    ids_.reserve(tokens_.size() * 2);
    for (size_t i = 0; i < tokens_.size(); ++i) {
        if (!ids_.emplace(tokens_[i], static_cast<int32_t>(i)).second)
            throw FormatError(vocab.source + ": vocab: the token '" + tokens_[i] + "' is given twice (ids " +
                              std::to_string(ids_[tokens_[i]]) + " and " + std::to_string(i) + ")");
    }
    for (int b = 0; b < 256; ++b) byte_ids_[b] = id_of(byte_level::char_of(static_cast<unsigned char>(b)));
    if (!vocab.unk_token.empty()) {
        unk_id_ = id_of(vocab.unk_token);
        if (unk_id_ < 0) throw FormatError(vocab.source + ": unk_token '" + vocab.unk_token + "' is not in the vocab");
    }
    merges_.reserve(vocab.merges.size() * 2);
    std::string joined;
    for (size_t rank = 0; rank < vocab.merges.size(); ++rank) {
        const auto &[a, b] = vocab.merges[rank];
        const int32_t ia = id_of(a), ib = id_of(b);
        if (ia < 0 || ib < 0)
            throw FormatError(vocab.source + ": merge " + std::to_string(rank) + " ('" + a + " " + b + "'): '" + (ia < 0 ? a : b) +
                              "' is not in the vocab");
        joined.assign(a).append(b);
        const int32_t id = id_of(joined);
        if (id < 0)
            throw FormatError(vocab.source + ": merge " + std::to_string(rank) + " ('" + a + " " + b + "'): the merged token '" +
                              joined + "' is not in the vocab");
        // As in Hugging Face, a pair listed twice keeps its last rank.
        merges_[pair_key(ia, ib)] = {static_cast<uint32_t>(rank), id};
    }
}

BpeModel::~BpeModel() = default;

int32_t BpeModel::id_of(std::string_view token) const {
    const auto it = ids_.find(token);
    return it == ids_.end() ? -1 : it->second;
}

size_t BpeModel::cached() const { return cache_->map.size(); }

void BpeModel::encode(std::string_view raw, std::vector<int32_t> &out) {
    if (raw.empty()) return;
    Cache &c = *cache_;
    if (const auto it = c.map.find(raw); it != c.map.end()) {
        const int32_t *p = c.ids.data() + it->second.first;
        out.insert(out.end(), p, p + it->second.second);
        return;
    }
    const size_t before = out.size();
    merge(raw, out);
    if (raw.size() <= kCacheKeyMax) {
        if (c.map.size() >= kCacheEntries) c.clear();
        const auto offset = static_cast<uint32_t>(c.ids.size());
        c.ids.insert(c.ids.end(), out.begin() + static_cast<std::ptrdiff_t>(before), out.end());
        c.map.emplace(c.keep(raw), std::make_pair(offset, static_cast<uint32_t>(out.size() - before)));
    }
}

void BpeModel::merge(std::string_view raw, std::vector<int32_t> &out) {
    if (ignore_merges_) {
        const int32_t whole = id_of(byte_level::encode(raw));
        if (whole >= 0) {
            out.push_back(whole);
            return;
        }
    }
    struct Symbol {
        int32_t id;
        int32_t prev, next;
        uint32_t len;   // bytes; 0 once merged into its left neighbour
    };
    thread_local std::vector<Symbol> symbols;
    symbols.clear();
    // One symbol per byte (each byte is one character of the byte-level string). A byte missing
    // from the vocab becomes the unknown token (fused with the previous one with fuse_unk), or
    // is dropped when there is none, as Hugging Face does.
    bool last_unk = false;
    for (const char ch : raw) {
        const int32_t id = byte_ids_[static_cast<unsigned char>(ch)];
        if (id >= 0) {
            symbols.push_back({id, 0, 0, 1});
            last_unk = false;
        } else if (unk_id_ >= 0) {
            if (fuse_unk_ && last_unk) {
                symbols.back().len += 1;
            } else {
                symbols.push_back({unk_id_, 0, 0, 1});
            }
            last_unk = true;
        }
    }
    const auto n = static_cast<int32_t>(symbols.size());
    for (int32_t i = 0; i < n; ++i) {
        symbols[i].prev = i - 1;
        symbols[i].next = i + 1 < n ? i + 1 : -1;
    }
    struct Candidate {
        uint32_t rank;
        int32_t pos;
        int32_t id;
        bool operator>(const Candidate &o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
    };
    thread_local std::vector<Candidate> heap;   // a min-heap through std::greater
    heap.clear();
    const std::greater<Candidate> later;
    auto push_pair = [&](int32_t pos) {
        const int32_t next = symbols[pos].next;
        if (next < 0) return;
        const auto it = merges_.find(pair_key(symbols[pos].id, symbols[next].id));
        if (it == merges_.end()) return;
        heap.push_back({it->second.first, pos, it->second.second});
        std::push_heap(heap.begin(), heap.end(), later);
    };
    for (int32_t i = 0; i + 1 < n; ++i) push_pair(i);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        const Candidate top = heap.back();
        heap.pop_back();
        Symbol &left = symbols[top.pos];
        if (left.len == 0 || left.next < 0) continue;
        const Symbol right = symbols[left.next];
        const auto it = merges_.find(pair_key(left.id, right.id));
        if (it == merges_.end() || it->second.second != top.id) continue;   // a stale candidate
        symbols[left.next].len = 0;
        left.id = top.id;
        left.len += right.len;
        left.next = right.next;
        if (right.next >= 0) symbols[right.next].prev = top.pos;
        if (left.prev >= 0) push_pair(left.prev);
        push_pair(top.pos);
    }
    for (const Symbol &s : symbols)
        if (s.len != 0) out.push_back(s.id);
}

}  // namespace halogen
