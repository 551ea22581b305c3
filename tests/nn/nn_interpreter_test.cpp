// nn ops checked without PyTorch: embedding edge cases, convolution against a plain nested-loop
// reference, softmax properties, and the typed errors of bad arguments. Each graph is run through
// the reference interpreter and, where it matters, through the JIT ("simd" schedule) as well.
#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "tests/support/expect_error.h"

#include "frontend/halogen.h"
#include "frontend/nn/nn.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;
using testing::CompiledGraph;

const DType F = DType::Float32, I = DType::Int32;

Array random_array(const std::vector<int64_t> &shape, uint32_t seed, float lo = -1, float hi = 1) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(lo, hi);
    Array a(F, shape);
    for (int64_t k = 0; k < a.size(); ++k) a.set(k, u(rng));
    return a;
}

Array int_array(const std::vector<int64_t> &shape, const std::vector<int32_t> &values) {
    Array a(I, shape);
    EXPECT_EQ(a.size(), int64_t(values.size()));
    for (int64_t k = 0; k < a.size(); ++k) a.set(k, values[k]);
    return a;
}

// ---- Embedding ------------------------------------------------------------------------------

// out[t, d] = (0 <= ids[t] < V) ? W[ids[t], d] : 0, written directly.
Array embedding_reference(const Array &ids, const Array &w) {
    const int64_t V = w.shape()[0], D = w.shape()[1];
    std::vector<int64_t> shape = ids.shape();
    shape.push_back(D);
    Array out(F, shape);
    for (int64_t t = 0; t < ids.size(); ++t) {
        const int64_t id = int64_t(ids.get(t));
        for (int64_t d = 0; d < D; ++d) out.set(t * D + d, id >= 0 && id < V ? w.get(id * D + d) : 0.0);
    }
    return out;
}

// Runs embedding on (ids, w) through the interpreter and the JIT; both must equal the reference exactly.
void check_embedding(const Array &ids, const Array &w, const Shape &ids_shape, const Bindings &b = {}) {
    Tensor out = nn::embedding(input("ids", I, ids_shape), input("w", F, {w.shape()[0], w.shape()[1]}));
    const Inputs in = {{"ids", ids}, {"w", w}};
    const Array want = embedding_reference(ids, w);
    EXPECT_TRUE(arrays_near(want, interpret(out, in, b))) << "interpreter";
    EXPECT_TRUE(arrays_near(want, CompiledGraph(out, "simd").run(in, b))) << "JIT";
}

TEST(Embedding, RandomIdsSymbolicTokens) {
    std::mt19937 rng(3);
    std::uniform_int_distribution<int32_t> id(0, 29);
    std::vector<int32_t> v(4 * 7);
    for (auto &x : v) x = id(rng);
    check_embedding(int_array({4, 7}, v), random_array({30, 30}, 1), {Dim::sym("B"), Dim::sym("S")},
                    {{"B", 4}, {"S", 7}});
}

TEST(Embedding, FirstAndLastIdAndRepeats) {
    check_embedding(int_array({6}, {0, 32, 0, 32, 32, 5}), random_array({33, 7}, 2), {6});
}

TEST(Embedding, OutOfRangeIdsGiveZeroRows) {
    const Array w = random_array({5, 9}, 4, 1, 2);   // no zeros in W, so a zero row can only be "no id"
    const Array ids = int_array({2, 4}, {-1, 5, 4, 100, -100, 0, INT32_MIN, INT32_MAX});
    check_embedding(ids, w, {2, 4});
    Tensor out = nn::embedding(input("ids", I, {2, 4}), input("w", F, {5, 9}));
    Array got = interpret(out, {{"ids", ids}, {"w", w}});
    for (int t : {0, 1, 3, 4, 6, 7}) {
        for (int d = 0; d < 9; ++d) EXPECT_EQ(got.get(t * 9 + d), 0.0) << "token " << t;
    }
    EXPECT_EQ(got.get(2 * 9 + 3), w.get(4 * 9 + 3));
    EXPECT_EQ(got.get(5 * 9 + 8), w.get(0 * 9 + 8));
}

