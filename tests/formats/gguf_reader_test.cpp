// GGUF writer -> reader round trips (formats/gguf_writer.h, gguf.h): every value type, string
// arrays read lazily, arrays of arrays, the typed reads and their errors, tensors of every
// supported type (dims order, row-major shape, bytes, alignment), streamed tensors, files on disk
// read through the mapping, and the writer's refusals. The bytes of a small file are also checked
// against the layout written out by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "formats/ggml_types.h"
#include "formats/gguf.h"
#include "formats/gguf_writer.h"

namespace {

using halogen::FormatError;
using halogen::GgmlType;
using halogen::GgufFile;
using halogen::GgufType;
using halogen::GgufWriter;
using halogen::GgufWriteValue;
namespace fs = std::filesystem;

void expect_format_error(const std::function<void()> &f, const std::string &needle, const std::string &prefix) {
    try {
        f();
        FAIL() << "no FormatError; expected one containing: " << needle;
    } catch (const FormatError &e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind(prefix, 0), 0u) << msg;
        EXPECT_NE(msg.find(needle), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

GgufFile reread(const GgufWriter &w) { return GgufFile::from_bytes(w.to_bytes(), "test.gguf"); }

TEST(GgufRoundTrip, EveryScalarType) {
    GgufWriter w;
    w.set_scalar<uint8_t>("t.u8", 250);
    w.set_scalar<int8_t>("t.i8", -120);
    w.set_scalar<uint16_t>("t.u16", 65535);
    w.set_scalar<int16_t>("t.i16", -32768);
    w.set_u32("t.u32", 4294967295u);
    w.set_i32("t.i32", -2147483647 - 1);
    w.set_f32("t.f32", -0.15625f);
    w.set_bool("t.true", true);
    w.set_bool("t.false", false);
    w.set_string("t.string", "na\xc3\xafve \0 text");
    w.set_string("t.empty", "");
    w.set_u64("t.u64", 18446744073709551615ull);
    w.set_scalar<int64_t>("t.i64", std::numeric_limits<int64_t>::min());
    w.set_scalar<double>("t.f64", 1.0 / 3.0);
    GgufFile f = reread(w);
    EXPECT_EQ(f.version(), 3u);
    EXPECT_EQ(f.alignment(), 32u);
    EXPECT_EQ(f.get<uint8_t>("t.u8"), 250);
    EXPECT_EQ(f.get<int8_t>("t.i8"), -120);
    EXPECT_EQ(f.get<uint16_t>("t.u16"), 65535);
    EXPECT_EQ(f.get<int16_t>("t.i16"), -32768);
    EXPECT_EQ(f.get_u32("t.u32"), 4294967295u);
    EXPECT_EQ(f.get_i32("t.i32"), std::numeric_limits<int32_t>::min());
    EXPECT_EQ(f.get_f32("t.f32"), -0.15625f);
    EXPECT_TRUE(f.get_bool("t.true"));
    EXPECT_FALSE(f.get_bool("t.false"));
    EXPECT_EQ(f.get_string("t.string"), "na\xc3\xafve ");   // a C string literal ends at its NUL
    EXPECT_EQ(f.get_string("t.empty"), "");
    EXPECT_EQ(f.get_u64("t.u64"), 18446744073709551615ull);
    EXPECT_EQ(f.get<int64_t>("t.i64"), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(f.get<double>("t.f64"), 1.0 / 3.0);
    // File order kept.
    ASSERT_EQ(f.metadata().size(), 14u);
    EXPECT_EQ(f.metadata()[0].key, "t.u8");
    EXPECT_EQ(f.metadata()[13].key, "t.f64");
    // A string with a NUL inside survives (the length says where it ends).
    GgufWriter w2;
    w2.set_string("k", std::string_view("a\0b", 3));
    EXPECT_EQ(reread(w2).get_string("k"), std::string_view("a\0b", 3));
}

TEST(GgufRoundTrip, EveryArrayType) {
    GgufWriter w;
    w.set_array<uint8_t>("a.u8", {0, 255});
    w.set_array<int8_t>("a.i8", {-128, 127});
    w.set_array<uint16_t>("a.u16", {1, 65535});
    w.set_array<int16_t>("a.i16", {-1, 2, -3});
    w.set_array<uint32_t>("a.u32", {7});
    w.set_array<int32_t>("a.i32", {});
    w.set_array<float>("a.f32", {1.5f, -0.0f, 1e-40f});
    w.set_array<bool>("a.bool", {true, false, true});
    w.set_array<uint64_t>("a.u64", {1ull << 63});
    w.set_array<int64_t>("a.i64", {-5, 5});
    w.set_array<double>("a.f64", {0.1, -2.5});
    w.set_string_array("a.strings", {"hello", "", "h\xc3\xa9", "merge a"});
    GgufFile f = reread(w);
    EXPECT_EQ(f.get_array<uint8_t>("a.u8"), (std::vector<uint8_t>{0, 255}));
    EXPECT_EQ(f.get_array<int8_t>("a.i8"), (std::vector<int8_t>{-128, 127}));
    EXPECT_EQ(f.get_array<uint16_t>("a.u16"), (std::vector<uint16_t>{1, 65535}));
    EXPECT_EQ(f.get_array<int16_t>("a.i16"), (std::vector<int16_t>{-1, 2, -3}));
    EXPECT_EQ(f.get_array<uint32_t>("a.u32"), (std::vector<uint32_t>{7}));
    EXPECT_TRUE(f.get_array<int32_t>("a.i32").empty());
    EXPECT_EQ(f.at("a.i32").type_text(), "array of i32");
    const std::vector<float> floats = f.get_array<float>("a.f32");
    ASSERT_EQ(floats.size(), 3u);
    EXPECT_EQ(floats[0], 1.5f);
    EXPECT_TRUE(std::signbit(floats[1]));
    EXPECT_EQ(floats[2], 1e-40f);
    EXPECT_EQ(f.get_array<bool>("a.bool"), (std::vector<bool>{true, false, true}));
    EXPECT_EQ(f.get_array<uint64_t>("a.u64"), (std::vector<uint64_t>{1ull << 63}));
    EXPECT_EQ(f.get_array<int64_t>("a.i64"), (std::vector<int64_t>{-5, 5}));
    EXPECT_EQ(f.get_array<double>("a.f64"), (std::vector<double>{0.1, -2.5}));
    EXPECT_EQ(f.get_array<std::string_view>("a.strings"),
              (std::vector<std::string_view>{"hello", "", "h\xc3\xa9", "merge a"}));
    // The lazy view walks the same strings in place.
    halogen::GgufStringArray lazy = f.get_string_array("a.strings");
    EXPECT_EQ(lazy.size(), 4u);
    std::vector<std::string_view> walked(lazy.begin(), lazy.end());
    EXPECT_EQ(walked, lazy.to_vector());
    EXPECT_EQ(std::distance(lazy.begin(), lazy.end()), 4);
}

TEST(GgufRoundTrip, LargeStringArrayIsAView) {
    // A vocabulary-sized array: 20k strings read without copies (each view points into the file).
    std::vector<std::string> tokens;
    for (int i = 0; i < 20000; ++i) tokens.push_back("tok" + std::to_string(i));
    GgufWriter w;
    w.set_string_array("tokenizer.ggml.tokens", tokens);
    const std::string bytes = w.to_bytes();
    GgufFile f = GgufFile::from_bytes(bytes, "vocab.gguf");
    halogen::GgufStringArray a = f.get_string_array("tokenizer.ggml.tokens");
    ASSERT_EQ(a.size(), tokens.size());
    size_t i = 0;
    for (std::string_view s : a) ASSERT_EQ(s, tokens[i++]);
    std::vector<std::string_view> v = a.to_vector();
    EXPECT_EQ(v[12345], "tok12345");
}

TEST(GgufRoundTrip, ArraysOfArrays) {
    using V = GgufWriteValue;
    GgufWriter w;
    w.set("nested", V::array_of(GgufType::ARRAY, {V::array<int32_t>({1, 2}), V::string_array(std::vector<std::string>{"x", "yz"}),
                                                   V::array_of(GgufType::ARRAY, {V::array<float>({})})}));
    GgufFile f = reread(w);
    const halogen::GgufValue &v = f.at("nested");
    EXPECT_EQ(v.type_text(), "array of array");
    std::vector<halogen::GgufValue> items = v.elements();
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(*items[0].numbers<int32_t>(), (std::vector<int32_t>{1, 2}));
    EXPECT_EQ(items[1].strings()->to_vector(), (std::vector<std::string_view>{"x", "yz"}));
    std::vector<halogen::GgufValue> inner = items[2].elements();
    ASSERT_EQ(inner.size(), 1u);
    EXPECT_EQ(inner[0].type_text(), "array of f32");
    EXPECT_EQ(inner[0].size(), 0u);
    // Elements of scalar and string arrays as values too.
    GgufWriter w2;
    w2.set_string_array("s", {"ab", "c"});
    w2.set_array<uint16_t>("n", {3, 4});
    GgufFile f2 = reread(w2);
    EXPECT_EQ(*f2.at("s").elements()[1].as<std::string_view>(), "c");
    EXPECT_EQ(*f2.at("n").elements()[1].as<uint16_t>(), 4);
    EXPECT_THROW(V::array_of(GgufType::U8, {V::scalar<int8_t>(1)}), FormatError);
}

TEST(GgufRoundTrip, TypedReadsNameTheKeyAndTypes) {
    GgufWriter w;
    w.set_u64("llama.block_count", 16);
    w.set_array<int32_t>("ids", {1});
    GgufFile f = reread(w);
    expect_format_error([&] { f.get_u32("llama.block_count"); }, "key 'llama.block_count' is u64, expected u32",
                        "test.gguf: ");
    expect_format_error([&] { f.get_string("missing.key"); }, "no key 'missing.key'", "test.gguf: ");
    expect_format_error([&] { f.get_array<uint32_t>("ids"); }, "key 'ids' is array of i32, expected array of u32",
                        "test.gguf: ");
    expect_format_error([&] { f.get_string_array("llama.block_count"); }, "is u64, expected array of string",
                        "test.gguf: ");
    expect_format_error([&] { f.get_array<std::string_view>("ids"); }, "expected array of string", "test.gguf: ");
    EXPECT_TRUE(f.has("ids"));
    EXPECT_EQ(f.find("nope"), nullptr);
    EXPECT_FALSE(f.at("ids").as<int32_t>().has_value());
}

// A row-major [rows, cols] tensor of `type` from values quantized here.
struct Made {
    std::vector<float> values;
    std::vector<uint8_t> bytes;
};
Made make(GgmlType type, int64_t rows, int64_t cols, uint32_t seed) {
    std::mt19937 gen(seed);
    Made m;
    m.values.resize(static_cast<size_t>(rows * cols));
    for (float &v : m.values) v = std::normal_distribution<float>(0, 1)(gen);
    m.bytes.resize(halogen::ggml_row_bytes(type, m.values.size()));
    halogen::quantize_row(type, m.values.data(), m.bytes.data(), static_cast<int64_t>(m.values.size()));
    return m;
}

TEST(GgufRoundTrip, TensorsOfEverySupportedType) {
    const GgmlType types[] = {GgmlType::F32, GgmlType::F16, GgmlType::BF16, GgmlType::Q8_0,
                              GgmlType::Q4_0, GgmlType::Q4_K, GgmlType::Q6_K};
    for (uint32_t alignment : {32u, 8u, 64u}) {
        GgufWriter w(alignment);
        w.set_string("general.architecture", "test");
        std::vector<Made> made;
        for (GgmlType t : types) {
            made.push_back(make(t, 3, 512, static_cast<uint32_t>(t)));
            w.add_tensor("w." + halogen::ggml_type_name(t), t, {512, 3}, made.back().bytes.data(),
                         made.back().bytes.size());
        }
        const float scalar = 2.5f;
        w.add_tensor("scalar", GgmlType::F32, {1}, &scalar, 4);
        w.add_tensor("empty", GgmlType::Q4_K, {256, 0}, nullptr, 0);
        GgufFile f = reread(w);
        EXPECT_EQ(f.alignment(), alignment);
        EXPECT_EQ(f.data_offset() % alignment, 0u);
        ASSERT_EQ(f.tensors().size(), 9u);
        for (size_t i = 0; i < 7; ++i) {
            const halogen::GgufTensor &t = f.tensors()[i];
            EXPECT_EQ(t.name, "w." + halogen::ggml_type_name(types[i]));
            EXPECT_EQ(t.type, types[i]);
            EXPECT_EQ(t.ne, (std::vector<uint64_t>{512, 3}));
            EXPECT_EQ(t.shape(), (std::vector<int64_t>{3, 512}));
            EXPECT_EQ(t.n_elements(), 1536);
            EXPECT_EQ(t.row_length(), 512);
            EXPECT_EQ(t.offset % alignment, 0u);
            ASSERT_EQ(t.bytes, made[i].bytes.size());
            EXPECT_EQ(std::memcmp(t.data, made[i].bytes.data(), t.bytes), 0);
            std::vector<float> want(made[i].values.size());
            halogen::dequantize_row(types[i], made[i].bytes.data(), want.data(), static_cast<int64_t>(want.size()));
            EXPECT_EQ(f.to_float32(t), want) << t.name;
        }
        EXPECT_EQ(f.to_float32(f.tensor("scalar")), std::vector<float>{2.5f});
        EXPECT_EQ(f.tensor("empty").n_elements(), 0);
        EXPECT_TRUE(f.to_float32(f.tensor("empty")).empty());
        expect_format_error([&] { f.tensor("absent"); }, "no tensor 'absent'", "test.gguf: ");
    }
}

TEST(GgufRoundTrip, UnsupportedTypeIsNamedWhenRead) {
    // A file may hold a type halogen does not decode: it opens, and reading the tensor's values
    // names the tensor and the type.
    std::vector<uint8_t> raw(176, 0);
    GgufWriter w;
    w.add_tensor("blk.0.ffn_down.weight", GgmlType::Q5_K, {256}, raw.data(), raw.size());
    GgufFile f = reread(w);
    EXPECT_EQ(f.tensors()[0].type, GgmlType::Q5_K);
    expect_format_error([&] { f.to_float32(f.tensors()[0]); },
                        "tensor 'blk.0.ffn_down.weight' is Q5_K (ggml type 13): only F32, F16, BF16, Q8_0, Q4_0, "
                        "Q4_K and Q6_K are read", "test.gguf: ");
}

TEST(GgufRoundTrip, StreamedTensorsAndFilesOnDisk) {
    // A fill function makes the rows; the file goes to disk and comes back through the mapping.
    const int64_t rows = 70000, cols = 64;   // 17.9 MB of F32: more than two pieces
    GgufWriter w;
    w.set_string("general.name", "streamed");
    std::vector<std::pair<int64_t, int64_t>> calls;
    w.add_tensor("big", GgmlType::F32, {static_cast<uint64_t>(cols), static_cast<uint64_t>(rows)},
                 [&](int64_t first, int64_t n, void *dst) {
                     calls.emplace_back(first, n);
                     auto *out = static_cast<float *>(dst);
                     for (int64_t r = 0; r < n; ++r)
                         for (int64_t c = 0; c < cols; ++c) out[r * cols + c] = static_cast<float>((first + r) * 1000 + c);
                 });
    Made q = make(GgmlType::Q6_K, 2, 256, 5);
    w.add_tensor("q", GgmlType::Q6_K, {256, 2}, [&](int64_t first, int64_t n, void *dst) {
        std::memcpy(dst, q.bytes.data() + first * 210, static_cast<size_t>(n) * 210);
    });
    const fs::path path = fs::temp_directory_path() / ("gguf_test_" + std::to_string(::getpid()) + ".gguf");
    w.write(path.string());
    EXPECT_EQ(fs::file_size(path), w.file_bytes());
    ASSERT_GE(calls.size(), 3u);
    int64_t next = 0;
    for (const auto &[first, n] : calls) {
        EXPECT_EQ(first, next);
        EXPECT_LE(static_cast<uint64_t>(n * cols * 4), halogen::kGgufPieceBytes);
        next = first + n;
    }
    EXPECT_EQ(next, rows);
    {
        GgufFile f = GgufFile::open(path.string());
        EXPECT_EQ(f.path(), path.string());
        EXPECT_EQ(f.file_size(), fs::file_size(path));
        const halogen::GgufTensor &big = f.tensor("big");
        EXPECT_EQ(reinterpret_cast<uintptr_t>(big.data) % 32, 0u);   // the mapping is page-aligned
        std::vector<float> v = f.to_float32(big);
        EXPECT_EQ(v[0], 0.0f);
        EXPECT_EQ(v[static_cast<size_t>(69999 * cols + 63)], 69999.0f * 1000 + 63);
        EXPECT_EQ(std::memcmp(f.tensor("q").data, q.bytes.data(), q.bytes.size()), 0);
        // The same bytes in memory read the same.
        EXPECT_EQ(w.to_bytes().size(), f.file_size());
    }
    fs::remove(path);
    // A fill that throws leaves no file behind.
    GgufWriter bad;
    bad.add_tensor("x", GgmlType::F32, {4}, [](int64_t, int64_t, void *) { throw std::runtime_error("boom"); });
    EXPECT_THROW(bad.write(path.string()), std::runtime_error);
    EXPECT_FALSE(fs::exists(path));
    expect_format_error([] { GgufFile::open("/nonexistent/x.gguf"); }, "cannot open", "/nonexistent/x.gguf: ");
    expect_format_error([] { GgufFile::open("/"); }, "not a regular file", "/: ");
}

TEST(GgufRoundTrip, BytesAsLaidOutByHand) {
    // One u32 key and one F32 tensor of 2 values:
    //   "GGUF" | 3 | 1 tensor | 1 key                                                  24 bytes
    //   key: len 1, "k", type 4 (u32), value 7                                         17 bytes
    //   tensor: len 1, "t", n_dims 1, ne 2, type 0 (F32), offset 0                     33 bytes
    //   padding to 96 (the next multiple of 32 after 74), then 8 bytes of data, 24 of padding
    GgufWriter w;
    w.set_u32("k", 7);
    const float data[2] = {1.0f, -2.0f};
    w.add_tensor("t", GgmlType::F32, {2}, data, 8);
    const std::string b = w.to_bytes();
    ASSERT_EQ(b.size(), 128u);
    std::string want("GGUF\3\0\0\0\1\0\0\0\0\0\0\0\1\0\0\0\0\0\0\0", 24);
    want += std::string("\1\0\0\0\0\0\0\0k\4\0\0\0\7\0\0\0", 17);
    want += std::string("\1\0\0\0\0\0\0\0t", 9) + std::string("\1\0\0\0", 4) +
            std::string("\2\0\0\0\0\0\0\0", 8) + std::string(4 + 8, '\0');
    ASSERT_EQ(want.size(), 74u);
    want += std::string(96 - 74, '\0');
    want += std::string("\0\0\x80\x3f\0\0\0\xc0", 8);
    want += std::string(24, '\0');
    EXPECT_EQ(b, want);
    EXPECT_EQ(w.file_bytes(), 128u);
    // A non-default alignment is written first, as general.alignment (u32).
    GgufWriter w64(64);
    w64.set_u32("k", 7);
    GgufFile f = reread(w64);
    EXPECT_EQ(f.metadata()[0].key, "general.alignment");
    EXPECT_EQ(f.get_u32("general.alignment"), 64u);
}

TEST(GgufWriter, Refusals) {
    const std::string p = "gguf writer: ";
    expect_format_error([] { GgufWriter w(48); }, "alignment 48 is not a power of two from 8 to 1048576", p);
    expect_format_error([] { GgufWriter w(4); }, "alignment 4 is not", p);
    expect_format_error([] { GgufWriter w(1u << 31); }, "alignment 2147483648 is not", p);
    GgufWriter w;
    w.set_u32("a", 1);
    expect_format_error([&] { w.set_u32("a", 2); }, "key 'a' is set twice", p);
    expect_format_error([&] { w.set_u32("", 2); }, "a key is empty", p);
    expect_format_error([&] { w.set_u32("general.alignment", 64); }, "general.alignment", p);
    const float x[256] = {};
    w.add_tensor("t", GgmlType::F32, {4}, x, 16);
    expect_format_error([&] { w.add_tensor("t", GgmlType::F32, {4}, x, 16); }, "tensor 't' is added twice", p);
    expect_format_error([&] { w.add_tensor(std::string(64, 'n'), GgmlType::F32, {4}, x, 16); },
                        "a name of 64 bytes is longer than ggml's 63", p);
    expect_format_error([&] { w.add_tensor("u", GgmlType::F32, {4}, x, 12); }, "tensor 'u': 12 bytes given, dims [4] of F32 take 16", p);
    expect_format_error([&] { w.add_tensor("u", GgmlType::Q4_K, {100}, x, 0); }, "rows of 100 element(s) are not a whole number of Q4_K's 256-element blocks", p);
    expect_format_error([&] { w.add_tensor("u", GgmlType::F32, {}, x, 4); }, "0 dims (1 to 4)", p);
    expect_format_error([&] { w.add_tensor("u", GgmlType::F32, {1, 1, 1, 1, 1}, x, 4); }, "5 dims", p);
    expect_format_error([&] { w.add_tensor("u", GgmlType::F32, {1ull << 62, 4}, x, 4); }, "more than 2^63 - 1 elements", p);
    expect_format_error([&] { w.add_tensor("u", static_cast<GgmlType>(4), {32}, x, 4); }, "Q4_2 (removed) is not a type", p);
    expect_format_error([&] { w.add_tensor("u", GgmlType::F32, {4}, nullptr, 16); }, "no data pointer", p);
    expect_format_error([&] { w.add_tensor("u", GgmlType::F32, {4}, halogen::GgufRowFill{}); }, "no fill function", p);
    // Nothing of the refused tensors was kept.
    EXPECT_EQ(reread(w).tensors().size(), 1u);
}

}  // namespace
