// Tests of the safetensors reader and writer (formats/safetensors.h, safetensors_writer.h): the
// writer against the bytes the format's reference implementation expects in its own tests, round
// trips writer -> reader (in memory and through files, every dtype kind, empty and rank-0
// tensors), the mapping (unaligned data, no copy, header-only reads leave data pages alone), and
// one test per kind of hostile file, each a FormatError whose one-line message names the file and
// the tensor or field.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/bfloat16.h"
#include "formats/safetensors.h"
#include "formats/safetensors_writer.h"

namespace {

using halogen::FormatError;
using halogen::SafetensorsDType;
using halogen::SafetensorsEntry;
using halogen::SafetensorsFile;
namespace fs = std::filesystem;

std::string le64(uint64_t n) {
    std::string s(8, '\0');
    for (int i = 0; i < 8; ++i) s[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
    return s;
}

// A file made by hand: the length of `json`, `json` itself (not padded), then `data`.
std::string raw(const std::string &json, const std::string &data = "") { return le64(json.size()) + json + data; }

std::string floats_le(std::initializer_list<float> values) {
    std::string s;
    for (float v : values) s.append(reinterpret_cast<const char *>(&v), sizeof v);
    return s;
}

const std::string kName = "model.safetensors";

SafetensorsFile parse(const std::string &bytes) { return SafetensorsFile::from_bytes(bytes, kName); }

// Expects a FormatError whose message is one line, "model.safetensors: ...", containing `needle`.
void expect_format_error(const std::function<void()> &f, const std::string &needle, const std::string &file = kName) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one containing: " << needle;
    } catch (const FormatError &e) {
        std::string msg = e.what();
        EXPECT_EQ(msg.rfind(file + ": ", 0), 0u) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg << "\nexpected to contain: " << needle;
    }
}

void expect_bad(const std::string &bytes, const std::string &needle) {
    expect_format_error([&] { parse(bytes); }, needle);
}

// A temporary directory, removed with everything in it.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "halogen_st_XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() { fs::remove_all(path); }
    std::string file(const std::string &name) const { return (path / name).string(); }
};

void write_file(const std::string &path, const std::string &bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// ---- The writer, byte for byte as the reference.

TEST(SafetensorsWriter, MatchesTheReferenceBytes) {
    // The reference crate's test_serialization: one F32 tensor [1, 2, 3] named "attn.0"; its JSON
    // is 64 bytes, a multiple of 8, so no padding.
    std::string data = floats_le({0, 1, 2, 3, 4, 5});
    std::vector<SafetensorsEntry> one = {{"attn.0", SafetensorsDType::F32, {1, 2, 3}, data.data(), 24}};
    std::string json = R"({"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}})";
    ASSERT_EQ(json.size(), 64u);
    EXPECT_EQ(halogen::format_safetensors(one), le64(64) + json + data);

    // test_serialization_forced_alignement: "attn0", shape [1, 1, 2, 3]: 65 bytes of JSON padded
    // with 7 spaces to 72.
    one = {{"attn0", SafetensorsDType::F32, {1, 1, 2, 3}, data.data(), 24}};
    json = R"({"attn0":{"dtype":"F32","shape":[1,1,2,3],"data_offsets":[0,24]}})";
    ASSERT_EQ(json.size(), 65u);
    EXPECT_EQ(halogen::format_safetensors(one), le64(72) + json + "       " + data);

    // test_empty: no tensors is "{}" and six spaces; with metadata {"framework": "pt"}, 35 bytes + 5.
    EXPECT_EQ(halogen::format_safetensors({}), le64(8) + "{}      ");
    EXPECT_EQ(halogen::format_safetensors({}, {{"framework", "pt"}}),
              le64(40) + R"({"__metadata__":{"framework":"pt"}})" + "     ");
}

TEST(SafetensorsWriter, OrdersByDtypeWidthThenName) {
    // The reference's order: dtype descending in its enum (I64 > F32 > BF16 > U8), then name.
    std::string i64(8, '\1'), f32a(8, '\2'), f32b(4, '\3'), bf16(6, '\4');
    std::vector<SafetensorsEntry> ts = {
        {"z.empty", SafetensorsDType::U8, {0}, nullptr, 0},
        {"b", SafetensorsDType::F32, {2}, f32a.data(), 8},
        {"a", SafetensorsDType::BF16, {3}, bf16.data(), 6},
        {"scalar", SafetensorsDType::I64, {}, i64.data(), 8},
        {"a.f32", SafetensorsDType::F32, {1}, f32b.data(), 4},
    };
    std::string json = R"({"__metadata__":{"format":"pt","z":"last"},)"
                       R"("scalar":{"dtype":"I64","shape":[],"data_offsets":[0,8]},)"
                       R"("a.f32":{"dtype":"F32","shape":[1],"data_offsets":[8,12]},)"
                       R"("b":{"dtype":"F32","shape":[2],"data_offsets":[12,20]},)"
                       R"("a":{"dtype":"BF16","shape":[3],"data_offsets":[20,26]},)"
                       R"("z.empty":{"dtype":"U8","shape":[0],"data_offsets":[26,26]}})";
    std::string padded = json + std::string((8 - json.size() % 8) % 8, ' ');
    std::string file = halogen::format_safetensors(ts, {{"z", "last"}, {"format", "pt"}});
    EXPECT_EQ(file, le64(padded.size()) + padded + i64 + f32b + f32a + bf16);
}

