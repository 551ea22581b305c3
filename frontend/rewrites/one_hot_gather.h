// The one-hot rewrite: a reduction that selects one row with a one-hot comparison,
//     sum_v where(arange_v == e, f(v), 0)        with e independent of v,
// becomes the gather it stands for,
//     where(0 <= e < V, f(e), 0)                 (gather(f, v, e): O(1) instead of O(V) per point).
// It is a rule on the graph, not an Embedding special case: it fires on any such reduction over
// any single axis. Both conditions are proven on isl access maps: the compared tensor holds the
// coordinate along v (an index_components seen through views), and e does not depend on v.
// An e outside [0, V) selects nothing in the sum and yields 0 in the gather: same semantics.
#pragma once

#include "frontend/graph.h"

namespace halogen {

// `g` with every matching reduction replaced; `rewrites` (if given) receives how many.
Graph rewrite_one_hot_reductions(const Graph &g, int *rewrites = nullptr);

}  // namespace halogen
