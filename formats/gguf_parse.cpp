// Validating a GGUF file's bytes: header, metadata, tensor infos and the data section's layout
// (gguf.h lists the checks). Every count and length is compared with the bytes left in the file
// before anything is sized from it, so a hostile file costs at most a walk over its own bytes.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <unordered_set>

#include "formats/gguf_internal.h"
#include "formats/printable_text.h"

namespace halogen::gguf_detail {

namespace {

constexpr uint64_t kHeaderBytes = 24;            // magic, version, tensor count, key count
constexpr uint64_t kMinKeyValueBytes = 8 + 1 + 4 + 1;   // key length, 1-byte key, type, 1-byte value
constexpr uint64_t kMinTensorInfoBytes = 8 + 4 + 4 + 8;  // name length, n_dims, type, offset
constexpr uint64_t kMaxKeyBytes = 65535;         // the format's limit on a key

std::string quoted(std::string_view s) { return "'" + printable_text(s) + "'"; }

// A cursor over the file's bytes; every read checks that the bytes are there. `where` (a callable
// giving a string) says what is being read; it is called only to word an error.
class Reader {
public:
    Reader(const uint8_t *bytes, uint64_t size, const std::string &name) : bytes_(bytes), size_(size), name_(name) {}

    uint64_t pos() const { return pos_; }
    uint64_t remaining() const { return size_ - pos_; }
    const uint8_t *here() const { return bytes_ + pos_; }

    [[noreturn]] void fail(const std::string &problem) const { throw FormatError(name_ + ": " + problem); }

