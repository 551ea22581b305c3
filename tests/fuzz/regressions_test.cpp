// The graph fuzzer's own tests: the generator is deterministic and covers what the batch is meant
// to exercise (one-hot patterns the rewrite really fires on, symbolic dims, every view), and every
// mismatch the fuzzer found, shrunk to a minimal graph, stays fixed under every strategy.
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "frontend/rewrites/one_hot_gather.h"
#include "tests/fuzz/runner.h"

namespace halogen::fuzz {
namespace {

using json = nlohmann::json;

TEST(FuzzGenerator, SameSeedSameGraph) {
    for (uint32_t seed : {0u, 7u, 123456u}) {
        EXPECT_EQ(generate_case(seed).doc.dump(), generate_case(seed).doc.dump()) << "seed " << seed;
    }
    EXPECT_NE(generate_case(1).doc.dump(), generate_case(2).doc.dump());
}

// Over the CI batch's seeds (tests/fuzz/CMakeLists.txt): every graph is well formed under its
// bindings, the one-hot rewrite fires on a good share of them, symbolic dims and every view op occur.
TEST(FuzzGenerator, CoversTheOpsTheBatchNeeds) {
    int rewritten = 0, symbolic = 0;
    std::map<std::string, int> ops;
    for (uint32_t seed = 0; seed < HALOGEN_FUZZ_CI_SEEDS; ++seed) {
        FuzzCase c = generate_case(seed);
        Graph g = build_graph(c.doc);
        ASSERT_NO_THROW(g.check_bindings(c.bindings)) << c.doc.dump();
        int n = 0;
        rewrite_one_hot_reductions(g, &n);
        rewritten += n > 0;
        symbolic += !c.bindings.empty();
        for (const json &node : c.doc["nodes"]) ++ops[node["op"].get<std::string>()];
    }
    EXPECT_GE(rewritten, HALOGEN_FUZZ_CI_SEEDS / 5) << "the one-hot rewrite should fire in at least a fifth of the graphs";
    EXPECT_GE(symbolic, HALOGEN_FUZZ_CI_SEEDS / 6) << "a sixth of the graphs should have symbolic dims";
    for (const char *op : {"permute", "slice", "pad", "reshape", "expand", "window", "reduce_sum", "reduce_max",
                           "sum", "where", "eq", "index_components", "matmul", "cast", "mod"}) {
        EXPECT_GE(ops[op], 5) << op;
    }
}

FuzzCase parse_case(const std::string &text) {
    return case_from_json(json::parse(text));
}

// A case replayed from the JSON a failure printed: no strategy may mismatch the interpreter. The
// batch skips strategies that duplicate another; `min_strategies` pins how many differ here.
void expect_all_strategies_match(const std::string &text, int min_strategies = 2) {
    const FuzzCase c = parse_case(text);
    CheckResult r = check_case(c);
    EXPECT_GE(r.strategies_run, min_strategies);
    for (const Failure &f : r.failures) ADD_FAILURE() << f.strategy.name() << ": " << f.what;
}

// A regression: every one of the 12 strategies, duplicates included, against the interpreter.
void expect_every_strategy_matches(const std::string &text) {
    const FuzzCase c = parse_case(text);
    for (const Strategy &s : all_strategies()) {
        CheckResult r = check_case(c, s);
        EXPECT_EQ(r.strategies_run, 1);
        for (const Failure &f : r.failures) ADD_FAILURE() << f.strategy.name() << ": " << f.what;
    }
}

TEST(FuzzRunner, ChecksEveryStrategyThatApplies) {
    // Embedding written by hand: the rewrite fires and the reduction fuses, so all 12 strategies run.
    expect_all_strategies_match(R"({"seed": 3, "bindings": {"T": 5}, "outputs": [5], "nodes": [
        {"id": 0, "op": "input", "name": "ids", "dtype": "int32", "shape": ["T", 1, 1]},
        {"id": 1, "op": "input", "name": "w", "dtype": "float32", "shape": [30, 7]},
        {"id": 2, "op": "index_components", "shape": [1, 30, 1]},
        {"id": 3, "op": "eq", "inputs": [2, 0]},
        {"id": 6, "op": "const", "dtype": "float32", "value": 0},
        {"id": 4, "op": "where", "inputs": [3, 1, 6]},
        {"id": 5, "op": "sum", "inputs": [4], "axes": [1]}]})", 6);
}