TEST(Embedding, ZeroTokens) {
    check_embedding(Array(I, {0}), random_array({6, 4}, 5), {0});
    check_embedding(Array(I, {2, 0}), random_array({6, 4}, 5), {2, Dim::sym("T")}, {{"T", 0}});
    // One compiled kernel, bound first to T = 0 and then to T = 3.
    Tensor out = nn::embedding(input("ids", I, {Dim::sym("T")}), input("w", F, {6, 4}));
    CompiledGraph k(out, "simd");
    const Array w = random_array({6, 4}, 6);
    EXPECT_EQ(k.run({{"ids", Array(I, {0})}, {"w", w}}, {{"T", 0}}).shape(), (std::vector<int64_t>{0, 4}));
    const Array ids = int_array({3}, {5, 1, 7});
    EXPECT_TRUE(arrays_near(embedding_reference(ids, w), k.run({{"ids", ids}, {"w", w}}, {{"T", 3}})));
}

TEST(Embedding, NanAndInfInUnselectedRowsDoNotLeak) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    Array w = random_array({8, 17}, 7);
    for (int d = 0; d < 17; ++d) {
        w.set(2 * 17 + d, nan);
        w.set(5 * 17 + d, d % 2 ? inf : -inf);
    }
    const Array ids = int_array({2, 3}, {0, 7, 1, 3, 3, 6});   // never 2 or 5
    check_embedding(ids, w, {2, 3});
    Tensor out = nn::embedding(input("ids", I, {2, 3}), input("w", F, {8, 17}));
    const Inputs in = {{"ids", ids}, {"w", w}};
    for (const Array &got : {interpret(out, in), CompiledGraph(out, "simd").run(in)}) {
        for (int64_t k = 0; k < got.size(); ++k) ASSERT_TRUE(std::isfinite(got.get(k))) << "element " << k;
    }
    // Selecting the NaN row gives NaN in that row only.
    const Array ids2 = int_array({3}, {1, 2, 4});
    Tensor out2 = nn::embedding(input("ids", I, {3}), input("w", F, {8, 17}));
    for (const Array &got : {interpret(out2, {{"ids", ids2}, {"w", w}}),
                             CompiledGraph(out2, "simd").run({{"ids", ids2}, {"w", w}})}) {
        for (int d = 0; d < 17; ++d) {
            EXPECT_EQ(got.get(d), w.get(17 + d));
            EXPECT_TRUE(std::isnan(got.get(17 + d)));
            EXPECT_EQ(got.get(34 + d), w.get(4 * 17 + d));
        }
    }
}

