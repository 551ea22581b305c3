// The flat lookup tables (flat_tables.h).
#include "tokenizer/flat_tables.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace halogen {

namespace {

uint64_t string_hash(std::string_view s) { return std::hash<std::string_view>()(s); }

uint64_t table_size(size_t n) {
    uint64_t size = 16;
    while (size < 2 * static_cast<uint64_t>(n)) size <<= 1;
    return size;
}

}  // namespace

uint64_t TokenIndex::hash(std::string_view token) { return string_hash(token); }

uint64_t TokenIndex::prefix_of(std::string_view s) {
    uint64_t p = 0;
    std::memcpy(&p, s.data(), std::min<size_t>(8, s.size()));
    return p;
}

int64_t TokenIndex::build(const std::vector<std::string> &tokens) {
    tokens_ = &tokens;
    const uint64_t size = table_size(tokens.size());
    slots_.assign(size, Slot{0, 0, -1});
    mask_ = size - 1;
    int64_t repeated = -1;
    // The hashes first, so each insert's slot can be prefetched some tokens ahead (the inserts
    // are cache misses in a table of megabytes).
    std::vector<uint64_t> hashes(tokens.size());
    for (size_t id = 0; id < tokens.size(); ++id) hashes[id] = hash(tokens[id]);
    constexpr size_t kAhead = 16;
    for (size_t id = 0; id < tokens.size(); ++id) {
        if (id + kAhead < tokens.size()) prefetch(hashes[id + kAhead]);
        const std::string &t = tokens[id];
        const uint64_t prefix = prefix_of(t);
        for (uint64_t i = hashes[id] & mask_;; i = (i + 1) & mask_) {
            Slot &s = slots_[i];
            if (s.id < 0) {
                s = Slot{prefix, static_cast<uint32_t>(t.size()), static_cast<int32_t>(id)};
                break;
            }
            if (s.length == t.size() && s.prefix == prefix && tokens[static_cast<size_t>(s.id)] == t) {
                if (repeated < 0) repeated = static_cast<int64_t>(id);
                break;
            }
        }
    }
    return repeated;
}

int32_t TokenIndex::find(std::string_view token, uint64_t h) const {
    const uint64_t prefix = prefix_of(token);
    for (uint64_t i = h & mask_;; i = (i + 1) & mask_) {
        const Slot &s = slots_[i];
        if (s.id < 0) return -1;
        if (s.length == token.size() && s.prefix == prefix &&
            (token.size() <= 8 || std::string_view((*tokens_)[static_cast<size_t>(s.id)]).substr(8) == token.substr(8)))
            return s.id;
    }
}

void MergeTable::reserve(size_t n) {
    if (table_size(n) <= slots_.size()) return;
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(table_size(n), Slot{kEmpty, {0, 0}});
    mask_ = slots_.size() - 1;
    size_ = 0;
    for (const Slot &s : old)
        if (s.key != kEmpty) set(static_cast<int32_t>(s.key >> 32), static_cast<int32_t>(s.key & 0xffffffffu), s.merge);
}

void MergeTable::set(int32_t left, int32_t right, Merge m) {
    if (2 * (size_ + 1) > slots_.size()) reserve(size_ + 1);
    const uint64_t key = pack(left, right);
    for (uint64_t i = hash(key) & mask_;; i = (i + 1) & mask_) {
        Slot &s = slots_[i];
        if (s.key == key) {
            s.merge = m;
            return;
        }
        if (s.key == kEmpty) {
            s = Slot{key, m};
            ++size_;
            return;
        }
    }
}

}  // namespace halogen
