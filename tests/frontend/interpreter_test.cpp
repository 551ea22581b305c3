// The reference interpreter (frontend/interpreter.h) against independent expectations: values worked
// out by hand, or computed here with plain loops written from each op's meaning in ops.h. Covers every
// primitive op, the views, broadcasting, the derived ops, symbolic dims and empty tensors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "frontend/halogen.h"

namespace halogen {
namespace {

constexpr DType F32 = DType::Float32;
constexpr DType I32 = DType::Int32;
constexpr DType BOOL = DType::Bool;
using Vals = std::vector<double>;
using Dims = std::vector<int64_t>;

const double kInf = std::numeric_limits<double>::infinity();

// ---- Helpers ----

Array make(DType t, const Dims &shape, const Vals &v) {
    Array a(t, shape);
    EXPECT_EQ(a.size(), int64_t(v.size())) << "test bug: value count does not match shape";
    for (std::size_t k = 0; k < v.size() && int64_t(k) < a.size(); ++k) a.set(int64_t(k), v[k]);
    return a;
}

Vals values(const Array &a) {
    Vals v(a.size());
    for (int64_t k = 0; k < a.size(); ++k) v[k] = a.get(k);
    return v;
}

// Uniform floats in [lo, hi) (or integers in [lo, hi] for int32), seeded.
Array random(DType t, const Dims &shape, double lo, double hi, unsigned seed) {
    std::mt19937 rng(seed);
    Array a(t, shape);
    std::uniform_real_distribution<float> f{float(lo), float(hi)};
    std::uniform_int_distribution<int32_t> i{int32_t(lo), int32_t(hi)};
    for (int64_t k = 0; k < a.size(); ++k) a.set(k, t == F32 ? double(f(rng)) : double(i(rng)));
    return a;
}

// Checks dtype, shape and every element; `rel` > 0 allows a relative error (floats).
void expect_array(const Array &got, DType t, const Dims &shape, const Vals &want, double rel = 0) {
    ASSERT_EQ(got.dtype(), t) << dtype_name(got.dtype());
    ASSERT_EQ(got.shape(), shape) << dims_str(got.shape());
    ASSERT_EQ(got.size(), int64_t(want.size()));
    for (std::size_t k = 0; k < want.size(); ++k) {
        const double g = got.get(int64_t(k)), w = want[k];
        if (std::isnan(w)) {
            EXPECT_TRUE(std::isnan(g)) << "element " << k;
        } else if (rel == 0 || std::isinf(w)) {
            EXPECT_EQ(g, w) << "element " << k;
        } else {
            EXPECT_NEAR(g, w, rel * std::max(1.0, std::abs(w))) << "element " << k;
        }
    }
}

Shape shape_of(const Dims &d) { return Shape(d.begin(), d.end()); }

// Row-major linear index of (i, j, k) in a [n0, n1, n2] array.
int64_t at3(const Dims &s, int64_t i, int64_t j, int64_t k) { return (i * s[1] + j) * s[2] + k; }

// ---- Leaves ----

TEST(Interpreter, ConstScalars) {
    expect_array(interpret(fconst(2.5), {}), F32, {}, {2.5});
    expect_array(interpret(iconst(-7), {}), I32, {}, {-7});
    expect_array(interpret(bconst(true), {}), BOOL, {}, {1});
}

TEST(Interpreter, IndexComponents2D) {
    Array out = interpret(index_components({3, 3}), {});
    ASSERT_EQ(out.shape(), (Dims{3, 3}));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(out.data<int32_t>()[i * 3 + j], 3 * i + j) << i << "," << j;
}

TEST(Interpreter, IndexComponents3D) {
    const Dims s = {2, 3, 4};
    Array out = interpret(index_components({2, 3, 4}), {});
    ASSERT_EQ(out.shape(), s);
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j)
            for (int64_t k = 0; k < 4; ++k) EXPECT_EQ(out.get(at3(s, i, j, k)), i * 12 + j * 4 + k);
}

TEST(Interpreter, Arange) { expect_array(interpret(arange(5), {}), I32, {5}, {0, 1, 2, 3, 4}); }

TEST(Interpreter, InputPassesThrough) {
    Array x = random(F32, {2, 3}, -5, 5, 1);
    expect_array(interpret(input("x", F32, {2, 3}), {{"x", x}}), F32, {2, 3}, values(x));
}

// ---- Unary ----

struct FloatUnaryCase {
    std::string name;
    std::function<Tensor(const Tensor &)> build;
    std::function<double(float)> ref;   // the op's meaning, with the std:: float functions
    double lo, hi;                      // input domain
};

class FloatUnary : public ::testing::TestWithParam<FloatUnaryCase> {};

TEST_P(FloatUnary, MatchesStdFloatFunction) {
    const auto &c = GetParam();
    Array x = random(F32, {4, 5}, c.lo, c.hi, 7);
    Vals want;
    for (double v : values(x)) want.push_back(c.ref(float(v)));
    expect_array(interpret(c.build(input("x", F32, {4, 5})), {{"x", x}}), F32, {4, 5}, want, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(
    Ops, FloatUnary,
    ::testing::Values(
        FloatUnaryCase{"neg", [](const Tensor &t) { return neg(t); }, [](float v) { return -v; }, -10, 10},
        FloatUnaryCase{"recip", [](const Tensor &t) { return recip(t); }, [](float v) { return 1.0f / v; }, 0.1, 10},
        FloatUnaryCase{"sqrt", [](const Tensor &t) { return sqrt(t); }, [](float v) { return std::sqrt(v); }, 0, 100},
        FloatUnaryCase{"exp2", [](const Tensor &t) { return exp2(t); }, [](float v) { return std::exp2(v); }, -8, 8},
        FloatUnaryCase{"log2", [](const Tensor &t) { return log2(t); }, [](float v) { return std::log2(v); }, 0.01, 1000},
        FloatUnaryCase{"sin", [](const Tensor &t) { return sin(t); }, [](float v) { return std::sin(v); }, -7, 7},
        FloatUnaryCase{"exp", [](const Tensor &t) { return exp(t); }, [](float v) { return std::exp(v); }, -5, 5},
        FloatUnaryCase{"log", [](const Tensor &t) { return log(t); }, [](float v) { return std::log(v); }, 0.01, 1000},
        FloatUnaryCase{"square", [](const Tensor &t) { return square(t); }, [](float v) { return v * v; }, -10, 10}),
    [](const auto &info) { return info.param.name; });

TEST(Interpreter, UnarySpecialValues) {
    Tensor x = input("x", F32, {4});
    Inputs in = {{"x", make(F32, {4}, {0, -1, 1, 4})}};
    expect_array(interpret(recip(x), in), F32, {4}, {kInf, -1, 1, 0.25});
    expect_array(interpret(sqrt(x), in), F32, {4}, {0, NAN, 1, 2});
    expect_array(interpret(log2(x), in), F32, {4}, {-kInf, NAN, 0, 2});
    expect_array(interpret(exp2(x), in), F32, {4}, {1, 0.5, 2, 16});
}

TEST(Interpreter, NegInt) {
    expect_array(interpret(neg(input("x", I32, {3})), {{"x", make(I32, {3}, {5, -3, 0})}}), I32, {3}, {-5, 3, 0});
}

TEST(Interpreter, NotBool) {
    expect_array(interpret(not_(input("x", BOOL, {2})), {{"x", make(BOOL, {2}, {1, 0})}}), BOOL, {2}, {0, 1});
}

TEST(Interpreter, NotIntIsBitwise) {
    // ~v == -v - 1 in two's complement.
    expect_array(interpret(not_(input("x", I32, {4})), {{"x", make(I32, {4}, {0, 5, -1, 12})}}), I32, {4},
                 {-1, -6, 0, -13});
}

struct CastCase {
    DType from, to;
    Vals in, want;
};

class Cast : public ::testing::TestWithParam<CastCase> {};

TEST_P(Cast, Converts) {
    const auto &c = GetParam();
    const Dims s = {int64_t(c.in.size())};
    Array out = interpret(cast(input("x", c.from, shape_of(s)), c.to), {{"x", make(c.from, s, c.in)}});
    expect_array(out, c.to, s, c.want);
}

INSTANTIATE_TEST_SUITE_P(
    AmongTypes, Cast,
    ::testing::Values(
        // float -> int truncates toward zero
        CastCase{F32, I32, {2.7, -2.7, 0.5, -0.5, 3.0, -3.0, 1e6}, {2, -2, 0, 0, 3, -3, 1000000}},
        CastCase{F32, BOOL, {0.0, -0.0, 0.1, -3.0}, {0, 0, 1, 1}},
        CastCase{I32, F32, {-3, 7, 0, 16777217}, {-3, 7, 0, 16777216}},   // 2^24+1 rounds to 2^24
        CastCase{I32, BOOL, {0, 5, -1}, {0, 1, 1}},
        CastCase{BOOL, I32, {1, 0}, {1, 0}},
        CastCase{BOOL, F32, {1, 0}, {1.0, 0.0}},
        CastCase{F32, F32, {1.5}, {1.5}}));

// ---- Binary ----

// Builds op(a, b) for two [rows, cols] inputs of dtype `t`, runs it on random data, and compares with
// `ref` applied element by element.
void check_binary(DType t, const std::function<Tensor(Tensor, Tensor)> &op, DType out_t,
                  const std::function<double(double, double)> &ref, double lo, double hi, unsigned seed) {
    const Dims s = {5, 7};
    Array a = random(t, s, lo, hi, seed), b = random(t, s, lo, hi, seed + 1);
    Vals want;
    for (int64_t k = 0; k < a.size(); ++k) want.push_back(ref(a.get(k), b.get(k)));
    Array out = interpret(op(input("a", t, {5, 7}), input("b", t, {5, 7})), {{"a", a}, {"b", b}});
    expect_array(out, out_t, s, want);
}

TEST(Interpreter, AddMulMaxFloat) {
    check_binary(F32, add, F32, [](double a, double b) { return float(a) + float(b); }, -100, 100, 10);
    check_binary(F32, mul, F32, [](double a, double b) { return float(a) * float(b); }, -100, 100, 11);
    check_binary(F32, maximum, F32, [](double a, double b) { return a > b ? a : b; }, -100, 100, 12);
}

TEST(Interpreter, AddMulMaxInt) {
    check_binary(I32, add, I32, [](double a, double b) { return a + b; }, -1000, 1000, 20);
    check_binary(I32, mul, I32, [](double a, double b) { return a * b; }, -1000, 1000, 21);
    check_binary(I32, maximum, I32, [](double a, double b) { return a > b ? a : b; }, -1000, 1000, 22);
}

TEST(Interpreter, CompareFloatAndInt) {
    for (DType t : {F32, I32}) {
        // A small integer range so that equal operands occur.
        check_binary(t, ne, BOOL, [](double a, double b) { return a != b; }, -3, 3, 30);
        check_binary(t, lt, BOOL, [](double a, double b) { return a < b; }, -3, 3, 31);
        check_binary(t, eq, BOOL, [](double a, double b) { return a == b; }, -3, 3, 32);
        check_binary(t, le, BOOL, [](double a, double b) { return a <= b; }, -3, 3, 33);
        check_binary(t, gt, BOOL, [](double a, double b) { return a > b; }, -3, 3, 34);
        check_binary(t, ge, BOOL, [](double a, double b) { return a >= b; }, -3, 3, 35);
    }
}

TEST(Interpreter, CompareHandPicked) {
    Tensor a = input("a", I32, {3}), b = input("b", I32, {3});
    Inputs in = {{"a", make(I32, {3}, {1, 2, 3})}, {"b", make(I32, {3}, {2, 2, 2})}};
    expect_array(interpret(lt(a, b), in), BOOL, {3}, {1, 0, 0});
    expect_array(interpret(ne(a, b), in), BOOL, {3}, {1, 0, 1});
    expect_array(interpret(eq(a, b), in), BOOL, {3}, {0, 1, 0});
    expect_array(interpret(le(a, b), in), BOOL, {3}, {1, 1, 0});
    expect_array(interpret(gt(a, b), in), BOOL, {3}, {0, 0, 1});
    expect_array(interpret(ge(a, b), in), BOOL, {3}, {0, 1, 1});
}

TEST(Interpreter, NeOnBool) {
    Tensor a = input("a", BOOL, {4}), b = input("b", BOOL, {4});
    Inputs in = {{"a", make(BOOL, {4}, {0, 0, 1, 1})}, {"b", make(BOOL, {4}, {0, 1, 0, 1})}};
    expect_array(interpret(ne(a, b), in), BOOL, {4}, {0, 1, 1, 0});
    expect_array(interpret(eq(a, b), in), BOOL, {4}, {1, 0, 0, 1});
}

TEST(Interpreter, LogicOnBool) {
    Tensor a = input("a", BOOL, {4}), b = input("b", BOOL, {4});
    Inputs in = {{"a", make(BOOL, {4}, {0, 0, 1, 1})}, {"b", make(BOOL, {4}, {0, 1, 0, 1})}};
    expect_array(interpret(and_(a, b), in), BOOL, {4}, {0, 0, 0, 1});
    expect_array(interpret(or_(a, b), in), BOOL, {4}, {0, 1, 1, 1});
    expect_array(interpret(xor_(a, b), in), BOOL, {4}, {0, 1, 1, 0});
}

TEST(Interpreter, LogicOnIntIsBitwise) {
    Tensor a = input("a", I32, {4}), b = input("b", I32, {4});
    // 12 = 0b1100, 10 = 0b1010; -1 is all ones; -8 = ...11111000.
    Inputs in = {{"a", make(I32, {4}, {12, -1, 0, -8})}, {"b", make(I32, {4}, {10, 5, 7, 3})}};
    expect_array(interpret(and_(a, b), in), I32, {4}, {8, 5, 0, 0});
    expect_array(interpret(or_(a, b), in), I32, {4}, {14, -1, 7, -5});
    expect_array(interpret(xor_(a, b), in), I32, {4}, {6, -6, 7, -5});
}

// idiv and mod are Euclidean: a == b * q + r with 0 <= r < |b|; x / 0 == x % 0 == 0.
struct DivCase {
    int32_t a, b, q, r;
};

TEST(Interpreter, IDivModEuclideanHandPicked) {
    const std::vector<DivCase> cases = {
        {7, 2, 3, 1},   {-7, 2, -4, 1}, {7, -2, -3, 1}, {-7, -2, 4, 1}, {-4, -3, 2, 2}, {4, 3, 1, 1},
        {6, 3, 2, 0},   {-6, 3, -2, 0}, {0, 5, 0, 0},   {5, 0, 0, 0},   {-5, 0, 0, 0},  {1, -1, -1, 0},
        {-1, 5, -1, 4}, {3, 5, 0, 3},
    };
    const Dims s = {int64_t(cases.size())};
    Vals a, b, q, r;
    for (const auto &c : cases) {
        a.push_back(c.a), b.push_back(c.b), q.push_back(c.q), r.push_back(c.r);
    }
    Tensor ta = input("a", I32, shape_of(s)), tb = input("b", I32, shape_of(s));
    Inputs in = {{"a", make(I32, s, a)}, {"b", make(I32, s, b)}};
    expect_array(interpret(idiv(ta, tb), in), I32, s, q);
    expect_array(interpret(mod(ta, tb), in), I32, s, r);
    expect_array(interpret(div(ta, tb), in), I32, s, q);   // derived div on int32 is idiv
}

TEST(Interpreter, IDivModEuclideanRandom) {
    auto euclid_mod = [](double a, double b) {
        const int64_t ia = int64_t(a), ib = std::llabs(int64_t(b));
        return ib == 0 ? 0.0 : double(((ia % ib) + ib) % ib);
    };
    auto euclid_div = [&](double a, double b) { return b == 0 ? 0.0 : (a - euclid_mod(a, b)) / b; };
    check_binary(I32, idiv, I32, euclid_div, -50, 50, 40);
    check_binary(I32, mod, I32, euclid_mod, -50, 50, 41);
}

TEST(Interpreter, WhereSelects) {
    Tensor c = input("c", BOOL, {4}), a = input("a", I32, {4}), b = input("b", I32, {4});
    Inputs in = {{"c", make(BOOL, {4}, {1, 0, 0, 1})},
                 {"a", make(I32, {4}, {1, 2, 3, 4})},
                 {"b", make(I32, {4}, {-1, -2, -3, -4})}};
    expect_array(interpret(where(c, a, b), in), I32, {4}, {1, -2, -3, 4});
}

TEST(Interpreter, WhereBroadcasts) {
    // cond [2, 1], a [3], b scalar -> [2, 3]
    Tensor c = input("c", BOOL, {2, 1}), a = input("a", F32, {3});
    Inputs in = {{"c", make(BOOL, {2, 1}, {1, 0})}, {"a", make(F32, {3}, {1, 2, 3})}};
    expect_array(interpret(where(c, a, fconst(-1)), in), F32, {2, 3}, {1, 2, 3, -1, -1, -1});
}

TEST(Interpreter, SeedExpression) {
    Tensor e = where(eq(iconst(2), index_components({3, 3})), iconst(2), iconst(3));
    expect_array(interpret(e, {}), I32, {3, 3}, {3, 3, 2, 3, 3, 3, 3, 3, 3});
}

// ---- Broadcasting ----

TEST(Interpreter, BroadcastRowVector) {
    Array a = random(F32, {2, 3}, -5, 5, 50), b = random(F32, {3}, -5, 5, 51);
    Vals want;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) want.push_back(float(a.get(i * 3 + j)) + float(b.get(j)));
    Array out = interpret(add(input("a", F32, {2, 3}), input("b", F32, {3})), {{"a", a}, {"b", b}});
    expect_array(out, F32, {2, 3}, want);
}

TEST(Interpreter, BroadcastColumnTimesRow) {
    // [2, 1] * [1, 3] -> [2, 3]: an outer product.
    Tensor a = input("a", I32, {2, 1}), b = input("b", I32, {1, 3});
    Inputs in = {{"a", make(I32, {2, 1}, {2, -3})}, {"b", make(I32, {1, 3}, {1, 10, 100})}};
    expect_array(interpret(mul(a, b), in), I32, {2, 3}, {2, 20, 200, -3, -30, -300});
    expect_array(interpret(mul(b, a), in), I32, {2, 3}, {2, 20, 200, -3, -30, -300});
}

TEST(Interpreter, BroadcastScalarAndLeadingAxes) {
    // [4, 1, 3] + [2, 1] -> [4, 2, 3]; plus a scalar.
    const Dims sa = {4, 1, 3}, sb = {2, 1}, so = {4, 2, 3};
    Array a = random(I32, sa, -100, 100, 52), b = random(I32, sb, -100, 100, 53);
    Vals want(4 * 2 * 3);
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j = 0; j < 2; ++j)
            for (int64_t k = 0; k < 3; ++k) want[at3(so, i, j, k)] = a.get(at3(sa, i, 0, k)) + b.get(j) + 1;
    Array out = interpret(add(add(input("a", I32, {4, 1, 3}), input("b", I32, {2, 1})), iconst(1)),
                          {{"a", a}, {"b", b}});
    expect_array(out, I32, so, want);
}

// ---- Reductions ----

// Sum or max of a [n0, n1, n2] array over the axes flagged in `red`, reduced axes kept with extent 1.
Vals reduce_ref3(const Array &a, const std::vector<bool> &red, bool is_sum) {
    const Dims &s = a.shape();
    Dims o(3);
    for (int k = 0; k < 3; ++k) o[k] = red[k] ? 1 : s[k];
    Vals out(o[0] * o[1] * o[2], is_sum ? 0.0 : -kInf);
    for (int64_t i = 0; i < s[0]; ++i)
        for (int64_t j = 0; j < s[1]; ++j)
            for (int64_t k = 0; k < s[2]; ++k) {
                double &acc = out[at3(o, red[0] ? 0 : i, red[1] ? 0 : j, red[2] ? 0 : k)];
                const double v = a.get(at3(s, i, j, k));
                acc = is_sum ? acc + v : std::max(acc, v);
            }
    return out;
}

struct ReduceCase {
    std::vector<int> axes;
    std::vector<bool> reduced;   // per axis of the [2, 3, 4] input
};

class Reduce : public ::testing::TestWithParam<ReduceCase> {};

Dims kept_shape(const Dims &s, const std::vector<bool> &red) {
    Dims o = s;
    for (std::size_t k = 0; k < s.size(); ++k)
        if (red[k]) o[k] = 1;
    return o;
}

TEST_P(Reduce, SumInt) {
    const auto &c = GetParam();
    const Dims s = {2, 3, 4};
    Array a = random(I32, s, -100, 100, 60);
    Array out = interpret(reduce_sum(input("a", I32, {2, 3, 4}), c.axes), {{"a", a}});
    expect_array(out, I32, kept_shape(s, c.reduced), reduce_ref3(a, c.reduced, true));
}

TEST_P(Reduce, SumFloat) {
    const auto &c = GetParam();
    const Dims s = {2, 3, 4};
    Array a = random(F32, s, -10, 10, 61);
    Array out = interpret(reduce_sum(input("a", F32, {2, 3, 4}), c.axes), {{"a", a}});
    expect_array(out, F32, kept_shape(s, c.reduced), reduce_ref3(a, c.reduced, true), 1e-5);
}

TEST_P(Reduce, MaxFloat) {
    const auto &c = GetParam();
    const Dims s = {2, 3, 4};
    Array a = random(F32, s, -10, 10, 62);
    Array out = interpret(reduce_max(input("a", F32, {2, 3, 4}), c.axes), {{"a", a}});
    expect_array(out, F32, kept_shape(s, c.reduced), reduce_ref3(a, c.reduced, false));
}

TEST_P(Reduce, MaxInt) {
    const auto &c = GetParam();
    const Dims s = {2, 3, 4};
    Array a = random(I32, s, -100, 100, 63);
    Array out = interpret(reduce_max(input("a", I32, {2, 3, 4}), c.axes), {{"a", a}});
    expect_array(out, I32, kept_shape(s, c.reduced), reduce_ref3(a, c.reduced, false));
}

INSTANTIATE_TEST_SUITE_P(Axes, Reduce,
                         ::testing::Values(ReduceCase{{0}, {true, false, false}},
                                           ReduceCase{{1}, {false, true, false}},
                                           ReduceCase{{2}, {false, false, true}},
                                           ReduceCase{{-1}, {false, false, true}},
                                           ReduceCase{{0, 2}, {true, false, true}},
                                           ReduceCase{{2, 0}, {true, false, true}},
                                           ReduceCase{{1, 2}, {false, true, true}},
                                           ReduceCase{{0, 1, 2}, {true, true, true}},
                                           ReduceCase{{}, {false, false, false}}));

TEST(Interpreter, ReduceHandPicked) {
    // [[1, 5, 2], [7, -3, 0]]
    Tensor a = input("a", I32, {2, 3});
    Inputs in = {{"a", make(I32, {2, 3}, {1, 5, 2, 7, -3, 0})}};
    expect_array(interpret(reduce_sum(a, {0}), in), I32, {1, 3}, {8, 2, 2});
    expect_array(interpret(reduce_sum(a, {1}), in), I32, {2, 1}, {8, 4});
    expect_array(interpret(reduce_max(a, {1}), in), I32, {2, 1}, {5, 7});
    expect_array(interpret(reduce_max(a, {0, 1}), in), I32, {1, 1}, {7});
    // Derived sum/max drop the axes unless keepdim.
    expect_array(interpret(sum(a, {1}), in), I32, {2}, {8, 4});
    expect_array(interpret(sum(a, {0, 1}), in), I32, {}, {12});
    expect_array(interpret(max(a, {0}), in), I32, {3}, {7, 5, 2});
    expect_array(interpret(max(a, {-1}, true), in), I32, {2, 1}, {5, 7});
}

TEST(Interpreter, ReduceMaxAllNegative) {
    // The max of negatives must not be clamped at 0.
    Tensor a = input("a", F32, {3});
    expect_array(interpret(reduce_max(a, {0}), {{"a", make(F32, {3}, {-5, -2, -9})}}), F32, {1}, {-2});
}

// ops.h: max is NaN when either operand is NaN; reduce_max is NaN when any element of the row is,
// first, in the middle or last (a plain `v > acc ? v : acc` skips a NaN met after a number).
TEST(Interpreter, MaxPropagatesNaN) {
    Tensor x = input("x", F32, {6}), y = input("y", F32, {6});
    Inputs in = {{"x", make(F32, {6}, {NAN, 1, NAN, -kInf, kInf, -kInf})},
                 {"y", make(F32, {6}, {1, NAN, NAN, NAN, NAN, kInf})}};
    expect_array(interpret(maximum(x, y), in), F32, {6}, {NAN, NAN, NAN, NAN, NAN, kInf});
    expect_array(interpret(maximum(y, x), in), F32, {6}, {NAN, NAN, NAN, NAN, NAN, kInf});
}

TEST(Interpreter, ReduceMaxPropagatesNaN) {
    Tensor a = input("a", F32, {6, 3});
    Inputs in = {{"a", make(F32, {6, 3}, {NAN, 1, 2,  1, NAN, 2,  1, 2, NAN,  -kInf, kInf, -kInf,  kInf, NAN, -kInf,
                                          -kInf, -kInf, -kInf})}};
    expect_array(interpret(reduce_max(a, {1}), in), F32, {6, 1}, {NAN, NAN, NAN, kInf, NAN, -kInf});
    expect_array(interpret(reduce_max(a, {0}), in), F32, {1, 3}, {NAN, NAN, NAN});
    expect_array(interpret(reduce_max(a, {0, 1}), in), F32, {1, 1}, {NAN});
}

// ---- Views ----

TEST(Interpreter, ReshapeKeepsRowMajorOrder) {
    Array a = random(F32, {2, 3}, -5, 5, 70);
    Tensor x = input("a", F32, {2, 3});
    expect_array(interpret(reshape(x, {3, 2}), {{"a", a}}), F32, {3, 2}, values(a));
    expect_array(interpret(reshape(x, {6}), {{"a", a}}), F32, {6}, values(a));
    expect_array(interpret(reshape(x, {1, 6, 1}), {{"a", a}}), F32, {1, 6, 1}, values(a));
    // A reshape feeding a computation: [[0,1,2],[3,4,5]] -> [[0,1],[2,3],[4,5]], reduced over rows.
    expect_array(interpret(reduce_sum(reshape(index_components({2, 3}), {3, 2}), {1}), {}), I32, {3, 1},
                 {1, 5, 9});
}

TEST(Interpreter, Permute2DIsTranspose) {
    // [[0,1,2],[3,4,5]]^T = [[0,3],[1,4],[2,5]]
    expect_array(interpret(permute(index_components({2, 3}), {1, 0}), {}), I32, {3, 2}, {0, 3, 1, 4, 2, 5});
}

TEST(Interpreter, Permute3D) {
    // perm {2, 0, 1}: out[p][q][r] = a[j] with j[perm[k]] = i[k], i.e. j = (q, r, p); out shape [4, 2, 3].
    const Dims s = {2, 3, 4}, so = {4, 2, 3};
    Array a = random(I32, s, -100, 100, 71);
    Vals want(24);
    for (int64_t p = 0; p < 4; ++p)
        for (int64_t q = 0; q < 2; ++q)
            for (int64_t r = 0; r < 3; ++r) want[at3(so, p, q, r)] = a.get(at3(s, q, r, p));
    expect_array(interpret(permute(input("a", I32, {2, 3, 4}), {2, 0, 1}), {{"a", a}}), I32, so, want);
}

TEST(Interpreter, Expand) {
    // [3, 1] -> [2, 3, 4]: out[i][j][k] = a[j][0]
    const Dims so = {2, 3, 4};
    Array a = make(F32, {3, 1}, {1.5, -2, 7});
    Vals want(24);
    for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j)
            for (int64_t k = 0; k < 4; ++k) want[at3(so, i, j, k)] = a.get(j);
    expect_array(interpret(expand(input("a", F32, {3, 1}), {2, 3, 4}), {{"a", a}}), F32, so, want);
    expect_array(interpret(expand(iconst(9), {2, 2}), {}), I32, {2, 2}, {9, 9, 9, 9});
}