// Found by `halogen_fuzz --seed 1000 --graphs 30` (seed 1000, strategy none+rewrite), shrunk from
// 15 nodes. A one-hot sum over a symbolic axis bound to 0: the rewrite took row 0 of the index with
// slice(idx, v, 0, 1), invalid for V = 0 (BindingError "slice ... reaches past extent 0"); then the
// gather's clamped read asked Halide for element 0 of the empty table ("accessed at 0, which is
// beyond the max (-1)"). The interpreter gives 0, the empty sum.
TEST(FuzzRegressions, OneHotSumOverEmptySymbolicAxis) {
    expect_every_strategy_matches(R"({"seed": 1000, "bindings": {"N": 0}, "outputs": [17], "nodes": [
        {"dtype": "float32", "id": 11, "name": "x4", "op": "input", "shape": ["N"]},
        {"dtype": "int32", "id": 12, "name": "i5", "op": "input", "shape": [1]},
        {"id": 13, "op": "index_components", "shape": ["N"]},
        {"id": 14, "inputs": [12, 13], "op": "eq"},
        {"dtype": "float32", "id": 15, "op": "const", "value": 0.0},
        {"id": 16, "inputs": [14, 11, 15], "op": "where"},
        {"axes": [0], "id": 17, "inputs": [16], "op": "reduce_sum"}]})");
}

// The same read as the gather's, in a pad: padding an axis bound to 0 asked for element 0 of the
// empty input. The output holds only the pad value.
TEST(FuzzRegressions, PadOfEmptySymbolicAxis) {
    expect_every_strategy_matches(R"({"seed": 1, "bindings": {"N": 0}, "outputs": [1], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x", "op": "input", "shape": [3, "N"]},
        {"id": 1, "inputs": [0], "op": "pad", "lo": [0, 2], "hi": [1, 1], "value": 2.5}]})");
}

// Found by the CI batch (`halogen_fuzz --seed 200 --graphs 50`, seed 228, every strategy), shrunk
// from 21 nodes: exp2 of a NaN (log2 of a negative input) gave 0, as Halide's pow(2, x) does under
// fast-math; the interpreter's exp2f gives NaN.
TEST(FuzzRegressions, Exp2OfNaNIsNaN) {
    expect_every_strategy_matches(R"({"seed": 228, "bindings": {}, "outputs": [2], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x0", "op": "input", "shape": [1, 1, 1]},
        {"id": 1, "inputs": [0], "op": "log2"},
        {"id": 2, "inputs": [1], "op": "exp2"}]})");
}

// ---- max and reduce_max propagate NaN (frontend/ops.h) ------------------------------------------
// Found by the CI batch (seeds 115, 226, 297, `reduce_max(log2(x))` with one negative x) and then
// avoided by the generator: the interpreter's `v > acc ? v : acc` skipped a NaN met after a number,
// its binary `a > b ? a : b` dropped a NaN in `a`, and the kernels' Halide max (fast-math) kept or
// dropped it depending on operand order and vectorization. ops.h now says what PyTorch does: a NaN
// operand makes max NaN, a NaN anywhere in a reduced row makes reduce_max NaN. The NaNs and Infs
// sit on chosen elements (given inputs, not the seed's), and each test also checks the interpreter
// against the stated semantics, so interpreter and kernels cannot agree on a wrong answer.

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// A float array of `shape` holding finite values in [-3, 3) (0.25 * (k % 25) - 3 at element k),
// then `set` (element -> value).
Array values(const std::vector<int64_t> &shape, const std::map<int64_t, float> &set) {
    Array a(DType::Float32, shape);
    for (int64_t k = 0; k < a.size(); ++k) a.set(k, 0.25 * double(k % 25) - 3);
    for (const auto &[k, v] : set) a.set(k, v);
    return a;
}

