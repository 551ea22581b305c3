// Family variants as pipelines.
#include "halide_gen/family_pipeline.h"

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/grouping/grouping.h"
#include "frontend/rewrites/one_hot_gather.h"
#include "halide_gen/autoschedule.h"
#include "halide_gen/buffer_extents.h"
#include "halide_gen/types.h"

namespace halogen {

FamilyPipeline build_family_pipeline(const Family &family, const Variant &variant, const ExternalInputs &external,
                                     const Halide::Target &target, bool hand_schedule) {
    FamilyPipeline p{variant.rewrite_one_hot ? rewrite_one_hot_reductions(family.graph) : family.graph, {}, {}, {}};
    p.groups = group_graph(p.graph, GroupingOptions{variant.fuse_reductions});
    ExternalInputs ext = external;
    for (std::size_t k = 0; k < p.groups.size(); ++k) {
        LoweredGraph lg = lower(p.graph, p.groups[k], &ext);
        if (hand_schedule && variant.schedule) variant.schedule(lg, target);
        if (k + 1 < p.groups.size()) {
            if (hand_schedule) lg.out.compute_root();
            ext.buffers[buffer_name(*p.groups[k].anchor)] = lg.out;   // read by the groups after it
        }
        p.output = lg.out;
        p.lowered.push_back(std::move(lg));
    }
    return p;
}

namespace {

std::map<std::string, Halide::ImageParam> make_params(const Family &f) {
    std::map<std::string, Halide::ImageParam> params;
    for (const Node *n : f.graph.inputs()) {
        Halide::ImageParam p(halide_type(n->dtype), int(n->shape.size()), n->name);
        if (!n->shape.empty()) p.dim(0).set_stride(1);
        params.emplace(n->name, p);
    }
    return params;
}

// The pipeline's inputs: the parameters themselves, or (for an autoscheduler, whose tiles may
// outrun a small input) the parameters read through repeat_edge, which changes no output point.
ExternalInputs external_of(const Family &f, const std::map<std::string, Halide::ImageParam> &params, bool clamped) {
    ExternalInputs ext;
    for (const auto &[name, p] : params) ext.buffers[name] = clamped ? Halide::BoundaryConditions::repeat_edge(p) : Halide::Func(p);
    for (const auto &[sym, src] : f.dims) {
        const Halide::ImageParam &p = params.at(src.input);
        ext.dims[sym] = p.dim(halide_dim(p.dimensions(), src.axis)).extent();
    }
    return ext;
}

// The variant's pipeline on `params`: hand-scheduled, or scheduled by its autoscheduler with
// `estimates` for the symbolic dims.
FamilyPipeline scheduled_pipeline(const Family &f, const Variant &v, std::map<std::string, Halide::ImageParam> &params,
                                  const Bindings &estimates, const Halide::Target &target) {
    const bool autoscheduled = !v.autoscheduler.empty();
    FamilyPipeline p = build_family_pipeline(f, v, external_of(f, params, autoscheduled), target, !autoscheduled);
    if (autoscheduled) {
        load_autoscheduler(v.autoscheduler);
        auto regions = family_estimates(f, estimates);
        for (auto &[name, param] : params) param.set_estimates(regions.at(name));
        p.output.set_estimates(regions.at(""));
        autoschedule(p.output, v.autoscheduler, target);
    }
    return p;
}

}  // namespace

FamilyKernel::FamilyKernel(const std::string &family, const std::string &variant, const Halide::Target &target)
    : FamilyKernel(make_family(family), variant, typical_extents(family), target) {}

FamilyKernel::FamilyKernel(Family family, const std::string &variant, const Bindings &estimates,
                           const Halide::Target &target)
    : family_(std::move(family)), params_(make_params(family_)),
      pipeline_(scheduled_pipeline(family_, find_variant(family_.name, variant), params_, estimates, target)),
      halide_(pipeline_.output), target_(target.with_feature(Halide::Target::LargeBuffers)) {
    halide_.compile_jit(target_);
}

int FamilyKernel::kernels() const {
    int n = 0;
    for (const auto &[name, f] : Halide::Internal::find_transitive_calls(pipeline_.output.function())) {
        n += name == pipeline_.output.name() || f.schedule().compute_level().is_root();
    }
    return n;
}

std::vector<int64_t> FamilyKernel::output_shape(const std::map<std::string, std::vector<int64_t>> &shapes) const {
    const Node &out = family_.graph.outputs()[0].node();
    return eval_shape(out.shape, bind_family(family_, shapes), family_.name + " output");
}

void FamilyKernel::run(const BufferRefs &inputs, const BufferRef &output) {
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const auto &[name, ref] : inputs) shapes[name] = ref.shape;
    const Bindings b = bind_family(family_, shapes);
    family_.graph.check_bindings(b);
    Halide::ParamMap pm;
    std::vector<Halide::Buffer<>> held;
    for (const Node *n : family_.graph.inputs()) {
        auto it = inputs.find(n->name);
        const std::string role = fmt::format("{} input '{}'", family_.name, n->name);
        if (it == inputs.end()) throw BufferError(fmt::format("{}: no buffer given ({})", role, family_.contract));
        check_buffer(*n, role, it->second.dtype, it->second.shape, b);
        check_host(it->second, role);
        held.emplace_back(halide_type(n->dtype), halide_host(it->second), halide_extents(it->second, role));
        pm.set(params_.at(n->name), held.back());
    }
    check_buffer(family_.graph.outputs()[0].node(), family_.name + " output", output.dtype, output.shape, b);
    if (is_empty(output)) return;   // nothing to compute
    check_host(output, family_.name + " output");
    Halide::Buffer<> out(halide_type(output.dtype), output.data, halide_extents(output, family_.name + " output"));
    realize_or_throw(halide_, out, target_, pm, family_.name);   // a failure is ours, as for an AOT kernel
}

}  // namespace halogen
