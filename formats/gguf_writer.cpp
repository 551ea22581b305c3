// The GGUF writer: values encoded as they are set, the layout planned as tensors are added, the
// bytes streamed out (see gguf_writer.h).
#include "formats/gguf_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "formats/printable_text.h"
#include "formats/replacing_file.h"

namespace halogen {

namespace {

[[noreturn]] void fail(const std::string &problem) { throw FormatError("gguf writer: " + problem); }

std::string quoted(std::string_view s) { return "'" + printable_text(s) + "'"; }

template <class T> void put(std::string &out, T v) { out.append(reinterpret_cast<const char *>(&v), sizeof v); }

void put_string(std::string &out, std::string_view s) {
    put<uint64_t>(out, s.size());
    out.append(s.data(), s.size());
}

template <class T> constexpr GgufType type_of() {
    if constexpr (std::is_same_v<T, uint8_t>) return GgufType::U8;
    else if constexpr (std::is_same_v<T, int8_t>) return GgufType::I8;
    else if constexpr (std::is_same_v<T, uint16_t>) return GgufType::U16;
    else if constexpr (std::is_same_v<T, int16_t>) return GgufType::I16;
    else if constexpr (std::is_same_v<T, uint32_t>) return GgufType::U32;
    else if constexpr (std::is_same_v<T, int32_t>) return GgufType::I32;
    else if constexpr (std::is_same_v<T, float>) return GgufType::F32;
    else if constexpr (std::is_same_v<T, bool>) return GgufType::BOOL;
    else if constexpr (std::is_same_v<T, uint64_t>) return GgufType::U64;
    else if constexpr (std::is_same_v<T, int64_t>) return GgufType::I64;
    else return GgufType::F64;
}

template <class T> void put_scalar(std::string &out, T v) {
    if constexpr (std::is_same_v<T, bool>) put<uint8_t>(out, v ? 1 : 0);
    else put<T>(out, v);
}

uint64_t padded(uint64_t n, uint64_t alignment) { return (n + alignment - 1) / alignment * alignment; }

std::string dims_text(const std::vector<uint64_t> &ne) { return fmt::format("[{}]", fmt::join(ne, ", ")); }

template <class Strings> void put_strings(std::string &bytes, const Strings &items) {
    put<uint32_t>(bytes, static_cast<uint32_t>(GgufType::STRING));
    put<uint64_t>(bytes, items.size());
    for (const auto &s : items) put_string(bytes, s);
}

}  // namespace

template <class T> GgufWriteValue GgufWriteValue::scalar(T v) {
    GgufWriteValue out;
    out.type_ = type_of<T>();
    put_scalar(out.bytes_, v);
    return out;
}

GgufWriteValue GgufWriteValue::string(std::string_view s) {
    GgufWriteValue out;
    out.type_ = GgufType::STRING;
    put_string(out.bytes_, s);
    return out;
}

template <class T> GgufWriteValue GgufWriteValue::array(const std::vector<T> &items) {
    GgufWriteValue out;
    out.type_ = GgufType::ARRAY;
    put<uint32_t>(out.bytes_, static_cast<uint32_t>(type_of<T>()));
    put<uint64_t>(out.bytes_, items.size());
    out.bytes_.reserve(out.bytes_.size() + items.size() * sizeof(T));
    for (const T v : items) put_scalar(out.bytes_, v);
    return out;
}

GgufWriteValue GgufWriteValue::string_array(const std::vector<std::string> &items) {
    GgufWriteValue out;
    out.type_ = GgufType::ARRAY;
    put_strings(out.bytes_, items);
    return out;
}

GgufWriteValue GgufWriteValue::string_array(const std::vector<std::string_view> &items) {
    GgufWriteValue out;
    out.type_ = GgufType::ARRAY;
    put_strings(out.bytes_, items);
    return out;
}

GgufWriteValue GgufWriteValue::array_of(GgufType element, const std::vector<GgufWriteValue> &items) {
    if (static_cast<uint32_t>(element) >= kGgufTypeCount)
        fail(fmt::format("array of unknown value type {}", static_cast<uint32_t>(element)));
    GgufWriteValue out;
    out.type_ = GgufType::ARRAY;
    put<uint32_t>(out.bytes_, static_cast<uint32_t>(element));
    put<uint64_t>(out.bytes_, items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].type() != element)
            fail(fmt::format("array of {}: element {} is {}", gguf_type_name(element), i, gguf_type_name(items[i].type())));
        out.bytes_ += items[i].encoded();
    }
    return out;
}

