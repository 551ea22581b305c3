// Loop collapse analysis: adjacent anchor axes i, i+1 merge when every buffer of the group walks
// them contiguously (stride[i] == extent[i+1] * stride[i+1]) or not at all (both strides 0), and
// no reduction is computed between them. Embedding over (batch, seq) thus iterates one batch*seq
// axis.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include <isl/cpp.h>

#include "frontend/grouping/group.h"

namespace halogen {

// Fills g.collapsed_axes and g.collapsed_shape. `accesses` holds, for each buffer the group
// reads, one single-valued map per way it is read (anchor point -> buffer index, reductions'
// axes pinned to parameters), or nullopt when some read is not affine: then no axes merge.
void analyze_collapse(Group &g, const std::map<const Node *, std::optional<std::vector<isl::map>>> &accesses);

}  // namespace halogen
