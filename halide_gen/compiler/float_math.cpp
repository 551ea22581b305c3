// Float32 functions as Halide arithmetic (float_math.h).
#include "halide_gen/compiler/float_math.h"

namespace halogen {

namespace {

// 2^n for an int32 n in [-126, 127], built as the float's exponent bits.
Halide::Expr pow2i(const Halide::Expr &n) { return Halide::reinterpret(Halide::Float(32), (n + 127) << 23); }

}  // namespace

Halide::Expr is_nan_bits(const Halide::Expr &x) {
    return (Halide::reinterpret(Halide::Int(32), x) & 0x7fffffff) > 0x7f800000;
}

Halide::Expr exp2_f32(const Halide::Expr &x) {
    // Past 129 the result is +inf, below -150 it rounds to 0: clamping there changes no result and
    // keeps n / 2 and n - n / 2 within the exponents pow2i builds.
    const Halide::Expr xc = Halide::clamp(x, -150.0f, 129.0f);
    // n = round(xc), half up: xc + 150.5 is positive, so the conversion's truncation is a floor
    // (an add and a conversion, where Halide's round takes four instructions on 16 lanes).
    const Halide::Expr ni = Halide::cast<int32_t>(xc + 150.5f) - 150;
    const Halide::Expr f = xc - Halide::cast<float>(ni);
    // 2^f on [-0.5, 0.5], coefficients fitted for the least relative error (under 1e-8, below the
    // float's own rounding).
    const float c[] = {1.0f, 0.6931471824645996f, 0.24022646248340607f, 0.05550328642129898f,
                       0.009618489071726799f, 0.001339993323199451f, 0.00015345809515565634f};
    Halide::Expr p = c[6];
    for (int k = 5; k >= 0; --k) p = p * f + c[k];
    const Halide::Expr half = ni >> 1;
    const Halide::Expr y = p * pow2i(half) * pow2i(ni - half);
    return Halide::select(is_nan_bits(x), x, y);
}

}  // namespace halogen
