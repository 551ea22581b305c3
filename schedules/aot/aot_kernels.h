// The AOT kernels the build made: one per registered family and variant (schedules/aot/
// CMakeLists.txt generates the list from registry.def), plus a streamed twin where a variant
// asks for streaming stores.
#pragma once

#include <string>
#include <vector>

#include "halide_gen/runtime/aot_kernel.h"

namespace halogen {

const std::vector<AotKernel> &aot_kernels();
// The kernel for (family, variant), or nullptr.
const AotKernel *find_aot_kernel(const std::string &family, const std::string &variant);

}  // namespace halogen