GgufWriter::GgufWriter(uint32_t alignment) : alignment_(alignment) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % 8 != 0 || alignment > kGgufWriterMaxAlignment)
        fail(fmt::format("alignment {} is not a power of two from 8 to {}", alignment, kGgufWriterMaxAlignment));
}

void GgufWriter::set(const std::string &key, GgufWriteValue value) {
    if (key.empty()) fail("a key is empty");
    if (key.size() > 65535) fail(fmt::format("key {} is longer than the format's 65535 bytes", quoted(key)));
    if (key == "general.alignment") fail("key 'general.alignment' is the writer's alignment (set by its constructor)");
    for (const auto &kv : kvs_)
        if (kv.first == key) fail(fmt::format("key {} is set twice", quoted(key)));
    kvs_.emplace_back(key, std::move(value));
}

GgufWriter::Tensor GgufWriter::plan(const std::string &name, GgmlType type, std::vector<uint64_t> ne) const {
    const std::string who = "tensor " + quoted(name);
    if (name.size() > kGgufWriterMaxNameBytes)
        fail(fmt::format("{}: a name of {} bytes is longer than ggml's {}", who, name.size(), kGgufWriterMaxNameBytes));
    for (const Tensor &t : tensors_)
        if (t.name == name) fail(fmt::format("{} is added twice", who));
    const GgmlTypeInfo *info = ggml_type_info(type);
    if (!info || info->block_elements == 0) fail(fmt::format("{}: {} is not a type a file may hold", who, ggml_type_name(type)));
    if (ne.empty() || ne.size() > kGgufMaxDims)
        fail(fmt::format("{}: {} dims (1 to {})", who, ne.size(), kGgufMaxDims));
    int64_t count = 1;
    for (uint64_t d : ne) {
        if (d > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ||
            __builtin_mul_overflow(count, static_cast<int64_t>(d), &count))
            fail(fmt::format("{}: dims {} hold more than 2^63 - 1 elements", who, dims_text(ne)));
    }
    if (ne[0] % info->block_elements != 0)
        fail(fmt::format("{}: rows of {} element(s) are not a whole number of {}'s {}-element blocks", who, ne[0],
                         info->name, info->block_elements));
    Tensor t;
    t.name = name;
    t.type = type;
    t.row_bytes = ggml_row_bytes(type, ne[0]);
    t.rows = ne[0] == 0 ? 0 : count / static_cast<int64_t>(ne[0]);
    if (__builtin_mul_overflow(t.row_bytes, static_cast<uint64_t>(t.rows), &t.bytes))
        fail(fmt::format("{}: dims {} of {} take more than 2^64 bytes", who, dims_text(ne), info->name));
    t.ne = std::move(ne);
    t.offset = data_bytes_;
    return t;
}

void GgufWriter::add(Tensor t) {
    data_bytes_ += padded(t.bytes, alignment_);
    tensors_.push_back(std::move(t));
}

void GgufWriter::add_tensor(const std::string &name, GgmlType type, std::vector<uint64_t> ne, const void *data,
                            uint64_t bytes) {
    Tensor t = plan(name, type, std::move(ne));
    if (t.bytes != bytes)
        fail(fmt::format("tensor {}: {} bytes given, dims {} of {} take {}", quoted(name), bytes, dims_text(t.ne),
                         ggml_type_name(type), t.bytes));
    if (bytes > 0 && data == nullptr) fail(fmt::format("tensor {}: no data pointer", quoted(name)));
    t.data = data;
    add(std::move(t));
}

