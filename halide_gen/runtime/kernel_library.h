// A compiled program loaded from a shared object's bytes (a kernel cache entry,
// kernel_cache.h), as an entry of the run path. The library holds one Halide pipeline -- its argv
// function `<name>_argv` and its metadata `<name>_metadata` -- and a copy of Halide's runtime of
// its own, whose parallel loops are pointed at the kernels' thread pool (kernel_pool.h) and whose
// errors are kept for the exception a failed call throws. Loading needs no compiler: the bytes
// go into an anonymous in-memory file that the dynamic loader opens.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "halide_gen/runtime/kernel_call.h"

namespace halogen {

// The program's arguments in the order its argv function takes them: each input buffer and each
// symbolic dim by the name a KernelArgs gives it, then the outputs.
struct LibrarySignature {
    std::string function;                // the pipeline's name in the library
    std::vector<std::string> buffers;    // input buffers, in argv order
    std::vector<std::string> dims;       // scalar int32 arguments, after the buffers
    int outputs = 0;                     // output buffers, last
};

// Loads the library and checks that its metadata has the signature's arguments (kinds, count).
// Error naming `who` and the loader's message when it cannot (a library for another CPU, a
// missing symbol).
std::shared_ptr<const KernelEntry> load_kernel_library(const std::string &bytes, const LibrarySignature &signature,
                                                       const std::string &who);

}  // namespace halogen