TEST(Interpreter, SliceWithStep) {
    expect_array(interpret(slice(arange(10), 0, 1, 8, 3), {}), I32, {3}, {1, 4, 7});
    expect_array(interpret(slice(arange(10), 0, 2, 5), {}), I32, {3}, {2, 3, 4});
    expect_array(interpret(slice(arange(10), 0, 0, 10, 4), {}), I32, {3}, {0, 4, 8});
    expect_array(interpret(slice(arange(10), 0, 3, 3), {}), I32, {0}, {});
    // Along the last axis of [[0..5],[6..11]]: columns 1, 3, 5.
    expect_array(interpret(slice(index_components({2, 6}), -1, 1, 6, 2), {}), I32, {2, 3}, {1, 3, 5, 7, 9, 11});
    // Along the first axis of a [4, 2]: rows 1..2.
    expect_array(interpret(slice(index_components({4, 2}), 0, 1, 3), {}), I32, {2, 2}, {2, 3, 4, 5});
}

TEST(Interpreter, Stride) {
    // [4, 6] with steps {2, 3}: out[i][j] = a[2i][3j] = 6*2i + 3j
    Vals want;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) want.push_back(12 * i + 3 * j);
    expect_array(interpret(stride(index_components({4, 6}), {2, 3}), {}), I32, {2, 2}, want);
    // Odd extent: every 2nd of 5 elements is 3 elements.
    expect_array(interpret(stride(arange(5), {2}), {}), I32, {3}, {0, 2, 4});
}

