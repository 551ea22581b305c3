// The JSON graph reader (formats/graph_json.h) on malformed graphs: each must raise one typed
// halogen error whose message names the node (id and op) and the field, never another exception
// and never a wrong value; and what parses must group as its shapes say (`halogen groups`).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tests/support/expect_error.h"

#include "formats/graph_json.h"
#include "frontend/grouping/grouping.h"
#include "frontend/halogen.h"

namespace halogen {
namespace {

using testing::expect_error;

// A graph of an input x (node 0, float32 [N, 4]) and the node(s) `rest`, whose last is the output.
std::string with_x(const std::string &rest, int output = 1) {
    return fmt::format(R"({{"nodes": [{{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": ["N", 4]}}, {}],
                         "outputs": [{}]}})", rest, output);
}

// The message of the GraphError `text` raises (empty, and a test failure, if it raises none).
std::string graph_error(const std::string &text) {
    try {
        graph_from_json(text);
    } catch (const GraphError &e) {
        return e.what();
    } catch (const std::exception &e) {
        ADD_FAILURE() << "not a GraphError: " << e.what();
        return "";
    }
    ADD_FAILURE() << "no error for " << text;
    return "";
}

// ---- The crashes and wrong messages of issue 25 ----

TEST(GraphJson, AddWithOneInputNamesTheNodeAndField) {
    // Was an uncaught std::out_of_range (exit 134 from `halogen groups`).
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "add", "inputs": [0]})")); },
                             {"graph: node 1 (add): field 'inputs'", "2 node(s), got 1"});
}

TEST(GraphJson, WhereWithTwoInputsNamesTheNodeAndField) {
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "where", "inputs": [0, 0]})")); },
                             {"graph: node 1 (where): field 'inputs'", "3 node(s), got 2"});
}

TEST(GraphJson, NodeWithoutInputsNamesTheNodeAndField) {
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "neg"})")); },
                             {"graph: node 1 (neg): field 'inputs' is missing"});
}

TEST(GraphJson, MissingKeyNamesTheNode) {
    // Was "malformed JSON: [json.exception.out_of_range.403] key 'axes' not found", no node named.
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "sum", "inputs": [0]})")); },
                             {"graph: node 1 (sum): field 'axes' is missing"});
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [{"id": 7, "op": "input", "name": "x", "dtype": "int32"}],
                                                     "outputs": [7]})"); },
                             {"graph: node 7 (input): field 'shape' is missing"});
}

TEST(GraphJson, AxisBeyondInt32IsShownAsWritten) {
    // Was "reduce_sum: axis 1215752191 is out of range": 99999999999 truncated to int.
    const std::string msg = graph_error(with_x(R"({"id": 1, "op": "sum", "inputs": [0], "axes": [99999999999]})"));
    EXPECT_NE(msg.find("node 1 (sum): field 'axes' entry 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("got 99999999999"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("1215752191"), std::string::npos) << msg;
}

TEST(GraphJson, ExtentProductBeyondInt64IsAShapeError) {
    // Was "loops [0]" from `halogen groups`: 2^40 * 2^40 wrapped to 0 in the loop collapse.
    expect_error<ShapeError>([] {
        graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32",
                                       "shape": [1099511627776, 1099511627776]},
                                      {"id": 1, "op": "neg", "inputs": [0]}], "outputs": [1]})");
    }, {"node 0 (input)", "'shape'", "[1099511627776, 1099511627776]", "overflows int64"});
    // A zero extent does not hide the product of the others, which the loop collapse multiplies.
    expect_error<ShapeError>([] {
        graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32",
                                       "shape": [0, 1099511627776, 1099511627776]}], "outputs": [0]})");
    }, {"node 0 (input)", "overflows int64"});
    // A product made inside a builder: matmul's [M, K, N] intermediate.
    expect_error<ShapeError>([] {
        graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "a", "dtype": "float32", "shape": [2147483648, 2147483648]},
                                      {"id": 1, "op": "input", "name": "b", "dtype": "float32", "shape": [2147483648, 2147483648]},
                                      {"id": 2, "op": "matmul", "inputs": [0, 1]}], "outputs": [2]})");
    }, {"node 2 (matmul), field 'inputs'", "[2147483648, 2147483648, 2147483648]", "overflows int64"});
    // Symbolic extents: the product of 13 axes A_k + 1 would have 2^13 terms (the grouping
    // multiplies such runs); 12 give 4096, the most allowed.
    auto padded = [](int rank) {
        std::vector<std::string> names, ones;
        for (int k = 0; k < rank; ++k) names.push_back(fmt::format("\"A{}\"", k)), ones.push_back("1");
        return fmt::format(R"({{"nodes": [{{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [{}]}},
            {{"id": 1, "op": "pad", "inputs": [0], "lo": [{}], "hi": [{}]}}], "outputs": [1]}})",
                           fmt::join(names, ", "), fmt::join(ones, ", "), fmt::join(std::vector<std::string>(rank, "0"), ", "));
    };
    EXPECT_EQ(graph_from_json(padded(12)).outputs()[0].shape()[11], Dim::sym("A11") + 1);
    expect_error<ShapeError>([&] { graph_from_json(padded(13)); },
                             {"node 1 (pad), fields 'inputs', 'lo', 'hi':", "polynomial of more than 4096 terms"});
}

