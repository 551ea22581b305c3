// Tests of the RoPE inverse frequencies (models/llama/llama_rope.h): the Llama-3.2-1B values of
// docs' llama3 notes (computed independently of this code), the structure of the llama3 scaling
// (kept / divided / smoothed regimes), and every case of tests/fixtures/llama/rope_inv_freq.json,
// computed by PyTorch with transformers' formulas (tests/fixtures/llama/generate_rope.py).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/llama/llama_config.h"
#include "models/llama/llama_rope.h"

namespace {

using halogen::Llama3RopeScaling;
using halogen::rope_inverse_frequencies;

uint32_t bits_of(float x) {
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

// Distance in units in the last place between two positive floats.
int64_t ulps(float a, float b) { return std::llabs(int64_t(bits_of(a)) - int64_t(bits_of(b))); }

TEST(LlamaRope, Llama32OneBTestVectors) {
    std::vector<float> inv = rope_inverse_frequencies(halogen::llama_preset("llama-3.2-1b"));
    std::vector<float> plain = rope_inverse_frequencies(64, 500000.0, std::nullopt);
    ASSERT_EQ(inv.size(), 32u);
    // Published values (7 significant digits): i = 15-17 smoothed, 18 divided by 32.
    EXPECT_NEAR(inv[15], 1.290548e-3, 1.290548e-3 * 1e-6);
    EXPECT_NEAR(inv[16], 4.295567e-4, 4.295567e-4 * 1e-6);
    EXPECT_NEAR(inv[17], 9.708286e-5, 9.708286e-5 * 1e-6);
    EXPECT_NEAR(inv[18], 1.946164e-5, 1.946164e-5 * 1e-6);
    for (int i = 0; i <= 14; ++i) EXPECT_EQ(inv[i], plain[i]) << i;              // kept exactly
    for (int i = 18; i < 32; ++i) EXPECT_EQ(inv[i], plain[i] / 32.0f) << i;      // divided by the factor
    for (int i = 15; i <= 17; ++i) {                                             // strictly between
        EXPECT_LT(inv[i], plain[i]) << i;
        EXPECT_GT(inv[i], plain[i] / 32.0f) << i;
    }
    // The unscaled frequencies themselves: 1 / 500000^(i/32), to float32 accuracy.
    for (int i = 0; i < 32; ++i) EXPECT_NEAR(plain[i], std::pow(500000.0, -i / 32.0), 4e-7 * plain[i]) << i;
}

TEST(LlamaRope, TinyPresetHasAllThreeRegimes) {
    halogen::LlamaConfig c = halogen::llama_preset("tiny");
    std::vector<float> inv = rope_inverse_frequencies(c);
    std::vector<float> plain = rope_inverse_frequencies(c.head_dim, c.rope_theta, std::nullopt);
    ASSERT_EQ(inv.size(), 8u);
    for (int i = 0; i <= 2; ++i) EXPECT_EQ(inv[i], plain[i]) << i;
    for (int i = 3; i <= 4; ++i) {
        EXPECT_LT(inv[i], plain[i]) << i;
        EXPECT_GT(inv[i], plain[i] / 4.0f) << i;
    }
    for (int i = 5; i <= 7; ++i) EXPECT_EQ(inv[i], plain[i] / 4.0f) << i;
}

TEST(LlamaRope, RejectsImpossibleParameters) {
    EXPECT_THROW(rope_inverse_frequencies(15, 10000.0, std::nullopt), halogen::ConfigError);
    EXPECT_THROW(rope_inverse_frequencies(0, 10000.0, std::nullopt), halogen::ConfigError);
    EXPECT_THROW(rope_inverse_frequencies(64, 1.0, std::nullopt), halogen::ConfigError);
    EXPECT_THROW(rope_inverse_frequencies(64, NAN, std::nullopt), halogen::ConfigError);
}

nlohmann::json load_fixture() {
    std::ifstream in(std::string(HALOGEN_LLAMA_FIXTURES_DIR) + "/rope_inv_freq.json");
    EXPECT_TRUE(in.good()) << "missing fixture rope_inv_freq.json";
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return nlohmann::json::parse(text);
}

std::vector<float> floats_from_bits(const nlohmann::json &bits) {
    std::vector<float> out;
    for (uint32_t u : bits.get<std::vector<uint32_t>>()) {
        float f;
        std::memcpy(&f, &u, sizeof f);
        out.push_back(f);
    }
    return out;
}

std::optional<Llama3RopeScaling> scaling_of(const nlohmann::json &c) {
    if (c["rope_scaling"].is_null()) return std::nullopt;
    const auto &s = c["rope_scaling"];
    return Llama3RopeScaling{s["factor"], s["low_freq_factor"], s["high_freq_factor"],
                             s["original_max_position_embeddings"]};
}

// The llama3 scaling step, applied to torch's own unscaled frequencies, gives torch's scaled ones
// bit for bit in every case.
TEST(LlamaRope, ScalingMatchesTransformersInTorchBitForBit) {
    nlohmann::json fixture = load_fixture();
    int scaled_cases = 0;
    for (const auto &c : fixture["cases"]) {
        std::optional<Llama3RopeScaling> scaling = scaling_of(c);
        if (!scaling) continue;
        ++scaled_cases;
        std::vector<float> inv = floats_from_bits(c["unscaled_bits"]);
        halogen::apply_llama3_scaling(inv, *scaling);
        std::vector<float> want = floats_from_bits(c["inv_freq_bits"]);
        ASSERT_EQ(inv.size(), want.size());
        for (size_t i = 0; i < inv.size(); ++i)
            EXPECT_EQ(bits_of(inv[i]), bits_of(want[i])) << c["name"] << " inv[" << i << "] = " << inv[i]
                                                          << ", torch " << want[i];
    }
    EXPECT_EQ(scaled_cases, 5);
}

// The whole computation against torch: equal but where torch's powf is 1 ulp off the float
// nearest theta^(2i/d) (SLEEF's vectorized powf promises 1 ulp, not correct rounding); there this
// code's power is the nearest float, checked against long double.
TEST(LlamaRope, MatchesTransformersInTorch) {
    nlohmann::json fixture = load_fixture();
    ASSERT_EQ(fixture["cases"].size(), 8u);
    int64_t compared = 0, exact = 0;
    for (const auto &c : fixture["cases"]) {
        std::string name = c["name"];
        int64_t d = c["head_dim"];
        double theta = c["rope_theta"];
        std::optional<Llama3RopeScaling> scaling = scaling_of(c);
        std::vector<float> inv = rope_inverse_frequencies(d, theta, scaling);
        std::vector<float> ours_unscaled = rope_inverse_frequencies(d, theta, std::nullopt);
        std::vector<float> want = floats_from_bits(c["inv_freq_bits"]);
        std::vector<float> torch_unscaled = floats_from_bits(c["unscaled_bits"]);
        ASSERT_EQ(inv.size(), want.size()) << name;
        for (size_t i = 0; i < inv.size(); ++i) {
            ++compared;
            if (bits_of(inv[i]) == bits_of(want[i])) {
                ++exact;
                continue;
            }
            // A difference must come from the power, be 1 ulp there, and ours must be the nearest.
            EXPECT_EQ(ulps(ours_unscaled[i], torch_unscaled[i]), 1) << name << " inv[" << i << "]";
            float exponent = static_cast<float>(2 * i) / static_cast<float>(d);
            long double exact_power = std::pow(static_cast<long double>(static_cast<float>(theta)),
                                               static_cast<long double>(exponent));
            float nearest = static_cast<float>(exact_power);
            EXPECT_EQ(bits_of(1.0f / nearest), bits_of(ours_unscaled[i])) << name << " inv[" << i << "]";
            EXPECT_LE(ulps(inv[i], want[i]), 1) << name << " inv[" << i << "]";
        }
        for (const std::string &preset : halogen::llama_preset_names())
            if (preset == name) {
                halogen::LlamaConfig p = halogen::llama_preset(preset);
                EXPECT_EQ(p.head_dim, d) << name;
                EXPECT_EQ(p.rope_theta, theta) << name;
                EXPECT_EQ(p.rope_scaling, scaling) << name;
            }
    }
    std::printf("rope fixture: %lld frequencies, %lld bit-exact with torch\n", (long long)compared, (long long)exact);
    EXPECT_GE(exact, compared - 2);
}

}  // namespace
