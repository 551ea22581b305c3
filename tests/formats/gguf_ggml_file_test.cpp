// A GGUF file made by ggml itself (tests/fixtures/gguf/ggml_made.gguf, written by
// tests/fixtures/gguf/make_ggml_file.cpp with llama.cpp's ggml): its metadata as ggml wrote it,
// every tensor decoded bit for bit as ggml's own dequantizers decoded it, the F16, BF16, Q8_0 and
// Q4_0 encoders giving ggml's bytes, and the Q4_K / Q6_K encoders' error no worse than 5 % above
// ggml's reference quantizers' on each row.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "formats/ggml_types.h"
#include "formats/gguf.h"

namespace {

using halogen::GgmlType;
using halogen::GgufFile;

const GgufFile &ggml_file() {
    static const GgufFile f = GgufFile::open(std::string(HALOGEN_GGUF_FIXTURES_DIR) + "/ggml_made.gguf");
    return f;
}

TEST(GgufGgmlFile, Metadata) {
    const GgufFile &f = ggml_file();
    EXPECT_EQ(f.version(), 3u);
    EXPECT_EQ(f.alignment(), 32u);
    EXPECT_EQ(f.get_string("general.architecture"), "halogen-fixture");
    EXPECT_EQ(f.get<uint8_t>("fixture.u8"), 200);
    EXPECT_EQ(f.get<int8_t>("fixture.i8"), -100);
    EXPECT_EQ(f.get<uint16_t>("fixture.u16"), 65000);
    EXPECT_EQ(f.get<int16_t>("fixture.i16"), -32000);
    EXPECT_EQ(f.get_u32("fixture.u32"), 4000000000u);
    EXPECT_EQ(f.get_i32("fixture.i32"), -2000000000);
    EXPECT_EQ(f.get_f32("fixture.f32"), 0.1f);
    EXPECT_EQ(f.get_u64("fixture.u64"), 18000000000000000000ull);
    EXPECT_EQ(f.get<int64_t>("fixture.i64"), -9000000000000000000ll);
    EXPECT_EQ(f.get<double>("fixture.f64"), 0.1);
    EXPECT_TRUE(f.get_bool("fixture.bool"));
    EXPECT_EQ(f.get_string("fixture.string"), "h\xc3\xa9llo");
    EXPECT_EQ(f.get_array<int32_t>("fixture.i32s"), (std::vector<int32_t>{1, -2, 3}));
    EXPECT_EQ(f.get_array<float>("fixture.f32s"), (std::vector<float>{1.5f, -0.25f}));
    EXPECT_EQ(f.get_array<std::string_view>("fixture.strings"), (std::vector<std::string_view>{"a", "", "merge s"}));
}

const char *const kTypes[] = {"F16", "BF16", "Q8_0", "Q4_0", "Q4_K", "Q6_K"};

GgmlType type_named(const std::string &name) {
    for (uint32_t id = 0; id < 40; ++id) {
        const halogen::GgmlTypeInfo *info = halogen::ggml_type_info(id);
        if (info && info->name == name) return static_cast<GgmlType>(id);
    }
    ADD_FAILURE() << "no type " << name;
    return GgmlType::F32;
}

TEST(GgufGgmlFile, DequantizesAsGgmlDoes) {
    const GgufFile &f = ggml_file();
    ASSERT_EQ(f.tensors().size(), 13u);
    for (const char *name : kTypes) {
        const halogen::GgufTensor &t = f.tensor(name);
        EXPECT_EQ(t.type, type_named(name));
        EXPECT_EQ(t.ne, (std::vector<uint64_t>{256, 4}));
        EXPECT_EQ(t.shape(), (std::vector<int64_t>{4, 256}));
        const std::vector<float> want = f.to_float32(f.tensor(std::string(name) + ".dequantized"));
        const std::vector<float> got = f.to_float32(t);
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i) {
            uint32_t a, b;
            std::memcpy(&a, &got[i], 4);
            std::memcpy(&b, &want[i], 4);
            ASSERT_EQ(a, b) << name << " value " << i << ": " << got[i] << " vs ggml's " << want[i];
        }
    }
}

TEST(GgufGgmlFile, SimpleEncodersWriteGgmlsBytes) {
    const GgufFile &f = ggml_file();
    const std::vector<float> source = f.to_float32(f.tensor("source"));
    for (const char *name : {"F16", "BF16", "Q8_0", "Q4_0"}) {
        const halogen::GgufTensor &t = f.tensor(name);
        std::vector<uint8_t> mine(t.bytes);
        halogen::quantize_row(t.type, source.data(), mine.data(), static_cast<int64_t>(source.size()));
        EXPECT_EQ(std::memcmp(mine.data(), t.data, t.bytes), 0) << name;
    }
}

TEST(GgufGgmlFile, KQuantsAsAccurateAsGgmls) {
    const GgufFile &f = ggml_file();
    const std::vector<float> source = f.to_float32(f.tensor("source"));
    for (const char *name : {"Q4_K", "Q6_K"}) {
        const GgmlType type = type_named(name);
        const std::vector<float> ggml = f.to_float32(f.tensor(std::string(name) + ".dequantized"));
        std::vector<uint8_t> q(halogen::ggml_row_bytes(type, source.size()));
        halogen::quantize_row(type, source.data(), q.data(), static_cast<int64_t>(source.size()));
        std::vector<float> mine(source.size());
        halogen::dequantize_row(type, q.data(), mine.data(), static_cast<int64_t>(source.size()));
        for (size_t row = 0; row < 4; ++row) {
            double mine_se = 0, ggml_se = 0;
            for (size_t i = row * 256; i < row * 256 + 256; ++i) {
                mine_se += double(mine[i] - source[i]) * (mine[i] - source[i]);
                ggml_se += double(ggml[i] - source[i]) * (ggml[i] - source[i]);
            }
            EXPECT_LE(std::sqrt(mine_se), 1.05 * std::sqrt(ggml_se) + 1e-12) << name << " row " << row;
        }
    }
}

}  // namespace
