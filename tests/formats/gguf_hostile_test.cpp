// Hostile GGUF files, built byte by byte: each is one FormatError whose one-line message names the
// file and the key or tensor at fault (never a crash, a hang or a huge allocation): truncation at
// every byte, lying counts, a 2^60 string length, unknown value and tensor types, bad bools, keys
// and names repeated or empty, arrays nested too deep, dims that overflow, rows that split a block,
// misaligned, overlapping and out-of-file offsets, a bad general.alignment, refused versions and
// big-endian files.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "formats/gguf.h"
#include "formats/gguf_writer.h"

namespace {

using halogen::FormatError;
using halogen::GgmlType;
using halogen::GgufFile;

const std::string kName = "hostile.gguf";

// A file made by hand.
struct Bytes {
    std::string b;
    Bytes &raw(const std::string &s) { return b += s, *this; }
    Bytes &u8(uint8_t v) { return b += static_cast<char>(v), *this; }
    Bytes &u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) b += static_cast<char>((v >> (8 * i)) & 0xFF);
        return *this;
    }
    Bytes &u64(uint64_t v) {
        for (int i = 0; i < 8; ++i) b += static_cast<char>((v >> (8 * i)) & 0xFF);
        return *this;
    }
    Bytes &str(const std::string &s) { return u64(s.size()).raw(s); }
    Bytes &pad(size_t to) {
        b.resize((b.size() + to - 1) / to * to, '\0');
        return *this;
    }
    Bytes &zeros(size_t n) { return b.append(n, '\0'), *this; }
};

Bytes header(uint64_t tensors, uint64_t kvs, uint32_t version = 3) {
    Bytes f;
    f.raw("GGUF").u32(version).u64(tensors).u64(kvs);
    return f;
}

// Appends a tensor info: name, dims, type, offset.
Bytes &tensor_info(Bytes &f, const std::string &name, std::vector<uint64_t> ne, uint32_t type, uint64_t offset) {
    f.str(name).u32(static_cast<uint32_t>(ne.size()));
    for (uint64_t d : ne) f.u64(d);
    return f.u32(type).u64(offset);
}

