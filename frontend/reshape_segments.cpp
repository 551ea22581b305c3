// Reshape segmentation by matching prefix products.
#include "frontend/reshape_segments.h"

namespace halogen {

std::optional<std::vector<ReshapeSegment>> reshape_segments(const Shape &in, const Shape &out) {
    std::vector<ReshapeSegment> segs;
    const int ni = int(in.size()), no = int(out.size());
    int i = 0, o = 0;
    while (i < ni || o < no) {
        ReshapeSegment s{i, i, o, o};
        Dim pi = 1, po = 1;
        // Grow the side with the smaller (constant) product until both match and are non-empty.
        while (true) {
            const bool can_in = s.in_end < ni, can_out = s.out_end < no;
            const bool in_ok = s.in_end > s.in_begin || !can_in, out_ok = s.out_end > s.out_begin || !can_out;
            const bool nonempty = s.in_end > s.in_begin || s.out_end > s.out_begin;
            if (nonempty && in_ok && out_ok && pi == po) break;
            bool grow_in;
            if (s.in_end == s.in_begin && can_in) grow_in = true;
            else if (s.out_end == s.out_begin && can_out) grow_in = false;
            else {
                auto a = pi.constant(), b = po.constant();
                if (!a || !b || !(can_in || can_out)) return std::nullopt;
                grow_in = (*a < *b && can_in) || !can_out;
            }
            if (grow_in) pi = pi * in[s.in_end++];
            else po = po * out[s.out_end++];
        }
        // Extent-1 axes that follow belong to this segment.
        while (s.in_end < ni && in[s.in_end] == Dim(1) && !(s.out_end < no && out[s.out_end] == Dim(1))) ++s.in_end;
        while (s.out_end < no && out[s.out_end] == Dim(1) && !(s.in_end < ni && in[s.in_end] == Dim(1))) ++s.out_end;
        segs.push_back(s);
        i = s.in_end;
        o = s.out_end;
    }
    return segs;
}

}  // namespace halogen