TEST(GraphJson, ExtentProductWithinInt64GroupsExactly) {
    // 2^40 * 2^22 = 2^62 fits: one kernel over one collapsed loop of exactly 2^62 points.
    Graph g = graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32",
                                             "shape": [1099511627776, 4194304]},
                                            {"id": 1, "op": "neg", "inputs": [0]}], "outputs": [1]})");
    auto groups = group_graph(g);
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].collapsed_shape, Shape({Dim(int64_t(1) << 62)}));
}

// ---- Wrong JSON types and numbers out of range ----

TEST(GraphJson, StringWhereANumberIsExpected) {
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "slice", "inputs": [0], "axis": 0, "start": "1", "stop": 2})")); },
                             {"node 1 (slice): field 'start'", "got \"1\""});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "neg", "inputs": ["0"]})")); },
                             {"node 1 (neg): field 'inputs' entry 0", "got \"0\""});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "sum", "inputs": [0], "axes": 1})")); },
                             {"node 1 (sum): field 'axes' must be an array, got 1"});
}

TEST(GraphJson, FloatWhereAnIntegerIsExpected) {
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "sum", "inputs": [0], "axes": [1.5]})")); },
                             {"node 1 (sum): field 'axes' entry 0 must be an integer", "got 1.5"});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "neg", "inputs": [0.0]})")); },
                             {"node 1 (neg): field 'inputs' entry 0 must be an integer", "got 0.0"});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "window", "inputs": [0], "axis": 1, "size": 2, "stride": 1.0})")); },
                             {"node 1 (window): field 'stride' must be an integer", "got 1.0"});
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [2.0]}],
                                                     "outputs": [0]})"); },
                             {"node 0 (input): field 'shape' entry 0", "got 2.0"});
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [{"id": 1.0, "op": "input", "name": "x", "dtype": "float32", "shape": [2]}],
                                                     "outputs": [1]})"); },
                             {"nodes[0]: field 'id' must be an integer", "got 1.0"});
}

TEST(GraphJson, NegativeIds) {
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [{"id": -1, "op": "input", "name": "x", "dtype": "float32", "shape": [2]}],
                                                     "outputs": [0]})"); },
                             {"nodes[0]: field 'id' must be an integer in [0, 9223372036854775807], got -1"});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "neg", "inputs": [-1]})")); },
                             {"node 1 (neg): field 'inputs' entry 0", "got -1"});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "neg", "inputs": [0]})", -1)); },
                             {"field 'outputs' entry 0", "got -1"});
}

TEST(GraphJson, DuplicateIdsNamesAndKeys) {
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 0, "op": "neg", "inputs": [0]})", 0)); },
                             {"node 0 (neg) at nodes[1]: field 'id'", "nodes[0] (input)"});
    // Two inputs of one name (the same shape, so that no builder objects first).
    expect_error<GraphError>([] {
        graph_from_json(with_x(R"({"id": 1, "op": "input", "name": "x", "dtype": "float32", "shape": ["N", 4]},
                                  {"id": 2, "op": "add", "inputs": [0, 1]})", 2));
    }, {"node 1 (input): field 'name' is \"x\", already the name of node 0 (input)"});
    // A key twice in one object, which a JSON library would resolve silently (the last wins).
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "sum", "inputs": [0], "axes": [0], "axes": [1]})")); },
                             {"malformed JSON: key \"axes\" appears twice in one object"});
}

