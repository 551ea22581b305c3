// A graph compiled by the JIT: made into one Halide pipeline by a recipe (pipeline.h) and run
// through the one run path (halide_gen/runtime/kernel_call.h). Its inputs are ImageParams named
// after the graph's inputs; a symbolic dim is read off an input's extent, or is a scalar Param.
// Compiled with Halide's large_buffers feature: tables over 2 GiB (llama3-8B's) work.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <Halide.h>

#include "frontend/contract.h"
#include "frontend/grouping/grouping.h"
#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/pipeline.h"
#include "halide_gen/runtime/kernel_call.h"

namespace halogen {

class Program {
public:
    // Grouped, one kernel per group, a generic schedule (compiler/schedule.h) applied to each.
    Program(const Graph &g, const std::string &schedule, const Halide::Target &target = jit_target());
    Program(const Graph &g, const std::string &schedule, const GroupingOptions &grouping,
            const Halide::Target &target = jit_target());
    // By any recipe; `estimates` gives typical extents of the symbolic dims to an autoscheduler.
    Program(const Graph &g, const Recipe &recipe, const Bindings &estimates = {},
            const Halide::Target &target = jit_target());

    const Graph &graph() const { return contract_.graph(); }
    const Pipeline &pipeline() const { return pipeline_; }
    const std::vector<Group> &groups() const { return pipeline_.groups; }
    int kernel_count() const { return int(pipeline_.groups.size()); }
    const LoweredGraph &lowered(int k) const { return pipeline_.lowered.at(k); }
    // Loop nests at the root, i.e. kernels: the groups for a schedule, whatever an autoscheduler
    // computed at root.
    int root_kernels() const;
    // The run path's entry, for a caller with a contract of its own (a family's caller layouts).
    std::shared_ptr<const KernelEntry> entry() const { return entry_; }

    // Reads the graph's inputs by name, writes `outputs` (one per graph output), with `bindings`
    // for symbolic dims no input's shape holds. Every buffer is checked first.
    void run(const BufferRefs &inputs, const std::vector<BufferRef> &outputs, const Bindings &bindings = {}) const;

private:
    Contract contract_;
    Pipeline pipeline_;
    std::shared_ptr<const KernelEntry> entry_;
};

}  // namespace halogen
