// The safetensors header: the dtype table, a streaming (SAX) reader of the JSON that accepts only
// the format's shape and catches repeated keys, and the validation of offsets and sizes that the
// reference implementation makes (see safetensors.h).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "formats/printable_text.h"
#include "formats/safetensors.h"
#include "formats/safetensors_internal.h"
#include "formats/strict_json.h"

namespace halogen {

namespace {

struct DTypeRow {
    SafetensorsDType dtype;
    const char *name;
    int bits;
};

// In enum order, so that the row of a dtype is at its enum value.
constexpr std::array<DTypeRow, 22> kDTypes = {{
    {SafetensorsDType::BOOL, "BOOL", 8},          {SafetensorsDType::F4, "F4", 4},
    {SafetensorsDType::F6_E2M3, "F6_E2M3", 6},    {SafetensorsDType::F6_E3M2, "F6_E3M2", 6},
    {SafetensorsDType::U8, "U8", 8},              {SafetensorsDType::I8, "I8", 8},
    {SafetensorsDType::F8_E5M2, "F8_E5M2", 8},    {SafetensorsDType::F8_E4M3, "F8_E4M3", 8},
    {SafetensorsDType::F8_E8M0, "F8_E8M0", 8},    {SafetensorsDType::F8_E4M3FNUZ, "F8_E4M3FNUZ", 8},
    {SafetensorsDType::F8_E5M2FNUZ, "F8_E5M2FNUZ", 8},
    {SafetensorsDType::I16, "I16", 16},           {SafetensorsDType::U16, "U16", 16},
    {SafetensorsDType::F16, "F16", 16},           {SafetensorsDType::BF16, "BF16", 16},
    {SafetensorsDType::I32, "I32", 32},           {SafetensorsDType::U32, "U32", 32},
    {SafetensorsDType::F32, "F32", 32},           {SafetensorsDType::C64, "C64", 64},
    {SafetensorsDType::F64, "F64", 64},           {SafetensorsDType::I64, "I64", 64},
    {SafetensorsDType::U64, "U64", 64},
}};

const DTypeRow &row_of(SafetensorsDType t) { return kDTypes.at(static_cast<size_t>(t)); }

constexpr size_t kMaxDepth = 128;   // JSON nesting, as serde_json's recursion limit in the reference

// What the reader expects next.
enum class Expect {
    Root,          // the header's value: an object
    TopKey,        // a tensor name or "__metadata__", or the end of the header object
    TopValue,      // the value under the last top-level key
    MetaKey,       // a metadata key, or the end of __metadata__
    MetaValue,     // a metadata value: a string
    FieldKey,      // a field of a tensor entry, or the end of the entry
    FieldValue,    // the value of that field
    Dims,          // an element of "shape", or its end
    Offsets,       // an element of "data_offsets", or its end
    Skip,          // inside the value of an unknown field, ignored as the reference ignores it
    Done,
};

// Receives nlohmann-json's parse events and builds the entries; any deviation from the format is
// recorded in `error` (without the file name) and stops the parse.
class HeaderReader {
public:
    using json = nlohmann::json;

    std::vector<SafetensorsTensor> tensors;
    std::map<std::string, std::string> metadata;
    std::string error;

    bool null() { return scalar("null"); }
    bool boolean(bool) { return scalar("a boolean"); }
    bool number_integer(json::number_integer_t v) {
        if (v >= 0) return integer(static_cast<uint64_t>(v));
        return scalar("a negative number");
    }
    bool number_unsigned(json::number_unsigned_t v) { return integer(v); }
    bool number_float(json::number_float_t, const std::string &) { return scalar("a non-integer number"); }
    bool binary(json::binary_t &) { return scalar("binary data"); }

    bool string(std::string &s) {
        switch (expect_) {
        case Expect::MetaValue:
            metadata[key_] = s;
            expect_ = Expect::MetaKey;
            return true;
        case Expect::FieldValue:
            if (field_ == "dtype") {
                auto t = parse_safetensors_dtype(s);
                if (!t) return fail(tensor_context() + fmt::format("unknown dtype '{}'", printable_text(s, 24)));
                current_.dtype = *t;
                have_dtype_ = true;
                expect_ = Expect::FieldKey;
                return true;
            }
            return scalar("a string");
        case Expect::Skip:
            return true;
        default:
            return scalar("a string");
        }
    }

