// Malformed graphs and malformed run-time arguments: each case must raise the specific typed error
// from frontend/errors.h, with a message that names the op (or input) and the shapes involved.
#include <gtest/gtest.h>

#include "tests/support/expect_error.h"

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "frontend/halogen.h"

namespace halogen {
namespace {

constexpr DType F32 = DType::Float32;
constexpr DType I32 = DType::Int32;

using testing::expect_error;

Tensor x34() { return input("x", F32, {3, 4}); }

// ---- Builders ----

TEST(BuilderErrors, BinaryShapeMismatch) {
    expect_error<ShapeError>([] { add(x34(), input("y", F32, {5})); }, {"add", "[3, 4]", "[5]"});
}

TEST(BuilderErrors, WhereShapeMismatch) {
    expect_error<ShapeError>(
        [] { where(input("c", DType::Bool, {2}), x34(), x34()); }, {"where", "[2]", "[3, 4]"});
}

TEST(BuilderErrors, BinaryDTypeMismatch) {
    expect_error<DTypeError>([] { add(x34(), input("y", I32, {3, 4})); },
                             {"add", "float32", "int32", "[3, 4]"});
}

TEST(BuilderErrors, BinaryWrongDTypeForOp) {
    // idiv is int32 only; add is numeric only.
    expect_error<DTypeError>([] { idiv(x34(), x34()); }, {"idiv", "float32", "[3, 4]"});
    expect_error<DTypeError>(
        [] { add(input("p", DType::Bool, {2}), input("q", DType::Bool, {2})); }, {"add", "bool", "[2]"});
}

TEST(BuilderErrors, FloatOnlyUnaryOnInt) {
    expect_error<DTypeError>([] { sqrt(input("i", I32, {3, 4})); }, {"sqrt", "int32", "[3, 4]"});
}

TEST(BuilderErrors, WhereNonBoolCondition) {
    expect_error<DTypeError>([] { where(input("c", I32, {3, 4}), x34(), x34()); }, {"where", "int32", "[3, 4]"});
}

TEST(BuilderErrors, IntConstOutOfRange) {
    expect_error<DTypeError>([] { iconst(int64_t(1) << 40); }, {"const", "1099511627776"});
}

TEST(BuilderErrors, ReduceMaxOverMissingAxis) {
    expect_error<AxisError>([] { reduce_max(x34(), {2}); }, {"reduce_max", "2", "[3, 4]"});
    expect_error<AxisError>([] { reduce_max(x34(), {-3}); }, {"reduce_max", "-3", "[3, 4]"});
}

TEST(BuilderErrors, ReduceSumOverMissingAxis) {
    expect_error<AxisError>([] { reduce_sum(x34(), {2}); }, {"reduce_sum", "2", "[3, 4]"});
}

TEST(BuilderErrors, RepeatedReduceAxis) {
    expect_error<AxisError>([] { reduce_max(x34(), {1, -1}); }, {"reduce_max", "repeated", "[3, 4]"});
    expect_error<AxisError>([] { sum(x34(), {0, 0}); }, {"sum", "[3, 4]"});
}

TEST(BuilderErrors, ReshapeToDifferentElementCount) {
    expect_error<ViewError>([] { reshape(x34(), {5, 2}); }, {"reshape", "[3, 4]", "[5, 2]"});
}

TEST(BuilderErrors, BadPermutation) {
    expect_error<ViewError>([] { permute(x34(), {0, 0}); }, {"permute", "[0, 0]", "[3, 4]"});
    expect_error<ViewError>([] { permute(x34(), {1, 0, 2}); }, {"permute", "[1, 0, 2]", "[3, 4]"});
    expect_error<ViewError>([] { permute(x34(), {0, 2}); }, {"permute", "[0, 2]", "[3, 4]"});
}

TEST(BuilderErrors, ExpandToIncompatibleShape) {
    expect_error<ViewError>([] { expand(x34(), {3, 5}); }, {"expand", "[3, 4]", "[3, 5]"});
    expect_error<ViewError>([] { expand(x34(), {4}); }, {"expand", "[3, 4]", "[4]"});   // fewer axes
}

TEST(BuilderErrors, SliceStepZero) {
    expect_error<ViewError>([] { slice(x34(), 1, 0, 4, 0); }, {"slice", "step", "[3, 4]"});
}

TEST(BuilderErrors, SliceStopPastExtent) {
    expect_error<ViewError>([] { slice(x34(), 1, 0, 5); }, {"slice", "stop 5", "[3, 4]"});
}

TEST(BuilderErrors, SliceStartAfterStop) {
    expect_error<ViewError>([] { slice(x34(), 0, 2, 1); }, {"slice", "[3, 4]"});
}

TEST(BuilderErrors, SliceAxisOutOfRange) {
    expect_error<AxisError>([] { slice(x34(), 2, 0, 1); }, {"slice", "[3, 4]"});
}

TEST(BuilderErrors, NegativePad) {
    expect_error<ViewError>([] { pad(x34(), {0, -1}, {0, 0}); }, {"pad", "-1", "[3, 4]"});
    expect_error<ViewError>([] { pad(x34(), {0, 0}, {-2, 0}); }, {"pad", "-2", "[3, 4]"});
}

TEST(BuilderErrors, PadWrongRank) {
    expect_error<ViewError>([] { pad(x34(), {1}, {1}); }, {"pad", "[3, 4]"});
}

TEST(BuilderErrors, MatmulMismatchedInnerDims) {
    expect_error<ShapeError>([] { matmul(input("a", F32, {2, 3}), input("b", F32, {4, 5})); },
                             {"matmul", "[2, 3]", "[4, 5]"});
}

TEST(BuilderErrors, MatmulRankOne) {
    expect_error<ShapeError>([] { matmul(input("a", F32, {3}), input("b", F32, {3, 2})); },
                             {"matmul", "[3]", "[3, 2]"});
}

TEST(BuilderErrors, TwoInputsWithOneName) {
    expect_error<GraphError>([] { Graph g({add(input("x", F32, {3}), input("x", F32, {1}))}); },
                             {"'x'", "[3]", "[1]"});
}

TEST(BuilderErrors, SameInputTwiceIsFine) {
    Tensor x = x34();
    EXPECT_NO_THROW(Graph({add(x, x)}));
    EXPECT_EQ(Graph({add(x, x)}).inputs().size(), 1u);
}

// ---- Run time: bindings and caller buffers ----

TEST(RunErrors, SymbolicDimUnbound) {
    Tensor x = input("x", F32, {Dim::sym("N"), 4});
    Inputs in = {{"x", Array(F32, {2, 4})}};
    expect_error<BindingError>([&] { interpret(neg(x), in); }, {"'N'"});
    EXPECT_NO_THROW(interpret(neg(x), in, {{"N", 2}}));
}

TEST(RunErrors, SymbolicDimBoundNegative) {
    Tensor x = input("x", F32, {Dim::sym("N"), 4});
    expect_error<BindingError>([&] { interpret(neg(x), {{"x", Array(F32, {0, 4})}}, {{"N", -1}}); }, {"'N'"});
}

TEST(RunErrors, SymbolicSliceReachesPastExtentOnceBound) {
    const Dim n = Dim::sym("N");
    Tensor x = input("x", F32, {n});
    Tensor s = slice(x, 0, 0, 5);   // accepted: N may be >= 5
    EXPECT_NO_THROW(interpret(s, {{"x", Array(F32, {6})}}, {{"N", 6}}));
    expect_error<BindingError>([&] { interpret(s, {{"x", Array(F32, {3})}}, {{"N", 3}}); }, {"slice", "[N]"});
}

TEST(RunErrors, InputBufferWrongShape) {
    expect_error<BufferError>([] { interpret(neg(x34()), {{"x", Array(F32, {4, 3})}}); },
                              {"input 'x'", "[4, 3]", "[3, 4]"});
}

TEST(RunErrors, InputBufferWrongShapeSymbolic) {
    Tensor x = input("x", F32, {Dim::sym("N"), 4});
    expect_error<BufferError>([&] { interpret(neg(x), {{"x", Array(F32, {3, 4})}}, {{"N", 2}}); },
                              {"input 'x'", "[3, 4]", "[2, 4]", "[N, 4]"});
}

TEST(RunErrors, InputBufferWrongDType) {
    expect_error<BufferError>([] { interpret(neg(x34()), {{"x", Array(I32, {3, 4})}}); },
                              {"input 'x'", "int32", "float32", "[3, 4]"});
}

TEST(RunErrors, InputBufferMissing) {
    expect_error<BufferError>([] { interpret(neg(x34()), {{"y", Array(F32, {3, 4})}}); },
                              {"input 'x'", "[3, 4]"});
}

}  // namespace
}  // namespace halogen

