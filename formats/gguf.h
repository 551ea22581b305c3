// Reading GGUF files, the format of llama.cpp's models (versions 2 and 3, little-endian): a header
// (magic "GGUF", u32 version, u64 tensor count, u64 key-value count), the metadata key-value pairs
// (typed values: integers, floats, bools, strings, arrays of any of them, arrays of arrays), the
// tensor infos (name, dims, ggml type, offset) and, from the first multiple of general.alignment
// (default 32) after them, the data section holding each tensor's blocks at its offset.
//
// The file is mapped read-only, never copied: strings, string arrays (a vocabulary of 128k tokens,
// 280k merges) and tensor data are views into the mapping. Opening validates everything the
// format requires before anything is used: the magic and version (1 and big-endian files are
// refused by name); counts of tensors, keys and array elements and every string's length within
// the bytes left in the file (a lying count or a 2^60 length is an error, not an allocation);
// known value types, bools that are 0 or 1, keys non-empty and unique, arrays nested at most
// kGgufMaxArrayDepth deep; general.alignment a u32 power of two; tensor names unique and at most
// 64 bytes, at most 4 dims whose element count fits int64, a known ggml type whose block divides
// the row (dims[0]), the byte size from the type's block (overflow-checked); offsets multiples of
// the alignment, every tensor inside the data section, no two overlapping. Each problem is a
// FormatError whose one-line message names the file and the key or tensor.
//
// Tensors keep ggml's dims order: ne[0] is the innermost (the row, of length K for a [N, K]
// weight); shape() gives the row-major order ([N, K]). Reading a tensor's values as float32
// (dequantize) supports the types of ggml_types.h; any other type is a FormatError naming the
// tensor and the type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/file_bytes.h"
#include "formats/ggml_types.h"
#include "frontend/errors.h"

namespace halogen {

// The metadata value types, with their ids in the file.
enum class GgufType : uint32_t {
    U8 = 0, I8 = 1, U16 = 2, I16 = 3, U32 = 4, I32 = 5, F32 = 6, BOOL = 7, STRING = 8, ARRAY = 9,
    U64 = 10, I64 = 11, F64 = 12,
};
constexpr uint32_t kGgufTypeCount = 13;

std::string_view gguf_type_name(GgufType t);   // "u8", "i8", ..., "f32", "bool", "string", "array", ...

constexpr uint32_t kGgufDefaultAlignment = 32;
constexpr uint32_t kGgufMaxDims = 4;           // ggml's GGML_MAX_DIMS
constexpr size_t kGgufMaxTensorNameBytes = 64;  // the format's limit (ggml's own needs <= 63, see gguf_writer.h)
constexpr int kGgufMaxArrayDepth = 8;           // an array of arrays of ... this many levels at most

// The strings of a string array, read lazily from the file: iterating walks the length-prefixed
// strings in place; nothing is copied.
class GgufStringArray {
public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = std::string_view;
        using difference_type = std::ptrdiff_t;
        using pointer = const std::string_view *;
        using reference = std::string_view;

        iterator() = default;
        std::string_view operator*() const;
        iterator &operator++();
        iterator operator++(int) {
            iterator old = *this;
            ++*this;
            return old;
        }
        bool operator==(const iterator &o) const { return p_ == o.p_; }
        bool operator!=(const iterator &o) const { return p_ != o.p_; }

    private:
        friend class GgufStringArray;
        explicit iterator(const uint8_t *p) : p_(p) {}
        const uint8_t *p_ = nullptr;   // at a string's u64 length
    };

    GgufStringArray() = default;
    GgufStringArray(const uint8_t *first, uint64_t count, uint64_t bytes) : first_(first), count_(count), bytes_(bytes) {}

    uint64_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    iterator begin() const { return iterator(first_); }
    iterator end() const { return iterator(first_ + bytes_); }
    std::vector<std::string_view> to_vector() const;   // random access: 16 bytes a string

private:
    const uint8_t *first_ = nullptr;
    uint64_t count_ = 0, bytes_ = 0;
};

// One metadata value: its type and where its bytes lie in the file (a view, valid while a GgufFile
// sharing the mapping lives). Typed reads give nullopt for another type; GgufFile's accessors turn
// that into an error naming the key.
class GgufValue {
public:
    GgufValue() = default;
    // A validated value: `payload` at the value's bytes (a string's characters; an array's first
    // element), `bytes` of them; `element` and `count` for arrays.
    GgufValue(GgufType type, const uint8_t *payload, uint64_t bytes, GgufType element = GgufType::U8, uint64_t count = 0)
        : type_(type), element_(element), payload_(payload), bytes_(bytes), count_(count) {}

    GgufType type() const { return type_; }
    // "u32", "string", "array of string", "array of array"
    std::string type_text() const;