    bool start_object(std::size_t) {
        if (!enter()) return false;
        switch (expect_) {
        case Expect::Root:
            expect_ = Expect::TopKey;
            return true;
        case Expect::TopValue:
            if (key_ == "__metadata__") {
                if (seen_metadata_object_) return fail("'__metadata__' appears twice");
                seen_metadata_object_ = true;
                seen_keys_.clear();
                expect_ = Expect::MetaKey;
            } else {
                current_ = SafetensorsTensor{};
                current_.name = key_;
                have_dtype_ = have_shape_ = have_offsets_ = false;
                seen_keys_.clear();
                expect_ = Expect::FieldKey;
            }
            return true;
        case Expect::FieldValue:
            if (known_field()) return wrong("an object");
            return begin_skip();
        case Expect::Skip:
            return true;
        default:
            return wrong("an object");
        }
    }

    bool key(std::string &k) {
        switch (expect_) {
        case Expect::TopKey:
            if (!top_keys_.insert(k).second)
                return fail(k == "__metadata__" ? std::string("'__metadata__' appears twice")
                                                : fmt::format("tensor '{}' appears twice", printable_text(k)));
            key_ = k;
            expect_ = Expect::TopValue;
            return true;
        case Expect::MetaKey:
            if (!seen_keys_.insert(k).second)
                return fail(fmt::format("__metadata__: key '{}' appears twice", printable_text(k)));
            key_ = k;
            expect_ = Expect::MetaValue;
            return true;
        case Expect::FieldKey:
            if (!seen_keys_.insert(k).second)
                return fail(tensor_context() + fmt::format("field '{}' appears twice", printable_text(k, 24)));
            field_ = k;
            expect_ = Expect::FieldValue;
            return true;
        default:
            return true;   // keys inside skipped values
        }
    }

    bool end_object() {
        --depth_;
        switch (expect_) {
        case Expect::TopKey:
            expect_ = Expect::Done;
            return true;
        case Expect::MetaKey:
            expect_ = Expect::TopKey;
            return true;
        case Expect::FieldKey:
            if (!have_dtype_ || !have_shape_ || !have_offsets_) {
                const char *missing = !have_dtype_ ? "dtype" : !have_shape_ ? "shape" : "data_offsets";
                return fail(tensor_context() + fmt::format("no '{}' field", missing));
            }
            tensors.push_back(std::move(current_));
            expect_ = Expect::TopKey;
            return true;
        case Expect::Skip:
            return leave_skip();
        default:
            return fail("unexpected end of object");   // unreachable: the JSON parser pairs braces
        }
    }

    bool start_array(std::size_t) {
        if (!enter()) return false;
        switch (expect_) {
        case Expect::FieldValue:
            if (field_ == "shape") {
                current_.shape.clear();
                expect_ = Expect::Dims;
                return true;
            }
            if (field_ == "data_offsets") {
                offsets_.clear();
                expect_ = Expect::Offsets;
                return true;
            }
            if (known_field()) return wrong("an array");   // "dtype"
            return begin_skip();
        case Expect::Skip:
            return true;
        default:
            return wrong("an array");
        }
    }

    bool end_array() {
        --depth_;
        switch (expect_) {
        case Expect::Dims:
            have_shape_ = true;
            expect_ = Expect::FieldKey;
            return true;
        case Expect::Offsets:
            if (offsets_.size() != 2)
                return fail(tensor_context() +
                            fmt::format("data_offsets has {} element(s), expected 2 [begin, end]", offsets_.size()));
            current_.begin = offsets_[0];
            current_.end = offsets_[1];
            have_offsets_ = true;
            expect_ = Expect::FieldKey;
            return true;
        case Expect::Skip:
            return leave_skip();
        default:
            return fail("unexpected end of array");   // unreachable: the JSON parser pairs brackets
        }
    }

    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &e) {
        return fail(fmt::format("header is not valid JSON (byte {} of the header): {}", position,
                                printable_text(json_exception_reason(e), 160)));
    }

    bool done() const { return expect_ == Expect::Done; }

private:
    Expect expect_ = Expect::Root;
    size_t depth_ = 0;                 // current nesting of objects and arrays
    size_t skip_depth_ = 0;            // depth_ at which the skipped value began
    std::string key_, field_;
    std::set<std::string> top_keys_, seen_keys_;
    bool seen_metadata_object_ = false;
    SafetensorsTensor current_;
    bool have_dtype_ = false, have_shape_ = false, have_offsets_ = false;
    std::vector<uint64_t> offsets_;

    bool fail(std::string message) {
        if (error.empty()) error = std::move(message);
        return false;
    }

    bool known_field() const { return field_ == "dtype" || field_ == "shape" || field_ == "data_offsets"; }

