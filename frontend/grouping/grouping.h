// The grouping pass: cuts a graph into fused groups, one group = one kernel, as tinygrad and
// Caten schedule. The rules (docs/grouping.md) are decided on isl relations (access.h):
//   - graph outputs and nodes marked materialize() are stored; graph inputs are buffers;
//   - pure nodes (elementwise, views, constants, index_components) are computed inside every group
//     that reads them, never stored;
//   - a reduction joins the one group that consumes it when there is a loop level of that group's
//     anchor at which the map (anchor loop prefix -> reduction points needed) is injective: then
//     each reduction value is computed once, inside the kernel, at that level. Otherwise (read by
//     several groups, read through a non-affine index, or only computable once for the whole
//     kernel) it is materialized and anchors a group of its own.
#pragma once

#include <vector>

#include "frontend/graph.h"
#include "frontend/grouping/group.h"

namespace halogen {

struct GroupingOptions {
    bool fuse_reductions = true;   // false: every reduction is materialized, its own kernel
};

// The groups of `g` in an order that runs producers first. GraphError for a graph the analysis
// cannot handle.
std::vector<Group> group_graph(const Graph &g, const GroupingOptions &options = {});

}  // namespace halogen