TEST(GraphJson, NumbersBeyondInt64AndInt32) {
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [{"id": 9223372036854775808, "op": "input", "name": "x",
                                                     "dtype": "float32", "shape": [2]}], "outputs": [0]})"); },
                             {"nodes[0]: field 'id'", "got 9223372036854775808"});
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32",
                                                     "shape": [18446744073709551615]}], "outputs": [0]})"); },
                             {"node 0 (input): field 'shape' entry 0", "got 18446744073709551615"});
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32",
                                                     "shape": [1e30]}], "outputs": [0]})"); },
                             {"node 0 (input): field 'shape' entry 0", "got 1e+30"});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "permute", "inputs": [0], "axes": [1, 2147483648]})")); },
                             {"node 1 (permute): field 'axes' entry 1", "got 2147483648"});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "slice", "inputs": [0], "axis": -2147483649, "start": 0, "stop": 1})")); },
                             {"node 1 (slice): field 'axis'", "got -2147483649"});
}

// Every op given one input too many, and (except the leaves) none.
TEST(GraphJson, ArityOfEveryOp) {
    const std::vector<std::pair<std::string, int>> ops = {
        {"input", 0}, {"const", 0}, {"index_components", 0}, {"neg", 1}, {"recip", 1}, {"sqrt", 1}, {"exp2", 1},
        {"log2", 1}, {"sin", 1}, {"not", 1}, {"exp", 1}, {"log", 1}, {"cast", 1}, {"add", 2}, {"mul", 2},
        {"max", 2}, {"idiv", 2}, {"mod", 2}, {"and", 2}, {"or", 2}, {"xor", 2}, {"ne", 2}, {"lt", 2}, {"eq", 2},
        {"sub", 2}, {"div", 2}, {"le", 2}, {"gt", 2}, {"ge", 2}, {"matmul", 2}, {"where", 3}, {"reduce_sum", 1},
        {"reduce_max", 1}, {"sum", 1}, {"permute", 1}, {"reshape", 1}, {"expand", 1}, {"slice", 1}, {"pad", 1},
        {"window", 1}};
    for (const auto &[op, arity] : ops) {
        for (int n : {arity + 1, arity - 1}) {
            if (n < 0) continue;
            std::vector<int> inputs(n, 0);
            const std::string msg = graph_error(with_x(fmt::format(R"({{"id": 1, "op": "{}", "inputs": [{}]}})", op, fmt::join(inputs, ", "))));
            EXPECT_NE(msg.find(fmt::format("graph: node 1 ({}): field 'inputs' must name {} node(s), got {}", op, arity, n)),
                      std::string::npos) << op << " with " << n << " inputs: " << msg;
        }
    }
}

TEST(GraphJson, AttributesMissing) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"("op": "reshape", "inputs": [0])", "shape"},
        {R"("op": "expand", "inputs": [0])", "shape"},
        {R"("op": "permute", "inputs": [0])", "axes"},
        {R"("op": "slice", "inputs": [0], "start": 0, "stop": 1)", "axis"},
        {R"("op": "slice", "inputs": [0], "axis": 0, "stop": 1)", "start"},
        {R"("op": "slice", "inputs": [0], "axis": 0, "start": 0)", "stop"},
        {R"("op": "pad", "inputs": [0], "hi": [0, 1])", "lo"},
        {R"("op": "pad", "inputs": [0], "lo": [0, 1])", "hi"},
        {R"("op": "window", "inputs": [0], "size": 2)", "axis"},
        {R"("op": "window", "inputs": [0], "axis": 1)", "size"},
        {R"("op": "reduce_max", "inputs": [0])", "axes"},
        {R"("op": "cast", "inputs": [0])", "dtype"},
        {R"("op": "index_components")", "shape"},
        {R"("op": "const", "value": 1)", "dtype"},
        {R"("op": "const", "dtype": "float32")", "value"},
        {R"("op": "input", "dtype": "float32", "shape": [1])", "name"},
        {R"("op": "input", "name": "y", "shape": [1])", "dtype"},
    };
    for (const auto &[fields, missing] : cases) {
        const std::string msg = graph_error(with_x(fmt::format(R"({{"id": 1, {}}})", fields)));
        EXPECT_NE(msg.find(fmt::format("): field '{}' is missing", missing)), std::string::npos) << fields << ": " << msg;
        EXPECT_NE(msg.find("graph: node 1 ("), std::string::npos) << msg;
    }
}