    std::string tensor_context() const { return fmt::format("tensor '{}': ", printable_text(current_.name)); }

    bool enter() {
        if (++depth_ > kMaxDepth) return fail(fmt::format("header nests deeper than {} levels", kMaxDepth));
        return true;
    }

    bool begin_skip() {
        skip_depth_ = depth_;
        expect_ = Expect::Skip;
        return true;
    }

    bool leave_skip() {
        if (depth_ + 1 == skip_depth_) expect_ = Expect::FieldKey;
        return true;
    }

    bool integer(uint64_t v) {
        switch (expect_) {
        case Expect::Dims:
            if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
                return fail(tensor_context() + fmt::format("shape dimension {} does not fit int64", v));
            current_.shape.push_back(static_cast<int64_t>(v));
            return true;
        case Expect::Offsets:
            if (offsets_.size() == 2) return fail(tensor_context() + "data_offsets has more than 2 elements");
            offsets_.push_back(v);
            return true;
        default:
            return scalar("a number");
        }
    }

    // A scalar (null, boolean, number, string) where the format wants something else.
    bool scalar(const char *what) {
        if (expect_ == Expect::Skip) return true;
        if (expect_ == Expect::FieldValue && !known_field()) {
            expect_ = Expect::FieldKey;   // an unknown field's scalar value: ignored
            return true;
        }
        if (expect_ == Expect::TopValue && key_ == "__metadata__" && std::strcmp(what, "null") == 0) {
            if (seen_metadata_object_) return fail("'__metadata__' appears twice");
            seen_metadata_object_ = true;   // "__metadata__": null means none, as in the reference
            expect_ = Expect::TopKey;
            return true;
        }
        return wrong(what);
    }

    // A value of the wrong kind: says what was expected where.
    bool wrong(const char *got) {
        switch (expect_) {
        case Expect::Root:
            return fail(fmt::format("header is {}, not a JSON object", got));
        case Expect::TopValue:
            if (key_ == "__metadata__") return fail(fmt::format("__metadata__ is {}, not an object", got));
            return fail(fmt::format("tensor '{}': entry is {}, not an object {{dtype, shape, data_offsets}}",
                                    printable_text(key_), got));
        case Expect::MetaValue:
            return fail(fmt::format("__metadata__: value of '{}' is {}, not a string", printable_text(key_), got));
        case Expect::FieldValue:
            if (field_ == "dtype") return fail(tensor_context() + fmt::format("dtype is {}, not a string", got));
            return fail(tensor_context() + fmt::format("{} is {}, not an array of non-negative integers",
                                                       field_, got));
        case Expect::Dims:
            return fail(tensor_context() + fmt::format("shape holds {}, not a non-negative integer", got));
        case Expect::Offsets:
            return fail(tensor_context() + fmt::format("data_offsets holds {}, not a non-negative integer", got));
        default:
            return fail(fmt::format("unexpected {} in the header", got));
        }
    }
};

uint64_t read_u64_le(const char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
}

[[noreturn]] void fail(const std::string &file, const std::string &problem) {
    throw FormatError(file + ": " + problem);
}

std::string shape_str(const std::vector<int64_t> &shape) {
    return fmt::format("[{}]", fmt::join(shape, ", "));
}

// The offsets and sizes, as the reference's Metadata::validate plus its final size check.
void validate_layout(SafetensorsHeader &h, const std::string &file) {
    auto &ts = h.tensors;
    std::sort(ts.begin(), ts.end(), [](const SafetensorsTensor &a, const SafetensorsTensor &b) {
        if (a.begin != b.begin) return a.begin < b.begin;
        if (a.end != b.end) return a.end < b.end;
        return a.name < b.name;
    });
    uint64_t expected_begin = 0;
    const SafetensorsTensor *previous = nullptr;
    for (const auto &t : ts) {
        std::string who = fmt::format("tensor '{}'", printable_text(t.name));
        std::string offsets = fmt::format("data_offsets [{}, {}]", t.begin, t.end);
        if (t.end < t.begin) fail(file, fmt::format("{}: {} end before they begin", who, offsets));
        if (t.begin != expected_begin) {
            std::string after = previous ? fmt::format("where tensor '{}' ends", printable_text(previous->name))
                                         : std::string("the start of the data section");
            if (t.begin > expected_begin)
                fail(file, fmt::format("{}: {} leave a gap of {} byte(s) after {} (byte {})", who, offsets,
                                       t.begin - expected_begin, after, expected_begin));
            fail(file, fmt::format("{}: {} overlap the bytes before {} (byte {})", who, offsets, after, expected_begin));
        }
        if (t.end > h.data_bytes)
            fail(file, fmt::format("{}: {} run past the data section's {} bytes (file truncated?)", who, offsets,
                                   h.data_bytes));
        // Element count and bits, each product checked (as the reference's checked_mul). As the
        // bits fit 64 bits and an element has at least 4, the count fits int64 (numel()).
        uint64_t count = 1;
        for (int64_t d : t.shape) {
            if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count))
                fail(file, fmt::format("{}: shape {} has more elements than 2^64", who, shape_str(t.shape)));
        }
        uint64_t bits;
        if (__builtin_mul_overflow(count, static_cast<uint64_t>(safetensors_dtype_bits(t.dtype)), &bits))
            fail(file, fmt::format("{}: shape {} of {} needs more than 2^64 bits", who, shape_str(t.shape),
                                   safetensors_dtype_name(t.dtype)));
        if (bits % 8 != 0)
            fail(file, fmt::format("{}: shape {} of {} is {} bits, not a whole number of bytes", who,
                                   shape_str(t.shape), safetensors_dtype_name(t.dtype), bits));
        if (t.end - t.begin != bits / 8)
            fail(file, fmt::format("{}: {} hold {} bytes, shape {} of {} needs {}", who, offsets, t.end - t.begin,
                                   shape_str(t.shape), safetensors_dtype_name(t.dtype), bits / 8));
        expected_begin = t.end;
        previous = &t;
    }
    if (expected_begin != h.data_bytes)
        fail(file, fmt::format("the tensors use {} bytes but the data section holds {} ({} trailing bytes)",
                               expected_begin, h.data_bytes, h.data_bytes - expected_begin));
}

}  // namespace