TEST(Interpreter, PadWithValue) {
    // [[1, 2], [3, 4]], lo {1, 0}, hi {0, 2}, value -1 -> [3, 4]
    Tensor a = input("a", F32, {2, 2});
    Inputs in = {{"a", make(F32, {2, 2}, {1, 2, 3, 4})}};
    expect_array(interpret(pad(a, {1, 0}, {0, 2}, -1), in), F32, {3, 4},
                 {-1, -1, -1, -1,  //
                  1, 2, -1, -1,    //
                  3, 4, -1, -1});
    expect_array(interpret(pad(a, {0, 1}, {1, 1}), in), F32, {3, 4},
                 {0, 1, 2, 0,  //
                  0, 3, 4, 0,  //
                  0, 0, 0, 0});
}

TEST(Interpreter, PadIntAndBool) {
    expect_array(interpret(pad(arange(3), {2}, {1}, 7), {}), I32, {6}, {7, 7, 0, 1, 2, 7});
    Tensor b = input("b", BOOL, {2});
    expect_array(interpret(pad(b, {1}, {1}, 1), {{"b", make(BOOL, {2}, {0, 1})}}), BOOL, {4}, {1, 0, 1, 1});
}

TEST(Interpreter, ViewsCompose) {
    // pad -> slice -> permute on index_components({2, 3}) = [[0,1,2],[3,4,5]]:
    // pad lo {0,1} hi {0,0} value 9 -> [[9,0,1,2],[9,3,4,5]]; slice axis 1 [1, 4) step 2 -> [[0,2],[3,5]];
    // transpose -> [[0,3],[2,5]].
    Tensor t = permute(slice(pad(index_components({2, 3}), {0, 1}, {0, 0}, 9), 1, 1, 4, 2), {1, 0});
    expect_array(interpret(t, {}), I32, {2, 2}, {0, 3, 2, 5});
}