void expect_error(const std::string &bytes, const std::string &needle) {
    try {
        GgufFile::from_bytes(bytes, kName);
        FAIL() << "no FormatError; expected one containing: " << needle;
    } catch (const FormatError &e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind(kName + ": ", 0), 0u) << msg;
        EXPECT_NE(msg.find(needle), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

TEST(GgufHostile, NotGgufAtAll) {
    expect_error("", "not a GGUF file: it begins with ''");
    expect_error("GGU", "not a GGUF file");
    expect_error(std::string("PK\3\4 a zip file"), "not a GGUF file: it begins with 'PK?\?'");
    expect_error(std::string("GGUF\3\0\0\0", 8), "8 bytes, too short for a GGUF header (24 bytes");
}

TEST(GgufHostile, Versions) {
    expect_error(header(0, 0, 1).b, "GGUF version 1 is not supported (only versions 2 and 3)");
    expect_error(header(0, 0, 4).b, "GGUF version 4 is not supported");
    // A big-endian file stores version 3 as 00 00 00 03.
    expect_error(header(0, 0, 0x03000000).b, "a big-endian GGUF file (version 3 stored big-endian)");
    // Version 2 has the same layout and reads.
    EXPECT_EQ(GgufFile::from_bytes(header(0, 0, 2).b, kName).version(), 2u);
}

TEST(GgufHostile, LyingCounts) {
    expect_error(header(0, 1ull << 40).b, "key-value count 1099511627776 cannot fit in the file's remaining 0 bytes");
    expect_error(header(1ull << 40, 0).zeros(100).b, "tensor count 1099511627776 cannot fit");
    expect_error(header(3, 0).zeros(60).b, "tensor count 3 cannot fit");   // 3 x 24 > 60
    // A count that passes the size check but not the contents: the third key's name runs out.
    Bytes f = header(0, 3);
    f.str("a").u32(0).u8(1).str("b").u32(0).u8(2).u64(100).zeros(6);
    expect_error(f.b, "key-value pair 2 of 3: key: string length 100 runs past the end of the file (6 byte(s) left at "
                      "byte 60)");
}

TEST(GgufHostile, HugeStringLengths) {
    const uint64_t huge = 1ull << 60;
    Bytes key = header(0, 1);
    key.u64(huge).zeros(20);
    expect_error(key.b, "key-value pair 0 of 1: key: string length 1152921504606846976 runs past the end of the file");
    Bytes value = header(0, 1);
    value.str("general.name").u32(8).u64(huge).zeros(8);
    expect_error(value.b, "key 'general.name': string length 1152921504606846976 runs past the end of the file");
    Bytes element = header(0, 1);
    element.str("tokenizer.ggml.tokens").u32(9).u32(8).u64(2).str("ok").u64(huge);
    expect_error(element.b, "key 'tokenizer.ggml.tokens': string 1 of 2: string length 1152921504606846976");
    Bytes name = header(1, 0);
    name.u64(huge).zeros(30);
    expect_error(name.b, "tensor info 0 of 1: name: string length 1152921504606846976 runs past");
}

TEST(GgufHostile, ValueTypes) {
    Bytes unknown = header(0, 1);
    unknown.str("k").u32(13).zeros(8);
    expect_error(unknown.b, "key 'k': unknown value type 13");
    Bytes element = header(0, 1);
    element.str("k").u32(9).u32(99).u64(1).zeros(8);
    expect_error(element.b, "key 'k': array of unknown value type 99");
    Bytes bad_bool = header(0, 1);
    bad_bool.str("flag").u32(7).u8(2);
    expect_error(bad_bool.b, "key 'flag': bool value 2 is neither 0 nor 1");
    Bytes bad_bools = header(0, 1);
    bad_bools.str("flags").u32(9).u32(7).u64(3).u8(1).u8(0).u8(5);
    expect_error(bad_bools.b, "key 'flags': bool element 2 is 5, neither 0 nor 1");
    Bytes truncated_value = header(0, 1);
    truncated_value.str("big").u32(10).u32(7);   // a u64 needs 8 bytes at byte 24 + 11 + 4, 4 are there
    expect_error(truncated_value.b, "key 'big': u64 value: needs 8 byte(s) at byte 39, but the file ends at byte 43");
}

TEST(GgufHostile, LyingArrayCounts) {
    Bytes f = header(0, 1);
    f.str("k").u32(9).u32(4).u64(1ull << 62).zeros(16);
    expect_error(f.b, "key 'k': array of 4611686018427387904 u32 element(s) cannot fit in the 16 byte(s) left");
    Bytes strings = header(0, 1);
    strings.str("k").u32(9).u32(8).u64(1000).zeros(16);
    expect_error(strings.b, "array of 1000 string element(s) cannot fit");
}

// A key whose value is `levels` arrays, each holding the next; the innermost an empty u8 array.
std::string nested(int levels) {
    Bytes f = header(0, 1);
    f.str("deep").u32(9);
    for (int i = 1; i < levels; ++i) f.u32(9).u64(1);
    return f.u32(0).u64(0).b;
}

TEST(GgufHostile, NestingTooDeep) {
    EXPECT_EQ(GgufFile::from_bytes(nested(8), kName).at("deep").type_text(), "array of array");
    expect_error(nested(9), "key 'deep': element 0 of 1: element 0 of 1");
    expect_error(nested(9), "arrays nested deeper than 8 levels");
    expect_error(nested(100000), "arrays nested deeper than 8 levels");
}

TEST(GgufHostile, KeysAndNames) {
    Bytes dup = header(0, 2);
    dup.str("a").u32(0).u8(1).str("a").u32(0).u8(2);
    expect_error(dup.b, "key 'a' appears twice");
    Bytes empty = header(0, 1);
    empty.str("").u32(0).u8(1).zeros(4);
    expect_error(empty.b, "key-value pair 0 of 1: the key is empty");
    Bytes names = header(2, 0);
    tensor_info(names, "w", {32}, 0, 0);
    tensor_info(names, "w", {32}, 0, 128);
    expect_error(names.pad(32).zeros(256).b, "tensor 'w' appears twice");
    Bytes long_name = header(1, 0);
    tensor_info(long_name, std::string(65, 'x'), {1}, 0, 0);
    expect_error(long_name.pad(32).zeros(32).b, "tensor info 0 of 1: name of 65 bytes");
}

TEST(GgufHostile, Dims) {
    Bytes five = header(1, 0);
    tensor_info(five, "t", {1, 1, 1, 1, 1}, 0, 0);
    expect_error(five.b, "tensor 't': 5 dimensions (at most 4)");
    Bytes overflow = header(1, 0);
    tensor_info(overflow, "t", {1ull << 32, 1ull << 32}, 0, 0);
    expect_error(overflow.b, "tensor 't': dims [4294967296, 4294967296] hold more than 2^63 - 1 elements");
    Bytes sign = header(1, 0);
    tensor_info(sign, "t", {1ull << 63}, 0, 0);
    expect_error(sign.b, "dims [9223372036854775808] hold more than 2^63 - 1 elements");
    Bytes bytes = header(1, 0);
    tensor_info(bytes, "t", {1ull << 62}, 27, 0);   // I64: 2^62 elements of 8 bytes
    expect_error(bytes.b, "tensor 't': dims [4611686018427387904] of I64 take more than 2^64 bytes");
    Bytes split = header(1, 0);
    tensor_info(split, "blk.0.attn_q.weight", {100, 4}, 12, 0);
    expect_error(split.b, "tensor 'blk.0.attn_q.weight': rows of 100 element(s) (dims [100, 4]) are not a whole "
                          "number of Q4_K's 256-element blocks");
    // A zero anywhere makes an empty tensor, whatever the other dims.
    Bytes empty = header(1, 0);
    tensor_info(empty, "e", {1ull << 40, 0, 1ull << 40}, 0, 0);
    GgufFile f = GgufFile::from_bytes(empty.b, kName);
    EXPECT_EQ(f.tensors()[0].n_elements(), 0);
}

TEST(GgufHostile, TensorTypes) {
    Bytes unknown = header(1, 0);
    tensor_info(unknown, "t", {32}, 99, 0);
    expect_error(unknown.b, "tensor 't': unknown ggml type 99");
    Bytes removed = header(1, 0);
    tensor_info(removed, "t", {32}, 4, 0);
    expect_error(removed.b, "tensor 't': ggml type 4 (Q4_2 (removed)) is one ggml has removed");
}

// A file with two F32 tensors of 16 values (64 bytes each) at the given offsets.
std::string two_tensors(uint64_t a, uint64_t b, size_t data_bytes) {
    Bytes f = header(2, 0);
    tensor_info(f, "a", {16}, 0, a);
    tensor_info(f, "b", {16}, 0, b);
    return f.pad(32).zeros(data_bytes).b;
}

TEST(GgufHostile, Offsets) {
    EXPECT_EQ(GgufFile::from_bytes(two_tensors(0, 64, 128), kName).tensors().size(), 2u);
    EXPECT_EQ(GgufFile::from_bytes(two_tensors(64, 0, 128), kName).tensors().size(), 2u);   // any order
    expect_error(two_tensors(0, 48, 128), "tensor 'b': offset 48 is not a multiple of the alignment 32");
    expect_error(two_tensors(0, 32, 128), "tensor 'b': bytes [32, 96) of the data section overlap tensor 'a''s [0, 64)");
    expect_error(two_tensors(64, 32, 128), "tensor 'a': bytes [64, 128) of the data section overlap tensor 'b''s [32, 96)");
    expect_error(two_tensors(0, 0, 128), "overlap");
    expect_error(two_tensors(0, 64, 127), "tensor 'b': its 64 bytes at offset 64 run past the end of the data section (127 bytes");
    expect_error(two_tensors(0, 1ull << 62, 128), "tensor 'b': its 64 bytes at offset 4611686018427387904 run past the end");
    expect_error(two_tensors(0, 0xFFFFFFFFFFFFFFE0ull, 128), "run past the end of the data section");
}

TEST(GgufHostile, Alignment) {
    auto with_alignment = [](uint32_t type, uint64_t value) {
        Bytes f = header(0, 1);
        f.str("general.alignment").u32(type);
        if (type == 4) f.u32(static_cast<uint32_t>(value));
        else f.u64(value);
        return f.b;
    };
    expect_error(with_alignment(10, 64), "key 'general.alignment' is u64, expected u32");
    expect_error(with_alignment(4, 0), "key 'general.alignment' is 0, not a power of two");
    expect_error(with_alignment(4, 48), "key 'general.alignment' is 48, not a power of two");
    // With alignment 64, an offset of 32 is misaligned, and the data section starts at 64.
    Bytes f = header(1, 1);
    f.str("general.alignment").u32(4).u32(64);
    tensor_info(f, "t", {8}, 0, 32);
    expect_error(f.pad(64).zeros(128).b, "tensor 't': offset 32 is not a multiple of the alignment 64");
}

TEST(GgufHostile, EveryTruncationIsAnError) {
    // Cut a valid file (every value type, tensors of several types) at every byte before its last
    // tensor's data ends: each prefix is one FormatError.
    halogen::GgufWriter w;
    w.set_string("general.architecture", "llama");
    w.set_u32("llama.block_count", 2);
    w.set_f32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
    w.set_bool("b", true);
    w.set_string_array("tokenizer.ggml.tokens", {"a", "bc", ""});
    w.set_array<int32_t>("tokenizer.ggml.token_type", {1, 2, 3});
    w.set("nested", halogen::GgufWriteValue::array_of(halogen::GgufType::ARRAY,
                                                      {halogen::GgufWriteValue::array<uint8_t>({1})}));
    const std::vector<uint8_t> q(144, 0x11);
    const std::vector<float> x(8, 1.0f);
    w.add_tensor("token_embd.weight", GgmlType::Q4_K, {256}, q.data(), q.size());
    w.add_tensor("output_norm.weight", GgmlType::F32, {8}, x.data(), 32);
    const std::string whole = w.to_bytes();
    const GgufFile f = GgufFile::from_bytes(whole, kName);
    const halogen::GgufTensor &last = f.tensors().back();
    const uint64_t end = f.data_offset() + last.offset + last.bytes;
    for (uint64_t n = 0; n < end; ++n) {
        try {
            GgufFile::from_bytes(whole.substr(0, n), kName);
            ADD_FAILURE() << "a file cut at byte " << n << " of " << end << " was accepted";
        } catch (const FormatError &e) {
            ASSERT_EQ(std::string(e.what()).rfind(kName + ": ", 0), 0u) << e.what();
        }
    }
    // The padding after the last tensor is not needed.
    EXPECT_NO_THROW(GgufFile::from_bytes(whole.substr(0, end), kName));
}

}  // namespace