TEST(SafetensorsWriter, EscapesNamesAsJson) {
    std::string v(4, '\0');
    std::vector<SafetensorsEntry> ts = {{"quote\"back\\slash\nnew\x01\xc3\xa9", SafetensorsDType::F32, {1}, v.data(), 4}};
    std::string file = halogen::format_safetensors(ts);
    EXPECT_NE(file.find(R"("quote\"back\\slash\nnew\u0001)" "\xc3\xa9\""), std::string::npos) << file;
    EXPECT_NE(parse(file).find(ts[0].name), nullptr);
}

TEST(SafetensorsWriter, RejectsBadInput) {
    std::string four(4, '\0');
    auto plan = [](std::vector<SafetensorsEntry> ts) { halogen::plan_safetensors(ts, {}); };
    expect_format_error([&] { plan({{"w", SafetensorsDType::F32, {2}, four.data(), 4}}); },
                        "tensor 'w': 4 bytes given, shape [2] of F32 needs 8", "safetensors writer");
    expect_format_error([&] { plan({{"w", SafetensorsDType::F32, {1}, four.data(), 4},
                                    {"w", SafetensorsDType::F32, {1}, four.data(), 4}}); },
                        "tensor 'w' is given twice", "safetensors writer");
    expect_format_error([&] { plan({{"w", SafetensorsDType::F32, {-1}, four.data(), 4}}); },
                        "tensor 'w': negative dimension -1", "safetensors writer");
    expect_format_error([&] { plan({{"__metadata__", SafetensorsDType::F32, {1}, four.data(), 4}}); },
                        "'__metadata__' is reserved", "safetensors writer");
    expect_format_error([&] { plan({{"bad\xff", SafetensorsDType::F32, {1}, four.data(), 4}}); },
                        "is not valid UTF-8", "safetensors writer");
    expect_format_error([&] { plan({{"w", SafetensorsDType::F32, {1}, nullptr, 4}}); },
                        "tensor 'w': no data pointer", "safetensors writer");
    expect_format_error([&] { plan({{"w", SafetensorsDType::F4, {3}, four.data(), 2}}); },
                        "not a whole number of bytes", "safetensors writer");
    expect_format_error([&] { halogen::plan_safetensors({}, {{"k", "\xc3"}}); }, "metadata value",
                        "safetensors writer");
}

// ---- Round trips.

struct Sample {
    std::vector<SafetensorsEntry> entries;
    std::vector<std::string> buffers;   // the entries' data
};

Sample sample_tensors() {
    Sample s;
    std::mt19937 rng(7);
    auto add = [&](std::string name, SafetensorsDType dtype, std::vector<int64_t> shape) {
        int64_t n = 1;
        for (auto d : shape) n *= d;
        size_t bytes = static_cast<size_t>(n) * halogen::safetensors_dtype_bits(dtype) / 8;
        std::string b(bytes, '\0');
        for (auto &c : b) c = static_cast<char>(rng());
        s.buffers.push_back(std::move(b));
        s.entries.push_back({std::move(name), dtype, std::move(shape), nullptr, bytes});
    };
    add("model.embed_tokens.weight", SafetensorsDType::BF16, {7, 5});
    add("model.norm.weight", SafetensorsDType::F32, {5});
    add("model.layers.0.mlp.up_proj.weight", SafetensorsDType::F16, {3, 5});
    add("scalar", SafetensorsDType::F64, {});
    add("empty", SafetensorsDType::F32, {0, 4});
    add("another.empty", SafetensorsDType::BF16, {4, 0});
    add("ids", SafetensorsDType::I32, {3});
    add("mask", SafetensorsDType::BOOL, {2, 2});
    add("fp8", SafetensorsDType::F8_E4M3, {5});
    add("u64", SafetensorsDType::U64, {2});
    add("nibbles", SafetensorsDType::F4, {2, 3});   // 6 elements of 4 bits: 3 bytes
    for (size_t i = 0; i < s.entries.size(); ++i) s.entries[i].data = s.buffers[i].data();
    return s;
}

