// bfloat16 as a halogen dtype: a storage type that Arrays hold as bit patterns, the interpreter
// casts with round to nearest even, views and where move, .npy files carry as '<u2', and every
// arithmetic op refuses until it is cast to float32.
#include <cmath>

#include <gtest/gtest.h>

#include "frontend/bfloat16.h"
#include "formats/npy.h"
#include "frontend/halogen.h"
#include "tests/support/expect_error.h"

namespace halogen {
namespace {

using testing::expect_error;

TEST(BFloat16DType, ArraysHoldBitPatternsAndRoundOnSet) {
    Array a(DType::BFloat16, {4});
    EXPECT_EQ(dtype_size(DType::BFloat16), 2u);
    a.set(0, 1.0);
    a.set(1, 1.00390625);      // 1 + 2^-8: half-way between 1 and 1 + 2^-7, ties to even (1.0)
    a.set(2, 1.01171875);      // 1 + 3 * 2^-8: half-way, ties to even (1 + 2^-6)
    a.set(3, -INFINITY);
    EXPECT_EQ(a.data<uint16_t>()[0], 0x3F80);
    EXPECT_EQ(a.data<uint16_t>()[1], 0x3F80);
    EXPECT_EQ(a.data<uint16_t>()[2], 0x3F82);
    EXPECT_EQ(a.data<uint16_t>()[3], 0xFF80);
    EXPECT_EQ(a.get(2), 1.015625);
}

TEST(BFloat16DType, CastsRoundToNearestEvenAndWidenExactly) {
    Tensor x = input("x", DType::Float32, {4});
    Tensor b = cast(x, DType::BFloat16);
    Tensor back = cast(b, DType::Float32);
    Array in(DType::Float32, {4});
    const float values[] = {1.00390625f, 3.14159265f, -0.0f, 65504.0f};
    for (int k = 0; k < 4; ++k) in.set(k, values[k]);
    const Array got = interpret(back, {{"x", in}});
    for (int k = 0; k < 4; ++k) {
        EXPECT_EQ(got.get(k), double(bfloat16_bits_to_float(float_to_bfloat16_bits(values[k])))) << k;
    }
    EXPECT_EQ(interpret(cast(b, DType::Int32), {{"x", in}}).get(1), 3.0);   // 3.140625 truncated
}

TEST(BFloat16DType, MovesThroughViewsAndWhere) {
    Tensor w = input("w", DType::BFloat16, {2, 3});
    Tensor picked = where(input("c", DType::Bool, {2, 3}), permute(permute(w, {1, 0}), {1, 0}), w);
    Array wv(DType::BFloat16, {2, 3}), c(DType::Bool, {2, 3});
    for (int k = 0; k < 6; ++k) wv.set(k, 0.5 * k + 0.25);
    const Array got = interpret(picked, {{"w", wv}, {"c", c}});
    EXPECT_EQ(got.dtype(), DType::BFloat16);
    for (int k = 0; k < 6; ++k) EXPECT_EQ(got.get(k), 0.5 * k + 0.25);
}

TEST(BFloat16DType, ArithmeticNeedsACastFirst) {
    Tensor w = input("w", DType::BFloat16, {3});
    expect_error<DTypeError>([&] { add(w, w); }, {"add", "bfloat16", "storage type", "cast it to float32"});
    expect_error<DTypeError>([&] { neg(w); }, {"neg", "bfloat16"});
    expect_error<DTypeError>([&] { sqrt(w); }, {"bfloat16"});
    expect_error<DTypeError>([&] { sum(w, {0}); }, {"bfloat16"});
    EXPECT_EQ(add(cast(w, DType::Float32), fconst(1)).dtype(), DType::Float32);
}

TEST(BFloat16DType, NpyCarriesItAsUint16Bits) {
    Array a(DType::BFloat16, {2});
    a.set(0, 1.5);
    a.set(1, -2.0);
    const std::string bytes = format_npy(a);
    EXPECT_NE(bytes.find("'descr': '<u2'"), std::string::npos);
    const Array b = parse_npy(bytes);
    EXPECT_EQ(b.dtype(), DType::BFloat16);
    EXPECT_EQ(b.get(0), 1.5);
    EXPECT_EQ(b.get(1), -2.0);
}

}  // namespace
}  // namespace halogen
