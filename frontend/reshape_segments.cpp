// Reshape segmentation by matching prefix products of the axes whose extent is not 1 (extent-1
// axes carry no index: an input one always reads 0, an output one only ever holds 0).
#include "frontend/reshape_segments.h"

#include <algorithm>

namespace halogen {

namespace {

// Does the single-term dim a divide the single-term dim b (2*B divides 6*B*S)?
bool divides(const Dim &a, const Dim &b) {
    if (a.terms().size() != 1 || b.terms().size() != 1) return false;
    const auto &[ma, ca] = *a.terms().begin();
    const auto &[mb, cb] = *b.terms().begin();
    return ca != 0 && cb % ca == 0 && std::includes(mb.begin(), mb.end(), ma.begin(), ma.end());
}

}  // namespace

std::optional<std::vector<ReshapeSegment>> reshape_segments(const Shape &in, const Shape &out) {
    std::vector<int> ai, ao;   // the axes whose extent is not 1
    for (int k = 0; k < int(in.size()); ++k) if (in[k] != Dim(1)) ai.push_back(k);
    for (int k = 0; k < int(out.size()); ++k) if (out[k] != Dim(1)) ao.push_back(k);
    std::vector<ReshapeSegment> segs;
    std::size_t i = 0, o = 0;
    while (i < ai.size() && o < ao.size()) {
        const std::size_t i0 = i, o0 = o;
        Dim pi = in[ai[i++]], po = out[ao[o++]];
        while (pi != po) {   // grow the side whose product divides the other's
            auto a = pi.constant(), b = po.constant();
            bool grow_in = a && b ? *a < *b : divides(pi, po);
            bool grow_out = a && b ? *b < *a : divides(po, pi);
            if (!grow_in && !grow_out) return std::nullopt;
            if (grow_in && i < ai.size()) pi = pi * in[ai[i++]];
            else if (grow_out && o < ao.size()) po = po * out[ao[o++]];
            else return std::nullopt;
        }
        segs.push_back({ai[i0], ai[i - 1] + 1, ao[o0], ao[o - 1] + 1});
    }
    if (i < ai.size() || o < ao.size()) return std::nullopt;   // element counts differ (zero extents)
    return segs;
}

}  // namespace halogen