TEST(Embedding, ShapeAndDTypeErrors) {
    EXPECT_THROW(nn::embedding(input("ids", F, {3}), input("w", F, {4, 2})), DTypeError);
    try {
        nn::embedding(input("ids", I, {3}), input("w", F, {4, 2, 1}));
        FAIL() << "no error";
    } catch (const ShapeError &e) {
        EXPECT_NE(std::string(e.what()).find("embedding"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("[4, 2, 1]"), std::string::npos);
    }
}

// ---- Convolution against nested loops -------------------------------------------------------

struct ConvCase {
    std::string name;
    std::vector<int64_t> x, w;   // [N, C, L..], [K, C/G, R..]
    nn::ConvOptions o;
    bool bias;
};

void PrintTo(const ConvCase &c, std::ostream *os) { *os << c.name; }

// out[b, k, o..] = bias[k] + sum_{c, r..} xpad[b, g*C/G + c, o*s + r*d ..] * w[k, c, r..]
Array conv_reference(const Array &x, const Array &w, const Array *bias, const nn::ConvOptions &o) {
    const auto &xs = x.shape(), &ws = w.shape();
    const std::size_t n = xs.size() - 2;
    auto at = [](const std::vector<int64_t> &v, std::size_t i, int64_t d) { return v.empty() ? d : v[i]; };
    const int64_t N = xs[0], C = xs[1], K = ws[0], Cg = ws[1], G = o.groups, Kg = K / G;
    std::vector<int64_t> out_shape = {N, K};
    for (std::size_t i = 0; i < n; ++i) {
        const int64_t L = xs[2 + i] + 2 * at(o.padding, i, 0);
        out_shape.push_back((L - at(o.dilation, i, 1) * (ws[2 + i] - 1) - 1) / at(o.stride, i, 1) + 1);
    }
    Array out(F, out_shape);
    // Row-major strides.
    auto strides = [](const std::vector<int64_t> &s) {
        std::vector<int64_t> st(s.size(), 1);
        for (int k = int(s.size()) - 2; k >= 0; --k) st[k] = st[k + 1] * s[k + 1];
        return st;
    };
    const auto xst = strides(xs), wst = strides(ws), ost = strides(out_shape);
    int64_t kernel_size = 1;
    for (std::size_t i = 0; i < n; ++i) kernel_size *= ws[2 + i];
    for (int64_t e = 0; e < out.size(); ++e) {
        std::vector<int64_t> oi(out_shape.size());
        for (std::size_t k = 0; k < oi.size(); ++k) oi[k] = e / ost[k] % out_shape[k];
        const int64_t b = oi[0], k = oi[1], g = k / Kg;
        double acc = bias ? bias->get(k) : 0.0;
        for (int64_t c = 0; c < Cg; ++c) {
            for (int64_t r = 0; r < kernel_size; ++r) {
                int64_t xoff = b * xst[0] + (g * Cg + c) * xst[1], woff = k * wst[0] + c * wst[1];
                bool inside = true;
                for (std::size_t i = 0; i < n; ++i) {
                    const int64_t ri = r / wst[2 + i] % ws[2 + i];
                    const int64_t pos = oi[2 + i] * at(o.stride, i, 1) + ri * at(o.dilation, i, 1) - at(o.padding, i, 0);
                    inside &= pos >= 0 && pos < xs[2 + i];
                    xoff += pos * xst[2 + i];
                    woff += ri * wst[2 + i];
                }
                if (inside) acc += double(x.get(xoff)) * w.get(woff);
            }
        }
        out.set(e, acc);
    }
    (void)C;
    return out;
}

class ConvVsLoops : public ::testing::TestWithParam<ConvCase> {};

TEST_P(ConvVsLoops, InterpreterAndJitMatchNestedLoops) {
    const ConvCase &c = GetParam();
    auto shape = [](const std::vector<int64_t> &s) { return Shape(s.begin(), s.end()); };
    Tensor x = input("x", F, shape(c.x)), w = input("w", F, shape(c.w));
    Tensor b = c.bias ? input("b", F, {c.w[0]}) : Tensor();
    Tensor out = nn::conv(x, w, b, c.o);
    Inputs in = {{"x", random_array(c.x, 11)}, {"w", random_array(c.w, 12)}};
    if (c.bias) in.emplace("b", random_array({c.w[0]}, 13));
    const Array want = conv_reference(in.at("x"), in.at("w"), c.bias ? &in.at("b") : nullptr, c.o);
    EXPECT_TRUE(arrays_near(want, interpret(out, in), 1e-5, 1e-5)) << "interpreter";
    EXPECT_TRUE(arrays_near(want, CompiledGraph(out, "simd").run(in), 1e-5, 1e-5)) << "JIT";
}

INSTANTIATE_TEST_SUITE_P(
    Conv, ConvVsLoops,
    ::testing::Values(
        ConvCase{"conv1d_plain", {2, 3, 10}, {4, 3, 3}, {}, true},
        ConvCase{"conv1d_stride_pad_dilation", {1, 2, 13}, {3, 2, 3}, {{3}, {2}, {2}, 1}, true},
        ConvCase{"conv1d_groups", {2, 6, 9}, {4, 3, 2}, {{}, {1}, {}, 2}, false},
        ConvCase{"conv1d_kernel_equals_input", {1, 2, 5}, {2, 2, 5}, {}, true},
        ConvCase{"conv2d_plain", {1, 2, 6, 5}, {3, 2, 3, 2}, {}, false},
        ConvCase{"conv2d_all_options", {2, 4, 7, 8}, {6, 2, 3, 2}, {{2, 3}, {1, 2}, {2, 1}, 2}, true},
        ConvCase{"conv2d_depthwise", {1, 3, 5, 4}, {6, 1, 2, 2}, {{1, 1}, {1, 0}, {1, 2}, 3}, true},
        ConvCase{"conv3d_plain", {1, 2, 4, 3, 5}, {2, 2, 2, 2, 2}, {}, true},
        ConvCase{"conv3d_all_options", {2, 2, 5, 6, 4}, {4, 1, 2, 3, 2}, {{2, 1, 1}, {1, 1, 0}, {1, 2, 2}, 2}, true},
        ConvCase{"conv4d", {1, 2, 3, 4, 3, 4}, {2, 2, 2, 2, 2, 3}, {{1, 2, 1, 1}, {0, 1, 1, 0}, {}, 1}, true}),
    [](const auto &info) { return info.param.name; });

TEST(Conv, SymbolicBatchAndLength) {
    Tensor x = input("x", F, {Dim::sym("N"), 3, Dim::sym("L")});
    Tensor w = input("w", F, {2, 3, 3});
    const nn::ConvOptions o{{}, {1}, {2}, 1};
    Tensor out = nn::conv(x, w, Tensor(), o);
    ASSERT_EQ(shape_str(out.shape()), "[N, 2, L - 2]");
    CompiledGraph k(out, "simd");
    for (int64_t L : {5, 9}) {
        const Bindings b = {{"N", 2}, {"L", L}};
        const Inputs in = {{"x", random_array({2, 3, L}, uint32_t(L))}, {"w", random_array({2, 3, 3}, 21)}};
        const Array want = conv_reference(in.at("x"), in.at("w"), nullptr, o);
        EXPECT_TRUE(arrays_near(want, interpret(out, in, b), 1e-5, 1e-5)) << "L = " << L;
        EXPECT_TRUE(arrays_near(want, k.run(in, b), 1e-5, 1e-5)) << "L = " << L;
    }
}

using testing::expect_error;

TEST(Conv, TypedErrors) {
    auto x = [](const Shape &s) { return input("x", F, s); };
    auto w = [](const Shape &s) { return input("w", F, s); };
    expect_error<ShapeError>([&] { nn::conv(x({1, 3, 8}), w({4, 2, 3})); }, {"conv", "[1, 3, 8]", "[4, 2, 3]"});
    expect_error<ShapeError>([&] { nn::conv(x({1, 4, 8}), w({4, 2, 3}), Tensor(), {{}, {}, {}, 3}); },
                             {"conv", "groups", "[1, 4, 8]"});
    expect_error<ShapeError>([&] { nn::conv(x({1, 4, 8}), w({3, 2, 3}), Tensor(), {{}, {}, {}, 2}); },
                             {"conv", "output channels", "[3, 2, 3]"});
    expect_error<ShapeError>([&] { nn::conv(x({1, 3, 8, 8}), w({4, 3, 3})); }, {"conv", "[1, 3, 8, 8]", "[4, 3, 3]"});
    expect_error<ShapeError>([&] { nn::conv(x({3, 8}), w({4, 3})); }, {"conv", "[3, 8]"});
    expect_error<ShapeError>([&] { nn::conv(x({1, 3, 8}), w({4, 3, 3}), input("b", F, {3})); }, {"conv", "bias", "[3]"});
    expect_error<ShapeError>([&] { nn::conv(x({1, 3, 8}), w({4, 3, 3}), Tensor(), {{1, 1}, {}, {}, 1}); },
                             {"conv", "stride"});
    expect_error<ShapeError>([&] { nn::conv(x({1, 3, 4}), w({4, 3, 3}), Tensor(), {{}, {}, {2}, 1}); },
                             {"conv", "larger", "[1, 3, 4]"});
    expect_error<ShapeError>([&] { nn::conv(x({1, 3, 8}), w({4, 3, Dim::sym("R")})); }, {"conv", "kernel"});
    expect_error<ShapeError>([&] { nn::conv(x({1, 3, 8}), w({4, 3, 3}), Tensor(), {{0}, {}, {}, 1}); },
                             {"conv", "stride"});
}

// ---- Softmax and norms ----------------------------------------------------------------------

TEST(Softmax, RowsSumToOneAndMatchLoops) {
    Tensor out = nn::softmax(input("x", F, {Dim::sym("B"), 33}), -1);
    Array x = random_array({5, 33}, 31, -60, 60);   // large values: exp would overflow without the max shift
    x.set(40, 200.0f);
    const Bindings b = {{"B", 5}};
    const Inputs in = {{"x", x}};
    for (const Array &got : {interpret(out, in, b), CompiledGraph(out, "simd").run(in, b)}) {
        ASSERT_EQ(got.shape(), (std::vector<int64_t>{5, 33}));
        for (int r = 0; r < 5; ++r) {
            double total = 0, mx = -1e30;
            for (int c = 0; c < 33; ++c) mx = std::max(mx, x.get(r * 33 + c));
            double denom = 0;
            for (int c = 0; c < 33; ++c) denom += std::exp(x.get(r * 33 + c) - mx);
            for (int c = 0; c < 33; ++c) {
                const double v = got.get(r * 33 + c);
                ASSERT_TRUE(v >= 0 && v <= 1) << v;
                EXPECT_NEAR(v, std::exp(x.get(r * 33 + c) - mx) / denom, 1e-6);
                total += v;
            }
            EXPECT_NEAR(total, 1.0, 1e-5) << "row " << r;
        }
        EXPECT_NEAR(got.get(40), 1.0, 1e-6);
    }
}

TEST(Softmax, OverAnInnerAxis) {
    Tensor out = nn::softmax(input("x", F, {3, 4, 5}), 1);
    const Inputs in = {{"x", random_array({3, 4, 5}, 32, -5, 5)}};
    const Array got = interpret(out, in);
    for (int a = 0; a < 3; ++a) {
        for (int c = 0; c < 5; ++c) {
            double total = 0;
            for (int k = 0; k < 4; ++k) total += got.get(a * 20 + k * 5 + c);
            EXPECT_NEAR(total, 1.0, 1e-5);
        }
    }
    EXPECT_TRUE(arrays_near(got, CompiledGraph(out, "simd").run(in), 1e-6, 1e-5));
}

TEST(LayerNorm, RowsHaveZeroMeanAndUnitVariance) {
    Tensor out = nn::layer_norm(input("x", F, {Dim::sym("B"), 7, 9}), 2, Tensor(), Tensor(), 0);
    const Inputs in = {{"x", random_array({2, 7, 9}, 41, 3, 9)}};
    const Bindings b = {{"B", 2}};
    const Array got = interpret(out, in, b);
    for (int r = 0; r < 2; ++r) {
        double s = 0, s2 = 0;
        for (int k = 0; k < 63; ++k) s += got.get(r * 63 + k), s2 += got.get(r * 63 + k) * got.get(r * 63 + k);
        EXPECT_NEAR(s / 63, 0.0, 1e-5);
        EXPECT_NEAR(s2 / 63, 1.0, 1e-4);
    }
    EXPECT_TRUE(arrays_near(got, CompiledGraph(out, "simd").run(in, b), 1e-5, 1e-4));
}

TEST(RmsNorm, MatchesLoops) {
    Tensor out = nn::rms_norm(input("x", F, {3, 10}), input("w", F, {10}), 1e-6);
    const Inputs in = {{"x", random_array({3, 10}, 51)}, {"w", random_array({10}, 52)}};
    Array want(F, {3, 10});
    for (int r = 0; r < 3; ++r) {
        double ms = 0;
        for (int c = 0; c < 10; ++c) ms += in.at("x").get(r * 10 + c) * in.at("x").get(r * 10 + c) / 10;
        for (int c = 0; c < 10; ++c) want.set(r * 10 + c, in.at("x").get(r * 10 + c) / std::sqrt(ms + 1e-6) * in.at("w").get(c));
    }
    EXPECT_TRUE(arrays_near(want, interpret(out, in), 1e-5, 1e-5));
    EXPECT_TRUE(arrays_near(want, CompiledGraph(out, "simd").run(in), 1e-5, 1e-5));
}

TEST(Activations, MatchLibm) {
    Tensor x = input("x", F, {41});
    Array xs(F, {41});
    for (int k = 0; k < 41; ++k) xs.set(k, -10 + 0.5 * k);
    const Inputs in = {{"x", xs}};
    auto check = [&](const char *name, Tensor out, double (*ref)(double), double atol) {
        const Array got = interpret(out, in);
        Array want(F, {41});
        for (int k = 0; k < 41; ++k) want.set(k, ref(xs.get(k)));
        EXPECT_TRUE(arrays_near(want, got, atol, 1e-5)) << name;
        EXPECT_TRUE(arrays_near(want, CompiledGraph(out, "simd").run(in), atol, 1e-5)) << name << " JIT";
    };
    check("relu", nn::relu(x), [](double v) { return v > 0 ? v : 0.0; }, 0);
    check("sigmoid", nn::sigmoid(x), [](double v) { return 1 / (1 + std::exp(-v)); }, 1e-6);
    check("tanh", nn::tanh(x), [](double v) { return std::tanh(v); }, 1e-6);
    check("silu", nn::silu(x), [](double v) { return v / (1 + std::exp(-v)); }, 1e-6);
    check("gelu", nn::gelu(x), [](double v) {
        return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
    }, 1e-6);
}

// ---- Errors of the other ops ----------------------------------------------------------------

TEST(GroupNorm, TypedErrors) {
    expect_error<ShapeError>([] { nn::group_norm(input("x", F, {2, 6, 5}), 4); }, {"group_norm", "[2, 6, 5]", "4"});
    expect_error<ShapeError>([] { nn::group_norm(input("x", F, {2, Dim::sym("C"), 5}), 2); },
                             {"group_norm", "[2, C, 5]"});
    expect_error<ShapeError>([] { nn::group_norm(input("x", F, {2, 6, 5}), 0); }, {"group_norm"});
    expect_error<ShapeError>([] { nn::group_norm(input("x", F, {6}), 2); }, {"group_norm", "[6]"});
    expect_error<ShapeError>([] { nn::group_norm(input("x", F, {2, 6, 5}), 3, input("w", F, {5})); },
                             {"group_norm", "[5]"});
}

// ---- Weights in blocks of K ------------------------------------------------------------------

// block_columns: blocked[j, n, i] = W[n, j*b + i], by loops; unblock_columns gives W back, and a
// Linear reads the blocked weights through it as it reads W.
TEST(BlockColumns, HoldBlocksOfEveryRowAndUnblockToTheWeight) {
    const int64_t N = 5, B = 3, b = 4;
    const Array w = random_array({N, B * b}, 11), x = random_array({2, B * b}, 12);
    Array want(F, {B, N, b});
    for (int64_t j = 0; j < B; ++j)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t i = 0; i < b; ++i) want.set((j * N + n) * b + i, w.get(n * B * b + j * b + i));
    const Tensor wt = input("w", F, {N, B * b});
    const Array blocked = interpret(nn::block_columns(wt, b), {{"w", w}});
    EXPECT_TRUE(arrays_near(want, blocked));
    const Tensor bt = input("blocked", F, {B, N, b});
    EXPECT_TRUE(arrays_near(w, interpret(nn::unblock_columns(bt), {{"blocked", blocked}})));
    const Tensor xt = input("x", F, {2, B * b});
    EXPECT_TRUE(arrays_near(interpret(nn::linear(xt, wt), {{"x", x}, {"w", w}}),
                            interpret(nn::linear(xt, nn::unblock_columns(bt)), {{"x", x}, {"blocked", blocked}})));
}

