// The graph fuzzer's own tests: the generator is deterministic and covers what the batch is meant
// to exercise (one-hot patterns the rewrite really fires on, symbolic dims, every view), and every
// mismatch the fuzzer found, shrunk to a minimal graph, stays fixed under every strategy.
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

// Over the CI seeds: every graph is well formed under its bindings, the one-hot rewrite fires on
// a good share of them, symbolic dims and every view op occur.
TEST(FuzzGenerator, CoversTheOpsTheBatchNeeds) {
    int rewritten = 0, symbolic = 0;
    std::map<std::string, int> ops;
    for (uint32_t seed = 0; seed < 300; ++seed) {
        FuzzCase c = generate_case(seed);
        Graph g = build_graph(c.doc);
        ASSERT_NO_THROW(g.check_bindings(c.bindings)) << c.doc.dump();
        int n = 0;
        rewrite_one_hot_reductions(g, &n);
        rewritten += n > 0;
        symbolic += !c.bindings.empty();
        for (const json &node : c.doc["nodes"]) ++ops[node["op"].get<std::string>()];
    }
    EXPECT_GE(rewritten, 60) << "the one-hot rewrite should fire in at least a fifth of the graphs";
    EXPECT_GE(symbolic, 50);
    for (const char *op : {"permute", "slice", "pad", "reshape", "expand", "window", "reduce_sum", "reduce_max",
                           "sum", "where", "eq", "index_components", "matmul", "cast", "mod"}) {
        EXPECT_GE(ops[op], 10) << op;
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

}  // namespace
}  // namespace halogen::fuzz
