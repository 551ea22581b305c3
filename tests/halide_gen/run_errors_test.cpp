// Run-time errors of JIT kernels (the one run path, halide_gen/runtime/kernel_call.h): each bad
// call raises its typed error, naming the buffer and both shapes, before the kernel runs; nothing
// aborts and nothing is written.
#include <gtest/gtest.h>

#include "tests/support/expect_error.h"

#include "frontend/halogen.h"
#include "halide_gen/compiler/lower.h"
#include "halide_gen/compiler/program.h"
#include "schedules/kernel.h"

namespace halogen {
namespace {

using testing::expect_error;

struct Fixture : ::testing::Test {
    Tensor x = input("x", DType::Float32, {Dim::sym("N"), 4});
    Program kernel{Graph({add(x, fconst(1))}), "none"};
    Array in{DType::Float32, {3, 4}};
    Array out{DType::Float32, {3, 4}};
};

// A dim no input holds (index_components') comes from the call's bindings.
struct NoInputs : ::testing::Test {
    Program kernel{Graph({index_components({Dim::sym("M")})}), "none"};
    Array out{DType::Int32, {3}};
};

TEST_F(NoInputs, UnboundSymbolicDim) {
    expect_error<BindingError>([&] { kernel.run({}, {out.ref()}, {}); }, {"'M'", "not bound"});
}

TEST_F(NoInputs, NegativeBinding) {
    expect_error<BindingError>([&] { kernel.run({}, {out.ref()}, {{"M", -1}}); }, {"'M'", "-1"});
}

TEST_F(NoInputs, BoundDimRuns) {
    kernel.run({}, {out.ref()}, {{"M", 3}});
    EXPECT_EQ(out.get(2), 2.0);
}

TEST_F(Fixture, BindingThatContradictsAShape) {
    expect_error<BufferError>([&] { kernel.run({{"x", in.ref()}}, {out.ref()}, {{"N", 5}}); },
                              {"input 'x'", "[3, 4]", "N = 5"});
}

TEST_F(Fixture, InputOfWrongShape) {
    Array wrong(DType::Float32, {3, 5});
    expect_error<BufferError>([&] { kernel.run({{"x", wrong.ref()}}, {out.ref()}); },
                              {"input 'x'", "[3, 5]", "[N, 4] = [3, 4]", "axis 1 is 5"});
}

TEST_F(Fixture, InputOfWrongDtype) {
    Array wrong(DType::Int32, {3, 4});
    expect_error<BufferError>([&] { kernel.run({{"x", wrong.ref()}}, {out.ref()}); },
                              {"input 'x'", "int32", "float32"});
}

TEST_F(Fixture, MissingInput) {
    expect_error<BufferError>([&] { kernel.run({}, {out.ref()}); }, {"input 'x'", "missing", "[N, 4]"});
}

TEST_F(Fixture, OutputOfWrongShape) {
    Array wrong(DType::Float32, {4, 3});
    expect_error<BufferError>([&] { kernel.run({{"x", in.ref()}}, {wrong.ref()}); },
                              {"output", "[4, 3]", "[3, 4]"});
}

TEST_F(Fixture, OutputOfWrongRank) {
    Array wrong(DType::Float32, {12});
    expect_error<BufferError>([&] { kernel.run({{"x", in.ref()}}, {wrong.ref()}); },
                              {"output", "[12]", "[3, 4]"});
}

TEST_F(Fixture, NullData) {
    BufferRef null_ref{nullptr, DType::Float32, {3, 4}};
    expect_error<BufferError>([&] { kernel.run({{"x", null_ref}}, {out.ref()}); }, {"input 'x'", "null"});
}

TEST_F(Fixture, GoodCallStillWorksAfterErrors) {
    in.set(5, 2.5);
    kernel.run({{"x", in.ref()}}, {out.ref()});
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
    FamilyKernel k = FamilyKernel::jit("rmsnorm", "fused");
    float dummy = 0;
    BufferRef x{&dummy, DType::Float32, {1, int64_t(1) << 32}}, w{&dummy, DType::Float32, {int64_t(1) << 32}};
    BufferRef out{&dummy, DType::Float32, {1, int64_t(1) << 32}};
    expect_error<BufferError>([&] { k.run({{"x", x}, {"weight", w}}, out); }, {"exceeds Halide's 32-bit indexing"});
}

}  // namespace
}  // namespace halogen