void expect_same_tensors(const SafetensorsFile &f, const Sample &s) {
    ASSERT_EQ(f.tensors().size(), s.entries.size());
    for (const auto &e : s.entries) {
        const halogen::SafetensorsTensor *t = f.find(e.name);
        ASSERT_NE(t, nullptr) << e.name;
        EXPECT_EQ(t->dtype, e.dtype) << e.name;
        EXPECT_EQ(t->shape, e.shape) << e.name;
        ASSERT_EQ(t->bytes(), e.bytes) << e.name;
        if (e.bytes) {
            EXPECT_EQ(std::memcmp(t->data, e.data, e.bytes), 0) << e.name;
        }
    }
}

TEST(SafetensorsRoundTrip, InMemory) {
    Sample s = sample_tensors();
    std::map<std::string, std::string> meta = {{"format", "pt"}, {"note", "ünïcode \"quoted\""}};
    SafetensorsFile f = parse(halogen::format_safetensors(s.entries, meta));
    expect_same_tensors(f, s);
    EXPECT_EQ(f.metadata(), meta);
    std::vector<std::string> names = f.names();
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    // File order is by offset, and the offsets are contiguous.
    uint64_t at = 0;
    for (const auto &t : f.tensors()) {
        EXPECT_EQ(t.begin, at) << t.name;
        at = t.end;
    }
    EXPECT_EQ(at, f.header().data_bytes);
    EXPECT_EQ(f.header().data_offset % 8, 0u);
    // The writer's order keeps each tensor aligned to its element size.
    for (const auto &t : f.tensors())
        EXPECT_EQ(t.begin % std::max(1, halogen::safetensors_dtype_bits(t.dtype) / 8), 0u) << t.name;
}

TEST(SafetensorsRoundTrip, ThroughAFile) {
    TempDir dir;
    Sample s = sample_tensors();
    std::string path = dir.file("model.safetensors");
    halogen::write_safetensors(path, s.entries, {{"format", "pt"}});
    SafetensorsFile f = SafetensorsFile::open(path);
    expect_same_tensors(f, s);
    EXPECT_EQ(f.path(), path);
    EXPECT_EQ(f.metadata().at("format"), "pt");
    // The header alone gives the same entries, with no data.
    halogen::SafetensorsHeader h = halogen::read_safetensors_header(path);
    ASSERT_EQ(h.tensors.size(), f.tensors().size());
    for (size_t i = 0; i < h.tensors.size(); ++i) {
        EXPECT_EQ(h.tensors[i].name, f.tensors()[i].name);
        EXPECT_EQ(h.tensors[i].begin, f.tensors()[i].begin);
        EXPECT_EQ(h.tensors[i].data, nullptr);
    }
    EXPECT_EQ(h.data_bytes + h.data_offset, fs::file_size(path));
    // A copy shares the mapping and outlives the original.
    SafetensorsFile copy = f;
    f = SafetensorsFile::from_bytes(halogen::format_safetensors({}), "other");
    expect_same_tensors(copy, s);
    // No temporary file is left behind.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
}

// The streamed writer gives the same bytes as the in-memory one; its fills are asked for
// consecutive pieces from 0, each on an 8-byte boundary of the tensor and at most a piece long.
TEST(SafetensorsWriter, StreamedWritesTheSameFile) {
    TempDir dir;
    Sample s = sample_tensors();
    // One tensor larger than a piece, so that it takes several.
    std::string big(halogen::kSafetensorsPieceBytes * 2 + 12, '\0');
    for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7 + i / 4096);
    s.entries.push_back({"big", SafetensorsDType::F32, {int64_t(big.size() / 4)}, big.data(), big.size()});
    std::vector<halogen::SafetensorsSource> sources;
    std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> asked;
    for (const SafetensorsEntry &e : s.entries)
        sources.push_back({e.name, e.dtype, e.shape, e.bytes, [&asked, e](uint64_t at, void *dst, uint64_t n) {
                               asked[e.name].push_back({at, n});
                               std::memcpy(dst, static_cast<const char *>(e.data) + at, n);
                           }});
    std::map<std::string, std::string> meta = {{"format", "pt"}};
    std::string path = dir.file("streamed.safetensors");
    halogen::write_safetensors_streamed(path, sources, meta);
    std::ifstream in(path, std::ios::binary);
    std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(written, halogen::format_safetensors(s.entries, meta));
    for (const SafetensorsEntry &e : s.entries) {
        uint64_t next = 0;
        for (auto [at, n] : asked[e.name]) {
            EXPECT_EQ(at, next) << e.name;
            EXPECT_EQ(at % 8, 0u) << e.name;
            EXPECT_LE(n, halogen::kSafetensorsPieceBytes) << e.name;
            next = at + n;
        }
        EXPECT_EQ(next, e.bytes) << e.name;
    }
    EXPECT_EQ(asked["big"].size(), 3u);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
}