// `text` on `in` under every one of the 12 strategies against the interpreter; returns the
// interpreter's outputs.
std::vector<Array> expect_every_strategy_matches_on(const std::string &text, const Inputs &in) {
    const FuzzCase c = parse_case(text);
    for (const Strategy &s : all_strategies()) {
        CheckResult r = check_case(c, in, s);
        EXPECT_EQ(r.strategies_run, 1);
        for (const Failure &f : r.failures) ADD_FAILURE() << f.strategy.name() << ": " << f.what;
    }
    return interpret(build_graph(c.doc), in, c.bindings);
}

// The max of row r of x [R, D] as ops.h states it, written out independently of the interpreter.
double row_max(const Array &x, int64_t r, int64_t D) {
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t d = 0; d < D; ++d) {
        const double v = x.get(r * D + d);
        if (std::isnan(v)) return v;
        m = std::max(m, v);
    }
    return m;
}

bool same(double want, double got) { return (std::isnan(want) && std::isnan(got)) || want == got; }

// Binary max: a NaN in the first operand, in the second, in both, and against +-Inf.
TEST(FuzzRegressions, MaxWithNaNInEitherOperandIsNaN) {
    const std::map<int64_t, float> x_set = {{0, kNaN}, {2, kNaN}, {3, kNaN}, {4, -kInf}, {5, kInf}, {6, -kInf},
                                            {7, kInf}, {8, -kInf}, {32, kNaN}, {40, kNaN}, {65, kNaN}};
    const std::map<int64_t, float> y_set = {{1, kNaN}, {2, kNaN}, {3, kInf}, {4, kNaN}, {5, kNaN}, {6, kInf},
                                            {7, -kInf}, {8, -kInf}, {33, kNaN}, {41, -kInf}, {98, kNaN}};
    const Inputs in = {{"x", values({3, 33}, x_set)}, {"y", values({3, 33}, y_set)}};
    auto out = expect_every_strategy_matches_on(R"({"outputs": [2], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x", "op": "input", "shape": [3, 33]},
        {"dtype": "float32", "id": 1, "name": "y", "op": "input", "shape": [3, 33]},
        {"id": 2, "inputs": [0, 1], "op": "max"}]})", in);
    const Array &x = in.at("x"), &y = in.at("y");
    for (int64_t k = 0; k < 99; ++k) {
        const double a = x.get(k), b = y.get(k);
        const double want = std::isnan(a) || std::isnan(b) ? double(kNaN) : std::max(a, b);
        EXPECT_TRUE(same(want, out[0].get(k))) << "element " << k << ": max(" << a << ", " << b << ") gave " << out[0].get(k);
    }
}

// reduce_max along rows of 33 (a vector and a tail) with the NaN first, in the middle, last, and
// a finite row; the row max then feeds a consumer (softmax's x - max(x)), fused with it or not.
TEST(FuzzRegressions, ReduceMaxRowWithNaNFirstMiddleOrLastIsNaN) {
    const Inputs in = {{"x", values({4, 33}, {{0, kNaN}, {33 + 16, kNaN}, {2 * 33 + 32, kNaN}})}};
    auto out = expect_every_strategy_matches_on(R"({"outputs": [1, 3], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x", "op": "input", "shape": [4, 33]},
        {"axes": [1], "id": 1, "inputs": [0], "op": "reduce_max"},
        {"id": 2, "inputs": [1], "op": "expand", "shape": [4, 33]},
        {"id": 3, "inputs": [0, 2], "op": "sub"}]})", in);
    const Array &x = in.at("x");
    for (int64_t r = 0; r < 4; ++r) {
        EXPECT_EQ(std::isnan(out[0].get(r)), r < 3) << "row " << r;
        EXPECT_TRUE(same(row_max(x, r, 33), out[0].get(r))) << "row " << r;
        for (int64_t d = 0; d < 33; ++d) EXPECT_EQ(std::isnan(out[1].get(r * 33 + d)), r < 3) << r << ", " << d;
    }
}