// ---- Derived ops ----

TEST(Interpreter, SubAndDivFloat) {
    check_binary(F32, sub, F32, [](double a, double b) { return float(a) - float(b); }, -100, 100, 80);
    // a * (1/b) may differ from a / b in the last bit.
    const Dims s = {5, 7};
    Array a = random(F32, s, -100, 100, 81), b = random(F32, s, 0.5, 100, 82);
    Vals want;
    for (int64_t k = 0; k < a.size(); ++k) want.push_back(a.get(k) / b.get(k));
    expect_array(interpret(div(input("a", F32, {5, 7}), input("b", F32, {5, 7})), {{"a", a}, {"b", b}}), F32, s,
                 want, 1e-6);
}

TEST(Interpreter, Operators) {
    Tensor a = input("a", I32, {3}), b = input("b", I32, {3});
    Inputs in = {{"a", make(I32, {3}, {7, -7, 9})}, {"b", make(I32, {3}, {2, 2, -4})}};
    expect_array(interpret(a + b, in), I32, {3}, {9, -5, 5});
    expect_array(interpret(a - b, in), I32, {3}, {5, -9, 13});
    expect_array(interpret(a * b, in), I32, {3}, {14, -14, -36});
    expect_array(interpret(a / b, in), I32, {3}, {3, -4, -2});   // Euclidean: 9 = -4 * -2 + 1
    expect_array(interpret(-a, in), I32, {3}, {-7, 7, -9});
}

