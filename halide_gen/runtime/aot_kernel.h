// An AOT kernel the generators emitted at build time (schedules/aot/ lists them), as an entry of
// the run path (kernel_call.h): the kernel's argv function called with its arguments in the order
// its Halide metadata gives, each found by name in the bound call.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <HalideRuntime.h>

#include "halide_gen/runtime/kernel_call.h"

namespace halogen {

struct AotKernel {
    const char *family;
    const char *variant;
    int (*argv)(void **args);
    // The same kernel with its output written by streaming stores (halide_gen/compiler/
    // streaming_stores.h), or nullptr. A call uses it when the output takes at least
    // streaming_threshold_bytes().
    int (*streamed_argv)(void **args);
    const halide_filter_metadata_t *(*metadata)();
    const char *stmt_path;       // the lowered statement written beside the library at build time
    const char *c_source_path;   // the same kernel as C source (Halide's C backend), also beside it
};

// From this output size on, a kernel with a streamed twin writes through it: half the last-level
// cache (host_caches.h; 16 MiB when sysfs cannot be read). An output that large leaves the cache
// anyway, with the inputs it was computed from, so a reader would not find it there; below it,
// cached stores leave the output where the next kernel reads it (`halogen_perf
// --streaming-sweep` measures both sides). The environment variable
// HALOGEN_STREAMING_THRESHOLD_BYTES, read once, replaces it (0: always the twin); Error when it is
// not an integer >= 0.
int64_t streaming_threshold_bytes();

// Which of a kernel's two entries a call takes: by the output's size (what users get), or one of
// them regardless, to time both (halogen_perf --streaming-sweep). Asking for streaming stores from
// a kernel without the twin is an Error.
enum class Stores { by_size, cached, streaming };

// The run path's entry for an AOT kernel. Its parallel loops run on the kernels' thread pool
// (kernel_pool.h: set_kernel_threads sets how many).
std::shared_ptr<const KernelEntry> aot_entry(const AotKernel &k, Stores stores = Stores::by_size);

// Kernels of an AOT variant: the top-level produce blocks of the kernel's own function in the
// statement written at build time (parallel loop bodies are printed as separate closure functions
// and do not count).
int aot_kernel_count(const AotKernel &k);

}  // namespace halogen
