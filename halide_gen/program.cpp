// Group-by-group compilation and execution.
#include "halide_gen/program.h"

#include <cstring>
#include <unordered_map>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "schedules/schedule.h"

namespace halogen {

Program::Program(const Graph &g, const std::string &schedule, const Halide::Target &target)
    : Program(g, schedule, GroupingOptions{}, target) {}

Program::Program(const Graph &g, const std::string &schedule, const GroupingOptions &grouping,
                 const Halide::Target &target)
    : graph_(g), groups_(group_graph(g, grouping)) {
    for (const Group &grp : groups_) {
        LoweredGraph lg = lower(graph_, grp);
        apply_schedule(lg, schedule, target);
        kernels_.push_back(std::make_unique<JitKernel>(std::move(lg), target));
    }
}

Program::~Program() = default;

void Program::run(const BufferRefs &inputs, const std::vector<BufferRef> &outputs, const Bindings &bindings) {
    const auto &outs = graph_.outputs();
    if (outputs.size() != outs.size()) {
        throw BufferError(fmt::format("program: {} output buffers for a graph with {} outputs", outputs.size(),
                                      outs.size()));
    }
    graph_.check_bindings(bindings);
    std::unordered_map<const Node *, BufferRef> buffers;
    for (const Node *n : graph_.inputs()) {
        auto it = inputs.find(n->name);
        if (it != inputs.end()) buffers[n] = it->second;   // a missing input is reported by its kernel
    }
    for (std::size_t k = 0; k < outs.size(); ++k) {
        check_buffer(outs[k].node(), fmt::format("output {}", k), outputs[k].dtype, outputs[k].shape, bindings);
        buffers.emplace(outs[k].get(), outputs[k]);   // the first buffer of a node listed twice
    }
    std::vector<Array> intermediates;
    intermediates.reserve(groups_.size());
    for (std::size_t k = 0; k < groups_.size(); ++k) {
        const Group &grp = groups_[k];
        BufferRefs reads;
        for (const Node *r : grp.reads) {
            auto it = buffers.find(r);
            if (it != buffers.end()) reads.emplace(buffer_name(*r), it->second);
        }
        auto out = buffers.find(grp.anchor);
        if (out == buffers.end()) {
            intermediates.emplace_back(grp.anchor->dtype, eval_shape(grp.anchor->shape, bindings, grp.anchor->label()));
            out = buffers.emplace(grp.anchor, intermediates.back().ref()).first;
        }
        kernels_[k]->run(reads, out->second, bindings);
    }
    // Outputs that no kernel wrote: a graph input returned as is, or a node listed twice.
    for (std::size_t k = 0; k < outs.size(); ++k) {
        const BufferRef &src = buffers.at(outs[k].get());
        if (src.data == outputs[k].data) continue;
        if (src.data == nullptr) throw BufferError(fmt::format("output {}: its input has no buffer", k));
        int64_t n = 1;
        for (int64_t d : src.shape) n *= d;
        std::memcpy(outputs[k].data, src.data, n * dtype_size(src.dtype));
    }
}

}  // namespace halogen