TEST(GraphJson, UnknownDtype) {
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float64", "shape": [2]}],
                                                     "outputs": [0]})"); },
                             {"node 0 (input): field 'dtype'", "got \"float64\""});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "cast", "inputs": [0], "dtype": 3})")); },
                             {"node 1 (cast): field 'dtype'", "got 3"});
}

TEST(GraphJson, UnknownFieldOrOp) {
    // A misspelt optional attribute would otherwise be ignored silently.
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "window", "inputs": [0], "axis": 1, "size": 2, "strides": 2})")); },
                             {"node 1 (window): field 'strides' is not one of", "stride"});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "frobnicate", "inputs": [0]})")); },
                             {"node 1 (frobnicate): unsupported op \"frobnicate\""});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": 7, "inputs": [0]})")); },
                             {"node 1: field 'op' must be a string, got 7"});
}

// Names from the file reach messages escaped, so that a message stays one line (the fuzzer found
// an op "\nput": the message of `halogen groups` ran over two lines).
TEST(GraphJson, NamesInMessagesAreEscaped) {
    auto one_line = [](const std::string &text, const std::string &part) {
        const std::string msg = graph_error(text);
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
    };
    one_line(R"({"nodes": [{"id": 0, "op": "\nput", "name": "x0", "dtype": "float32", "shape": ["N", 4]}], "outputs": [0]})",
             R"(graph: node 0 ("\nput"): unsupported op "\nput")");
    one_line(with_x(R"({"id": 1, "op": "neg", "inputs": [0], "a\nb": 1})"), R"(graph: node 1 (neg): field '"a\nb"' is not one of)");
    one_line(with_x(R"({"id": 0, "op": "x\ry", "inputs": [0]})", 0), R"(node 0 ("x\ry") at nodes[1]: field 'id')");
}

TEST(GraphJson, ValuesThatDoNotFitTheirDtype) {
    auto constant = [](const std::string &dtype, const std::string &value) {
        return fmt::format(R"({{"nodes": [{{"id": 3, "op": "const", "dtype": "{}", "value": {}}}], "outputs": [3]}})", dtype, value);
    };
    expect_error<GraphError>([&] { graph_from_json(constant("int32", "2.5")); }, {"node 3 (const): field 'value'", "int32", "got 2.5"});
    expect_error<GraphError>([&] { graph_from_json(constant("int32", "3000000000")); }, {"node 3 (const): field 'value'", "got 3000000000"});
    expect_error<GraphError>([&] { graph_from_json(constant("bool", "2")); }, {"node 3 (const): field 'value'", "bool"});
    expect_error<GraphError>([&] { graph_from_json(constant("float32", "1e300")); }, {"node 3 (const): field 'value'", "float32"});
    expect_error<GraphError>([&] { graph_from_json(constant("float32", "\"1\"")); }, {"node 3 (const): field 'value'", "got \"1\""});
    // Integral numbers written as floats stay valid int32 values (the graph fuzzer writes 3.0).
    Graph g = graph_from_json(constant("int32", "3.0"));
    EXPECT_EQ(g.outputs()[0].dtype(), DType::Int32);
    EXPECT_EQ(g.outputs()[0].node().value, 3.0);
    expect_error<GraphError>([] {
        graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "i", "dtype": "int32", "shape": [2]},
                                      {"id": 1, "op": "pad", "inputs": [0], "lo": [1], "hi": [0], "value": 0.5}], "outputs": [1]})");
    }, {"node 1 (pad): field 'value'", "int32", "got 0.5"});
}

