// Loop collapse analysis on access-map coefficients.
#include "frontend/grouping/collapse.h"

#include "frontend/grouping/access.h"

namespace halogen {

namespace {

// Row-major strides of a buffer's shape.
std::vector<Dim> row_major(const Shape &s) {
    std::vector<Dim> st(s.size());
    Dim acc = 1;
    for (int k = int(s.size()) - 1; k >= 0; --k) {
        st[k] = acc;
        acc = acc * s[k];
    }
    return st;
}

}  // namespace

void analyze_collapse(Group &g, const std::map<const Node *, std::optional<std::vector<isl::map>>> &accesses) {
    const Shape &shape = g.anchor->shape;
    const int r = int(shape.size());
    std::vector<bool> mergeable(r > 0 ? r - 1 : 0, true);   // mergeable[k]: axes k and k+1

    // No reduction may be computed between the two axes (its compute_at loop would vanish).
    for (const auto &[node, level] : g.compute_level) {
        if (level >= 1 && level < r) mergeable[level - 1] = false;
    }
    // The output is written densely, so it never blocks; every read must walk contiguously.
    for (const auto &[buffer, maps] : accesses) {
        if (!maps) {
            mergeable.assign(mergeable.size(), false);
            continue;
        }
        const auto bufstride = row_major(buffer->shape);
        for (const isl::map &m : *maps) {
            auto coeff = affine_coefficients(m);
            if (!coeff) {
                mergeable.assign(mergeable.size(), false);
                continue;
            }
            std::vector<Dim> stride(r, Dim(0));   // address stride of the buffer along each anchor axis
            for (int k = 0; k < r; ++k) {
                for (std::size_t j = 0; j < bufstride.size(); ++j) stride[k] = stride[k] + Dim((*coeff)[j][k]) * bufstride[j];
            }
            for (int k = 0; k + 1 < r; ++k) {
                bool contiguous = stride[k] == shape[k + 1] * stride[k + 1];
                bool untouched = stride[k] == Dim(0) && stride[k + 1] == Dim(0);
                if (!contiguous && !untouched) mergeable[k] = false;
            }
        }
    }
    g.collapsed_axes.clear();
    g.collapsed_shape.clear();
    for (int k = 0; k < r; ++k) {
        if (k > 0 && mergeable[k - 1]) {
            g.collapsed_axes.back().push_back(k);
            g.collapsed_shape.back() = g.collapsed_shape.back() * shape[k];
        } else {
            g.collapsed_axes.push_back({k});
            g.collapsed_shape.push_back(shape[k]);
        }
    }
}

}  // namespace halogen
