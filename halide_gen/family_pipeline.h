// One variant of a family (frontend/families.h, schedules/variants.h) as one Halide pipeline:
// the graph prepared (the one-hot rewrite where the variant asks), grouped, each group lowered
// with the earlier groups' outputs as its inputs, the variant's hand schedule applied to each,
// and every group but the last computed at root -- its own loop nest, i.e. its own kernel.
// Generators build their AOT kernels with it; FamilyKernel JIT-compiles it for tests and tools.
#pragma once

#include <string>
#include <vector>

#include <Halide.h>

#include "frontend/families.h"
#include "frontend/grouping/group.h"
#include "halide_gen/host_target.h"
#include "halide_gen/jit.h"
#include "halide_gen/lower.h"
#include "schedules/variants.h"

namespace halogen {

struct FamilyPipeline {
    Graph graph;                          // the family's graph after the variant's rewrites
    std::vector<Group> groups;            // one per kernel, producers first
    std::vector<LoweredGraph> lowered;    // one per group
    Halide::Func output;                  // the last group's output
    int kernels() const { return int(groups.size()); }
};

// `external` gives a Func for each family input (by name) and an Expr for each symbolic dim.
// With `hand_schedule` false no directive is applied (for the autoschedulers).
FamilyPipeline build_family_pipeline(const Family &family, const Variant &variant, const ExternalInputs &external,
                                     const Halide::Target &target, bool hand_schedule = true);

// A family variant JIT-compiled once, for any shape: inputs are ImageParams whose extents give the
// symbolic dims. An autoscheduled variant is scheduled here by its autoscheduler (the plugin is
// loaded into the process), with the family's typical extents or the given ones as estimates.
// Compiled with Halide's large_buffers feature: tables over 2 GiB (llama3-8B's) work.
class FamilyKernel {
public:
    FamilyKernel(const std::string &family, const std::string &variant,
                 const Halide::Target &target = jit_target());
    // Any family graph, e.g. a conv of another geometry than the shipped kernels'
    // (make_conv_family); `estimates` binds its symbolic dims for an autoscheduler.
    FamilyKernel(Family family, const std::string &variant, const Bindings &estimates = {},
                 const Halide::Target &target = jit_target());

    const Family &family() const { return family_; }
    const FamilyPipeline &pipeline() const { return pipeline_; }
    // Loop nests at the root, i.e. kernels: the groups for a hand variant, whatever the
    // autoscheduler computed at root for an autoscheduled one.
    int kernels() const;
    Halide::Pipeline &halide_pipeline() { return halide_; }

    // The shape of the output for these input shapes (BufferError if they do not fit the family).
    std::vector<int64_t> output_shape(const std::map<std::string, std::vector<int64_t>> &input_shapes) const;
    // Checks every buffer against the family's contract, then runs.
    void run(const BufferRefs &inputs, const BufferRef &output);

private:
    Family family_;
    std::map<std::string, Halide::ImageParam> params_;
    FamilyPipeline pipeline_;
    Halide::Pipeline halide_;
    Halide::Target target_;
};

}  // namespace halogen