// A fill that throws leaves the old file as it was and no temporary file; a source without a fill
// is an error naming it.
TEST(SafetensorsWriter, StreamedFailuresLeaveTheOldFile) {
    TempDir dir;
    std::string path = dir.file("w.safetensors"), a = floats_le({1, 2});
    halogen::write_safetensors(path, {{"w", SafetensorsDType::F32, {2}, a.data(), 8}});
    auto boom = [](uint64_t, void *, uint64_t) { throw std::runtime_error("boom"); };
    EXPECT_THROW(halogen::write_safetensors_streamed(path, {{"w", SafetensorsDType::F32, {3}, 12, boom}}),
                 std::runtime_error);
    expect_format_error([&] { halogen::write_safetensors_streamed(path, {{"v", SafetensorsDType::F32, {3}, 12, {}}}); },
                        "tensor 'v': no fill function", "safetensors writer");
    expect_format_error([&] { halogen::write_safetensors_streamed(path, {{"v", SafetensorsDType::F32, {3}, 8, boom}}); },
                        "tensor 'v': 8 bytes given, shape [3] of F32 needs 12", "safetensors writer");
    EXPECT_EQ(halogen::to_float32(SafetensorsFile::open(path).at("w")), (std::vector<float>{1, 2}));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
}

TEST(SafetensorsRoundTrip, RewritingAMappedFileLeavesTheOpenMappingIntact) {
    TempDir dir;
    std::string path = dir.file("w.safetensors");
    std::string a = floats_le({1, 2}), b = floats_le({3, 4, 5});
    halogen::write_safetensors(path, {{"w", SafetensorsDType::F32, {2}, a.data(), 8}});
    SafetensorsFile old = SafetensorsFile::open(path);
    halogen::write_safetensors(path, {{"w", SafetensorsDType::F32, {3}, b.data(), 12}});
    EXPECT_EQ(halogen::to_float32(old.at("w")), (std::vector<float>{1, 2}));
    EXPECT_EQ(halogen::to_float32(SafetensorsFile::open(path).at("w")), (std::vector<float>{3, 4, 5}));
}

// The process's resident bytes (/proc/self/statm's second field, in pages).
int64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    int64_t size = 0, resident = 0;
    statm >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

TEST(SafetensorsRoundTrip, ReleasedPagesLeaveResidentMemoryAndReadAgain) {
    TempDir dir;
    const std::string path = dir.file("big.safetensors");
    std::vector<float> values(size_t(2) << 20);   // 8 MiB
    for (size_t i = 0; i < values.size(); ++i) values[i] = float(i % 1000);
    halogen::write_safetensors(path, {{"w", SafetensorsDType::F32, {int64_t(values.size())}, values.data(), values.size() * 4}});
    const int fd = ::open(path.c_str(), O_RDONLY);   // written back first: a clean page can leave at once
    ASSERT_GE(fd, 0);
    ::fsync(fd);
    ::close(fd);
    SafetensorsFile f = SafetensorsFile::open(path);
    const halogen::SafetensorsTensor &w = f.at("w");
    auto sum = [&] {
        double total = 0;
        const auto *x = reinterpret_cast<const float *>(w.data);
        for (size_t i = 0; i < values.size(); ++i) total += x[i];
        return total;
    };
    const double first = sum();   // every page of the tensor mapped in
    const int64_t before = resident_bytes();
    halogen::release_resident_pages(w);
    const int64_t after = resident_bytes();
    EXPECT_GT(before - after, int64_t(6) << 20) << "resident before " << before << ", after " << after;
    // The page cache keeps them (mincore reports a file mapping's pages in the page cache): the
    // next read, or the next process, does not go to the disk.
    const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<uintptr_t>(w.data) + page - 1) / page * page;
    const auto end = (reinterpret_cast<uintptr_t>(w.data) + w.bytes()) / page * page;
    std::vector<unsigned char> cached((end - begin) / page);
    ASSERT_EQ(::mincore(reinterpret_cast<void *>(begin), end - begin, cached.data()), 0);
    EXPECT_EQ(std::count_if(cached.begin(), cached.end(), [](unsigned char c) { return (c & 1) != 0; }), int64_t(cached.size()));
    EXPECT_EQ(sum(), first);   // read again
}

