// Reading safetensors files, the format of Hugging Face checkpoints: a little-endian u64 N, N bytes
// of UTF-8 JSON (the header), then the tensors' raw bytes (the data section). The header maps each
// tensor name to {"dtype", "shape", "data_offsets": [begin, end]}, offsets relative to the data
// section; an optional "__metadata__" maps strings to strings.
//
// The file is mapped read-only, never copied: a tensor's `data` points into the mapping, at any
// alignment. Opening reads and validates the header only, as the format's reference implementation
// (the Rust crate `safetensors`) does: N at most 100,000,000 and within the file; the header a JSON
// object; sorted by offset, tensors contiguous from 0 with no gap or overlap; each tensor's byte
// count equal to its element count times its dtype's size (overflow-checked); the last end equal to
// the data section's size. Stricter than the reference: a key repeated anywhere the reader looks
// (tensor names, fields, metadata keys) is an error, where JSON readers silently keep one; a
// dimension must fit int64. As in the reference (but unlike plain nlohmann-json), a UTF-8
// byte-order mark, a NUL byte and nesting deeper than 128 levels are errors. Every problem is a FormatError whose one-line message names the file, and the tensor and
// field when there is one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/file_bytes.h"
#include "frontend/errors.h"

namespace halogen {

// The format's element types, in the reference's order (its writer sorts by it). Local to the
// file format: halogen's own DType (float32, int32, bool) is what graphs compute with.
enum class SafetensorsDType {
    BOOL, F4, F6_E2M3, F6_E3M2, U8, I8, F8_E5M2, F8_E4M3, F8_E8M0, F8_E4M3FNUZ, F8_E5M2FNUZ,
    I16, U16, F16, BF16, I32, U32, F32, C64, F64, I64, U64,
};

std::string_view safetensors_dtype_name(SafetensorsDType t);                   // "BF16", ...
std::optional<SafetensorsDType> parse_safetensors_dtype(std::string_view name);  // exact spelling
int safetensors_dtype_bits(SafetensorsDType t);   // bits per element: 4 (F4), 6 (F6_*), 8 ... 64

constexpr uint64_t kSafetensorsMaxHeaderBytes = 100'000'000;   // the reference's limit on N

// One tensor of a file. `data` points at its `bytes()` bytes, at any alignment; it is null in a
// header read without mapping the file, and lives as long as any SafetensorsFile sharing the map.
struct SafetensorsTensor {
    std::string name;
    SafetensorsDType dtype = SafetensorsDType::F32;
    std::vector<int64_t> shape;           // rank 0 (a scalar) and zero extents are legal
    uint64_t begin = 0, end = 0;          // data_offsets, relative to the data section
    const uint8_t *data = nullptr;
    bool mapped = false;                  // data lies in a read-only mapping of the file (open(), not parse())

    uint64_t bytes() const { return end - begin; }
    int64_t numel() const;                // product of the shape: 0 with any zero extent, else it fits (validated)
};

// A validated header. `tensors` are in file order (by offset).
struct SafetensorsHeader {
    uint64_t header_bytes = 0;            // N
    uint64_t data_offset = 0;             // 8 + N: where the data section begins in the file
    uint64_t data_bytes = 0;              // the data section's size: file size - 8 - N
    std::vector<SafetensorsTensor> tensors;
    std::map<std::string, std::string> metadata;   // "__metadata__"; empty when absent
};

// Validates a header given the file's first bytes (at least 8 + N of them, or the whole file when
// it is shorter) and the file's total size; `name` labels error messages. Reads nothing else.
SafetensorsHeader parse_safetensors_header(std::string_view file_start, uint64_t file_size,
                                           const std::string &name);

// Reads and validates only the header of the file at `path`: 8 + N bytes and the file's size, no
// data page is read or mapped. The tensors' `data` pointers are null.
SafetensorsHeader read_safetensors_header(const std::string &path);

// An open safetensors file: a validated header over a read-only mapping of the whole file. Cheap
// to copy (copies share the mapping). The mapping's pages are read only when a tensor's data is;
// if the file shrinks on disk while mapped, touching a lost page is a SIGBUS, as with any mapping.
class SafetensorsFile {
public:
    static SafetensorsFile open(const std::string &path);
    // The same over bytes in memory (the whole file's contents); `name` labels error messages.
    static SafetensorsFile from_bytes(std::string bytes, const std::string &name = "<memory>");

    const std::string &path() const { return path_; }
    const SafetensorsHeader &header() const { return header_; }
    const std::vector<SafetensorsTensor> &tensors() const { return header_.tensors; }   // file order
    const std::map<std::string, std::string> &metadata() const { return header_.metadata; }
    std::vector<std::string> names() const;                      // sorted
    const SafetensorsTensor *find(std::string_view name) const;  // null when absent
    const SafetensorsTensor &at(std::string_view name) const;    // FormatError naming tensor and file

    // Reads one byte of every page of the data section (the caller's way to fault the weights in,
    // e.g. before timing); returns their sum so the reads cannot be optimized away.
    uint64_t touch_data() const;

private:
    std::shared_ptr<const FileBytes> storage_;   // the bytes every view points into
    std::string path_;
    SafetensorsHeader header_;
    std::unordered_map<std::string, size_t> index_;   // name -> position in header_.tensors

    static SafetensorsFile bind(std::shared_ptr<const FileBytes> storage, const std::string &path);
};

// A tensor's values as float32: F32 copied, BF16 and F16 converted exactly (bfloat16.h). `out`
// must hold numel() floats. A DTypeError names the tensor for any other dtype or a missing `data`.
void copy_as_float32(const SafetensorsTensor &t, float *out);
std::vector<float> to_float32(const SafetensorsTensor &t);

// For a tensor the caller has copied elsewhere and will not read here again: its whole pages leave
// the process's resident memory, so a model that keeps a converted, stacked or packed copy does
// not also keep the mapped original. Nothing is lost: a mapped tensor's pages leave the process
// only (madvise MADV_DONTNEED on the read-only mapping), the page cache keeps them and a later
// read maps them in again, and the next process that opens the file finds them there; a tensor in
// memory that is not a file's (parse()) is at most written to swap (MADV_PAGEOUT). Pages the
// tensor shares with a neighbour stay.
void release_resident_pages(const SafetensorsTensor &t);

// Reads one byte of each of the tensor's pages, so that a file's pages are in memory before
// anything timed reads them (a mapping otherwise reads the file on the first touch of each page,
// inside the first step that runs). Returns the bytes brought in (t.bytes()).
uint64_t read_resident_pages(const SafetensorsTensor &t);

}  // namespace halogen
