// What the GGUF reader's sources (gguf_parse.cpp, gguf_value.cpp, gguf_file.cpp) share; not an API.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "formats/gguf.h"

namespace halogen::gguf_detail {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "GGUF files are read as little-endian memory");

template <class T> T load(const uint8_t *p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Bytes of one scalar of type t; 0 for STRING and ARRAY (variable size) and unknown ids.
uint64_t scalar_bytes(GgufType t);

// The bytes a validated value of type t occupies at p (for ARRAY: its element type, count and
// elements; for STRING: its length and characters). Only for bytes parse_gguf has validated.
uint64_t value_bytes(GgufType t, const uint8_t *p);

// A validated file's contents, before GgufFile binds them.
struct Parsed {
    uint32_t version = 3;
    uint32_t alignment = kGgufDefaultAlignment;
    uint64_t data_offset = 0;
    std::vector<GgufKeyValue> kvs;
    std::vector<GgufTensor> tensors;   // data pointers set
};

// Validates the whole file held at bytes[0, size); `name` labels errors (FormatError "name: ...").
Parsed parse_gguf(const uint8_t *bytes, uint64_t size, const std::string &name);

}  // namespace halogen::gguf_detail
