// GGUF metadata values as views into the file: typed reads, string arrays walked in place, arrays
// of arrays (see gguf.h).
#include <fmt/format.h>

#include "formats/gguf.h"
#include "formats/gguf_internal.h"

namespace halogen {

namespace gguf_detail {

uint64_t scalar_bytes(GgufType t) {
    switch (t) {
    case GgufType::U8: case GgufType::I8: case GgufType::BOOL: return 1;
    case GgufType::U16: case GgufType::I16: return 2;
    case GgufType::U32: case GgufType::I32: case GgufType::F32: return 4;
    case GgufType::U64: case GgufType::I64: case GgufType::F64: return 8;
    default: return 0;
    }
}

uint64_t value_bytes(GgufType t, const uint8_t *p) {
    if (t == GgufType::STRING) return 8 + load<uint64_t>(p);
    if (t != GgufType::ARRAY) return scalar_bytes(t);
    const auto element = static_cast<GgufType>(load<uint32_t>(p));
    const uint64_t count = load<uint64_t>(p + 4);
    if (element != GgufType::STRING && element != GgufType::ARRAY) return 12 + count * scalar_bytes(element);
    uint64_t at = 12;
    for (uint64_t i = 0; i < count; ++i) at += value_bytes(element, p + at);
    return at;
}

}  // namespace gguf_detail

using gguf_detail::load;

namespace {

template <class T> struct TypeOf;
template <> struct TypeOf<uint8_t> { static constexpr GgufType value = GgufType::U8; };
template <> struct TypeOf<int8_t> { static constexpr GgufType value = GgufType::I8; };
template <> struct TypeOf<uint16_t> { static constexpr GgufType value = GgufType::U16; };
template <> struct TypeOf<int16_t> { static constexpr GgufType value = GgufType::I16; };
template <> struct TypeOf<uint32_t> { static constexpr GgufType value = GgufType::U32; };
template <> struct TypeOf<int32_t> { static constexpr GgufType value = GgufType::I32; };
template <> struct TypeOf<float> { static constexpr GgufType value = GgufType::F32; };
template <> struct TypeOf<bool> { static constexpr GgufType value = GgufType::BOOL; };
template <> struct TypeOf<uint64_t> { static constexpr GgufType value = GgufType::U64; };
template <> struct TypeOf<int64_t> { static constexpr GgufType value = GgufType::I64; };
template <> struct TypeOf<double> { static constexpr GgufType value = GgufType::F64; };
template <> struct TypeOf<std::string_view> { static constexpr GgufType value = GgufType::STRING; };

// One element of a fixed-size type at p.
template <class T> T element_at(const uint8_t *p) {
    if constexpr (std::is_same_v<T, bool>) return *p != 0;   // validated: 0 or 1
    else return load<T>(p);
}

}  // namespace

std::string_view gguf_type_name(GgufType t) {
    static constexpr std::string_view kNames[kGgufTypeCount] = {"u8",  "i8",   "u16",    "i16",   "u32", "i32", "f32",
                                                                "bool", "string", "array", "u64", "i64", "f64"};
    const auto i = static_cast<uint32_t>(t);
    return i < kGgufTypeCount ? kNames[i] : std::string_view("unknown");
}

std::string GgufValue::type_text() const {
    if (type_ != GgufType::ARRAY) return std::string(gguf_type_name(type_));
    return fmt::format("array of {}", gguf_type_name(element_));
}

template <class T> std::optional<T> GgufValue::as() const {
    if (type_ != TypeOf<T>::value) return std::nullopt;
    if constexpr (std::is_same_v<T, std::string_view>)
        return std::string_view(reinterpret_cast<const char *>(payload_), bytes_);
    else
        return element_at<T>(payload_);
}

template <class T> std::optional<std::vector<T>> GgufValue::numbers() const {
    if (type_ != GgufType::ARRAY || element_ != TypeOf<T>::value) return std::nullopt;
    std::vector<T> out(count_);
    for (uint64_t i = 0; i < count_; ++i) out[i] = element_at<T>(payload_ + i * sizeof(T));
    return out;
}

std::optional<GgufStringArray> GgufValue::strings() const {
    if (type_ != GgufType::ARRAY || element_ != GgufType::STRING) return std::nullopt;
    return GgufStringArray(payload_, count_, bytes_);
}

std::vector<GgufValue> GgufValue::elements() const {
    std::vector<GgufValue> out;
    if (type_ != GgufType::ARRAY) return out;
    out.reserve(count_);
    const uint8_t *p = payload_;
    for (uint64_t i = 0; i < count_; ++i) {
        const uint64_t n = gguf_detail::value_bytes(element_, p);
        if (element_ == GgufType::STRING)
            out.emplace_back(GgufType::STRING, p + 8, n - 8);
        else if (element_ == GgufType::ARRAY)
            out.emplace_back(GgufType::ARRAY, p + 12, n - 12, static_cast<GgufType>(load<uint32_t>(p)),
                             load<uint64_t>(p + 4));
        else
            out.emplace_back(element_, p, n);
        p += n;
    }
    return out;
}

std::string_view GgufStringArray::iterator::operator*() const {
    return {reinterpret_cast<const char *>(p_ + 8), static_cast<size_t>(load<uint64_t>(p_))};
}

GgufStringArray::iterator &GgufStringArray::iterator::operator++() {
    p_ += 8 + load<uint64_t>(p_);
    return *this;
}

std::vector<std::string_view> GgufStringArray::to_vector() const {
    std::vector<std::string_view> out;
    out.reserve(count_);
    for (std::string_view s : *this) out.push_back(s);
    return out;
}

#define HALOGEN_GGUF_SCALAR(T)                                         \
    template std::optional<T> GgufValue::as<T>() const;               \
    template std::optional<std::vector<T>> GgufValue::numbers<T>() const;
HALOGEN_GGUF_SCALAR(uint8_t)
HALOGEN_GGUF_SCALAR(int8_t)
HALOGEN_GGUF_SCALAR(uint16_t)
HALOGEN_GGUF_SCALAR(int16_t)
HALOGEN_GGUF_SCALAR(uint32_t)
HALOGEN_GGUF_SCALAR(int32_t)
HALOGEN_GGUF_SCALAR(float)
HALOGEN_GGUF_SCALAR(bool)
HALOGEN_GGUF_SCALAR(uint64_t)
HALOGEN_GGUF_SCALAR(int64_t)
HALOGEN_GGUF_SCALAR(double)
#undef HALOGEN_GGUF_SCALAR
template std::optional<std::string_view> GgufValue::as<std::string_view>() const;

}  // namespace halogen
