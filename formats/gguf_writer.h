// Writing GGUF v3 files that llama.cpp loads: the header, the metadata in the order it was set
// (general.alignment first when it is not the default 32), the tensor infos in the order the
// tensors were added, then the data section from the first multiple of the alignment, each
// tensor's bytes at an aligned offset and zero-padded to the next, as ggml's own writer lays
// them out (so ggml's reader, which wants each offset where the previous tensor's padded bytes
// end, accepts the file).
//
// Streamed: only the metadata and tensor infos are built in memory; the tensors' bytes go from
// the callers' buffers, or from fill functions that make them a few rows at a time (at most
// kGgufPieceBytes at once), to the file. The file is written beside its path and renamed over
// it when complete. Callers' mistakes (a key or tensor given twice, an empty key, a tensor name
// ggml cannot hold, dims that do not divide into the type's blocks, a byte count that does not
// match) are FormatErrors naming the key or tensor, raised before anything is written.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/ggml_types.h"
#include "formats/gguf.h"

namespace halogen {

constexpr size_t kGgufWriterMaxNameBytes = 63;   // ggml keeps a name in 64 bytes with its terminator
constexpr uint32_t kGgufWriterMaxAlignment = 1u << 20;   // padding beyond this is a mistake, not a layout
constexpr uint64_t kGgufPieceBytes = uint64_t(8) << 20;

// A metadata value, encoded as the file will hold it (after the value's type id).
class GgufWriteValue {
public:
    // A scalar: T is uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, float, bool, uint64_t,
    // int64_t or double (the value type follows T exactly).
    template <class T> static GgufWriteValue scalar(T v);
    static GgufWriteValue string(std::string_view s);
    // An array of one of the scalar types above.
    template <class T> static GgufWriteValue array(const std::vector<T> &items);
    static GgufWriteValue string_array(const std::vector<std::string> &items);
    static GgufWriteValue string_array(const std::vector<std::string_view> &items);
    // An array whose elements are the given values, all of type `element` (arrays of arrays
    // included); a FormatError for an item of another type.
    static GgufWriteValue array_of(GgufType element, const std::vector<GgufWriteValue> &items);

    GgufType type() const { return type_; }
    const std::string &encoded() const { return bytes_; }

private:
    GgufType type_ = GgufType::U8;
    std::string bytes_;   // for an array: element type, count, elements
};

// Makes rows [first_row, first_row + rows) of a tensor's data at dst (rows of ne[0] elements, each
// ggml_row_bytes(type, ne[0]) bytes). Called for consecutive pieces in order; an exception it
// throws removes the new file and propagates.
using GgufRowFill = std::function<void(int64_t first_row, int64_t rows, void *dst)>;

class GgufWriter {
public:
    // `alignment`: a power of two and a multiple of 8, as the format requires, at most
    // kGgufWriterMaxAlignment.
    explicit GgufWriter(uint32_t alignment = kGgufDefaultAlignment);

    void set(const std::string &key, GgufWriteValue value);
    template <class T> void set_scalar(const std::string &key, T v) { set(key, GgufWriteValue::scalar(v)); }
    void set_u32(const std::string &key, uint32_t v) { set_scalar(key, v); }
    void set_i32(const std::string &key, int32_t v) { set_scalar(key, v); }
    void set_u64(const std::string &key, uint64_t v) { set_scalar(key, v); }
    void set_f32(const std::string &key, float v) { set_scalar(key, v); }
    void set_bool(const std::string &key, bool v) { set_scalar(key, v); }
    void set_string(const std::string &key, std::string_view v) { set(key, GgufWriteValue::string(v)); }
    template <class T> void set_array(const std::string &key, const std::vector<T> &v) { set(key, GgufWriteValue::array(v)); }
    void set_string_array(const std::string &key, const std::vector<std::string> &v) {
        set(key, GgufWriteValue::string_array(v));
    }

    // A tensor of ggml type `type` and dims `ne` (ggml order, ne[0] the row; 1 to 4 of them)
    // whose `bytes` bytes are at `data` (any alignment; they must outlive write()).
    void add_tensor(const std::string &name, GgmlType type, std::vector<uint64_t> ne, const void *data, uint64_t bytes);
    // The same, its bytes made by `fill` while the file is written.
    void add_tensor(const std::string &name, GgmlType type, std::vector<uint64_t> ne, GgufRowFill fill);

    uint32_t alignment() const { return alignment_; }
    uint64_t file_bytes() const;   // the size of the file write() writes

    void write(const std::string &path) const;
    std::string to_bytes() const;   // the same file in memory (tests, small files)

private:
    struct Tensor {
        std::string name;
        GgmlType type;
        std::vector<uint64_t> ne;
        uint64_t bytes = 0, offset = 0, row_bytes = 0;
        int64_t rows = 0;
        const void *data = nullptr;
        GgufRowFill fill;
    };
    uint32_t alignment_;
    std::vector<std::pair<std::string, GgufWriteValue>> kvs_;
    std::vector<Tensor> tensors_;
    uint64_t data_bytes_ = 0;   // the padded data section

    Tensor plan(const std::string &name, GgmlType type, std::vector<uint64_t> ne) const;   // checked, not added
    void add(Tensor t);
    std::string head() const;   // header, metadata, tensor infos and the padding up to the data
    void emit(const std::function<void(const char *, uint64_t)> &out) const;
};

}  // namespace halogen
