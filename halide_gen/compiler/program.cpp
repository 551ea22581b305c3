// JIT compilation of a graph (program.h).
#include "halide_gen/compiler/program.h"

#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/compiler/schedule.h"
#include "halide_gen/compiler/types.h"
#include "halide_gen/compiler/jit_par_for.h"

namespace halogen {

namespace {

// The pipeline's parameters: an ImageParam per graph input, a Param per scalar dim.
struct Params {
    std::map<std::string, Halide::ImageParam> buffers;
    std::map<std::string, Halide::Param<int32_t>> dims;
};

Params make_params(const Graph &g) {
    Params p;
    for (const Node *n : g.inputs()) p.buffers.emplace(n->name, Halide::ImageParam(halide_type(n->dtype), int(n->shape.size()), n->name));
    for (const std::string &s : scalar_dims(g)) p.dims.emplace(s, Halide::Param<int32_t>(s));
    return p;
}

Pipeline build(const Graph &g, const Recipe &recipe, const Params &params, const Bindings &estimates,
               const Halide::Target &target) {
    PipelineInputs in;
    in.buffers = params.buffers;
    for (const auto &[name, p] : params.dims) in.scalar_dims.emplace(name, p);
    in.estimates = estimates;
    return build_pipeline(g, recipe, in, target);
}

// The JIT-compiled pipeline as an entry of the run path.
class JitEntry : public KernelEntry {
public:
    JitEntry(std::string who, const std::vector<Halide::Func> &outputs, Params params, const Halide::Target &target)
        : who_(std::move(who)), pipeline_(outputs), params_(std::move(params)),
          target_(target.with_feature(Halide::Target::LargeBuffers)) {
        use_kernel_pool(pipeline_);
        pipeline_.compile_jit(target_);
    }

    std::function<void()> prepare(const KernelArgs &args) const override {
        auto pm = std::make_shared<Halide::ParamMap>();
        for (const auto &[name, p] : params_.buffers) pm->set(p, Halide::Buffer<>(*args.buffers.at(name)));
        for (const auto &[name, p] : params_.dims) pm->set(p, args.dims.at(name));
        std::vector<Halide::Buffer<>> outs;
        for (halide_buffer_t *b : args.outputs) outs.emplace_back(*b);
        auto realization = std::make_shared<Halide::Realization>(outs);
        return [this, pm, realization] {
            try {
                pipeline_.realize(*realization, target_, *pm);
            } catch (const Halide::Error &e) {
                std::string msg = e.what();
                while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
                if (msg.rfind("Error: ", 0) == 0) msg.erase(0, 7);
                throw Error(fmt::format("{}: kernel failed: {}", who_, msg));
            }
        };
    }

private:
    std::string who_;
    mutable Halide::Pipeline pipeline_;
    Params params_;
    Halide::Target target_;
};

}  // namespace

Program::Program(const Graph &g, const std::string &schedule, const Halide::Target &target)
    : Program(g, schedule, GroupingOptions{}, target) {}

Program::Program(const Graph &g, const std::string &schedule, const GroupingOptions &grouping,
                 const Halide::Target &target)
    : Program(g, [&] {
          Recipe r = Recipe::generic(schedule);
          r.fuse_reductions = grouping.fuse_reductions;
          return r;
      }(), {}, target) {}

Program::Program(const Graph &g, const Recipe &recipe, const Bindings &estimates, const Halide::Target &target)
    : contract_(recipe.name, g) {
    Params params = make_params(g);
    pipeline_ = build(g, recipe, params, estimates, target);
    entry_ = std::make_shared<JitEntry>(recipe.name, pipeline_.outputs, std::move(params), target);
}

int Program::root_kernels() const {
    int n = 0;
    for (const Halide::Func &out : pipeline_.outputs) {
        for (const auto &[name, f] : Halide::Internal::find_transitive_calls(out.function())) {
            n += name == out.name() || f.schedule().compute_level().is_root();
        }
    }
    return n;
}

void Program::run(const BufferRefs &inputs, const std::vector<BufferRef> &outputs, const Bindings &bindings) const {
    run_kernel(contract_, entry_, inputs, outputs, bindings);
}

}  // namespace halogen