TEST(Interpreter, Mean) {
    // [[1, 2, 3], [4, 5, 9]]
    Tensor a = input("a", F32, {2, 3});
    Inputs in = {{"a", make(F32, {2, 3}, {1, 2, 3, 4, 5, 9})}};
    expect_array(interpret(mean(a, {0}), in), F32, {3}, {2.5, 3.5, 6}, 1e-6);
    expect_array(interpret(mean(a, {1}), in), F32, {2}, {2, 6}, 1e-6);
    expect_array(interpret(mean(a, {1}, true), in), F32, {2, 1}, {2, 6}, 1e-6);
    expect_array(interpret(mean(a, {0, 1}), in), F32, {}, {4}, 1e-6);
}

TEST(Interpreter, MeanOverSymbolicDim) {
    const Dim n = Dim::sym("N");
    Tensor x = input("x", F32, {n, 4});
    for (int64_t nv : {1, 3, 30}) {
        Array a = random(F32, {nv, 4}, -10, 10, 90 + unsigned(nv));
        Vals want(4, 0.0);
        for (int64_t i = 0; i < nv; ++i)
            for (int64_t j = 0; j < 4; ++j) want[j] += a.get(i * 4 + j);
        for (double &w : want) w /= double(nv);
        expect_array(interpret(mean(x, {0}), {{"x", a}}, {{"N", nv}}), F32, {4}, want, 1e-5);
    }
}

