// The BPE merge loop and its per-pre-token cache (bpe.h).
//
// The loop is Hugging Face's: a min-heap of candidate merges ordered by (rank, position); a
// popped candidate whose symbols have changed since it was pushed is dropped; after a merge the
// pairs the new symbol forms with its neighbours are pushed. Symbols live in one array with
// prev/next links; a merged-away symbol has length 0.
#include "tokenizer/bpe.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <functional>
#include <thread>

#include "formats/printable_text.h"
#include "frontend/errors.h"
#include "tokenizer/byte_level.h"

namespace halogen {

namespace {

constexpr size_t kCacheKeyMax = 256;   // longer pre-tokens are not cached

}  // namespace

BpeModel::BpeModel(const BpeVocab &vocab, size_t parallel_from)
    : tokens_(vocab.tokens), ignore_merges_(vocab.ignore_merges), fuse_unk_(vocab.fuse_unk),
      cache_(std::make_unique<PieceCache>()) {
    index_tokens(vocab);
    resolve_merges(vocab, parallel_from);
}

BpeModel::BpeModel(std::vector<std::string> tokens, const BpeVocab &vocab, const std::vector<IdMerge> &merges)
    : tokens_(std::move(tokens)), ignore_merges_(vocab.ignore_merges), fuse_unk_(vocab.fuse_unk),
      cache_(std::make_unique<PieceCache>()) {
    index_tokens(vocab);
    const auto n = static_cast<int64_t>(tokens_.size());
    merges_.reserve(merges.size());
    constexpr size_t kAhead = 16;
    for (size_t i = 0; i < merges.size(); ++i) {
        if (i + kAhead < merges.size()) merges_.prefetch(merges[i + kAhead].left, merges[i + kAhead].right);
        const IdMerge &m = merges[i];
        for (const int32_t id : {m.left, m.right, m.id})
            if (id < 0 || id >= n)
                throw FormatError(vocab.source + ": merge " + std::to_string(m.rank) + " names id " + std::to_string(id) +
                                  ", outside the vocab of " + std::to_string(n));
        merges_.set(m.left, m.right, {m.rank, m.id});
    }
}

void BpeModel::index_tokens(const BpeVocab &vocab) {
    if (const int64_t repeated = ids_.build(tokens_); repeated >= 0) {
        const std::string &t = tokens_[static_cast<size_t>(repeated)];
        throw FormatError(vocab.source + ": vocab: the token '" + printable_text(t, 60) + "' is given twice (ids " +
                          std::to_string(ids_.find(t)) + " and " + std::to_string(repeated) + ")");
    }
    for (int b = 0; b < 256; ++b) byte_ids_[b] = id_of(byte_level::char_of(static_cast<unsigned char>(b)));
    if (!vocab.unk_token.empty()) {
        unk_id_ = id_of(vocab.unk_token);
        if (unk_id_ < 0) throw FormatError(vocab.source + ": unk_token '" + vocab.unk_token + "' is not in the vocab");
    }
}

std::vector<BpeModel::IdMerge> BpeModel::merges() const {
    std::vector<IdMerge> out;
    out.reserve(merges_.size());
    merges_.for_each([&](int32_t left, int32_t right, MergeTable::Merge m) { out.push_back({left, right, m.id, m.rank}); });
    return out;
}

// A merge's tokens as ids: the pair and the token they make.
struct BpeModel::ResolvedMerge {
    int32_t left = -1, right = -1, id = -1;
};

void BpeModel::resolve_merges(const BpeVocab &vocab, size_t parallel_from) {
    const auto &merges = vocab.merges;
    std::vector<ResolvedMerge> resolved(merges.size());
    // The look-ups only read the token index, so two threads resolve half the merges each (a
    // large vocabulary's load is mostly these look-ups, each a cache miss); a problem is the first
    // merge's in rank order, whichever thread found it.
    const size_t half = merges.size() >= std::max<size_t>(parallel_from, 2) ? merges.size() / 2 : merges.size();
    std::string second_problem;
    size_t second_at = merges.size();
    std::thread second;
    if (half < merges.size()) {
        second = std::thread([&] { second_at = resolve_range(vocab, half, merges.size(), resolved, second_problem); });
    }
    std::string problem;
    size_t at = resolve_range(vocab, 0, half, resolved, problem);
    if (second.joinable()) second.join();
    if (at == half && second_at < merges.size()) problem = std::move(second_problem);
    if (!problem.empty()) throw FormatError(problem);

    merges_.reserve(merges.size());
    constexpr size_t kAhead = 16;
    for (size_t i = 0; i < resolved.size(); ++i) {
        if (i + kAhead < resolved.size()) merges_.prefetch(resolved[i + kAhead].left, resolved[i + kAhead].right);
        // As in Hugging Face, a pair listed twice keeps its last rank.
        merges_.set(resolved[i].left, resolved[i].right, {static_cast<uint32_t>(i), resolved[i].id});
    }
}

size_t BpeModel::resolve_range(const BpeVocab &vocab, size_t begin, size_t end, std::vector<ResolvedMerge> &resolved,
                               std::string &problem) const {
    // In batches: the hashes of a batch's strings first, with their table slots prefetched, then
    // the look-ups, so the memory accesses of one batch overlap.
    constexpr size_t kBatch = 32;
    uint64_t hashes[2][kBatch];
    std::string joined[kBatch];
    const auto &merges = vocab.merges;
    for (size_t base = begin; base < end; base += kBatch) {
        const size_t n = std::min(kBatch, end - base);
        for (size_t k = 0; k < n; ++k) {
            for (int side = 0; side < 2; ++side) {
                hashes[side][k] = TokenIndex::hash(side ? merges[base + k].second : merges[base + k].first);
                ids_.prefetch(hashes[side][k]);
            }
        }
        for (size_t k = 0; k < n; ++k) {
            const auto &[a, b] = merges[base + k];
            ResolvedMerge &r = resolved[base + k];
            r.left = ids_.find(a, hashes[0][k]);
            r.right = ids_.find(b, hashes[1][k]);
            if (r.left < 0 || r.right < 0) {
                problem = vocab.source + ": merge " + std::to_string(base + k) + " ('" + printable_text(a, 60) + " " +
                          printable_text(b, 60) + "'): '" + printable_text(r.left < 0 ? a : b, 60) + "' is not in the vocab";
                return base + k;
            }
            joined[k].assign(a).append(b);
            hashes[0][k] = TokenIndex::hash(joined[k]);
            ids_.prefetch(hashes[0][k]);
        }
        for (size_t k = 0; k < n; ++k) {
            ResolvedMerge &r = resolved[base + k];
            r.id = ids_.find(joined[k], hashes[0][k]);
            if (r.id < 0) {
                problem = vocab.source + ": merge " + std::to_string(base + k) + " ('" +
                          printable_text(merges[base + k].first, 60) + " " + printable_text(merges[base + k].second, 60) +
                          "'): the merged token '" + printable_text(joined[k], 60) + "' is not in the vocab";
                return base + k;
            }
        }
    }
    return end;
}

BpeModel::~BpeModel() = default;

int32_t BpeModel::id_of(std::string_view token) const { return ids_.find(token); }

size_t BpeModel::cached() const { return cache_->size(); }

void BpeModel::encode(std::string_view raw, std::vector<int32_t> &out) {
    if (raw.empty()) return;
    const uint64_t h = PieceCache::hash(raw);
    uint32_t count = 0;
    if (const int32_t *ids = cache_->find(raw, h, count)) {
        if (count == 1) {
            out.push_back(ids[0]);
        } else {
            out.insert(out.end(), ids, ids + count);
        }
        return;
    }
    const size_t before = out.size();
    merge(raw, out);
    if (raw.size() <= kCacheKeyMax)
        cache_->insert(raw, h, out.data() + before, static_cast<uint32_t>(out.size() - before));
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
        const MergeTable::Merge *m = merges_.find(symbols[pos].id, symbols[next].id);
        if (!m) return;
        heap.push_back({m->rank, pos, m->id});
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
        const MergeTable::Merge *m = merges_.find(left.id, right.id);
        if (!m || m->id != top.id) continue;   // a stale candidate
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
