// Bad graphs into the grouping pass: cycles, dangling inputs and unsupported ops or views raise
// a GraphError naming the node; malformed shapes keep their own typed errors.
#include <gtest/gtest.h>

#include "tests/support/expect_error.h"

#include "formats/graph_json.h"
#include "frontend/grouping/grouping.h"
#include "frontend/halogen.h"

namespace halogen {
namespace {

using testing::expect_error;

void group_json(const std::string &text) { group_graph(graph_from_json(text)); }

TEST(GroupingErrors, Cycle) {
    expect_error<GraphError>([] {
        group_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [3]},
                                 {"id": 1, "op": "add", "inputs": [0, 2]},
                                 {"id": 2, "op": "neg", "inputs": [1]}],
                       "outputs": [2]})");
    }, {"cycle", "node 2"});
}

TEST(GroupingErrors, DanglingInput) {
    expect_error<GraphError>([] {
        group_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [3]},
                                 {"id": 1, "op": "mul", "inputs": [0, 7]}],
                       "outputs": [1]})");
    }, {"node 1", "node 7", "does not exist"});
}

TEST(GroupingErrors, UnsupportedViewInAFile) {
    expect_error<GraphError>([] {
        group_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [3, 4]},
                                 {"id": 1, "op": "as_strided", "inputs": [0], "strides": [1, 3]}],
                       "outputs": [1]})");
    }, {"node 1", "as_strided"});
}

TEST(GroupingErrors, UnsupportedViewNodeBuiltByHand) {
    // A node whose op the analysis does not know (made without the builder functions).
    Tensor x = input("x", DType::Float32, {3, 4});
    Node n;
    n.op = static_cast<Op>(999);
    n.dtype = DType::Float32;
    n.shape = {3, 4};
    n.inputs = {x};
    Tensor bogus = make_node(n);
    expect_error<GraphError>([&] { group_graph(Graph({neg(bogus)})); }, {"unsupported", "[3, 4]"});
}

TEST(GroupingErrors, UndefinedInputTensor) {
    Node n;
    n.op = Op::Neg;
    n.shape = {3};
    n.inputs = {Tensor()};
    Tensor t = make_node(n);
    expect_error<GraphError>([&] { group_graph(Graph({t})); }, {"neg", "undefined input"});
}

TEST(GroupingErrors, ShapeErrorsInAFileKeepTheirType) {
    expect_error<ShapeError>([] {
        group_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [3, 4]},
                                 {"id": 1, "op": "input", "name": "y", "dtype": "float32", "shape": [5]},
                                 {"id": 2, "op": "add", "inputs": [0, 1]}],
                       "outputs": [2]})");
    }, {"add", "[3, 4]", "[5]"});
}

TEST(GroupingErrors, MalformedJson) {
    expect_error<GraphError>([] { group_json(R"({"nodes": [ {"id": 0, )"); }, {"malformed"});
    expect_error<GraphError>([] { group_json(R"({"nodes": []})"); }, {"malformed", "outputs"});
}

TEST(GraphJson, ReadsAGraphTheBuildersAgreeWith) {
    Graph g = graph_from_json(R"({"nodes": [
        {"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": ["N", 4]},
        {"id": 1, "op": "const", "dtype": "float32", "value": 2},
        {"id": 2, "op": "mul", "inputs": [0, 1]},
        {"id": 3, "op": "sum", "inputs": [2], "axes": [1]}], "outputs": [3]})");
    ASSERT_EQ(g.outputs().size(), 1u);
    EXPECT_EQ(shape_str(g.outputs()[0].shape()), "[N]");
    Array x(DType::Float32, {2, 4});
    for (int k = 0; k < 8; ++k) x.set(k, k);
    Array out = interpret(g, {{"x", x}}, {{"N", 2}})[0];
    EXPECT_EQ(out.get(0), 2.0 * (0 + 1 + 2 + 3));
    EXPECT_EQ(out.get(1), 2.0 * (4 + 5 + 6 + 7));
}

}  // namespace
}  // namespace halogen