TEST(OtherOps, TypedErrors) {
    expect_error<ShapeError>([] { nn::block_columns(input("w", F, {3, 10}), 4); }, {"block_columns", "[3, 10]", "multiple of 4"});
    expect_error<ShapeError>([] { nn::unblock_columns(input("w", F, {3, 8})); }, {"unblock_columns", "[3, 8]"});
    expect_error<ShapeError>([] { nn::linear(input("x", F, {2, 5}), input("w", F, {3, 4})); },
                             {"linear", "[2, 5]", "[3, 4]"});
    expect_error<ShapeError>([] { nn::linear(input("x", F, {2, 4}), input("w", F, {3, 4}), input("b", F, {4})); },
                             {"linear", "[4]"});
    expect_error<ShapeError>([] { nn::layer_norm(input("x", F, {2, 4}), 3); }, {"layer_norm", "[2, 4]"});
    expect_error<ShapeError>([] { nn::layer_norm(input("x", F, {2, 4}), 1, input("w", F, {2})); },
                             {"layer_norm", "[2]", "[4]"});
    expect_error<ShapeError>([] { nn::rms_norm(input("x", F, {2, 4}), input("w", F, {2})); }, {"rms_norm", "[2]"});
    expect_error<ShapeError>([] {
        nn::batch_norm_inference(input("x", F, {2, 4, 3}), input("m", F, {3}), input("v", F, {4}));
    }, {"batch_norm", "running_mean", "[3]"});
    expect_error<ShapeError>([] { nn::batch_norm_training(input("x", F, {4})); }, {"batch_norm", "[4]"});
}

}  // namespace
}  // namespace halogen
