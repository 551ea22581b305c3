// The BPE model's cache of encoded pre-tokens: the raw bytes of a pre-token -> its ids, in one
// flat open-addressing table (a slot holds the key's 64-bit hash and where its bytes and ids sit
// in two arenas). Encoding English text is mostly cache hits, so a hit is one hash of a few bytes,
// one probe and one compare. When the table is half full it is emptied and refilled.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace halogen {

class PieceCache {
public:
    // `slots` is rounded up to a power of two; at most slots / 2 entries are kept.
    explicit PieceCache(size_t slots = size_t(1) << 17);

    static uint64_t hash(std::string_view key);
    // The cached ids of `key` (with hash `h`): a pointer to `count` ids, valid until the next
    // insert; nullptr when absent.
    const int32_t *find(std::string_view key, uint64_t h, uint32_t &count) const;
    void insert(std::string_view key, uint64_t h, const int32_t *ids, uint32_t count);
    size_t size() const { return used_; }
    void clear();

private:
    struct Slot {
        uint64_t hash;
        uint32_t key_offset;
        uint32_t ids_offset;
        uint32_t key_length;   // 0: empty (the empty key is never cached)
        uint32_t count;
    };
    // Zeroed by calloc, whose fresh pages are touched (and faulted in) only where slots are used:
    // a short prompt costs a few pages, not the whole table.
    struct Free {
        void operator()(Slot *p) const { std::free(p); }
    };
    std::unique_ptr<Slot[], Free> slots_;
    uint64_t mask_;
    size_t used_ = 0;
    std::string keys_;
    std::vector<int32_t> ids_;
};

}  // namespace halogen
