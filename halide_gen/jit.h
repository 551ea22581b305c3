// JIT-compiles a lowered (and scheduled) graph and runs it on caller-owned buffers.
#pragma once

#include <map>
#include <string>

#include <Halide.h>

#include "frontend/array.h"
#include "halide_gen/host_target.h"
#include "halide_gen/lower.h"

namespace halogen {

using BufferRefs = std::map<std::string, BufferRef>;

// Runs a compiled pipeline on caller buffers; a failure of Halide's run-time checks (which throw
// Halide's own error type) becomes halogen::Error("<what>: kernel failed: <Halide's message>").
void realize_or_throw(Halide::Pipeline &pipeline, Halide::Buffer<> &output, const Halide::Target &target,
                      const Halide::ParamMap &params, const std::string &what);

class JitKernel {
public:
    // Compiles for `target` (by default the host, or HL_JIT_TARGET when set).
    explicit JitKernel(LoweredGraph lowered, const Halide::Target &target = jit_target());

    // Runs the kernel: reads `inputs` by buffer_name(), writes `output`, with symbolic dims from
    // `bindings`.
    // Every buffer is checked first (BufferError / BindingError naming it and both shapes); the
    // kernel never allocates or resizes the output.
    void run(const BufferRefs &inputs, const BufferRef &output, const Bindings &bindings = {});

    const LoweredGraph &lowered() const { return lowered_; }

private:
    LoweredGraph lowered_;
    Halide::Pipeline pipeline_;
    Halide::Target target_;
};

}  // namespace halogen
