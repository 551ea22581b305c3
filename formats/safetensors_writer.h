// Writing safetensors files as the format's reference writer (the Rust crate `safetensors`, used by
// Hugging Face's save_file) does: tensors sorted by dtype, widest first in the reference's dtype
// order, then by name; offsets contiguous from 0; the header compact JSON with "__metadata__" first
// (its keys sorted here) and each entry as {"dtype","shape","data_offsets"}, padded with spaces to a
// multiple of 8 bytes. Ordering by element size keeps every tensor's data aligned to its element
// size in the file, since the data section starts at a multiple of 8.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "formats/safetensors.h"

namespace halogen {

// A tensor to write: `bytes` bytes at `data` (any alignment), which must be exactly the shape's
// element count times the dtype's size.
struct SafetensorsEntry {
    std::string name;
    SafetensorsDType dtype = SafetensorsDType::F32;
    std::vector<int64_t> shape;
    const void *data = nullptr;
    uint64_t bytes = 0;
};

// What a file will hold: its first 8 + N bytes (length and padded header), and the entries in the
// order their data follow. FormatError naming the tensor for a repeated or reserved name, a negative
// dimension, a byte count that does not match, text that is not UTF-8, or a header over the limit.
struct SafetensorsPlan {
    std::string header;               // 8-byte little-endian N, then N bytes of JSON
    std::vector<size_t> order;        // indices into the entries, in file order
    uint64_t data_bytes = 0;
};
SafetensorsPlan plan_safetensors(const std::vector<SafetensorsEntry> &tensors,
                                 const std::map<std::string, std::string> &metadata);

// The whole file in memory (for small files and tests).
std::string format_safetensors(const std::vector<SafetensorsEntry> &tensors,
                               const std::map<std::string, std::string> &metadata = {});

// Writes the file: into a new file next to `path`, then renamed over it, so that a reader that has
// the old file mapped keeps its bytes. The data go from the callers' buffers to the file unbuffered.
void write_safetensors(const std::string &path, const std::vector<SafetensorsEntry> &tensors,
                       const std::map<std::string, std::string> &metadata = {});

// A tensor whose bytes are made while its file is written, for files larger than memory:
// `fill(offset, dst, n)` writes bytes [offset, offset + n) of the tensor's data into dst. The
// writer asks for consecutive pieces in file order, each beginning at a multiple of 8 bytes of the
// tensor's data (so on an element boundary) and at most kSafetensorsPieceBytes long.
struct SafetensorsSource {
    std::string name;
    SafetensorsDType dtype = SafetensorsDType::F32;
    std::vector<int64_t> shape;
    uint64_t bytes = 0;
    std::function<void(uint64_t offset, void *dst, uint64_t n)> fill;
};
constexpr uint64_t kSafetensorsPieceBytes = uint64_t(8) << 20;

// The same file write_safetensors writes for the same tensors (same order, header and checks,
// same replace-by-rename), its data made by the sources' fills through one buffer of
// kSafetensorsPieceBytes: memory stays that size whatever the file's. A fill's exception removes
// the new file and propagates; the old file, if any, is left as it was.
void write_safetensors_streamed(const std::string &path, const std::vector<SafetensorsSource> &tensors,
                                const std::map<std::string, std::string> &metadata = {});

}  // namespace halogen
