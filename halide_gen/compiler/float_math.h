// Float32 functions the lowering emits as Halide arithmetic rather than through Halide's own math
// library, so that they cost fewer instructions per vector and keep the graph's NaN/Inf semantics.
#pragma once

#include <Halide.h>

namespace halogen {

// True where the float32 x is a NaN (exponent all ones, mantissa not zero), read on its bits: Halide
// compiles with fast-math flags that assume no NaN, under which a float compare such as is_nan is
// folded away.
Halide::Expr is_nan_bits(const Halide::Expr &x);

// 2^x for float32 x, as the interpreter's exp2f gives it within 1 ulp: x = n + f with n the nearest
// integer and f in [-0.5, 0.5]; 2^f from a degree-6 polynomial, 2^n from exponent bits, in two factors
// 2^(n/2) and 2^(n - n/2) so that results past the largest float become +inf and results below the
// smallest normal round to denormals and then 0, as exp2f's do. A NaN x gives NaN; -inf gives 0.
Halide::Expr exp2_f32(const Halide::Expr &x);

}  // namespace halogen
