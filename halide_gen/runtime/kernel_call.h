// The one way a kernel runs. A call is bound by the kernel's contract (frontend/contract.h: every
// symbol read off the caller's shapes, every tensor checked, the memory viewed in the kernel's
// layout), its buffers wrapped as Halide's run time takes them, and the kernel's entry invoked.
// JIT programs (halide_gen/compiler/program.h), AOT kernels (aot_kernel.h), the families' kernels
// and the command line all run through here. Needs Halide's run-time headers only.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <HalideBuffer.h>
#include <HalideRuntime.h>

#include "frontend/contract.h"

namespace halogen {

// A bound call as a kernel's entry receives it: every buffer by argument name (outputs as "out",
// or "out0", "out1", ... for several), in the kernel's layout, and every symbolic dim's value.
struct KernelArgs {
    std::map<std::string, halide_buffer_t *> buffers;
    std::vector<halide_buffer_t *> outputs;
    std::map<std::string, int32_t> dims;
};

// What a compiled kernel offers the run path.
class KernelEntry {
public:
    virtual ~KernelEntry() = default;
    // The call with these arguments, resolved once and ready to repeat; it throws an Error carrying
    // the kernel's own message when the kernel fails. `args` outlives it.
    virtual std::function<void()> prepare(const KernelArgs &args) const = 0;
    // Whether this call writes its output with streaming stores (aot_kernel.h).
    virtual bool streams(const KernelArgs &) const { return false; }
};

// A call bound and wrapped once; run() only invokes the entry, so a timing loop can repeat it. The
// callers' memory must outlive it; its contents may change between runs. A call with an empty
// output runs nothing (there is nothing to compute, and Halide's bounds checks would reject the
// empty inputs such a call may pass).
class KernelCall {
public:
    KernelCall(const Contract &contract, std::shared_ptr<const KernelEntry> entry, const BufferRefs &inputs,
               const std::vector<BufferRef> &outputs, const Bindings &given = {});
    KernelCall(const KernelCall &) = delete;   // args_ points into buffers_
    KernelCall(KernelCall &&) = default;
    void run() const;
    bool streams() const { return !empty_ && entry_->streams(args_); }
    const BoundCall &bound() const { return bound_; }

private:
    std::shared_ptr<const KernelEntry> entry_;
    BoundCall bound_;
    std::vector<Halide::Runtime::Buffer<>> buffers_;
    KernelArgs args_;
    std::function<void()> invoke_;   // empty for an empty output
    bool empty_ = false;
};

// Binds, wraps and runs once.
void run_kernel(const Contract &contract, std::shared_ptr<const KernelEntry> entry, const BufferRefs &inputs,
                const std::vector<BufferRef> &outputs, const Bindings &given = {});

// The Halide type of a dtype (bool is Halide's 1-bit type, stored as one byte).
halide_type_t halide_runtime_type(DType t);

}  // namespace halogen
