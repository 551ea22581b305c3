// Contracts (frontend/contract.h): a caller's tensors, as PyTorch holds them, bound to a kernel's
// layout -- every symbol read off the shapes, each mismatch blamed on the tensor that is wrong.
#include <gtest/gtest.h>

#include "frontend/contract.h"
#include "frontend/errors.h"
#include "frontend/halogen.h"
#include "tests/support/expect_error.h"

namespace halogen {
namespace {

using testing::expect_error;

const DType F = DType::Float32;

// LayerNorm's kernel: x [R, D], weight [D], bias [D]; the caller's x is [*R, D].
Contract layernorm() {
    const Dim R = Dim::sym("R"), D = Dim::sym("D");
    Tensor x = input("x", F, {R, D}), w = input("weight", F, {D}), b = input("bias", F, {D});
    return Contract("layernorm", Graph({x * w + b}), {{"x", "[*R, D]"}, {"out", "[*R, D]"}});
}

// GroupNorm's kernel: x [N, 32, CG, S]; the caller's x is [N, C, H, W...] with C = 32 * CG.
Contract groupnorm() {
    const Dim N = Dim::sym("N"), CG = Dim::sym("CG"), S = Dim::sym("S");
    Tensor x = input("x", F, {N, 32, CG, S}), w = input("weight", F, {32, CG});
    return Contract("groupnorm", Graph({x * reshape(w, {1, 32, CG, 1})}),
                    {{"x", "[N, 32*CG, *S]"}, {"weight", "[32*CG]"}, {"out", "[N, 32*CG, *S]"}});
}

TEST(Layout, ParsesDimsProductsAndRuns) {
    EXPECT_EQ(layout_str(parse_layout("[*R, D]")), "[*R, D]");
    EXPECT_EQ(layout_str(parse_layout(" [N, 32*CG, *S] ")), "[N, 32*CG, *S]");
    EXPECT_EQ(layout_str(parse_layout("[3, K]")), "[3, K]");
    EXPECT_TRUE(parse_layout("[]").empty());
    expect_error<ShapeError>([] { parse_layout("R, D"); }, {"brackets"});
    expect_error<ShapeError>([] { parse_layout("[*R, *S]"); }, {"more than one run"});
    expect_error<ShapeError>([] { parse_layout("[*2*R]"); }, {"one symbol"});
    expect_error<ShapeError>([] { parse_layout("[R,, D]"); }, {"empty axis"});
    expect_error<ShapeError>([] { parse_layout("[R-1]"); }, {"not a symbol"});
}

TEST(Contract, LeadingAxesCollapseIntoTheRun) {
    Array x(F, {2, 7, 4097}), w(F, {4097}), b(F, {4097}), out(F, {2, 7, 4097});
    const Contract c = layernorm();
    const BoundCall call = c.bind({{"x", x.ref()}, {"weight", w.ref()}, {"bias", b.ref()}}, {out.ref()});
    EXPECT_EQ(call.dims.at("R"), 14);
    EXPECT_EQ(call.dims.at("D"), 4097);
    EXPECT_EQ(call.inputs.at("x").shape, (std::vector<int64_t>{14, 4097}));
    EXPECT_EQ(call.inputs.at("x").data, x.ref().data);
    EXPECT_EQ(call.outputs.at(0).shape, (std::vector<int64_t>{14, 4097}));
    EXPECT_EQ(c.output_shapes({{"x", {2, 7, 4097}}, {"weight", {4097}}, {"bias", {4097}}}).at(0),
              (std::vector<int64_t>{2, 7, 4097}));
    // A run may match no axis: x [D] is one row.
    EXPECT_EQ(c.output_shapes({{"x", {5}}, {"weight", {5}}, {"bias", {5}}}).at(0), (std::vector<int64_t>{5}));
}

TEST(Contract, AMismatchBlamesTheTensorThatIsWrong) {
    Array x(F, {2, 7, 4097}), w(F, {4097}), b(F, {7}), out(F, {2, 7, 4097});
    expect_error<BufferError>([&] { layernorm().bind({{"x", x.ref()}, {"weight", w.ref()}, {"bias", b.ref()}}, {out.ref()}); },
                              {"input 'bias'", "[7]", "[D] = [4097]", "D = 4097 from input 'x' axis 2"});
}

TEST(Contract, ARankItCannotTakeStatesTheLayout) {
    Array x(F, {}), w(F, {4}), b(F, {4}), out(F, {});
    expect_error<BufferError>([&] { layernorm().bind({{"x", x.ref()}, {"weight", w.ref()}, {"bias", b.ref()}}, {out.ref()}); },
                              {"input 'x'", "[*R, D]", "rank 0, expected at least 1"});
    Array w2(F, {4, 1});
    expect_error<BufferError>([&] { layernorm().output_shapes({{"x", {3, 4}}, {"weight", {4, 1}}, {"bias", {4}}}); },
                              {"input 'weight'", "[4, 1]", "rank 2, expected rank 1"});
}

TEST(Contract, DtypeMissingUnknownAndOutputAreNamed) {
    Array x(F, {3, 4}), w(F, {4}), b(F, {4}), out(F, {3, 4}), ints(DType::Int32, {4}), out5(F, {3, 5});
    const Contract c = layernorm();
    expect_error<BufferError>([&] { c.bind({{"x", x.ref()}, {"weight", ints.ref()}, {"bias", b.ref()}}, {out.ref()}); },
                              {"input 'weight' is int32, expected float32"});
    expect_error<BufferError>([&] { c.bind({{"x", x.ref()}, {"weight", w.ref()}}, {out.ref()}); },
                              {"input 'bias' is missing", "x float32 [*R, D]"});
    expect_error<BufferError>([&] { c.bind({{"x", x.ref()}, {"weight", w.ref()}, {"bias", b.ref()}, {"scale", w.ref()}}, {out.ref()}); },
                              {"unknown input 'scale'"});
    expect_error<BufferError>([&] { c.bind({{"x", x.ref()}, {"weight", w.ref()}, {"bias", b.ref()}}, {out5.ref()}); },
                              {"output", "[3, 5]", "[3, 4]"});
}

TEST(Contract, AProductOfSymbolsIsSolvedForItsUnknown) {
    Array x(F, {2, 64, 3, 5}), w(F, {64}), out(F, {2, 64, 3, 5});
    const BoundCall call = groupnorm().bind({{"x", x.ref()}, {"weight", w.ref()}}, {out.ref()});
    EXPECT_EQ(call.dims.at("CG"), 2);
    EXPECT_EQ(call.dims.at("S"), 15);
    EXPECT_EQ(call.inputs.at("x").shape, (std::vector<int64_t>{2, 32, 2, 15}));
    EXPECT_EQ(call.inputs.at("weight").shape, (std::vector<int64_t>{32, 2}));
    Array x48(F, {2, 48, 5});
    expect_error<BufferError>([&] { groupnorm().output_shapes({{"x", {2, 48, 5}}, {"weight", {48}}}); },
                              {"input 'x'", "not a multiple of 32"});
}

TEST(Contract, GivenBindingsServeDimsNoShapeHoldsAndMustAgreeWithShapes) {
    const Dim M = Dim::sym("M"), N = Dim::sym("N");
    Tensor x = input("x", F, {N});
    const Contract c("program", Graph({x + reduce_sum(cast(index_components({M}), F), {0})}));
    Array in(F, {3}), out(F, {3});
    expect_error<BindingError>([&] { c.bind({{"x", in.ref()}}, {out.ref()}); }, {"'M'", "not bound"});
    EXPECT_EQ(c.bind({{"x", in.ref()}}, {out.ref()}, {{"M", 4}}).dims.at("M"), 4);
    expect_error<BufferError>([&] { c.bind({{"x", in.ref()}}, {out.ref()}, {{"M", 4}, {"N", 5}}); },
                              {"input 'x'", "N = 5 from the call's bindings"});
}

TEST(Contract, ALayoutForNoArgumentIsAGraphError) {
    Tensor x = input("x", F, {Dim::sym("N")});
    expect_error<GraphError>([&] { Contract("neg", Graph({neg(x)}), {{"y", "[*N]"}}); }, {"'y'"});
}

}  // namespace
}  // namespace halogen