TEST(SafetensorsRoundTrip, Float32ViewsOfF32Bf16F16) {
    std::vector<float> values = {1.0f, -2.5f, 3.140625f, 0.0f};
    std::vector<uint16_t> bf(4), half = {0x3C00, 0xC100, 0x4248, 0x0000};   // the same values in float16
    halogen::float_to_bfloat16(values.data(), bf.data(), 4);
    std::string f32 = floats_le({1.0f, -2.5f, 3.140625f, 0.0f});
    std::string i32(8, '\0');
    SafetensorsFile f = parse(halogen::format_safetensors({
        {"f32", SafetensorsDType::F32, {4}, f32.data(), 16},
        {"bf16", SafetensorsDType::BF16, {2, 2}, bf.data(), 8},
        {"f16", SafetensorsDType::F16, {4}, half.data(), 8},
        {"i32", SafetensorsDType::I32, {2}, i32.data(), 8},
    }));
    EXPECT_EQ(halogen::to_float32(f.at("f32")), values);
    EXPECT_EQ(halogen::to_float32(f.at("bf16")), values);
    EXPECT_EQ(halogen::to_float32(f.at("f16")), values);
    EXPECT_THROW(halogen::to_float32(f.at("i32")), halogen::DTypeError);
    expect_format_error([&] { f.at("missing"); }, "no tensor 'missing'");
}

TEST(SafetensorsRoundTrip, NanAndInfInWeightsAreJustData) {
    float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::string data = floats_le({nan, -inf, inf, -0.0f});
    SafetensorsFile f = parse(halogen::format_safetensors({{"w", SafetensorsDType::F32, {4}, data.data(), 16}}));
    std::vector<float> got = halogen::to_float32(f.at("w"));
    EXPECT_TRUE(std::isnan(got[0]));
    EXPECT_EQ(got[1], -inf);
    EXPECT_EQ(got[2], inf);
    EXPECT_TRUE(std::signbit(got[3]));
}

// ---- What the reader accepts.

TEST(SafetensorsRead, UnalignedDataAndUnpaddedHeaders) {
    // An unpadded 57-byte header puts the data at file offset 65: odd, so the F32 values are
    // unaligned. The reader must not care.
    std::string json = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}   })";
    ASSERT_EQ(json.size(), 57u);
    ASSERT_EQ((8 + json.size()) % 2, 1u);
    SafetensorsFile f = parse(raw(json, floats_le({1.5f, -3.0f})));
    const auto &a = f.at("a");
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data) % 2, 1u);
    EXPECT_EQ(halogen::to_float32(a), (std::vector<float>{1.5f, -3.0f}));
}

TEST(SafetensorsRead, EmptyScalarAndSharedOffsetsAreLegal) {
    std::string json = R"({"s":{"dtype":"I64","shape":[],"data_offsets":[0,8]},)"
                       R"("e1":{"dtype":"F32","shape":[0],"data_offsets":[8,8]},)"
                       R"("e2":{"dtype":"BF16","shape":[3,0,2],"data_offsets":[8,8]},)"
                       R"("b":{"dtype":"BOOL","shape":[1],"data_offsets":[8,9]}})";
    SafetensorsFile f = parse(raw(json, std::string(9, '\1')));
    EXPECT_EQ(f.at("s").numel(), 1);
    EXPECT_EQ(f.at("s").shape.size(), 0u);
    EXPECT_EQ(f.at("e1").numel(), 0);
    EXPECT_EQ(f.at("e2").numel(), 0);
    EXPECT_EQ(f.at("b").bytes(), 1u);
    // Extents whose product would overflow int64 (not uint64) next to a zero: an empty tensor, as in
    // the reference (found by the fuzzer: numel() multiplied in int64 before seeing the zero).
    SafetensorsFile wide = parse(raw(R"({"w":{"dtype":"U8","shape":[4094967296,4294967296,0],"data_offsets":[0,0]}})"));
    EXPECT_EQ(wide.at("w").numel(), 0);
    EXPECT_EQ(halogen::to_float32(parse(raw(R"({"w":{"dtype":"F32","shape":[4094967296,4294967296,0],)"
                                            R"("data_offsets":[0,0]}})")).at("w")).size(), 0u);
    // No tensors at all, with or without metadata; "__metadata__": null is none.
    EXPECT_EQ(parse(raw("{}")).tensors().size(), 0u);
    EXPECT_EQ(parse(raw(R"({"__metadata__":null})")).metadata().size(), 0u);
    EXPECT_EQ(parse(raw(R"( {"__metadata__":{"a":"b"}} )")).metadata().at("a"), "b");
}

TEST(SafetensorsRead, UnknownFieldsAreIgnoredAsTheReferenceDoes) {
    std::string json = R"({"a":{"extra":{"x":[1,{"y":null}]},"dtype":"U8","note":"hi","shape":[2],)"
                       R"("data_offsets":[0,2],"n":1.5}})";
    SafetensorsFile f = parse(raw(json, "xy"));
    EXPECT_EQ(f.at("a").dtype, SafetensorsDType::U8);
    EXPECT_EQ(f.at("a").bytes(), 2u);
}

