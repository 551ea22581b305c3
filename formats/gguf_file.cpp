// An open GGUF file: the read-only mapping, lookups of keys and tensors, the typed metadata reads
// and the float32 view of tensors (see gguf.h).
#include <fmt/format.h>

#include "formats/gguf.h"
#include "formats/gguf_internal.h"
#include "formats/printable_text.h"

namespace halogen {

namespace {

[[noreturn]] void fail_file(const std::string &file, const std::string &problem) {
    throw FormatError(file + ": " + problem);
}

std::string quoted(std::string_view s) { return "'" + printable_text(s) + "'"; }

template <class T> std::string_view type_name_of() {
    if constexpr (std::is_same_v<T, uint8_t>) return "u8";
    else if constexpr (std::is_same_v<T, int8_t>) return "i8";
    else if constexpr (std::is_same_v<T, uint16_t>) return "u16";
    else if constexpr (std::is_same_v<T, int16_t>) return "i16";
    else if constexpr (std::is_same_v<T, uint32_t>) return "u32";
    else if constexpr (std::is_same_v<T, int32_t>) return "i32";
    else if constexpr (std::is_same_v<T, float>) return "f32";
    else if constexpr (std::is_same_v<T, bool>) return "bool";
    else if constexpr (std::is_same_v<T, uint64_t>) return "u64";
    else if constexpr (std::is_same_v<T, int64_t>) return "i64";
    else if constexpr (std::is_same_v<T, double>) return "f64";
    else return "string";
}

}  // namespace

GgufFile GgufFile::open(const std::string &path) { return bind(FileBytes::map(path), path); }

GgufFile GgufFile::from_bytes(std::string bytes, const std::string &name) {
    return bind(FileBytes::hold(std::move(bytes)), name);
}

GgufFile GgufFile::bind(std::shared_ptr<const FileBytes> storage, const std::string &path) {
    static const uint8_t kNothing = 0;   // a valid address for an empty file's views
    gguf_detail::Parsed parsed =
        gguf_detail::parse_gguf(storage->data() ? storage->data() : &kNothing, storage->size(), path);
    GgufFile f;
    f.storage_ = std::move(storage);
    f.path_ = path;
    f.version_ = parsed.version;
    f.alignment_ = parsed.alignment;
    f.data_offset_ = parsed.data_offset;
    f.kvs_ = std::move(parsed.kvs);
    f.tensors_ = std::move(parsed.tensors);
    for (size_t i = 0; i < f.kvs_.size(); ++i) f.key_index_.emplace(f.kvs_[i].key, i);
    for (size_t i = 0; i < f.tensors_.size(); ++i) f.tensor_index_.emplace(f.tensors_[i].name, i);
    return f;
}

uint64_t GgufFile::file_size() const { return storage_ ? storage_->size() : 0; }

void GgufFile::fail(const std::string &problem) const { fail_file(path_, problem); }

const GgufValue *GgufFile::find(std::string_view key) const {
    auto it = key_index_.find(std::string(key));
    return it == key_index_.end() ? nullptr : &kvs_[it->second].value;
}

const GgufValue &GgufFile::at(std::string_view key) const {
    if (const GgufValue *v = find(key)) return *v;
    fail(fmt::format("no key {} (the file has {} key-value pairs)", quoted(key), kvs_.size()));
}

template <class T> T GgufFile::get(std::string_view key) const {
    const GgufValue &v = at(key);
    std::optional<T> out = v.as<T>();
    if (!out) fail(fmt::format("key {} is {}, expected {}", quoted(key), v.type_text(), type_name_of<T>()));
    return *out;
}

template <class T> std::vector<T> GgufFile::get_array(std::string_view key) const {
    const GgufValue &v = at(key);
    if constexpr (std::is_same_v<T, std::string_view>) {
        if (std::optional<GgufStringArray> s = v.strings()) return s->to_vector();
    } else {
        if (std::optional<std::vector<T>> n = v.numbers<T>()) return std::move(*n);
    }
    fail(fmt::format("key {} is {}, expected array of {}", quoted(key), v.type_text(), type_name_of<T>()));
}

GgufStringArray GgufFile::get_string_array(std::string_view key) const {
    const GgufValue &v = at(key);
    if (std::optional<GgufStringArray> s = v.strings()) return *s;
    fail(fmt::format("key {} is {}, expected array of string", quoted(key), v.type_text()));
}

const GgufTensor *GgufFile::find_tensor(std::string_view name) const {
    auto it = tensor_index_.find(std::string(name));
    return it == tensor_index_.end() ? nullptr : &tensors_[it->second];
}

const GgufTensor &GgufFile::tensor(std::string_view name) const {
    if (const GgufTensor *t = find_tensor(name)) return *t;
    fail(fmt::format("no tensor {} (the file has {})", quoted(name), tensors_.size()));
}

void GgufFile::dequantize(const GgufTensor &t, float *out) const {
    if (!ggml_type_supported(t.type))
        fail(fmt::format("tensor {} is {} (ggml type {}): only {} are read", quoted(t.name), ggml_type_name(t.type),
                         static_cast<uint32_t>(t.type), ggml_supported_types_text()));
    const int64_t n = t.n_elements();
    if (n == 0) return;
    // Row by row: a row is a whole number of blocks (validated), and rows are contiguous.
    const int64_t row = t.row_length();
    const uint64_t row_bytes = t.bytes / static_cast<uint64_t>(n / row);
    for (int64_t r = 0; r < n / row; ++r) dequantize_row(t.type, t.data + r * row_bytes, out + r * row, row);
}

std::vector<float> GgufFile::to_float32(const GgufTensor &t) const {
    if (!ggml_type_supported(t.type)) dequantize(t, nullptr);   // throws, naming the tensor
    std::vector<float> out(static_cast<size_t>(t.n_elements()));
    dequantize(t, out.data());
    return out;
}

int64_t GgufTensor::n_elements() const {
    int64_t n = 1;
    for (uint64_t d : ne) {
        if (d == 0) return 0;
    }
    for (uint64_t d : ne) n *= static_cast<int64_t>(d);   // fits: validated when the file was read
    return n;
}

std::vector<int64_t> GgufTensor::shape() const {
    return std::vector<int64_t>(ne.rbegin(), ne.rend());
}

#define HALOGEN_GGUF_GET(T)                                          \
    template T GgufFile::get<T>(std::string_view) const;            \
    template std::vector<T> GgufFile::get_array<T>(std::string_view) const;
HALOGEN_GGUF_GET(uint8_t)
HALOGEN_GGUF_GET(int8_t)
HALOGEN_GGUF_GET(uint16_t)
HALOGEN_GGUF_GET(int16_t)
HALOGEN_GGUF_GET(uint32_t)
HALOGEN_GGUF_GET(int32_t)
HALOGEN_GGUF_GET(float)
HALOGEN_GGUF_GET(bool)
HALOGEN_GGUF_GET(uint64_t)
HALOGEN_GGUF_GET(int64_t)
HALOGEN_GGUF_GET(double)
HALOGEN_GGUF_GET(std::string_view)
#undef HALOGEN_GGUF_GET

}  // namespace halogen
