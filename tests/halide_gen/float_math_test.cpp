// exp2_f32 (halide_gen/compiler/float_math.h), JIT-compiled vectorized and scalar, against the C
// library's exp2f: within 1 ulp on a dense sweep of the range where the result is a normal float,
// and the stated results where it is not (denormals, overflow to +inf, underflow to 0, NaN).
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "halide_gen/compiler/float_math.h"

namespace halogen {
namespace {

// exp2_f32 of every element of xs, with the loop vectorized `lanes` wide (1: scalar).
std::vector<float> run_exp2(const std::vector<float> &xs, int lanes) {
    Halide::Buffer<float> in(int(xs.size()));
    std::memcpy(in.data(), xs.data(), xs.size() * sizeof(float));
    Halide::Var i("i");
    Halide::Func f("exp2");
    f(i) = exp2_f32(in(i));
    if (lanes > 1) f.vectorize(i, lanes, Halide::TailStrategy::GuardWithIf);
    Halide::Buffer<float> out = f.realize({int(xs.size())});
    return std::vector<float>(out.data(), out.data() + xs.size());
}

// Distance in units in the last place between two finite floats of one sign.
int64_t ulps(float a, float b) {
    int32_t ia, ib;
    std::memcpy(&ia, &a, 4);
    std::memcpy(&ib, &b, 4);
    return std::llabs(int64_t(ia) - int64_t(ib));
}

class Exp2F32 : public testing::TestWithParam<int> {};

TEST_P(Exp2F32, WithinOneUlpWhereTheResultIsNormal) {
    std::vector<float> xs;
    for (int k = 0; k <= 400000; ++k) xs.push_back(-126.0f + 253.9f * float(k) / 400000.0f);
    for (float x : {0.0f, -0.0f, 0.5f, -0.5f, 1.0f, 127.0f, -126.0f, 1e-8f, -1e-8f}) xs.push_back(x);
    const std::vector<float> got = run_exp2(xs, GetParam());
    for (size_t k = 0; k < xs.size(); ++k) {
        const float want = std::exp2(xs[k]);
        ASSERT_TRUE(std::isfinite(got[k])) << "exp2(" << xs[k] << ") = " << got[k];
        ASSERT_LE(ulps(got[k], want), 1) << "exp2(" << xs[k] << ") = " << got[k] << ", exp2f gives " << want;
    }
    EXPECT_EQ(exp2_f32(Halide::Expr(3.0f)).type(), Halide::Float(32));
}

TEST_P(Exp2F32, StatedResultsOutsideTheNormalRange) {
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> xs = {-inf, -1e30f, -200.0f, -150.5f, -149.0f, -140.25f, -127.5f,
                                   127.99f, 128.0f, 129.0f, 1e30f, inf, nan, -nan};
    const std::vector<float> got = run_exp2(xs, GetParam());
    for (size_t k = 0; k < xs.size(); ++k) {
        const float want = std::exp2(xs[k]);
        if (std::isnan(want)) {
            EXPECT_TRUE(std::isnan(got[k])) << "exp2(" << xs[k] << ") = " << got[k];
        } else if (std::isinf(want) || want == 0.0f) {
            EXPECT_EQ(got[k], want) << "exp2(" << xs[k] << ")";
        } else {   // a denormal, or a normal near the top: rounded once, as exp2f's
            EXPECT_LE(ulps(got[k], want), 1) << "exp2(" << xs[k] << ") = " << got[k] << ", exp2f gives " << want;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Lanes, Exp2F32, testing::Values(1, 16), [](const auto &info) {
    return info.param == 1 ? std::string("scalar") : "vector" + std::to_string(info.param);
});

}  // namespace
}  // namespace halogen