void GgufWriter::add_tensor(const std::string &name, GgmlType type, std::vector<uint64_t> ne, GgufRowFill fill) {
    Tensor t = plan(name, type, std::move(ne));
    if (!fill) fail(fmt::format("tensor {}: no fill function", quoted(name)));
    t.fill = std::move(fill);
    add(std::move(t));
}

std::string GgufWriter::head() const {
    std::string out = "GGUF";
    put<uint32_t>(out, 3);
    put<uint64_t>(out, tensors_.size());
    const bool explicit_alignment = alignment_ != kGgufDefaultAlignment;
    put<uint64_t>(out, kvs_.size() + (explicit_alignment ? 1 : 0));
    auto put_kv = [&](const std::string &key, const GgufWriteValue &v) {
        put_string(out, key);
        put<uint32_t>(out, static_cast<uint32_t>(v.type()));
        out += v.encoded();
    };
    if (explicit_alignment) put_kv("general.alignment", GgufWriteValue::scalar<uint32_t>(alignment_));
    for (const auto &[key, value] : kvs_) put_kv(key, value);
    for (const Tensor &t : tensors_) {
        put_string(out, t.name);
        put<uint32_t>(out, static_cast<uint32_t>(t.ne.size()));
        for (uint64_t d : t.ne) put<uint64_t>(out, d);
        put<uint32_t>(out, static_cast<uint32_t>(t.type));
        put<uint64_t>(out, t.offset);
    }
    out.resize(padded(out.size(), alignment_), '\0');
    return out;
}

void GgufWriter::emit(const std::function<void(const char *, uint64_t)> &out) const {
    const std::string h = head();
    out(h.data(), h.size());
    uint64_t largest_piece = 0;
    for (const Tensor &t : tensors_)
        if (t.fill && t.rows > 0)
            largest_piece = std::max(largest_piece, std::max<uint64_t>(1, kGgufPieceBytes / t.row_bytes) * t.row_bytes);
    std::vector<char> piece(largest_piece);   // kGgufPieceBytes, or one row when a row is larger
    const std::string zeros(alignment_, '\0');
    for (const Tensor &t : tensors_) {
        if (t.fill && t.rows > 0) {
            const int64_t per_piece = static_cast<int64_t>(std::max<uint64_t>(1, kGgufPieceBytes / t.row_bytes));
            for (int64_t row = 0; row < t.rows; row += per_piece) {
                const int64_t n = std::min(per_piece, t.rows - row);
                t.fill(row, n, piece.data());
                out(piece.data(), static_cast<uint64_t>(n) * t.row_bytes);
            }
        } else if (t.bytes > 0) {
            out(static_cast<const char *>(t.data), t.bytes);
        }
        out(zeros.data(), padded(t.bytes, alignment_) - t.bytes);
    }
}

uint64_t GgufWriter::file_bytes() const { return head().size() + data_bytes_; }

std::string GgufWriter::to_bytes() const {
    std::string file;
    emit([&](const char *p, uint64_t n) { file.append(p, n); });
    return file;
}

void GgufWriter::write(const std::string &path) const {
    ReplacingFile file(path);
    emit([&](const char *p, uint64_t n) { file.write(p, n); });
    file.commit();
}

#define HALOGEN_GGUF_WRITE(T)                                                     \
    template GgufWriteValue GgufWriteValue::scalar<T>(T);                         \
    template GgufWriteValue GgufWriteValue::array<T>(const std::vector<T> &);
HALOGEN_GGUF_WRITE(uint8_t)
HALOGEN_GGUF_WRITE(int8_t)
HALOGEN_GGUF_WRITE(uint16_t)
HALOGEN_GGUF_WRITE(int16_t)
HALOGEN_GGUF_WRITE(uint32_t)
HALOGEN_GGUF_WRITE(int32_t)
HALOGEN_GGUF_WRITE(float)
HALOGEN_GGUF_WRITE(bool)
HALOGEN_GGUF_WRITE(uint64_t)
HALOGEN_GGUF_WRITE(int64_t)
HALOGEN_GGUF_WRITE(double)
#undef HALOGEN_GGUF_WRITE

}  // namespace halogen
