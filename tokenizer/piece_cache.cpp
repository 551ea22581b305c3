// The pre-token cache (piece_cache.h).
#include "tokenizer/piece_cache.h"

#include <cstring>
#include <new>

namespace halogen {

PieceCache::PieceCache(size_t slots) {
    uint64_t size = 16;
    while (size < slots) size <<= 1;
    slots_.reset(static_cast<Slot *>(std::calloc(size, sizeof(Slot))));
    if (!slots_) throw std::bad_alloc();
    mask_ = size - 1;
}

namespace {

uint64_t load8(const char *p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

uint32_t load4(const char *p) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
}

}  // namespace

uint64_t PieceCache::hash(std::string_view key) {
    // Eight bytes at a time, each folded in with a multiply and a shift, then a final mix (keys
    // are short, so speed matters more than strength). The last 1 to 8 bytes are read with fixed-
    // size loads that may overlap bytes already read (the length is mixed in, so keys still differ).
    const char *p = key.data();
    const size_t n = key.size();
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xff51afd7ed558ccdull);
    size_t done = 0;
    for (; done + 8 < n; done += 8) {
        h = (h ^ load8(p + done)) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    const size_t rest = n - done;   // 0 .. 8
    uint64_t w;
    if (n >= 8) {
        w = load8(p + n - 8);
    } else if (rest >= 4) {
        w = (static_cast<uint64_t>(load4(p + done)) << 32) | load4(p + n - 4);
    } else if (rest > 0) {
        w = (static_cast<uint64_t>(static_cast<unsigned char>(p[done])) << 16) |
            (static_cast<uint64_t>(static_cast<unsigned char>(p[done + rest / 2])) << 8) |
            static_cast<unsigned char>(p[n - 1]);
    } else {
        w = 0;
    }
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    // MurmurHash3's finaliser, so that the low bits (the slot) depend on every byte.
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

const int32_t *PieceCache::find(std::string_view key, uint64_t h, uint32_t &count) const {
    for (uint64_t i = h & mask_;; i = (i + 1) & mask_) {
        const Slot &s = slots_[i];
        if (s.key_length == 0) return nullptr;
        if (s.hash == h && s.key_length == key.size() && std::memcmp(keys_.data() + s.key_offset, key.data(), key.size()) == 0) {
            count = s.count;
            return ids_.data() + s.ids_offset;
        }
    }
}

void PieceCache::clear() {
    std::memset(static_cast<void *>(slots_.get()), 0, (mask_ + 1) * sizeof(Slot));
    used_ = 0;
    keys_.clear();
    ids_.clear();
}

void PieceCache::insert(std::string_view key, uint64_t h, const int32_t *ids, uint32_t count) {
    if (key.empty()) return;
    if (2 * (used_ + 1) > mask_ + 1 || keys_.size() + key.size() > UINT32_MAX || ids_.size() + count > UINT32_MAX) clear();
    for (uint64_t i = h & mask_;; i = (i + 1) & mask_) {
        Slot &s = slots_[i];
        if (s.key_length != 0) continue;
        s = Slot{h, static_cast<uint32_t>(keys_.size()), static_cast<uint32_t>(ids_.size()),
                 static_cast<uint32_t>(key.size()), count};
        keys_.append(key);
        ids_.insert(ids_.end(), ids, ids + count);
        ++used_;
        return;
    }
}

}  // namespace halogen