// reduce_max down the columns of [33, 9] (under `simd` the reduction is vectorized across
// columns): a NaN in the first, a middle and the last row of three columns.
TEST(FuzzRegressions, ReduceMaxColumnWithNaNFirstMiddleOrLastIsNaN) {
    const Inputs in = {{"x", values({33, 9}, {{0 * 9 + 1, kNaN}, {16 * 9 + 4, kNaN}, {32 * 9 + 8, kNaN}})}};
    auto out = expect_every_strategy_matches_on(R"({"outputs": [1], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x", "op": "input", "shape": [33, 9]},
        {"axes": [0], "id": 1, "inputs": [0], "op": "reduce_max"}]})", in);
    for (int64_t c = 0; c < 9; ++c) EXPECT_EQ(std::isnan(out[0].get(c)), c == 1 || c == 4 || c == 8) << "column " << c;
}

// Rows mixing -Inf, +Inf and NaN: all -Inf stays -Inf; -Inf with +Inf is +Inf; +Inf before or after
// a NaN is NaN; -Inf around a NaN is NaN; an empty row (N = 0) is -Inf, the "lowest value".
TEST(FuzzRegressions, ReduceMaxRowsMixingInfAndNaN) {
    std::map<int64_t, float> set;
    for (int64_t d = 0; d < 33; ++d) set[0 * 33 + d] = -kInf;              // row 0: all -Inf
    set[1 * 33 + 0] = -kInf, set[1 * 33 + 20] = kInf;                      // row 1: +Inf
    set[2 * 33 + 3] = kInf, set[2 * 33 + 30] = kNaN;                       // row 2: +Inf, then NaN
    set[3 * 33 + 3] = kNaN, set[3 * 33 + 30] = kInf;                       // row 3: NaN, then +Inf
    for (int64_t d = 0; d < 33; ++d) set[4 * 33 + d] = d == 17 ? kNaN : -kInf;   // row 4: -Inf, NaN, -Inf
    const Inputs in = {{"x", values({5, 33}, set)}};
    auto out = expect_every_strategy_matches_on(R"({"outputs": [1, 3], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x", "op": "input", "shape": [5, 33]},
        {"axes": [1], "id": 1, "inputs": [0], "op": "reduce_max"},
        {"id": 2, "inputs": [1], "op": "expand", "shape": [5, 33]},
        {"id": 3, "inputs": [0, 2], "op": "max"}]})", in);
    const std::vector<double> want = {-kInf, kInf, kNaN, kNaN, kNaN};
    for (int64_t r = 0; r < 5; ++r) {
        EXPECT_TRUE(same(want[r], out[0].get(r))) << "row " << r << " gave " << out[0].get(r);
        for (int64_t d = 0; d < 33; ++d) {   // max(x, rowmax(x)) is the row max
            EXPECT_TRUE(same(want[r], out[1].get(r * 33 + d))) << r << ", " << d << " gave " << out[1].get(r * 33 + d);
        }
    }
    Inputs empty = {{"x", Array(DType::Float32, {3, 0})}};
    auto none = expect_every_strategy_matches_on(R"({"bindings": {"N": 0}, "outputs": [1], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x", "op": "input", "shape": [3, "N"]},
        {"axes": [1], "id": 1, "inputs": [0], "op": "reduce_max"}]})", empty);
    for (int64_t r = 0; r < 3; ++r) EXPECT_EQ(none[0].get(r), -kInf) << "empty row " << r;
}

// Found by the CI batch (`halogen_fuzz --seed 100 --graphs 50`, seed 110, strategy simd), shrunk
// from 11 to 4 nodes; no NaN in it. A reduce_max whose int32 key were decoded at every reader
// would load the key twice: the where's vectorized GuardWithIf tail (129 = 8 x 16 + 1) then
// vanishes in Halide 14's lowering and the kernel writes a whole vector past the end of its
// output. The key is decoded by the reduction itself, and a reader loads it once.
TEST(FuzzRegressions, WhereOfReduceMaxKeepsItsVectorTail) {
    expect_every_strategy_matches(R"({"seed": 110, "bindings": {}, "outputs": [8], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x0", "op": "input", "shape": [2, 2, 129]},
        {"dtype": "bool", "id": 5, "name": "b1", "op": "input", "shape": [1]},
        {"axes": [1], "id": 7, "inputs": [0], "op": "reduce_max"},
        {"id": 8, "inputs": [5, 0, 7], "op": "where"}]})");
}

