// JIT compile and run.
#include "halide_gen/jit.h"

#include <limits>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/buffer_extents.h"
#include "halide_gen/types.h"

namespace halogen {

namespace {

// A Halide view of caller memory: Halide dimension 0 is the last (contiguous) halogen axis.
Halide::Buffer<> wrap(const BufferRef &b, const std::string &role) {
    return Halide::Buffer<>(halide_type(b.dtype), halide_host(b), halide_extents(b, role));
}

}  // namespace

void realize_or_throw(Halide::Pipeline &pipeline, Halide::Buffer<> &output, const Halide::Target &target,
                      const Halide::ParamMap &params, const std::string &what) {
    try {
        pipeline.realize(output, target, params);
    } catch (const Halide::Error &e) {
        std::string msg = e.what();
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
        if (msg.rfind("Error: ", 0) == 0) msg.erase(0, 7);
        throw Error(what.empty() ? "kernel failed: " + msg : fmt::format("{}: kernel failed: {}", what, msg));
    }
}

JitKernel::JitKernel(LoweredGraph lowered, const Halide::Target &target)
    : lowered_(std::move(lowered)), pipeline_(lowered_.out), target_(target) {
    pipeline_.compile_jit(target_);
}

void JitKernel::run(const BufferRefs &inputs, const BufferRef &output, const Bindings &bindings) {
    const Graph &g = lowered_.graph;
    g.check_bindings(bindings);
    Halide::ParamMap params;
    for (const Node *n : lowered_.group.reads) {
        const std::string name = buffer_name(*n);
        const std::string role = "input '" + name + "'";
        auto it = inputs.find(name);
        if (it == inputs.end()) {
            throw BufferError(fmt::format("{}: no buffer given (expected {} of shape {})", role,
                                          dtype_name(n->dtype), shape_str(n->shape)));
        }
        check_buffer(*n, role, it->second.dtype, it->second.shape, bindings);
        check_host(it->second, role);
        params.set(lowered_.inputs.at(name), wrap(it->second, role));
    }
    for (auto &[name, p] : lowered_.dims) {
        int64_t v = bindings.at(name);
        if (v > std::numeric_limits<int32_t>::max()) {
            throw BindingError(fmt::format("graph: symbolic dim '{}' = {} exceeds int32", name, v));
        }
        params.set(p, static_cast<int32_t>(v));
    }
    check_buffer(*lowered_.output, "output", output.dtype, output.shape, bindings);
    // An empty output has nothing to compute (and Halide's bounds checks reject the empty
    // inputs such a call may pass, e.g. zero tokens).
    if (is_empty(output)) return;
    check_host(output, "output");
    Halide::Buffer<> out = wrap(output, "output");
    realize_or_throw(pipeline_, out, target_, params, "");
}

}  // namespace halogen
