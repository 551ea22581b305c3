// The Halide type of each halogen dtype (bool is Halide's 1-bit type, stored as one byte).
#pragma once

#include <Halide.h>

#include "frontend/dtype.h"

namespace halogen {

Halide::Type halide_type(DType t);

}  // namespace halogen
