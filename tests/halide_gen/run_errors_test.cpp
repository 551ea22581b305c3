// Run-time errors of JIT kernels: each bad call raises its typed error, naming the buffer and
// both shapes, before the kernel runs; nothing aborts and nothing is written.
#include <gtest/gtest.h>

#include "tests/support/expect_error.h"

#include "frontend/halogen.h"
#include "halide_gen/family_pipeline.h"
#include "halide_gen/jit.h"

namespace halogen {
namespace {

using testing::expect_error;

struct Fixture : ::testing::Test {
    Tensor x = input("x", DType::Float32, {Dim::sym("N"), 4});
    JitKernel kernel{lower(Graph({add(x, fconst(1))}))};
    Array in{DType::Float32, {3, 4}};
    Array out{DType::Float32, {3, 4}};
};

TEST_F(Fixture, UnboundSymbolicDim) {
    expect_error<BindingError>([&] { kernel.run({{"x", in.ref()}}, out.ref(), {}); }, {"'N'", "not bound"});
}

TEST_F(Fixture, NegativeBinding) {
    expect_error<BindingError>([&] { kernel.run({{"x", in.ref()}}, out.ref(), {{"N", -1}}); }, {"'N'", "-1"});
}

TEST_F(Fixture, InputOfWrongShape) {
    Array wrong(DType::Float32, {3, 5});
    expect_error<BufferError>([&] { kernel.run({{"x", wrong.ref()}}, out.ref(), {{"N", 3}}); },
                              {"input 'x'", "[3, 5]", "[3, 4]", "[N, 4]"});
}

TEST_F(Fixture, InputOfWrongDtype) {
    Array wrong(DType::Int32, {3, 4});
    expect_error<BufferError>([&] { kernel.run({{"x", wrong.ref()}}, out.ref(), {{"N", 3}}); },
                              {"input 'x'", "int32", "float32"});
}

TEST_F(Fixture, MissingInput) {
    expect_error<BufferError>([&] { kernel.run({}, out.ref(), {{"N", 3}}); }, {"input 'x'", "no buffer", "[N, 4]"});
}

TEST_F(Fixture, OutputOfWrongShape) {
    Array wrong(DType::Float32, {4, 3});
    expect_error<BufferError>([&] { kernel.run({{"x", in.ref()}}, wrong.ref(), {{"N", 3}}); },
                              {"output", "[4, 3]", "[3, 4]"});
}

TEST_F(Fixture, OutputOfWrongRank) {
    Array wrong(DType::Float32, {12});
    expect_error<BufferError>([&] { kernel.run({{"x", in.ref()}}, wrong.ref(), {{"N", 3}}); },
                              {"output", "[12]", "[3, 4]"});
}

TEST_F(Fixture, NullData) {
    BufferRef null_ref{nullptr, DType::Float32, {3, 4}};
    expect_error<BufferError>([&] { kernel.run({{"x", null_ref}}, out.ref(), {{"N", 3}}); }, {"input 'x'", "null"});
}

TEST_F(Fixture, GoodCallStillWorksAfterErrors) {
    in.set(5, 2.5);
    kernel.run({{"x", in.ref()}}, out.ref(), {{"N", 3}});
    EXPECT_EQ(out.get(5), 3.5);
    EXPECT_EQ(out.get(0), 1.0);
}

TEST(LowerErrors, MoreThanOneOutput) {
    Tensor a = input("a", DType::Float32, {3});
    expect_error<GraphError>([&] { lower(Graph({neg(a), sqrt(a)})); }, {"lower", "one output", "2"});
}

TEST(LowerErrors, InputNamedLikeASymbolicDim) {
    Tensor n = input("N", DType::Float32, {Dim::sym("N")});
    expect_error<GraphError>([&] { lower(Graph({neg(n)})); }, {"'N'", "symbolic dim"});
}

}  // namespace
}  // namespace halogen

namespace halogen {
namespace {

TEST(RunErrors, FamilyKernelRejectsExtentsBeyond32Bits) {
    // A lying BufferRef (no real memory behind it): the extent check must fire before any access.
    FamilyKernel k("rmsnorm", "fused");
    float dummy = 0;
    BufferRef x{&dummy, DType::Float32, {1, int64_t(1) << 32}}, w{&dummy, DType::Float32, {int64_t(1) << 32}};
    BufferRef out{&dummy, DType::Float32, {1, int64_t(1) << 32}};
    expect_error<BufferError>([&] { k.run({{"x", x}, {"weight", w}}, out); }, {"exceeds Halide's 32-bit indexing"});
}

}  // namespace
}  // namespace halogen
