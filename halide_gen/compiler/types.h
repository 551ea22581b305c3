// The Halide type of each halogen dtype (bool is Halide's 1-bit type, stored as one byte), and
// where a halogen axis is among a Halide buffer's dimensions.
#pragma once

#include <Halide.h>

#include "frontend/dtype.h"

namespace halogen {

Halide::Type halide_type(DType t);

// Halide numbers a buffer's dimensions innermost first, halogen a tensor's axes outermost first:
// axis `axis` of a rank-`rank` tensor is Halide dimension rank - 1 - axis (and the other way round).
inline int halide_dim(int rank, int axis) { return rank - 1 - axis; }

}  // namespace halogen
