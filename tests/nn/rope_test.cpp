// RoPE (frontend/nn/rope.h) and its tables (models/llama/llama_rope.h: rope_tables): the tables
// and the rotation against values written out by hand (cos/sin of small angles, the rotated rows of
// a 4-wide head), the Llama-3.2-1B tables at its scaled frequencies, a random case against a direct
// loop through the interpreter and the JIT, and the typed errors of bad shapes.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "frontend/halogen.h"
#include "models/llama/llama_config.h"
#include "models/llama/llama_rope.h"
#include "frontend/nn/rope.h"
#include "tests/support/expect_error.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;
using testing::CompiledGraph;

const DType F = DType::Float32;

Array table_array(const std::vector<float> &v, int64_t rows, int64_t half) {
    Array a(F, {rows, half});
    for (int64_t k = 0; k < a.size(); ++k) a.set(k, v[std::size_t(k)]);
    return a;
}

TEST(Rope, TablesByHand) {
    // inv = [1, 0.5] at positions 1 and 2: angles [1, 0.5] and [2, 1].
    const RopeTables t = rope_tables({1.0f, 0.5f}, 1, 2);
    ASSERT_EQ(t.rows, 2);
    ASSERT_EQ(t.half, 2);
    const double want_cos[] = {0.5403023058681398, 0.8775825618903728, -0.4161468365471424, 0.5403023058681398};
    const double want_sin[] = {0.8414709848078965, 0.479425538604203, 0.9092974268256817, 0.8414709848078965};
    for (int k = 0; k < 4; ++k) {
        EXPECT_NEAR(t.cos[k], want_cos[k], 6e-8) << k;
        EXPECT_NEAR(t.sin[k], want_sin[k], 6e-8) << k;
    }
}

TEST(Rope, RotateHalfByHand) {
    // Rows [1, 2, 3, 4] at position 1 and [0.5, -1, 2, -3] at position 2, inv = [1, 0.5]:
    // y[i] = x[i] cos_i - x[i+2] sin_i, y[i+2] = x[i+2] cos_i + x[i] sin_i.
    const RopeTables t = rope_tables({1.0f, 0.5f}, 1, 2);
    Array x(F, {2, 1, 4});
    const float xs[] = {1, 2, 3, 4, 0.5f, -1, 2, -3};
    for (int k = 0; k < 8; ++k) x.set(k, xs[k]);
    Array want(F, {2, 1, 4});
    const double ys[] = {-1.9841106485555495, -0.1625370306360665,  2.4623779024123156,   4.469181324769897,
                         -2.0266682719249345, 1.9841106485555495, -0.37764495968144396, -2.4623779024123156};
    for (int k = 0; k < 8; ++k) want.set(k, ys[k]);

    const Dim T = Dim::sym("T"), H = Dim::sym("H"), Dh = Dim::sym("Dh");
    Tensor y = nn::rope(input("x", F, {T, H, Dim(2) * Dh}), input("cos", F, {T, Dh}), input("sin", F, {T, Dh}));
    const Inputs in = {{"x", x}, {"cos", table_array(t.cos, 2, 2)}, {"sin", table_array(t.sin, 2, 2)}};
    const Bindings b = {{"T", 2}, {"H", 1}, {"Dh", 2}};
    EXPECT_TRUE(arrays_near(want, interpret(y, in, b), 1e-6)) << "interpreter";
    EXPECT_TRUE(arrays_near(want, CompiledGraph(y, "simd").run(in, b), 1e-6)) << "JIT";
}

TEST(Rope, Llama32OneBTables) {
    // Scaled frequencies inv[15] = 1.290548e-3 (smoothed) and inv[18] = 1.946164e-5 (divided by 32).
    const std::vector<float> inv = rope_inverse_frequencies(llama_preset("llama-3.2-1b"));
    const RopeTables t = rope_tables(inv, 1000, 7192);   // positions 1000 ... 8191
    ASSERT_EQ(t.half, 32);
    EXPECT_NEAR(t.cos[15], 0.27659429585747364, 2e-6);   // cos(1000 * 1.290548e-3)
    EXPECT_NEAR(t.sin[15], 0.9609867821666999, 2e-6);
    const std::size_t last = std::size_t(7191 * 32);
    EXPECT_NEAR(t.cos[last + 18], 0.9873210627374688, 2e-6);   // cos(8191 * 1.946164e-5)
    EXPECT_NEAR(t.sin[last + 18], 0.15873600434354918, 2e-6);
}

// A direct loop: HF's x * cat(cos, cos) + rotate_half(x) * cat(sin, sin) in double.
Array rope_reference(const Array &x, const RopeTables &t) {
    const int64_t T = x.shape()[0], H = x.shape()[1], D = x.shape()[2], half = D / 2;
    Array y(F, x.shape());
    for (int64_t r = 0; r < T; ++r)
        for (int64_t h = 0; h < H; ++h)
            for (int64_t i = 0; i < D; ++i) {
                const int64_t f = i % half, base = (r * H + h) * D;
                const double c = t.cos[std::size_t(r * half + f)], s = t.sin[std::size_t(r * half + f)];
                const double rotated = i < half ? -x.get(base + i + half) : x.get(base + i - half);
                y.set(base + i, x.get(base + i) * c + rotated * s);
            }
    return y;
}

TEST(Rope, RandomAgainstLoop) {
    const std::vector<float> inv = rope_inverse_frequencies(16, 10000.0, std::nullopt);
    const RopeTables t = rope_tables(inv, 37, 5);
    Array x(F, {5, 3, 16});
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-2, 2);
    for (int64_t k = 0; k < x.size(); ++k) x.set(k, u(rng));
    const Dim T = Dim::sym("T"), H = Dim::sym("H"), Dh = Dim::sym("Dh");
    Tensor y = nn::rope(input("x", F, {T, H, Dim(2) * Dh}), input("cos", F, {T, Dh}), input("sin", F, {T, Dh}));
    const Inputs in = {{"x", x}, {"cos", table_array(t.cos, 5, 8)}, {"sin", table_array(t.sin, 5, 8)}};
    const Array want = rope_reference(x, t);
    const Bindings b = {{"T", 5}, {"H", 3}, {"Dh", 8}};
    EXPECT_TRUE(arrays_near(want, interpret(y, in, b), 1e-6)) << "interpreter";
    EXPECT_TRUE(arrays_near(want, CompiledGraph(y, "simd").run(in, b), 1e-6)) << "JIT";
}

TEST(Rope, BadShapes) {
    using testing::expect_error;
    expect_error<ShapeError>([] { nn::rope(input("x", F, {2, 1, 5}), input("c", F, {2, 2}), input("s", F, {2, 2})); },
                             {"rope", "[2, 1, 5]", "even"});
    expect_error<ShapeError>([] { nn::rope(input("x", F, {2, 1, 4}), input("c", F, {2, 3}), input("s", F, {2, 2})); },
                             {"rope", "cos [2, 3]", "[T, D/2]"});
    expect_error<ShapeError>([] { nn::rope(input("x", F, {2, 4}), input("c", F, {2, 2}), input("s", F, {2, 2})); },
                             {"rope", "[T, H, D]"});
}

}  // namespace
}  // namespace halogen