// The general case behind the one above, found by review: a vectorized loop over a constant extent
// that leaves one lane for its GuardWithIf tail (129 = 8 x 16 + 1, 33 = 2 x 16 + 1), reading a
// reduction stored outside that loop through a vector `let` -- the reduction read twice, as in
// mul(rs, rs) or (x - m) * (x - m). Halide 14 dropped the predicated tail (its simplifier took the
// let's odd lanes, a load predicated off past the end of the reduction's buffer, for an unreachable
// load) and the simd kernels stored a whole vector there, past the end of the output. b is false,
// so that what lands past the end is the reduction's values, not a copy of x's canary.
TEST(FuzzRegressions, ReductionReadTwiceInAOneLaneTailKeepsItsVectorTail) {
    Array b(DType::Bool, {1});   // false
    expect_every_strategy_matches_on(R"({"outputs": [4], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x", "op": "input", "shape": [2, 2, 129]},
        {"dtype": "bool", "id": 1, "name": "b", "op": "input", "shape": [1]},
        {"axes": [1], "id": 2, "inputs": [0], "op": "reduce_sum"},
        {"id": 3, "inputs": [2, 2], "op": "mul"},
        {"id": 4, "inputs": [1, 0, 3], "op": "where"}]})",
                                     {{"x", values({2, 2, 129}, {})}, {"b", b}});
    // No where: x minus its max over axis 1, squared (a variance's terms).
    expect_every_strategy_matches_on(R"({"outputs": [4], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x", "op": "input", "shape": [2, 3, 33]},
        {"axes": [1], "id": 2, "inputs": [0], "op": "reduce_max"},
        {"id": 3, "inputs": [0, 2], "op": "sub"},
        {"id": 4, "inputs": [3, 3], "op": "mul"}]})",
                                     {{"x", values({2, 3, 33}, {})}});
    // Long mode, seed 105592 (shrunk): max(x, sum of x over axis 1) on [1, 2, 33], found by a
    // fuzz binary built before the fix; written past the end of the output under simd.
    expect_every_strategy_matches_on(R"({"outputs": [9], "nodes": [
        {"dtype": "float32", "id": 10, "name": "s10", "op": "input", "shape": [1, 2, 33]},
        {"axes": [1], "id": 8, "inputs": [10], "op": "reduce_sum"},
        {"id": 9, "inputs": [10, 8], "op": "max"}]})",
                                     {{"s10", values({1, 2, 33}, {})}});
}