TEST(SafetensorsRead, EveryDtypeNameAndSize) {
    const struct { const char *name; SafetensorsDType t; int bits; } rows[] = {
        {"BOOL", SafetensorsDType::BOOL, 8}, {"F4", SafetensorsDType::F4, 4},
        {"F6_E2M3", SafetensorsDType::F6_E2M3, 6}, {"F6_E3M2", SafetensorsDType::F6_E3M2, 6},
        {"U8", SafetensorsDType::U8, 8}, {"I8", SafetensorsDType::I8, 8},
        {"F8_E5M2", SafetensorsDType::F8_E5M2, 8}, {"F8_E4M3", SafetensorsDType::F8_E4M3, 8},
        {"F8_E8M0", SafetensorsDType::F8_E8M0, 8}, {"F8_E4M3FNUZ", SafetensorsDType::F8_E4M3FNUZ, 8},
        {"F8_E5M2FNUZ", SafetensorsDType::F8_E5M2FNUZ, 8}, {"I16", SafetensorsDType::I16, 16},
        {"U16", SafetensorsDType::U16, 16}, {"F16", SafetensorsDType::F16, 16},
        {"BF16", SafetensorsDType::BF16, 16}, {"I32", SafetensorsDType::I32, 32},
        {"U32", SafetensorsDType::U32, 32}, {"F32", SafetensorsDType::F32, 32},
        {"C64", SafetensorsDType::C64, 64}, {"F64", SafetensorsDType::F64, 64},
        {"I64", SafetensorsDType::I64, 64}, {"U64", SafetensorsDType::U64, 64},
    };
    for (const auto &r : rows) {
        EXPECT_EQ(halogen::parse_safetensors_dtype(r.name), r.t) << r.name;
        EXPECT_EQ(halogen::safetensors_dtype_name(r.t), r.name);
        EXPECT_EQ(halogen::safetensors_dtype_bits(r.t), r.bits) << r.name;
        // Eight elements of it, read from a file.
        std::string json = std::string(R"({"t":{"dtype":")") + r.name + R"(","shape":[8],"data_offsets":[0,)" +
                           std::to_string(r.bits) + "]}}";
        EXPECT_EQ(parse(raw(json, std::string(r.bits, '\0'))).at("t").bytes(), uint64_t(r.bits)) << r.name;
    }
    EXPECT_EQ(halogen::parse_safetensors_dtype("bf16"), std::nullopt);
    EXPECT_EQ(halogen::parse_safetensors_dtype("F128"), std::nullopt);
}

// ---- Hostile files: each a FormatError naming the file and the problem.

TEST(SafetensorsHostile, TooShortForTheLength) {
    expect_bad("", "0 bytes, too short");
    expect_bad("\x05", "1 bytes, too short");
    expect_bad(std::string(7, '\0'), "7 bytes, too short");
}

TEST(SafetensorsHostile, HeaderLengthPastTheFile) {
    expect_bad(le64(100) + "{}", "header length 100 runs past the end of the file (10 bytes)");
    expect_bad(le64(3), "header length 3 runs past the end of the file (8 bytes)");
    std::string cut = halogen::format_safetensors({}, {{"a", "b"}});
    expect_bad(cut.substr(0, cut.size() - 1), "runs past the end of the file");
    expect_bad(le64(~uint64_t(0)) + "{}", "exceeds the format's limit");
}

TEST(SafetensorsHostile, HeaderOverTheLimit) {
    // A claim of 200 MB, rejected before anything of that size is read or allocated.
    expect_bad(le64(200'000'000) + "{}", "header length 200000000 exceeds the format's limit of 100000000 bytes");
    expect_bad(le64(100'000'001) + "{}", "exceeds the format's limit");
}

TEST(SafetensorsHostile, NotJson) {
    expect_bad(raw(""), "header is not valid JSON");
    expect_bad(raw("not json"), "header is not valid JSON");
    expect_bad(raw("{\"a\":"), "header is not valid JSON");
    expect_bad(raw("{} trailing"), "header is not valid JSON");
    expect_bad(raw(std::string("{}\0\0\0\0", 6)), "header is not valid JSON (byte 2 of the header is NUL)");   // NUL padding is not whitespace
    expect_bad(raw(std::string("{\"a\xff\":1}")), "header is not valid JSON");
    expect_bad(raw("\xEF\xBB\xBF{}"), "byte-order mark");
    expect_bad(raw("{'a': 1}"), "header is not valid JSON");
}

TEST(SafetensorsHostile, JsonThatIsNotAnObject) {
    expect_bad(raw("[]"), "header is an array, not a JSON object");
    expect_bad(raw("\"text\""), "header is a string, not a JSON object");
    expect_bad(raw("42"), "header is a number, not a JSON object");
    expect_bad(raw("null"), "header is null, not a JSON object");
}

TEST(SafetensorsHostile, WrongTypesForFields) {
    expect_bad(raw(R"({"w":null})"), "tensor 'w': entry is null, not an object");
    expect_bad(raw(R"({"w":[1]})"), "tensor 'w': entry is an array, not an object");
    expect_bad(raw(R"({"w":{"dtype":3,"shape":[],"data_offsets":[0,1]}})"), "tensor 'w': dtype is a number, not a string");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":"[2]","data_offsets":[0,8]}})"),
               "tensor 'w': shape is a string, not an array of non-negative integers");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[2.0],"data_offsets":[0,8]}})"),
               "tensor 'w': shape holds a non-integer number");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[[2]],"data_offsets":[0,8]}})"), "tensor 'w': shape holds an array");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[true],"data_offsets":[0,8]}})"), "tensor 'w': shape holds a boolean");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":{"b":0}}})"),
               "tensor 'w': data_offsets is an object");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8,9]}})"),
               "tensor 'w': data_offsets has more than 2 elements");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[8]}})"),
               "tensor 'w': data_offsets has 1 element(s), expected 2");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,-8]}})"),
               "tensor 'w': data_offsets holds a negative number");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,1e1]}})"),
               "tensor 'w': data_offsets holds a non-integer number");
    expect_bad(raw(R"({"w":{"dtype":"F33","shape":[2],"data_offsets":[0,8]}})"), "tensor 'w': unknown dtype 'F33'");
    expect_bad(raw(R"({"w":{"shape":[2],"data_offsets":[0,8]}})"), "tensor 'w': no 'dtype' field");
    expect_bad(raw(R"({"w":{"dtype":"F32","data_offsets":[0,8]}})"), "tensor 'w': no 'shape' field");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[2]}})"), "tensor 'w': no 'data_offsets' field");
    expect_bad(raw(R"({"__metadata__":[]})"), "__metadata__ is an array, not an object");
    expect_bad(raw(R"({"__metadata__":{"k":1}})"), "__metadata__: value of 'k' is a number, not a string");
    expect_bad(raw(R"({"__metadata__":{"k":null}})"), "__metadata__: value of 'k' is null, not a string");
    expect_bad(raw(R"({"__metadata__":{"k":{}}})"), "__metadata__: value of 'k' is an object, not a string");
}