    // Scalars. T is exactly the value's type: uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t,
    // float, bool, uint64_t, int64_t, double; std::string_view for a string.
    template <class T> std::optional<T> as() const;

    // Arrays (nullopt / empty results for a value that is not one).
    bool is_array() const { return type_ == GgufType::ARRAY; }
    GgufType element_type() const { return element_; }
    uint64_t size() const { return count_; }
    // The elements of a numeric or bool array whose element type is exactly T; nullopt otherwise.
    template <class T> std::optional<std::vector<T>> numbers() const;
    // A string array's strings; nullopt for anything else.
    std::optional<GgufStringArray> strings() const;
    // Every element of any array as a value (an array of arrays gives arrays).
    std::vector<GgufValue> elements() const;

private:
    GgufType type_ = GgufType::U8;
    GgufType element_ = GgufType::U8;
    const uint8_t *payload_ = nullptr;
    uint64_t bytes_ = 0;
    uint64_t count_ = 0;
};

struct GgufKeyValue {
    std::string key;
    GgufValue value;
};

// One tensor of a file. `data` points at its `bytes` bytes in the mapping (aligned to the file's
// alignment relative to the data section), valid while a GgufFile sharing the mapping lives.
struct GgufTensor {
    std::string name;
    GgmlType type = GgmlType::F32;   // an id of ggml's table (maybe one halogen does not decode)
    std::vector<uint64_t> ne;        // ggml order: ne[0] innermost; 0 to 4 dims
    uint64_t offset = 0;             // relative to the data section
    uint64_t bytes = 0;
    const uint8_t *data = nullptr;

    int64_t n_elements() const;                            // validated to fit int64
    int64_t row_length() const { return ne.empty() ? 1 : static_cast<int64_t>(ne[0]); }
    std::vector<int64_t> shape() const;                    // row-major: ne reversed
    std::string_view raw() const { return {reinterpret_cast<const char *>(data), bytes}; }
};

// An open GGUF file. Cheap to copy (copies share the mapping).
class GgufFile {
public:
    static GgufFile open(const std::string &path);
    // The same over a whole file's bytes in memory; `name` labels error messages.
    static GgufFile from_bytes(std::string bytes, const std::string &name = "<memory>");

    const std::string &path() const { return path_; }
    uint32_t version() const { return version_; }
    uint32_t alignment() const { return alignment_; }
    uint64_t data_offset() const { return data_offset_; }   // where the data section begins in the file
    uint64_t file_size() const;

    // ---- metadata, in file order
    const std::vector<GgufKeyValue> &metadata() const { return kvs_; }
    const GgufValue *find(std::string_view key) const;   // null when absent
    bool has(std::string_view key) const { return find(key) != nullptr; }
    const GgufValue &at(std::string_view key) const;     // FormatError naming the key when absent

    // Typed reads: FormatError naming the file and key when it is absent or of another type
    // ("key 'llama.block_count' is u64, expected u32").
    template <class T> T get(std::string_view key) const;
    std::string_view get_string(std::string_view key) const { return get<std::string_view>(key); }
    uint32_t get_u32(std::string_view key) const { return get<uint32_t>(key); }
    int32_t get_i32(std::string_view key) const { return get<int32_t>(key); }
    uint64_t get_u64(std::string_view key) const { return get<uint64_t>(key); }
    float get_f32(std::string_view key) const { return get<float>(key); }
    bool get_bool(std::string_view key) const { return get<bool>(key); }
    // An array whose elements are exactly T (numbers, bool, or std::string_view for strings).
    template <class T> std::vector<T> get_array(std::string_view key) const;
    GgufStringArray get_string_array(std::string_view key) const;   // lazily read, no copy

    // ---- tensors, in file order
    const std::vector<GgufTensor> &tensors() const { return tensors_; }
    const GgufTensor *find_tensor(std::string_view name) const;
    const GgufTensor &tensor(std::string_view name) const;   // FormatError naming it when absent

    // A tensor's values as float32 (n_elements() of them), bit-exactly as ggml decodes them. A
    // FormatError naming the file, the tensor and its type for a type halogen does not decode.
    void dequantize(const GgufTensor &t, float *out) const;
    std::vector<float> to_float32(const GgufTensor &t) const;

private:
    std::shared_ptr<const FileBytes> storage_;   // the bytes every view points into
    std::string path_;
    uint32_t version_ = 3, alignment_ = kGgufDefaultAlignment;
    uint64_t data_offset_ = 0;
    std::vector<GgufKeyValue> kvs_;
    std::vector<GgufTensor> tensors_;
    std::unordered_map<std::string, size_t> key_index_, tensor_index_;

    static GgufFile bind(std::shared_ptr<const FileBytes> storage, const std::string &path);
    [[noreturn]] void fail(const std::string &problem) const;
};

}  // namespace halogen