    template <class Where> void need(uint64_t n, const Where &where) const {
        if (n > remaining())
            fail(fmt::format("{}: needs {} byte(s) at byte {}, but the file ends at byte {} (truncated?)", where(), n,
                             pos_, size_));
    }
    template <class Where> void skip(uint64_t n, const Where &where) {
        need(n, where);
        pos_ += n;
    }
    template <class T, class Where> T read(const Where &where) {
        need(sizeof(T), where);
        T v = load<T>(here());
        pos_ += sizeof(T);
        return v;
    }
    // A string: u64 length, then that many bytes (checked against the file before use).
    template <class Where> std::string_view read_string(const Where &where) {
        const uint64_t n = read<uint64_t>(where);
        if (n > remaining())
            fail(fmt::format("{}: string length {} runs past the end of the file ({} byte(s) left at byte {})",
                             where(), n, remaining(), pos_));
        std::string_view s(reinterpret_cast<const char *>(here()), static_cast<size_t>(n));
        pos_ += n;
        return s;
    }

private:
    const uint8_t *bytes_;
    uint64_t size_;
    uint64_t pos_ = 0;
    const std::string &name_;
};

// Names the key (and element) a value belongs to; type-erased, as arrays nest.
using Who = std::function<std::string()>;

bool known_type(uint32_t t) { return t < kGgufTypeCount; }

// Validates one value of type t at the cursor (for arrays, recursively), returning its view.
// `who` names the key (and element) for messages.
GgufValue read_value(Reader &r, GgufType t, int depth, const Who &who) {
    const uint64_t fixed = scalar_bytes(t);
    if (fixed > 0) {
        const uint8_t *p = r.here();
        r.skip(fixed, [&] { return fmt::format("{}: {} value", who(), gguf_type_name(t)); });
        if (t == GgufType::BOOL && *p > 1) r.fail(fmt::format("{}: bool value {} is neither 0 nor 1", who(), *p));
        return GgufValue(t, p, fixed);
    }
    if (t == GgufType::STRING) {
        std::string_view s = r.read_string(who);
        return GgufValue(t, reinterpret_cast<const uint8_t *>(s.data()), s.size());
    }
    // An array: element type, count, elements.
    if (depth >= kGgufMaxArrayDepth) r.fail(fmt::format("{}: arrays nested deeper than {} levels", who(), kGgufMaxArrayDepth));
    const uint32_t element_id = r.read<uint32_t>([&] { return fmt::format("{}: array element type", who()); });
    if (!known_type(element_id)) r.fail(fmt::format("{}: array of unknown value type {}", who(), element_id));
    const auto element = static_cast<GgufType>(element_id);
    const uint64_t count = r.read<uint64_t>([&] { return fmt::format("{}: array length", who()); });
    const uint64_t least = element == GgufType::STRING ? 8 : element == GgufType::ARRAY ? 12 : scalar_bytes(element);
    if (count > r.remaining() / least)
        r.fail(fmt::format("{}: array of {} {} element(s) cannot fit in the {} byte(s) left at byte {}", who(), count,
                           gguf_type_name(element), r.remaining(), r.pos()));
    const uint8_t *first = r.here();
    const uint64_t start = r.pos();
    if (element == GgufType::BOOL) {
        for (uint64_t i = 0; i < count; ++i)
            if (first[i] > 1) r.fail(fmt::format("{}: bool element {} is {}, neither 0 nor 1", who(), i, first[i]));
    }
    if (element == GgufType::STRING) {   // the common large array (vocabularies): no nested call
        for (uint64_t i = 0; i < count; ++i)
            r.read_string([&] { return fmt::format("{}: string {} of {}", who(), i, count); });
    } else if (element == GgufType::ARRAY) {
        for (uint64_t i = 0; i < count; ++i)
            read_value(r, element, depth + 1, [&] { return fmt::format("{}: element {} of {}", who(), i, count); });
    } else {
        r.skip(count * least, who);   // fits: checked above
    }
    return GgufValue(GgufType::ARRAY, first, r.pos() - start, element, count);
}

void read_header(Reader &r, Parsed &out, uint64_t size, uint64_t &n_tensors, uint64_t &n_kv) {
    if (size < 4 || std::memcmp(r.here(), "GGUF", 4) != 0) {
        std::string_view start(reinterpret_cast<const char *>(r.here()), static_cast<size_t>(std::min<uint64_t>(size, 4)));
        r.fail(fmt::format("not a GGUF file: it begins with '{}', not the magic 'GGUF'", printable_text(start)));
    }
    if (size < kHeaderBytes)
        r.fail(fmt::format("{} bytes, too short for a GGUF header ({} bytes: magic, version, counts)", size, kHeaderBytes));
    r.skip(4, [] { return std::string("magic"); });
    const uint32_t version = r.read<uint32_t>([] { return std::string("version"); });
    const uint32_t swapped = __builtin_bswap32(version);
    if (version != 2 && version != 3) {
        if (swapped >= 1 && swapped <= 3)
            r.fail(fmt::format("a big-endian GGUF file (version {} stored big-endian): only little-endian files are read",
                               swapped));
        if (version == 1) r.fail("GGUF version 1 is not supported (only versions 2 and 3)");
        r.fail(fmt::format("GGUF version {} is not supported (only versions 2 and 3)", version));
    }
    out.version = version;
    n_tensors = r.read<uint64_t>([] { return std::string("tensor count"); });
    n_kv = r.read<uint64_t>([] { return std::string("key-value count"); });
    const uint64_t left = r.remaining();
    if (n_kv > left / kMinKeyValueBytes)
        r.fail(fmt::format("key-value count {} cannot fit in the file's remaining {} bytes (a key-value pair takes "
                           "at least {})", n_kv, left, kMinKeyValueBytes));
    if (n_tensors > left / kMinTensorInfoBytes || n_kv * kMinKeyValueBytes + n_tensors * kMinTensorInfoBytes > left)
        r.fail(fmt::format("tensor count {} cannot fit in the file's remaining {} bytes (a tensor info takes at "
                           "least {}, after {} key-value pair(s))", n_tensors, left, kMinTensorInfoBytes, n_kv));
}

void read_metadata(Reader &r, Parsed &out, uint64_t n_kv) {
    out.kvs.reserve(n_kv);
    std::unordered_set<std::string_view> keys;
    for (uint64_t i = 0; i < n_kv; ++i) {
        auto nth = [&] { return fmt::format("key-value pair {} of {}", i, n_kv); };
        std::string_view key = r.read_string([&] { return nth() + ": key"; });
        if (key.empty()) r.fail(nth() + ": the key is empty");
        if (key.size() > kMaxKeyBytes)
            r.fail(fmt::format("{}: key of {} bytes is longer than the format's {}", nth(), key.size(), kMaxKeyBytes));
        if (!keys.insert(key).second) r.fail(fmt::format("key {} appears twice", quoted(key)));
        const Who who = [&] { return "key " + quoted(key); };
        const uint32_t type = r.read<uint32_t>([&] { return who() + ": value type"; });
        if (!known_type(type)) r.fail(fmt::format("{}: unknown value type {}", who(), type));
        out.kvs.push_back({std::string(key), read_value(r, static_cast<GgufType>(type), 0, who)});
    }
    for (const GgufKeyValue &kv : out.kvs) {
        if (kv.key != "general.alignment") continue;
        const std::optional<uint32_t> a = kv.value.as<uint32_t>();
        if (!a) r.fail(fmt::format("key 'general.alignment' is {}, expected u32", kv.value.type_text()));
        if (*a == 0 || (*a & (*a - 1)) != 0) r.fail(fmt::format("key 'general.alignment' is {}, not a power of two", *a));
        out.alignment = *a;
    }
}

std::string dims_text(const std::vector<uint64_t> &ne) { return fmt::format("[{}]", fmt::join(ne, ", ")); }

void read_tensor_infos(Reader &r, Parsed &out, uint64_t n_tensors) {
    out.tensors.reserve(n_tensors);
    std::unordered_set<std::string_view> names;
    for (uint64_t i = 0; i < n_tensors; ++i) {
        auto nth = [&] { return fmt::format("tensor info {} of {}", i, n_tensors); };
        std::string_view name = r.read_string([&] { return nth() + ": name"; });
        if (name.size() > kGgufMaxTensorNameBytes)
            r.fail(fmt::format("{}: name of {} bytes ({}) is longer than the format's {}", nth(), name.size(),
                               quoted(name), kGgufMaxTensorNameBytes));
        if (!names.insert(name).second) r.fail(fmt::format("tensor {} appears twice", quoted(name)));
        const std::string who = "tensor " + quoted(name);
        auto where = [&who](const char *what) { return [&who, what] { return who + ": " + what; }; };

        GgufTensor t;
        t.name = std::string(name);
        const uint32_t n_dims = r.read<uint32_t>(where("dimension count"));
        if (n_dims > kGgufMaxDims) r.fail(fmt::format("{}: {} dimensions (at most {})", who, n_dims, kGgufMaxDims));
        for (uint32_t d = 0; d < n_dims; ++d) t.ne.push_back(r.read<uint64_t>(where("dimensions")));
        int64_t count = 1;
        const bool empty = std::find(t.ne.begin(), t.ne.end(), 0) != t.ne.end();
        for (uint64_t d : t.ne) {
            if (d > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ||
                (!empty && __builtin_mul_overflow(count, static_cast<int64_t>(d), &count)))
                r.fail(fmt::format("{}: dims {} hold more than 2^63 - 1 elements", who, dims_text(t.ne)));
        }
        if (empty) count = 0;

        const uint32_t type = r.read<uint32_t>(where("type"));
        const GgmlTypeInfo *info = ggml_type_info(type);
        if (!info) r.fail(fmt::format("{}: unknown ggml type {}", who, type));
        if (info->block_elements == 0)
            r.fail(fmt::format("{}: ggml type {} ({}) is one ggml has removed", who, type, info->name));
        t.type = static_cast<GgmlType>(type);
        if (static_cast<uint64_t>(t.row_length()) % info->block_elements != 0)
            r.fail(fmt::format("{}: rows of {} element(s) (dims {}) are not a whole number of {}'s {}-element blocks", who,
                               t.row_length(), dims_text(t.ne), info->name, info->block_elements));
        if (__builtin_mul_overflow(static_cast<uint64_t>(count) / info->block_elements, uint64_t(info->block_bytes), &t.bytes))
            r.fail(fmt::format("{}: dims {} of {} take more than 2^64 bytes", who, dims_text(t.ne), info->name));
        t.offset = r.read<uint64_t>(where("offset"));
        out.tensors.push_back(std::move(t));
    }
}

// Offsets aligned, every tensor inside the data section, no two overlapping.
void check_layout(const Reader &r, Parsed &out, uint64_t size) {
    const uint64_t data_bytes = size > out.data_offset ? size - out.data_offset : 0;
    for (const GgufTensor &t : out.tensors) {
        const std::string who = "tensor " + quoted(t.name);
        if (t.offset % out.alignment != 0)
            r.fail(fmt::format("{}: offset {} is not a multiple of the alignment {}", who, t.offset, out.alignment));
        if (t.offset > data_bytes || t.bytes > data_bytes - t.offset)
            r.fail(fmt::format("{}: its {} bytes at offset {} run past the end of the data section ({} bytes from "
                               "byte {}; the file is truncated?)", who, t.bytes, t.offset, data_bytes, out.data_offset));
    }
    std::vector<size_t> order(out.tensors.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const GgufTensor &x = out.tensors[a], &y = out.tensors[b];
        return x.offset != y.offset ? x.offset < y.offset : x.bytes < y.bytes;
    });
    const GgufTensor *previous = nullptr;   // the non-empty tensor that ends last so far
    for (size_t i : order) {
        const GgufTensor &t = out.tensors[i];
        if (t.bytes == 0) continue;
        if (previous && previous->offset + previous->bytes > t.offset)
            r.fail(fmt::format("tensor {}: bytes [{}, {}) of the data section overlap tensor {}'s [{}, {})", quoted(t.name),
                               t.offset, t.offset + t.bytes, quoted(previous->name), previous->offset,
                               previous->offset + previous->bytes));
        previous = &t;
    }
}

}  // namespace

Parsed parse_gguf(const uint8_t *bytes, uint64_t size, const std::string &name) {
    Reader r(bytes, size, name);
    Parsed out;
    uint64_t n_tensors = 0, n_kv = 0;
    read_header(r, out, size, n_tensors, n_kv);
    read_metadata(r, out, n_kv);
    read_tensor_infos(r, out, n_tensors);
    out.data_offset = (r.pos() + out.alignment - 1) / out.alignment * out.alignment;
    check_layout(r, out, size);
    for (GgufTensor &t : out.tensors) t.data = t.bytes > 0 ? bytes + out.data_offset + t.offset : bytes;
    return out;
}

}  // namespace halogen::gguf_detail
