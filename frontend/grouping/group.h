// A fused group: the nodes one kernel computes, and what the analysis learned about them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "frontend/node.h"

namespace halogen {

struct Group {
    const Node *anchor = nullptr;            // the one node this kernel writes to memory
    std::vector<const Node *> members;       // nodes computed inside the kernel, producers first, anchor last
    std::vector<const Node *> reads;         // buffers it reads: graph inputs and other groups' anchors

    // For each reduction among the members: how many of the anchor's loops (outermost first)
    // enclose its computation. rank(anchor) means once per output point; 1 means once per
    // iteration of the outermost loop. Never 0 unless the anchor is a scalar.
    std::map<const Node *, int> compute_level;

    // Loop collapse: the anchor's axes as runs of adjacent axes that every buffer of the group
    // walks contiguously (or not at all), e.g. {{0, 1}, {2}} for Embedding over (batch, seq, dim);
    // and the extent of each collapsed axis (B*S, D).
    std::vector<std::vector<int>> collapsed_axes;
    Shape collapsed_shape;

    bool contains(const Node *n) const;
    std::string describe() const;            // "reduce_sum#7 <- {…} reads [ids, weight]"
};

}  // namespace halogen
