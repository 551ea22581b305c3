// The BPE model's two lookup tables as flat open-addressing arrays (linear probing, a power-of-two
// size at most half full): token string -> id, and (left id, right id) -> (merge rank, merged id).
// A llama3-sized vocab fills them with about 400k entries at load time and the merge loop probes
// the second for every adjacent pair; std::unordered_map's node per entry made both the slowest
// part of loading.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace halogen {

// Each slot holds a token's length and first 8 bytes, so most probes (tokens of up to 8 bytes
// decide in the slot) touch no other memory; hash() and prefetch() let a caller with many
// look-ups start the memory accesses of the next ones early.
class TokenIndex {
public:
    // Indexes `tokens` (which must outlive the index and not change). Returns -1, or the id of
    // the first token that repeats an earlier one (left out of the index).
    int64_t build(const std::vector<std::string> &tokens);
    // The id of `token`, or -1.
    int32_t find(std::string_view token) const { return find(token, hash(token)); }
    int32_t find(std::string_view token, uint64_t h) const;
    static uint64_t hash(std::string_view token);
    void prefetch(uint64_t h) const { __builtin_prefetch(&slots_[h & mask_]); }

private:
    struct Slot {
        uint64_t prefix;   // the first 8 bytes, zero-padded
        uint32_t length;
        int32_t id;        // -1: empty
    };
    static uint64_t prefix_of(std::string_view s);

    const std::vector<std::string> *tokens_ = nullptr;
    std::vector<Slot> slots_{Slot{0, 0, -1}};
    uint64_t mask_ = 0;
};

class MergeTable {
public:
    struct Merge {
        uint32_t rank;
        int32_t id;
    };
    void reserve(size_t n);
    // Sets the merge of (left, right); a pair set again keeps the last value.
    void set(int32_t left, int32_t right, Merge m);
    void prefetch(int32_t left, int32_t right) const { __builtin_prefetch(&slots_[hash(pack(left, right)) & mask_]); }
    // The merge of (left, right), or nullptr.
    const Merge *find(int32_t left, int32_t right) const {
        const uint64_t key = pack(left, right);
        for (uint64_t i = hash(key) & mask_;; i = (i + 1) & mask_) {
            const Slot &s = slots_[i];
            if (s.key == key) return &s.merge;
            if (s.key == kEmpty) return nullptr;
        }
    }
    size_t size() const { return size_; }
    // Calls f(left, right, merge) for every pair in the table, in slot order.
    template <class F>
    void for_each(F &&f) const {
        for (const Slot &s : slots_)
            if (s.key != kEmpty) f(static_cast<int32_t>(s.key >> 32), static_cast<int32_t>(s.key & 0xffffffffu), s.merge);
    }

private:
    struct Slot {
        uint64_t key;
        Merge merge;
    };
    static constexpr uint64_t kEmpty = ~uint64_t{0};
    static uint64_t pack(int32_t a, int32_t b) {
        return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
    }
    static uint64_t hash(uint64_t k) {
        k ^= k >> 33;
        k *= 0xff51afd7ed558ccdull;
        k ^= k >> 33;
        return k;
    }
    std::vector<Slot> slots_{Slot{kEmpty, {0, 0}}};
    uint64_t mask_ = 0;
    size_t size_ = 0;
};

}  // namespace halogen
