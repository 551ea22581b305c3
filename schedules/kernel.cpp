// Family kernels (kernel.h).
#include "schedules/kernel.h"

#include <fmt/format.h>

#include "frontend/errors.h"
#include "schedules/aot/aot_kernels.h"
#include "schedules/registry.h"

namespace halogen {

FamilyKernel FamilyKernel::aot(const std::string &family, const std::string &variant, Stores stores) {
    FamilyKernel k;
    k.family_ = std::shared_ptr<const Family>(&find_family(family), [](const Family *) {});
    k.variant_ = &find_variant(family, variant);
    k.aot_ = find_aot_kernel(family, variant);
    if (!k.aot_) throw Error(fmt::format("{} {}: no AOT kernel was built for this variant", family, variant));
    k.entry_ = aot_entry(*k.aot_, stores);
    return k;
}

FamilyKernel FamilyKernel::jit(std::shared_ptr<const Family> family, const std::string &variant,
                               const Halide::Target &target) {
    FamilyKernel k;
    k.family_ = std::move(family);
    k.variant_ = &find_variant(k.family_->name, variant);
    k.program_ = std::make_shared<Program>(k.family_->graph(), k.variant_->recipe, k.family_->typical, target);
    k.entry_ = k.program_->entry();
    return k;
}

FamilyKernel FamilyKernel::jit(const std::string &family, const std::string &variant, const Halide::Target &target) {
    return jit(std::shared_ptr<const Family>(&find_family(family), [](const Family *) {}), variant, target);
}

int FamilyKernel::kernels() const { return aot_ ? aot_kernel_count(*aot_) : program_->root_kernels(); }

std::vector<int64_t> FamilyKernel::output_shape(const std::map<std::string, std::vector<int64_t>> &inputs,
                                                const Bindings &dims) const {
    return family_->contract.output_shapes(inputs, dims).at(0);
}

KernelCall FamilyKernel::call(const BufferRefs &inputs, const BufferRef &output, const Bindings &dims) const {
    return KernelCall(family_->contract, entry_, inputs, {output}, dims);
}

}  // namespace halogen