TEST(SafetensorsHostile, BadShapes) {
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})"), "tensor 'w': shape holds a negative number");
    // 2^32 * 2^32 overflows 64 bits while multiplying.
    expect_bad(raw(R"({"w":{"dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,0]}})"),
               "tensor 'w': shape [4294967296, 4294967296] has more elements than 2^64");
    // 2^62 elements of F32 is 2^67 bits.
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,0]}})"),
               "needs more than 2^64 bits");
    expect_bad(raw(R"({"w":{"dtype":"U8","shape":[9223372036854775808],"data_offsets":[0,0]}})"),
               "tensor 'w': shape dimension 9223372036854775808 does not fit int64");
    expect_bad(raw(R"({"w":{"dtype":"U8","shape":[18446744073709551616],"data_offsets":[0,0]}})"),
               "tensor 'w': shape holds a non-integer number");   // past u64, JSON readers make it a float
    expect_bad(raw(R"({"w":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}})", "ab"),
               "tensor 'w': shape [3] of F4 is 12 bits, not a whole number of bytes");
}

TEST(SafetensorsHostile, SizeDoesNotMatchTheShape) {
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,12]}})", std::string(12, '\0')),
               "tensor 'w': data_offsets [0, 12] hold 12 bytes, shape [2, 3] of F32 needs 24");
    expect_bad(raw(R"({"w":{"dtype":"BF16","shape":[3],"data_offsets":[0,12]}})", std::string(12, '\0')),
               "hold 12 bytes, shape [3] of BF16 needs 6");
}