// out[m][n] = sum_k a[m][k] * b[k][n], per batch.
Vals matmul_ref(const Array &a, const Array &b, int64_t batch, int64_t M, int64_t K, int64_t N, bool b_batched) {
    Vals out(batch * M * N, 0.0);
    for (int64_t t = 0; t < batch; ++t)
        for (int64_t m = 0; m < M; ++m)
            for (int64_t n = 0; n < N; ++n)
                for (int64_t k = 0; k < K; ++k)
                    out[(t * M + m) * N + n] +=
                        a.get((t * M + m) * K + k) * b.get(((b_batched ? t : 0) * K + k) * N + n);
    return out;
}

TEST(Interpreter, Matmul2D) {
    Array a = random(F32, {3, 5}, -2, 2, 100), b = random(F32, {5, 4}, -2, 2, 101);
    Array out = interpret(matmul(input("a", F32, {3, 5}), input("b", F32, {5, 4})), {{"a", a}, {"b", b}});
    expect_array(out, F32, {3, 4}, matmul_ref(a, b, 1, 3, 5, 4, false), 1e-5);
}

TEST(Interpreter, ConcatAlongAnAxis) {
    Inputs in = {{"a", make(I32, {2, 1}, {1, 2})}, {"b", make(I32, {2, 2}, {3, 4, 5, 6})}, {"c", make(I32, {2, 1}, {7, 8})}};
    Tensor a = input("a", I32, {2, 1}), b = input("b", I32, {2, 2}), c = input("c", I32, {2, 1});
    expect_array(interpret(concat({a, b, c}, 1), in), I32, {2, 4}, {1, 3, 4, 7, 2, 5, 6, 8});
    expect_array(interpret(concat({permute(a, {1, 0}), permute(c, {1, 0})}, 0), in), I32, {2, 2}, {1, 2, 7, 8});
    expect_array(interpret(concat({b}, 0), in), I32, {2, 2}, {3, 4, 5, 6});
    // A symbolic extent along the axis, another axis that differs, or another dtype: a ShapeError.
    EXPECT_THROW(concat({input("s", I32, {Dim::sym("S"), 2}), b}, 0), ShapeError);
    EXPECT_THROW(concat({a, b}, 0), ShapeError);
    EXPECT_THROW(concat({b, input("f", F32, {2, 2})}, 1), ShapeError);
    EXPECT_THROW(concat({b}, 2), ShapeError);
}