TEST(GraphJson, NamesAreIdentifiers) {
    auto x_named = [](const std::string &name, const std::string &extent) {
        return fmt::format(R"({{"nodes": [{{"id": 0, "op": "input", "name": {}, "dtype": "float32", "shape": [{}]}}], "outputs": [0]}})",
                           name, extent);
    };
    expect_error<GraphError>([&] { graph_from_json(x_named("\"\"", "2")); }, {"node 0 (input): field 'name'", "got \"\""});
    expect_error<GraphError>([&] { graph_from_json(x_named("\"x\\ny\"", "2")); }, {"node 0 (input): field 'name'", "got \"x\\ny\""});
    expect_error<GraphError>([&] { graph_from_json(x_named("\"x\"", "\"B*S\"")); }, {"node 0 (input): field 'shape' entry 0", "got \"B*S\""});
    expect_error<GraphError>([&] { graph_from_json(x_named("\"x\"", "\"\"")); }, {"node 0 (input): field 'shape' entry 0"});
}

TEST(GraphJson, ReferencesAndDocument) {
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "mul", "inputs": [0, 7]})")); },
                             {"node 1 (mul): field 'inputs' names node 7, which does not exist"});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "neg", "inputs": [1]})")); },
                             {"node 1 (neg): field 'inputs' names node 1 (neg), which closes a cycle"});
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "neg", "inputs": [0]})", 5)); },
                             {"field 'outputs' entry 0 names node 5, which does not exist"});
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [], "outputs": []})"); }, {"field 'outputs' is empty"});
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": {}, "outputs": [0]})"); }, {"field 'nodes' must be an array"});
    expect_error<GraphError>([] { graph_from_json(R"({"nodes": [5], "outputs": [0]})"); }, {"nodes[0] must be an object, got 5"});
    expect_error<GraphError>([] { graph_from_json("[1, 2]"); }, {"must be an object, got an array of 2"});
    expect_error<GraphError>([] { graph_from_json("{\"nodes\": [}"); }, {"graph: malformed JSON"});
    // A NUL byte would end the text for nlohmann-json, and the nodes after it would go unread.
    expect_error<GraphError>([] { graph_from_json(with_x(R"({"id": 1, "op": "neg", "inputs": [0]})") + std::string(1, '\0') + "{"); },
                             {"graph: malformed JSON: not valid JSON (NUL byte at"});
    // A node no output reads is still checked.
    expect_error<GraphError>([] {
        graph_from_json(with_x(R"({"id": 1, "op": "neg", "inputs": [0]}, {"id": 2, "op": "add", "inputs": [0]})"));
    }, {"node 2 (add): field 'inputs'"});
}

TEST(GraphJson, ChainLongerThanTheLimit) {
    // x, then neg of the node before: listed from the input (or, reversed, from the output).
    auto chain = [](int length, bool reversed = false) {
        std::vector<std::string> nodes = {R"({"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [2]})"};
        for (int k = 1; k < length; ++k) nodes.push_back(fmt::format(R"({{"id": {}, "op": "neg", "inputs": [{}]}})", k, k - 1));
        if (reversed) std::reverse(nodes.begin(), nodes.end());
        return fmt::format(R"({{"nodes": [{}], "outputs": [{}]}})", fmt::join(nodes, ", "), length - 1);
    };
    EXPECT_EQ(graph_from_json(chain(10000)).nodes().size(), 10000u);
    EXPECT_EQ(graph_from_json(chain(10000, true)).nodes().size(), 10000u);
    // The chain counts the nodes the builders make: each matmul adds 5 to it (reshapes, mul, sum).
    std::string matmuls = R"({"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [2, 2]})";
    for (int k = 1; k <= 2000; ++k) matmuls += fmt::format(R"(, {{"id": {}, "op": "matmul", "inputs": [{}, {}]}})", k, k - 1, k - 1);
    expect_error<GraphError>([&] { graph_from_json(fmt::format(R"({{"nodes": [{}], "outputs": [2000]}})", matmuls)); },
                             {"node 2000 (matmul): field 'inputs' ends a chain of 10001 nodes as built"});
    expect_error<GraphError>([&] { graph_from_json(chain(10001)); }, {"node 10000 (neg): field 'inputs' ends a chain of 10001 nodes as built, more than the 10000 a graph may hold"});
}