std::string_view safetensors_dtype_name(SafetensorsDType t) { return row_of(t).name; }

std::optional<SafetensorsDType> parse_safetensors_dtype(std::string_view name) {
    for (const auto &row : kDTypes)
        if (name == row.name) return row.dtype;
    return std::nullopt;
}

int safetensors_dtype_bits(SafetensorsDType t) { return row_of(t).bits; }

int64_t SafetensorsTensor::numel() const {
    // A zero extent makes the count 0 even when the other extents' product would not fit int64
    // (the reference accepts e.g. [2^32 - 2^27, 2^32, 0]); without one, validation has bounded it.
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

uint64_t safetensors_header_length(std::string_view file_start, uint64_t file_size, const std::string &name) {
    if (file_size < 8 || file_start.size() < 8)
        fail(name, fmt::format("{} bytes, too short for a safetensors file (8-byte header length first)", file_size));
    uint64_t n = read_u64_le(file_start.data());
    if (n > kSafetensorsMaxHeaderBytes)
        fail(name, fmt::format("header length {} exceeds the format's limit of {} bytes", n,
                               kSafetensorsMaxHeaderBytes));
    if (n > file_size - 8)
        fail(name, fmt::format("header length {} runs past the end of the file ({} bytes)", n, file_size));
    return n;
}

SafetensorsHeader parse_safetensors_header(std::string_view file_start, uint64_t file_size, const std::string &name) {
    uint64_t n = safetensors_header_length(file_start, file_size, name);
    if (file_start.size() < 8 + n)
        fail(name, fmt::format("only {} of the header's {} bytes were given", file_start.size() - 8, n));
    std::string_view text = file_start.substr(8, n);
    if (text.size() >= 3 && std::memcmp(text.data(), "\xEF\xBB\xBF", 3) == 0)
        fail(name, "header begins with a UTF-8 byte-order mark (not allowed in the format's JSON)");

    // nlohmann-json stops reading at a NUL byte as at the end of the input; JSON allows none
    // (not even inside strings), so "{}" followed by NULs must not pass.
    if (const void *nul = std::memchr(text.data(), '\0', text.size()))
        fail(name, fmt::format("header is not valid JSON (byte {} of the header is NUL)",
                               static_cast<const char *>(nul) - text.data()));

    HeaderReader reader;
    bool ok = nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &reader);
    if (!ok || !reader.done())
        fail(name, reader.error.empty() ? std::string("header is not valid JSON") : reader.error);

    SafetensorsHeader h;
    h.header_bytes = n;
    h.data_offset = 8 + n;
    h.data_bytes = file_size - 8 - n;
    h.tensors = std::move(reader.tensors);
    h.metadata = std::move(reader.metadata);
    validate_layout(h, name);
    return h;
}

}  // namespace halogen