TEST(Interpreter, MatmulHandPicked) {
    // [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]]
    Inputs in = {{"a", make(I32, {2, 2}, {1, 2, 3, 4})}, {"b", make(I32, {2, 2}, {5, 6, 7, 8})}};
    expect_array(interpret(matmul(input("a", I32, {2, 2}), input("b", I32, {2, 2})), in), I32, {2, 2},
                 {19, 22, 43, 50});
}

TEST(Interpreter, MatmulBatchedAndBroadcast) {
    Array a = random(F32, {2, 3, 5}, -2, 2, 102), b = random(F32, {2, 5, 4}, -2, 2, 103);
    Array b2 = random(F32, {5, 4}, -2, 2, 104);
    Tensor ta = input("a", F32, {2, 3, 5});
    expect_array(interpret(matmul(ta, input("b", F32, {2, 5, 4})), {{"a", a}, {"b", b}}), F32, {2, 3, 4},
                 matmul_ref(a, b, 2, 3, 5, 4, true), 1e-5);
    expect_array(interpret(matmul(ta, input("b", F32, {5, 4})), {{"a", a}, {"b", b2}}), F32, {2, 3, 4},
                 matmul_ref(a, b2, 2, 3, 5, 4, false), 1e-5);
}

// ---- Symbolic dims ----

TEST(Interpreter, SymbolicInputAtSeveralSizes) {
    // out[i] = sum_j (x[i][j] * x[i][j] + 1) + i, for x of shape [N, 3].
    const Dim n = Dim::sym("N");
    Tensor x = input("x", F32, {n, 3});
    Tensor out = add(sum(add(mul(x, x), fconst(1)), {1}), cast(arange(n), F32));
    for (int64_t nv : {1, 3, 30}) {
        Array a = random(F32, {nv, 3}, -3, 3, 110 + unsigned(nv));
        Vals want(nv, 0.0);
        for (int64_t i = 0; i < nv; ++i) {
            for (int64_t j = 0; j < 3; ++j) want[i] += a.get(i * 3 + j) * a.get(i * 3 + j) + 1;
            want[i] += double(i);
        }
        expect_array(interpret(out, {{"x", a}}, {{"N", nv}}), F32, {nv}, want, 1e-5);
    }
}