TEST(SafetensorsHostile, GapsOverlapsAndBadOffsets) {
    std::string data(16, '\0');
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", std::string(12, '\0')),
               "tensor 'w': data_offsets [4, 12] leave a gap of 4 byte(s) after the start of the data section");
    expect_bad(raw(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                   R"("b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})", data),
               "tensor 'b': data_offsets [8, 16] leave a gap of 4 byte(s) after where tensor 'a' ends");
    expect_bad(raw(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                   R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", data.substr(0, 12)),
               "tensor 'b': data_offsets [4, 12] overlap the bytes before where tensor 'a' ends");
    expect_bad(raw(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                   R"("b":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", data.substr(0, 8)),
               "overlap");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})", data.substr(0, 8)),
               "tensor 'w': data_offsets [8, 0] end before they begin");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", data.substr(0, 8)),
               "tensor 'w': data_offsets [0, 16] run past the data section's 8 bytes");
    expect_bad(raw(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", data.substr(0, 8)),
               "the tensors use 4 bytes but the data section holds 8 (4 trailing bytes)");
    expect_bad(raw(R"({"w":{"dtype":"U8","shape":[0],"data_offsets":[18446744073709551615,18446744073709551615]}})"),
               "leave a gap of 18446744073709551615 byte(s)");
}

TEST(SafetensorsHostile, RepeatedKeys) {
    std::string e = R"({"dtype":"U8","shape":[1],"data_offsets":[0,1]})";
    expect_bad(raw(R"({"w":)" + e + R"(,"w":)" + e + "}", "x"), "tensor 'w' appears twice");
    // The same name, one spelled with an escape.
    expect_bad(raw(R"({"w":)" + e + R"(,"\u0077":)" + e + "}", "x"), "tensor 'w' appears twice");
    expect_bad(raw(R"({"w":{"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "x"),
               "tensor 'w': field 'dtype' appears twice");
    expect_bad(raw(R"({"__metadata__":{},"__metadata__":{}})"), "'__metadata__' appears twice");
    expect_bad(raw(R"({"__metadata__":null,"__metadata__":{}})"), "'__metadata__' appears twice");
    expect_bad(raw(R"({"__metadata__":{"k":"a","k":"b"}})"), "__metadata__: key 'k' appears twice");
}

TEST(SafetensorsHostile, DeepNestingInAnIgnoredField) {
    std::string deep(200, '[');
    deep += std::string(200, ']');
    expect_bad(raw(R"({"w":{"x":)" + deep + R"(,"dtype":"U8","shape":[0],"data_offsets":[0,0]}})"),
               "header nests deeper than 128 levels");
}

TEST(SafetensorsHostile, NamesInMessagesArePrintable) {
    expect_bad(raw("{\"bad\\nname\":null}"), "tensor 'bad?name': entry is null");
}

TEST(SafetensorsHostile, FilesOnDisk) {
    TempDir dir;
    std::string path = dir.file("short.safetensors");
    write_file(path, "abc");
    expect_format_error([&] { SafetensorsFile::open(path); }, "3 bytes, too short", path);
    expect_format_error([&] { halogen::read_safetensors_header(path); }, "3 bytes, too short", path);
    write_file(path, le64(200'000'000) + "{}");
    expect_format_error([&] { halogen::read_safetensors_header(path); }, "exceeds the format's limit", path);
    expect_format_error([&] { SafetensorsFile::open(dir.file("absent")); }, "cannot open", dir.file("absent"));
    expect_format_error([&] { SafetensorsFile::open(dir.path.string()); }, "not a regular file", dir.path.string());
}

// ---- The mapping: opening reads the header's pages only; touch_data reads the rest.

TEST(SafetensorsMapping, OpeningLeavesDataPagesUnread) {
    // A 64 MiB tensor in a sparse file: its pages are in no cache until something reads them.
    TempDir dir;
    std::string path = dir.file("sparse.safetensors");
    const uint64_t bytes = uint64_t(64) << 20;
    std::string header = R"({"big":{"dtype":"U8","shape":[67108864],"data_offsets":[0,67108864]}})";
    write_file(path, raw(header));
    fs::resize_file(path, 8 + header.size() + bytes);
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    auto resident_pages_past = [&](uint64_t from) {
        // Residency of the file's pages in the page cache, through a mapping of our own.
        int fd = ::open(path.c_str(), O_RDONLY);
        size_t size = static_cast<size_t>(fs::file_size(path));
        void *p = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
        ::close(fd);
        std::vector<unsigned char> in((size + page - 1) / page);
        EXPECT_EQ(mincore(p, size, in.data()), 0);
        munmap(p, size);
        size_t n = 0;
        for (size_t i = from / page; i < in.size(); ++i) n += in[i] & 1;
        return n;
    };
    // Read-ahead may bring in a little around the header; far past it nothing may be resident.
    const uint64_t far = uint64_t(8) << 20;
    halogen::read_safetensors_header(path);
    SafetensorsFile f = SafetensorsFile::open(path);
    EXPECT_EQ(f.at("big").bytes(), bytes);
    EXPECT_EQ(resident_pages_past(far), 0u);
    EXPECT_EQ(f.touch_data(), 0u);   // a sparse file reads as zeros
    EXPECT_GT(resident_pages_past(far), (bytes - far) / page * 9 / 10);
}

}  // namespace
