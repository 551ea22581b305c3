// A graph's fingerprint (frontend/graph_fingerprint.h): the same computation built twice gives
// the same text whatever node ids the builders handed out, and a change to any one thing a node
// is -- op, dtype, shape, input order, name, constant (down to its sign bit), axes, slice bounds,
// pad widths, materialization -- or to the outputs gives another.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "frontend/graph_fingerprint.h"
#include "frontend/halogen.h"

namespace halogen {
namespace {

using Build = std::function<Graph()>;

Graph base() {
    Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
    Tensor y = input("y", DType::Float32, {8});
    return Graph({sum(x * y + fconst(1.5), {1})});
}

TEST(GraphFingerprint, TheSameComputationBuiltTwiceIsTheSame) {
    const std::string a = graph_fingerprint(base());
    const std::string b = graph_fingerprint(base());   // other node ids
    EXPECT_EQ(a, b);
    EXPECT_NE(a.find("outputs"), std::string::npos);
}

TEST(GraphFingerprint, EveryKindOfChangeIsSeen) {
    const std::vector<std::pair<std::string, Build>> variants = {
        {"base", base},
        {"op", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(x + y + fconst(1.5), {1})});
         }},
        {"input order", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(y * x + fconst(1.5), {1})});
         }},
        {"dtype", [] {
             Tensor x = input("x", DType::BFloat16, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(cast(x, DType::Float32) * y + fconst(1.5), {1})});
         }},
        {"shape", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("M"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(x * y + fconst(1.5), {1})});
         }},
        {"name", [] {
             Tensor x = input("z", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(x * y + fconst(1.5), {1})});
         }},
        {"constant", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(x * y + fconst(1.5000001), {1})});
         }},
        {"axes", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(x * y + fconst(1.5), {0})});
         }},
        {"named", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(named(x * y, "product") + fconst(1.5), {1})});
         }},
        {"materialized", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(materialize(x * y) + fconst(1.5), {1})});
         }},
        {"slice", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(slice(x * y, 1, 1, 8) + fconst(1.5), {1})});
         }},
        {"slice start", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(slice(x * y, 1, 2, 8) + fconst(1.5), {1})});
         }},
        {"pad low", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(pad(x * y, {0, 1}, {0, 0}) + fconst(1.5), {1})});
         }},
        {"pad high", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(pad(x * y, {0, 0}, {0, 1}) + fconst(1.5), {1})});
         }},
        {"window stride", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(window(x * y, 1, 2, 2) + fconst(1.5), {1, 2})});
         }},
        {"window dilation", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             return Graph({sum(window(x * y, 1, 2, 1, 2) + fconst(1.5), {1, 2})});
         }},
        {"two outputs", [] {
             Tensor x = input("x", DType::Float32, {Dim::sym("N"), 8});
             Tensor y = input("y", DType::Float32, {8});
             Tensor s = sum(x * y + fconst(1.5), {1});
             return Graph({s, s});
         }},
    };
    std::set<std::string> seen;
    for (const auto &[what, build] : variants) {
        EXPECT_TRUE(seen.insert(graph_fingerprint(build())).second) << what << " has another variant's fingerprint";
    }
    // A constant's sign bit: +0 and -0 add the same, but are not one graph.
    const Tensor v = input("v", DType::Float32, {4});
    EXPECT_NE(graph_fingerprint(Graph({v + fconst(0.0)})), graph_fingerprint(Graph({v + fconst(-0.0)})));
}

}  // namespace
}  // namespace halogen