// ---- Inf and NaN known when lowering (halide_gen/compiler/lower.cpp) --------------------------------------
// Found by the long mode (shard `halogen_fuzz --seed 105000`): seed 108242, shrunk from 12 to 4
// nodes. Without strict_float, x + log2(0.0) gives 1.5365e16 instead of -inf: Halide folds
// log2 of the constant to -inf, and LLVM, told by the fast-math flags that no operand is Inf, folds
// the add to poison. A float op reading a constant Inf or NaN is compiled without those flags.
TEST(FuzzRegressions, AddOfLog2OfZeroIsMinusInf) {
    const std::string text = R"({"seed": 108242, "bindings": {"N": 1}, "outputs": [15], "nodes": [
        {"dtype": "float32", "id": 6, "op": "const", "value": 0.0},
        {"id": 13, "inputs": [6], "op": "log2"},
        {"dtype": "float32", "id": 14, "name": "x4", "op": "input", "shape": []},
        {"id": 15, "inputs": [14, 13], "op": "add"}]})";
    expect_every_strategy_matches(text);
    Array x(DType::Float32, {});
    x.set(0, 1.5);
    auto out = expect_every_strategy_matches_on(text, {{"x4", x}});
    EXPECT_EQ(out[0].get(0), -kInf);
    // The same class, found by the same binary at seeds 104622 (x - log2(0), want +inf) and
    // 109549 (log2(0) * x, want -inf for x > 0), shrunk to 4 nodes each.
    expect_every_strategy_matches(R"({"seed": 104622, "bindings": {"N": 1}, "outputs": [17], "nodes": [
        {"dtype": "float32", "id": 5, "op": "const", "value": 0.0},
        {"id": 15, "inputs": [5], "op": "log2"},
        {"dtype": "float32", "id": 16, "name": "x4", "op": "input", "shape": []},
        {"id": 17, "inputs": [16, 15], "op": "sub"}]})");
    expect_every_strategy_matches(R"({"seed": 109549, "bindings": {}, "outputs": [18], "nodes": [
        {"dtype": "float32", "id": 7, "op": "const", "value": 0.0},
        {"id": 16, "inputs": [7], "op": "log2"},
        {"dtype": "float32", "id": 17, "name": "x3", "op": "input", "shape": []},
        {"id": 18, "inputs": [16, 17], "op": "mul"}]})");
}

// The class behind it: every way a constant Inf or NaN reaches a float op -- folded from log2(0),
// 1/0, sqrt(-1) and exp2(200), read directly, through a where's branch (an Inf inlined into a select
// that its reader's add could be folded into), and summed by a reduction -- on x in [-3, 3) with
// zeros, so that 0 * Inf gives NaN. Each output is checked against IEEE arithmetic written out here.
TEST(FuzzRegressions, FloatOpsReadingAConstantInfOrNaNGiveIEEEResults) {
    const Inputs in = {{"x", values({2, 33}, {})}};
    auto out = expect_every_strategy_matches_on(R"({"outputs": [6, 7, 10, 11, 12, 14], "nodes": [
        {"dtype": "float32", "id": 0, "name": "x", "op": "input", "shape": [2, 33]},
        {"dtype": "float32", "id": 1, "op": "const", "value": 0.0},
        {"id": 2, "inputs": [1], "op": "log2"},
        {"id": 3, "inputs": [1], "op": "recip"},
        {"dtype": "float32", "id": 4, "op": "const", "value": -1.0},
        {"id": 5, "inputs": [4], "op": "sqrt"},
        {"id": 6, "inputs": [0, 2], "op": "add"},
        {"id": 7, "inputs": [0, 3], "op": "mul"},
        {"id": 8, "inputs": [0, 3], "op": "lt"},
        {"id": 9, "inputs": [8, 2, 0], "op": "where"},
        {"id": 10, "inputs": [9, 0], "op": "add"},
        {"id": 11, "inputs": [0, 5], "op": "max"},
        {"axes": [1], "id": 12, "inputs": [6], "op": "reduce_sum"},
        {"dtype": "float32", "id": 15, "op": "const", "value": 200.0},
        {"id": 13, "inputs": [15], "op": "exp2"},
        {"id": 14, "inputs": [0, 13], "op": "add"}]})", in);
    const Array &x = in.at("x");
    for (int64_t k = 0; k < 66; ++k) {
        const double v = x.get(k);
        EXPECT_EQ(out[0].get(k), -kInf) << "x + log2(0) at " << k;
        EXPECT_TRUE(same(double(float(v) * kInf), out[1].get(k))) << "x * (1/0) at " << k << " gave " << out[1].get(k);
        EXPECT_EQ(out[2].get(k), -kInf) << "where(x < 1/0, log2(0), x) + x at " << k;
        EXPECT_TRUE(std::isnan(out[3].get(k))) << "max(x, sqrt(-1)) at " << k;
        EXPECT_EQ(out[5].get(k), kInf) << "x + exp2(200) at " << k;
    }
    for (int64_t r = 0; r < 2; ++r) EXPECT_EQ(out[4].get(r), -kInf) << "row sum of x + log2(0), row " << r;
}

}  // namespace
}  // namespace halogen::fuzz