namespace halogen {
namespace {

TEST(BuilderErrors, WindowLargerThanAxis) {
    expect_error<ViewError>([] { window(input("x", DType::Float32, {2, 4}), 1, 3, 1, 2); },
                            {"window", "[2, 4]", "larger"});
}

TEST(BuilderErrors, WindowZeroStride) {
    expect_error<ViewError>([] { window(input("x", DType::Float32, {2, 4}), 1, 2, 0); }, {"window", "[2, 4]"});
}

// Extents and widths near int64's limit: a typed error or the exact extent, never a wrapped one.
TEST(BuilderErrors, ViewArithmeticBeyondInt64) {
    const int64_t max = std::numeric_limits<int64_t>::max();
    expect_error<ShapeError>([&] { pad(x34(), {0, max}, {0, max}); }, {"overflows int64"});
    expect_error<ShapeError>([] { window(x34(), 1, 3, 1, int64_t(1) << 62); }, {"overflows int64"});
    EXPECT_EQ(slice(input("x", F32, {10}), 0, 0, 10, max).shape(), Shape({1}));   // ceil(10 / max)
    EXPECT_EQ(slice(input("x", F32, {10}), 0, 1, 10, 4).shape(), Shape({3}));     // 1, 5, 9
}

TEST(BuilderErrors, PadValueOutsideInt32) {
    const Tensor i = input("i", I32, {2});
    expect_error<ViewError>([&] { pad(i, {1}, {0}, 1e300); }, {"pad", "1e+300", "int32"});
    expect_error<ViewError>([&] { pad(i, {1}, {0}, std::nan("")); }, {"pad", "nan", "int32"});
    EXPECT_EQ(pad(i, {1}, {0}, -2147483648.0).node().value, -2147483648.0);
}

}  // namespace
}  // namespace halogen
