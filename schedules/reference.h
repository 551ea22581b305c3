// The reference interpreter's answer (frontend/interpreter.h) for a call of a family's kernel, the
// inputs in the caller's layout: the ground truth `halogen compare` and the tests check kernels
// against.
#pragma once

#include "frontend/array.h"
#include "schedules/family.h"

namespace halogen {

// The output in the caller's layout. Slow: every node is materialized, element by element.
Array interpret_call(const Family &family, const BufferRefs &inputs, const Bindings &dims = {});

}  // namespace halogen