TEST(Interpreter, SymbolicDimConst) {
    // dim_const(2*N + 1) evaluates to the bound value.
    const Dim n = Dim::sym("N");
    Tensor t = dim_const(n * 2 + 1, I32);
    for (int64_t nv : {0, 4, 30}) expect_array(interpret(t, {}, {{"N", nv}}), I32, {}, {double(2 * nv + 1)});
}

TEST(Interpreter, SymbolicSliceAndReshape) {
    // x [N + 1] -> slice [1, N + 1) -> reshape to [N, 1].
    const Dim n = Dim::sym("N");
    Tensor t = reshape(slice(input("x", I32, {n + 1}), 0, 1, n + 1), {n, 1});
    Array a = make(I32, {4}, {10, 20, 30, 40});
    expect_array(interpret(t, {{"x", a}}, {{"N", 3}}), I32, {3, 1}, {20, 30, 40});
}

TEST(Interpreter, SymbolicExtentThatMayBeNegativeIsCheckedWhenBound) {
    // [N - 1, 2] -> [2*N - 2] is legal for N >= 1; N = 0 makes an extent negative at run time.
    const Dim n = Dim::sym("N");
    Tensor t = reshape(input("x", I32, {n - 1, 2}), {n * 2 - 2});
    Array a = make(I32, {2, 2}, {1, 2, 3, 4});
    expect_array(interpret(t, {{"x", a}}, {{"N", 3}}), I32, {4}, {1, 2, 3, 4});
    EXPECT_THROW(interpret(t, {{"x", Array(I32, {0, 2})}}, {{"N", 0}}), BindingError);
}

TEST(Interpreter, GatherReadsTheIndexedRowAndZeroOutOfRange) {
    // x = [[0, 1, 2], [10, 11, 12]]; idx along axis 1 per row: row 0 takes column 2, row 1 column -1.
    Tensor t = gather(input("x", I32, {2, 3}), 1, input("i", I32, {2, 1}));
    Inputs in = {{"x", make(I32, {2, 3}, {0, 1, 2, 10, 11, 12})}, {"i", make(I32, {2, 1}, {2, -1})}};
    expect_array(interpret(t, in), I32, {2, 1}, {2, 0});
    in["i"] = make(I32, {2, 1}, {3, 0});   // 3 is past the end: 0
    expect_array(interpret(t, in), I32, {2, 1}, {0, 10});
}

TEST(Interpreter, WindowStridedDilated) {
    // x = 0..9; windows of size 3, stride 2, dilation 2: out[o][r] = x[2o + 2r], O = (10 - 4 - 1)/2 + 1 = 3.
    Tensor t = window(input("x", I32, {10}), 0, 3, 2, 2);
    Array a = make(I32, {10}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    expect_array(interpret(t, {{"x", a}}), I32, {3, 3}, {0, 2, 4, 2, 4, 6, 4, 6, 8});
}

TEST(Interpreter, WindowKeepsOtherAxes) {
    // [2, 4] windowed on axis 1 with size 2: [2, 3, 2], out[b][o][r] = x[b][o + r].
    Tensor t = window(input("x", I32, {2, 4}), 1, 2);
    Array a = make(I32, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
    expect_array(interpret(t, {{"x", a}}), I32, {2, 3, 2}, {1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8});
}

// ---- Empty tensors ----

TEST(Interpreter, EmptyElementwise) {
    Tensor x = input("x", F32, {0, 3});
    expect_array(interpret(neg(add(x, fconst(1))), {{"x", Array(F32, {0, 3})}}), F32, {0, 3}, {});
}

TEST(Interpreter, EmptyReductionFloat) {
    // Reducing over an axis of extent 0: sum is 0, max is -inf; the other axis keeps its extent.
    Tensor x = input("x", F32, {3, 0});
    Inputs in = {{"x", Array(F32, {3, 0})}};
    expect_array(interpret(reduce_sum(x, {1}), in), F32, {3, 1}, {0, 0, 0});
    expect_array(interpret(reduce_max(x, {1}), in), F32, {3, 1}, {-kInf, -kInf, -kInf});
    expect_array(interpret(sum(x, {1}), in), F32, {3}, {0, 0, 0});
    // Reducing the non-empty axis leaves an empty result.
    expect_array(interpret(reduce_sum(x, {0}), in), F32, {1, 0}, {});
}

TEST(Interpreter, EmptyReductionInt) {
    Tensor x = input("x", I32, {0, 2});
    Inputs in = {{"x", Array(I32, {0, 2})}};
    expect_array(interpret(reduce_sum(x, {0}), in), I32, {1, 2}, {0, 0});
    const double lowest = std::numeric_limits<int32_t>::min();
    expect_array(interpret(reduce_max(x, {0}), in), I32, {1, 2}, {lowest, lowest});
}

TEST(Interpreter, EmptyThroughSymbolicDim) {
    const Dim n = Dim::sym("N");
    Tensor x = input("x", F32, {n});
    expect_array(interpret(reduce_sum(x, {0}), {{"x", Array(F32, {0})}}, {{"N", 0}}), F32, {1}, {0});
    expect_array(interpret(arange(n), {}, {{"N", 0}}), I32, {0}, {});
}

// ---- Graphs with several outputs ----

TEST(Interpreter, SeveralOutputsShareNodes) {
    Tensor x = input("x", I32, {3});
    Tensor y = mul(x, x);
    Graph g({y, add(y, x), x});
    Inputs in = {{"x", make(I32, {3}, {1, -2, 3})}};
    auto outs = interpret(g, in);
    ASSERT_EQ(outs.size(), 3u);
    expect_array(outs[0], I32, {3}, {1, 4, 9});
    expect_array(outs[1], I32, {3}, {2, 2, 12});
    expect_array(outs[2], I32, {3}, {1, -2, 3});
}

}  // namespace
}  // namespace halogen
