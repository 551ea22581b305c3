// The one Halide generator of every family: GeneratorParams `family` and `variant` choose a
// registered variant (schedules/registry.def), configure() declares the family's inputs -- by name,
// element type and rank, in the kernel's layout -- and its output, and generate() builds the
// variant's pipeline the way the JIT does (halide_gen/compiler/pipeline.h). CMake runs it at
// build time once per variant (add_halide_library). `streamed` builds a variant's twin with
// streaming stores: the same pipeline, its schedule free to prefetch the inputs; generator_main.cpp
// then rewrites the compiled stores and prefetches.
#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/compiler/pipeline.h"
#include "halide_gen/compiler/types.h"
#include "schedules/registry.h"

namespace halogen {
namespace {

class FamilyGenerator : public Halide::Generator<FamilyGenerator> {
public:
    GeneratorParam<std::string> family{"family", ""};
    GeneratorParam<std::string> variant{"variant", ""};
    GeneratorParam<bool> streamed{"streamed", false};

    void configure() {
        const Family &f = find_family(family);
        if (!scalar_dims(f.graph()).empty()) {
            throw Error(fmt::format("{}: every symbolic dim must be an axis of an input for an AOT kernel", f.name));
        }
        for (const Node *n : f.graph().inputs()) {
            inputs_.push_back(add_input<Buffer<>>(n->name, halide_type(n->dtype), int(n->shape.size())));
        }
        const Tensor &out = f.graph().outputs().at(0);
        output_ = add_output<Buffer<>>("out", halide_type(out.dtype()), out.rank());
    }

    void generate() {
        // The generator framework's own auto_schedule would run after generate(), too late to guard
        // the output's tails (compiler/autoschedule.h): the variant names the autoscheduler.
        if (auto_schedule) throw Error(fmt::format("{}: leave auto_schedule false; the variant names the autoscheduler", family.value()));
        const Family &f = find_family(family);
        const Variant &v = find_variant(family, variant);
        if (streamed && !v.streaming_stores) {
            throw Error(fmt::format("{} {}: streamed=true, but the variant asks for no streaming stores", f.name, v.name));
        }
        PipelineInputs in;
        for (Input<Buffer<>> *i : inputs_) in.buffers.emplace(i->name(), Halide::ImageParam(*i));
        in.prefetchable = streamed;
        in.estimates = f.typical;
        *output_ = halogen::build_pipeline(f.graph(), v.recipe, in, get_target()).outputs.at(0);
    }

private:
    std::vector<Input<Buffer<>> *> inputs_;
    Output<Buffer<>> *output_ = nullptr;
};

}  // namespace
}  // namespace halogen

HALIDE_REGISTER_GENERATOR(halogen::FamilyGenerator, halogen_family)
