// ConvND the tinygrad/Caten way, only views, mul and reduce_sum:
//   x [N, C, L1..Ln]  --pad-->  [N, C, L1+2p1, ..]  --window each spatial axis-->  [N, C, O1, R1, .., On, Rn]
//   --reshape--> [N, G, C/G, O1, R1, ..]  --permute--> [N, G, O1..On, C/G, R1..Rn]  --reshape--> [N, G, 1, O.., C/G, R..]
//   w [K, C/G, R..]  --reshape-->  [1, G, K/G, 1 (x n), C/G, R1..Rn]
//   mul (broadcast) -> [N, G, K/G, O1..On, C/G, R1..Rn] -> sum over (C/G, R1..Rn) -> [N, G, K/G, O..]
//   --reshape--> [N, K, O1..On]  (+ bias reshaped to [K, 1 (x n)])
// Named for schedules: the padded input "conv_pad" (when there is padding), the reduction "conv_sum".
#include "frontend/nn/conv.h"

#include <algorithm>

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen::nn {

namespace {

std::vector<int64_t> per_axis(const std::vector<int64_t> &v, std::size_t n, int64_t dflt, const char *what,
                              const Tensor &x, const Tensor &w) {
    if (v.empty()) return std::vector<int64_t>(n, dflt);
    if (v.size() != n) {
        throw ShapeError(fmt::format("conv: {} has {} values for {} spatial axes (x {}, w {})", what, v.size(), n,
                                     shape_str(x.shape()), shape_str(w.shape())));
    }
    return v;
}

}  // namespace

Tensor conv(const Tensor &x, const Tensor &w, const Tensor &bias, const ConvOptions &o) {
    const std::string shapes = fmt::format("x {}, w {}, bias {}, groups {}", shape_str(x.shape()),
                                           shape_str(w.shape()),
                                           bias.defined() ? shape_str(bias.shape()) : std::string("none"), o.groups);
    auto fail = [&](const std::string &why) { return ShapeError(fmt::format("conv: {} ({})", why, shapes)); };
    if (x.rank() < 3) throw fail("x must be [N, C, L1..Ln] with n >= 1 spatial axes");
    if (w.rank() != x.rank()) throw fail("w must be [K, C/groups, R1..Rn] with as many spatial axes as x");
    const std::size_t n = x.rank() - 2;
    const int64_t G = o.groups;
    if (G < 1) throw fail("groups must be at least 1");
    const auto stride = per_axis(o.stride, n, 1, "stride", x, w);
    const auto padding = per_axis(o.padding, n, 0, "padding", x, w);
    const auto dilation = per_axis(o.dilation, n, 1, "dilation", x, w);
    for (std::size_t i = 0; i < n; ++i) {
        if (stride[i] < 1 || dilation[i] < 1 || padding[i] < 0) {
            throw fail("stride and dilation must be >= 1 and padding >= 0");
        }
    }

    const Dim &N = x.shape()[0], &C = x.shape()[1], &K = w.shape()[0], &Cg = w.shape()[1];
    if (G > 1) {
        auto c = C.constant(), k = K.constant();
        if (!c || *c % G != 0) throw fail("groups must divide the input channels C (a constant)");
        if (!k || *k % G != 0) throw fail("groups must divide the output channels K (a constant)");
    }
    if (Cg * Dim(G) != C) throw fail("w's input channels times groups must equal x's channels");
    const Dim Kg = G > 1 ? Dim(*K.constant() / G) : K;
    if (bias.defined() && (bias.rank() != 1 || bias.shape()[0] != K)) throw fail("bias must be [K]");

    std::vector<int64_t> R(n);
    for (std::size_t i = 0; i < n; ++i) {
        auto r = w.shape()[2 + i].constant();
        if (!r || *r < 1) throw fail("kernel extents must be positive constants");
        R[i] = *r;
        auto l = x.shape()[2 + i].constant();
        if (l && *l + 2 * padding[i] < dilation[i] * (R[i] - 1) + 1) {
            throw fail(fmt::format("the dilated kernel is larger than padded spatial axis {}", i));
        }
    }

    // pad -> window each spatial axis: [N, C, O1, R1, ..., On, Rn]
    std::vector<int64_t> lo(x.rank(), 0);
    for (std::size_t i = 0; i < n; ++i) lo[2 + i] = padding[i];
    Tensor xw = pad(x, lo, lo, 0.0);
    if (xw.get() != x.get()) xw = named(xw, names::kConvPad);
    try {
        for (std::size_t i = 0; i < n; ++i) xw = window(xw, int(2 + 2 * i), R[i], stride[i], dilation[i]);
    } catch (const ViewError &e) {
        throw ViewError(fmt::format("conv: {} ({})", e.what(), shapes));
    }
    std::vector<Dim> O(n);
    for (std::size_t i = 0; i < n; ++i) O[i] = xw.shape()[2 + 2 * i];

    // [N, G, C/G, O1, R1, ..] -> [N, G, O1..On, C/G, R1..Rn] -> [N, G, 1, O.., C/G, R..]
    Shape split = {N, Dim(G), Cg};
    for (std::size_t i = 0; i < n; ++i) {
        split.push_back(O[i]);
        split.push_back(R[i]);
    }
    std::vector<int> perm = {0, 1};
    for (std::size_t i = 0; i < n; ++i) perm.push_back(int(3 + 2 * i));
    perm.push_back(2);
    for (std::size_t i = 0; i < n; ++i) perm.push_back(int(4 + 2 * i));
    Tensor xp = permute(reshape(xw, split), perm);
    Shape xs = {N, Dim(G), 1};
    for (std::size_t i = 0; i < n; ++i) xs.push_back(O[i]);
    xs.push_back(Cg);
    for (std::size_t i = 0; i < n; ++i) xs.push_back(R[i]);
    xp = reshape(xp, xs);

    // w [K, C/G, R..] -> [1, G, K/G, 1 (x n), C/G, R..]
    Shape ws = {1, Dim(G), Kg};
    for (std::size_t i = 0; i < n; ++i) ws.push_back(1);
    ws.push_back(Cg);
    for (std::size_t i = 0; i < n; ++i) ws.push_back(R[i]);
    Tensor wp = reshape(w, ws);

    std::vector<int> red;
    for (std::size_t i = 0; i <= n; ++i) red.push_back(int(3 + n + i));
    Tensor total = named(reduce_sum(mul(xp, wp), red), names::kConvSum);   // [N, G, K/G, O1..On, 1 (x n + 1)]
    Shape out = {N, K};
    out.insert(out.end(), O.begin(), O.end());
    // Two views: the reduced axes dropped ([N, G, K/G, O..]), then K = G x K/G. Autoschedulers plan
    // this graph as it stands, and with one view in their place Adams2019 picks a conv1d schedule
    // about 3x slower.
    Shape kept;
    for (int k = 0; k < total.rank(); ++k) {
        if (std::find(red.begin(), red.end(), k) == red.end()) kept.push_back(total.shape()[k]);
    }
    Tensor y = reshape(reshape(total, kept), out);
    if (bias.defined()) {
        Shape bs(n + 1, Dim(1));
        bs[0] = K;
        y = add(y, reshape(bias, bs));
    }
    return y;
}

}  // namespace halogen::nn
