// A variant of a family, ready to run through the one run path (halide_gen/runtime/kernel_call.h)
// with the family's contract: tensors as the caller holds them, checked and viewed in the kernel's
// layout. The kernel is the AOT one the build made for every registered variant, or the same
// recipe JIT-compiled (a geometry no AOT kernel takes, or a test that inspects the pipeline).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "halide_gen/compiler/program.h"
#include "halide_gen/runtime/aot_kernel.h"
#include "schedules/family.h"

namespace halogen {

class FamilyKernel {
public:
    // The AOT kernel of a registered variant; Error when the build made none.
    static FamilyKernel aot(const std::string &family, const std::string &variant, Stores stores = Stores::by_size);
    // The variant JIT-compiled on `family`'s graph (a registered family, or conv::geometry()).
    static FamilyKernel jit(std::shared_ptr<const Family> family, const std::string &variant,
                            const Halide::Target &target = jit_target());
    static FamilyKernel jit(const std::string &family, const std::string &variant,
                            const Halide::Target &target = jit_target());

    const Family &family() const { return *family_; }
    const Variant &variant() const { return *variant_; }
    const AotKernel *aot_kernel() const { return aot_; }            // nullptr for a JIT kernel
    const Program *program() const { return program_.get(); }        // nullptr for an AOT kernel
    // Loop nests at the root, i.e. kernels.
    int kernels() const;

    // The output's shape, in the caller's layout, for these input shapes.
    std::vector<int64_t> output_shape(const std::map<std::string, std::vector<int64_t>> &inputs,
                                      const Bindings &dims = {}) const;
    // A call bound once, for timing loops (KernelCall::run repeats it); `dims` sets parameters.
    KernelCall call(const BufferRefs &inputs, const BufferRef &output, const Bindings &dims = {}) const;
    void run(const BufferRefs &inputs, const BufferRef &output, const Bindings &dims = {}) const {
        call(inputs, output, dims).run();
    }

private:
    FamilyKernel() = default;
    std::shared_ptr<const Family> family_;
    const Variant *variant_ = nullptr;
    const AotKernel *aot_ = nullptr;
    std::shared_ptr<const Program> program_;
    std::shared_ptr<const KernelEntry> entry_;
};

}  // namespace halogen
