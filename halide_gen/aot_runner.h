// The AOT kernels the generators emitted at build time, and how to call one on caller buffers.
// Argument order and types come from each kernel's Halide metadata; buffers are checked first.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <HalideBuffer.h>
#include <HalideRuntime.h>

#include "frontend/array.h"

namespace halogen {

struct AotKernel {
    const char *family;
    const char *variant;
    int (*argv)(void **args);
    // The same kernel with its output written by streaming stores (Variant::streaming_stores;
    // halide_gen/streaming_stores.h), or nullptr. A call uses it when the output takes at least
    // streaming_threshold_bytes().
    int (*streamed_argv)(void **args);
    const halide_filter_metadata_t *(*metadata)();
    const char *stmt_path;       // the lowered statement written beside the library at build time
    const char *c_source_path;   // the same kernel as C source (Halide's C backend), also beside it
};

const std::vector<AotKernel> &aot_kernels();

// From this output size on, a kernel with a streamed twin writes through it: half the last-level
// cache (halide_gen/host_caches.h; 16 MiB when sysfs cannot be read). An output that large
// leaves the cache anyway, with the inputs it was computed from, so a reader would not find it
// there; below it, cached stores leave the output where the next kernel reads it. Measured from
// 2 to 48 MiB by `halogen_perf --streaming-sweep` (perf/notes.md, *Where streaming stores start
// to pay*). The environment variable
// HALOGEN_STREAMING_THRESHOLD_BYTES, read once, replaces it (0: always the twin); Error when it
// is not an integer >= 0.
int64_t streaming_threshold_bytes();
// The kernel for (family, variant), or nullptr.
const AotKernel *find_aot_kernel(const std::string &family, const std::string &variant);

// Calls the kernel with `inputs` by name and `output`. BufferError when an input is missing or a
// buffer's dtype or rank differs from the kernel's arguments; Halide's own checks (extents that do
// not fit the family) come back as an Error with Halide's message.
void run_aot(const AotKernel &k, const std::map<std::string, BufferRef> &inputs, const BufferRef &output);

// Which of a kernel's two entries a call takes: by the output's size against
// streaming_threshold_bytes() (what users get), or one of them regardless, to time both (the perf
// harness's --streaming-sweep). Asking for streaming stores from a kernel without the twin is an Error.
enum class Stores { by_size, cached, streaming };

// The same call, checked and wrapped once, for timing loops: run() only calls the kernel. The
// buffers' memory must outlive the call; their contents may change between runs. Parallel loops
// run on OpenMP threads (openmp_par_for.h: set_aot_threads sets how many).
class AotCall {
public:
    AotCall(const AotKernel &k, const std::map<std::string, BufferRef> &inputs, const BufferRef &output,
            Stores stores = Stores::by_size);
    void run();
    bool streamed() const { return entry_ != kernel_->argv; }   // through the streamed twin

private:
    const AotKernel *kernel_;
    int (*entry_)(void **args);
    std::vector<Halide::Runtime::Buffer<>> buffers_;
    std::vector<void *> args_;
};

// Kernels of an AOT variant: the top-level produce blocks of the kernel's own function in the
// statement written at build time (parallel loop bodies are printed as separate closure functions
// and do not count).
int aot_kernel_count(const AotKernel &k);

}  // namespace halogen
