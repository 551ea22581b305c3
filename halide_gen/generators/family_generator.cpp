// Shared generator code.
#include "halide_gen/generators/family_generator.h"

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

Halide::Func build_for_generator(const std::string &family, const std::string &variant,
                                 const std::map<std::string, std::pair<Halide::Func, std::vector<Halide::Expr>>> &inputs,
                                 const Halide::Target &target,
                                 const std::map<std::string, Halide::ImageParam> &prefetchable) {
    Family f = make_family(family);
    const Variant &v = find_variant(family, variant);
    ExternalInputs ext;
    for (const auto &[name, in] : inputs) ext.buffers[name] = in.first;
    ext.prefetchable = prefetchable;
    for (const auto &[sym, src] : f.dims) ext.dims[sym] = inputs.at(src.input).second.at(src.axis);   // halogen axis order
    return build_family_pipeline(f, v, ext, target, /*hand_schedule=*/v.autoscheduler.empty()).output;
}

}  // namespace halogen
