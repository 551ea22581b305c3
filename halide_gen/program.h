// A graph compiled the way halogen runs it: cut into fused groups (frontend/grouping), one JIT
// kernel per group, run producers first. Buffers between groups are allocated per run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <Halide.h>

#include "frontend/grouping/grouping.h"
#include "halide_gen/host_target.h"
#include "halide_gen/jit.h"

namespace halogen {

class Program {
public:
    // Groups `g`, lowers each group, applies `schedule` (schedules/schedule.h) and JIT-compiles it.
    Program(const Graph &g, const std::string &schedule,
            const Halide::Target &target = jit_target());
    // The same with explicit grouping options (e.g. every reduction its own kernel).
    Program(const Graph &g, const std::string &schedule, const GroupingOptions &grouping,
            const Halide::Target &target = jit_target());
    ~Program();

    const Graph &graph() const { return graph_; }
    const std::vector<Group> &groups() const { return groups_; }
    int kernel_count() const { return int(kernels_.size()); }
    const LoweredGraph &lowered(int k) const { return kernels_.at(k)->lowered(); }

    // Reads graph inputs by name and writes `outputs` (one per graph output, in order), with the
    // symbolic dims from `bindings`. Every buffer is checked first.
    void run(const BufferRefs &inputs, const std::vector<BufferRef> &outputs, const Bindings &bindings = {});

private:
    Graph graph_;
    std::vector<Group> groups_;
    std::vector<std::unique_ptr<JitKernel>> kernels_;
};

}  // namespace halogen
