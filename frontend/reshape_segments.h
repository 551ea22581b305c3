// A reshape as independent segments: runs of input axes and output axes with equal element
// counts (prefix products match), e.g. [2, 12, 5] -> [2, 3, 4, 5] is [2]->[2], [12]->[3, 4],
// [5]->[5]. Axes of extent 1 belong to no segment (they carry no index). Index arithmetic (div/mod) is then needed only inside a segment, and a segment with
// one input axis is affine: j = sum of o_k * stride_k.
#pragma once

#include <optional>
#include <vector>

#include "frontend/dim.h"

namespace halogen {

struct ReshapeSegment {
    int in_begin, in_end;     // input axes [in_begin, in_end), extent-1 ones among them ignored
    int out_begin, out_end;   // output axes [out_begin, out_end), likewise
};

// nullopt when the segments cannot be found (symbolic extents whose products never meet, or a
// zero extent); the caller then treats the whole reshape as one segment.
std::optional<std::vector<ReshapeSegment>> reshape_segments(const Shape &in, const Shape &out);

// The input index of a reshape as expressions of its output index, segment by segment, for any
// expression type E (Halide Exprs, isl text): affine(terms) builds sum(o_k * stride_k) from
// (output axis, stride) pairs, div_mod(lin, stride, extent, first) builds (lin / stride) % extent
// (no % on a segment's first axis), zero() the index 0. Input axes of extent 1 read index 0.
template <typename E, typename Affine, typename DivMod, typename Zero>
std::vector<E> reshape_index(const Shape &in, const Shape &out, const std::vector<ReshapeSegment> &segs,
                             Affine affine, DivMod div_mod, Zero zero) {
    std::vector<E> j(in.size(), zero());
    for (const ReshapeSegment &s : segs) {
        std::vector<int> ins, outs;
        for (int k = s.in_begin; k < s.in_end; ++k) if (in[k] != Dim(1)) ins.push_back(k);
        for (int k = s.out_begin; k < s.out_end; ++k) if (out[k] != Dim(1)) outs.push_back(k);
        std::vector<std::pair<int, Dim>> terms;   // the segment's linear index over its output axes
        Dim st = 1;
        for (auto it = outs.rbegin(); it != outs.rend(); ++it) {
            terms.insert(terms.begin(), {*it, st});
            st = st * out[*it];
        }
        if (ins.size() == 1) {
            j[ins[0]] = affine(terms);
            continue;
        }
        E lin = affine(terms);
        Dim ist = 1;
        for (auto it = ins.rbegin(); it != ins.rend(); ++it) {
            j[*it] = div_mod(lin, ist, in[*it], *it == ins.front());
            ist = ist * in[*it];
        }
    }
    return j;
}

}  // namespace halogen
