// The README's library example, kept compiling and correct.
#include <gtest/gtest.h>

#include "frontend/halogen.h"
#include "halide_gen/compiler/program.h"

namespace halogen {
namespace {

TEST(ReadmeExample, SumOfSquaresPerRow) {
    Tensor x = input("x", DType::Float32, {Dim::sym("N"), 4});
    Tensor y = sum(x * x, {1});
    Program program(Graph({y}), "simd");
    Array in(DType::Float32, {3, 4}), out(DType::Float32, {3});
    for (int k = 0; k < 12; ++k) in.set(k, k);
    program.run({{"x", in.ref()}}, {out.ref()});   // N = 3, read off x's shape
    Array ref = interpret(y, {{"x", in}}, {{"N", 3}});
    // Row r holds 4r .. 4r+3; the sum of their squares, by hand.
    for (int r = 0; r < 3; ++r) {
        double want = 0;
        for (int c = 0; c < 4; ++c) want += double(4 * r + c) * (4 * r + c);
        EXPECT_EQ(out.get(r), want);
        EXPECT_EQ(ref.get(r), want);
    }
}

}  // namespace
}  // namespace halogen