// ---- Builders' errors keep their types, and gain the node's name ----

TEST(GraphJson, BuilderErrorsKeepTheirTypes) {
    expect_error<ShapeError>([] {
        graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [3, 4]},
                                      {"id": 1, "op": "input", "name": "y", "dtype": "float32", "shape": [5]},
                                      {"id": 2, "op": "add", "inputs": [0, 1]}], "outputs": [2]})");
    }, {"graph: node 2 (add), field 'inputs': add: cannot broadcast shapes [3, 4] and [5]"});
    expect_error<AxisError>([] { graph_from_json(with_x(R"({"id": 1, "op": "sum", "inputs": [0], "axes": [2]})")); },
                            {"graph: node 1 (sum), fields 'inputs', 'axes':", "axis 2 is out of range for shape [N, 4]"});
    expect_error<ViewError>([] { graph_from_json(with_x(R"({"id": 1, "op": "permute", "inputs": [0], "axes": [0, 0]})")); },
                            {"graph: node 1 (permute), fields 'inputs', 'axes': permute:"});
    expect_error<DTypeError>([] { graph_from_json(with_x(R"({"id": 1, "op": "where", "inputs": [0, 0, 0]})")); },
                             {"graph: node 1 (where), field 'inputs': where: the condition must be bool"});
    expect_error<ViewError>([] { graph_from_json(with_x(R"({"id": 1, "op": "slice", "inputs": [0], "axis": 1, "start": 0, "stop": 5})")); },
                            {"graph: node 1 (slice), fields 'inputs', 'axis', 'start', 'stop': slice:"});
}

TEST(GraphJson, ViewArithmeticBeyondInt64IsAShapeError) {
    expect_error<ShapeError>([] {
        graph_from_json(with_x(R"({"id": 1, "op": "pad", "inputs": [0], "lo": [0, 9223372036854775807], "hi": [0, 9223372036854775807]})"));
    }, {"graph: node 1 (pad), fields 'inputs', 'lo', 'hi':", "overflows int64"});
    expect_error<ShapeError>([] {
        graph_from_json(with_x(R"({"id": 1, "op": "window", "inputs": [0], "axis": 1, "size": 3, "dilation": 4611686018427387904})"));
    }, {"graph: node 1 (window), fields 'inputs', 'axis', 'size', 'dilation':", "overflows int64"});
    // ceil(10 / (2^63 - 1)) = 1 element, where start + step - 1 used to overflow.
    Graph g = graph_from_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": [10]},
        {"id": 1, "op": "slice", "inputs": [0], "axis": 0, "start": 0, "stop": 10, "step": 9223372036854775807}], "outputs": [1]})");
    EXPECT_EQ(g.outputs()[0].shape(), Shape({1}));
}

// ---- What parses groups as its shapes say ----

// isl reads the grouping's relations as text; a symbol named like one of its variables (o0, i0,
// g), keywords (and, infty) or product parameters must still be a plain parameter: the same
// groups as "N" gives, [name, 4] with the row sum at loop 1 (was loops [4*o0] for "o0").
TEST(GraphJson, SymbolsNamedLikeIslTextGroupLikeAnyOther) {
    for (const std::string name : {"N", "o0", "i0", "j0", "g", "and", "infty", "N__M", "S1_N"}) {
        Graph g = graph_from_json(fmt::format(R"({{"nodes": [
            {{"id": 0, "op": "input", "name": "x", "dtype": "float32", "shape": ["{}", 4]}},
            {{"id": 1, "op": "reduce_sum", "inputs": [0], "axes": [1]}},
            {{"id": 2, "op": "add", "inputs": [0, 1]}}], "outputs": [2]}})", name));
        auto groups = group_graph(g);
        ASSERT_EQ(groups.size(), 1u) << name;
        EXPECT_EQ(shape_str(groups[0].collapsed_shape), "[" + name + ", 4]") << name;
        ASSERT_EQ(groups[0].compute_level.size(), 1u) << name;
        EXPECT_EQ(groups[0].compute_level.begin()->second, 1) << name;
    }
}

}  // namespace
}  // namespace halogen
