// Causal grouped-query attention from primitives (attention.h): two broadcast products summed over
// an axis (q.k over D, e.v over S), a softmax along S between them (its division after e.v's sum),
// the causal mask on the operand of every reduction over S.
#include "frontend/nn/attention.h"

#include <limits>

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen::nn {

namespace {

constexpr double kScoreLimit = 1e37;   // |score| is clamped to this

Tensor clamp_abs(const Tensor &x, double limit) {
    return neg(maximum(neg(maximum(x, fconst(-limit))), fconst(-limit)));   // min(max(x, -l), l)
}

}  // namespace

Tensor attention(const Tensor &q, const Tensor &k, const Tensor &v) {
    const auto bad = [&](const std::string &why) {
        return ShapeError(fmt::format("attention: q {}, k {}, v {}: {}", shape_str(q.shape()), shape_str(k.shape()),
                                      shape_str(v.shape()), why));
    };
    for (const Tensor *t : {&q, &k, &v}) {
        if (t->dtype() != DType::Float32) {
            throw DTypeError(fmt::format("attention: q, k and v must be float32, got {}, {}, {}", dtype_name(q.dtype()),
                                         dtype_name(k.dtype()), dtype_name(v.dtype())));
        }
    }
    if (q.rank() != 4 || k.rank() != 3 || v.rank() != 3) throw bad("expected q [T, G, R, D], k and v [G, S, D]");
    const Dim T = q.shape()[0], G = q.shape()[1], R = q.shape()[2], D = q.shape()[3], S = k.shape()[1];
    if (k.shape() != v.shape()) throw bad("k and v must have one shape");
    if (k.shape()[0] != G || k.shape()[2] != D) throw bad("k and v must be [G, S, D] with q's G and D");

    // scores [T, G, R, S]: q [T, G, R, 1, D] * k [1, G, 1, S, D], summed over D.
    const Tensor kg = reshape(k, {Dim(1), G, Dim(1), S, D});
    const Tensor qs = reshape(q, {T, G, R, Dim(1), D});
    const Tensor dot = named(reduce_sum(mul(qs, kg), {4}), names::kAttnScores);
    const Tensor scale = recip(sqrt(dim_const(D, DType::Float32)));
    const Tensor scores = named(clamp_abs(mul(reshape(dot, {T, G, R, S}), scale), kScoreLimit), names::kAttnLogits);

    // visible[t, s] = s <= (S - T) + t, as [T, 1, 1, S].
    const Tensor t_pos = add(reshape(arange(T), {T, Dim(1), Dim(1), Dim(1)}), dim_const(S - T, DType::Int32));
    const Tensor visible = le(reshape(arange(S), {Dim(1), Dim(1), Dim(1), S}), t_pos);

    // Masked keys take each reduction's identity: -inf for the max, 0 for the sums.
    const Tensor lowest = fconst(-std::numeric_limits<double>::infinity()), zero = fconst(0);
    const Tensor row_max = named(max(where(visible, scores, lowest), {3}, true), names::kAttnMax);
    const Tensor e = named(exp(sub(scores, row_max)), names::kAttnExp);
    const Tensor row_sum = named(sum(where(visible, e, zero), {3}, true), names::kAttnSum);
    const Tensor inv_sum = named(recip(row_sum), names::kAttnInvSum);

    // out [T, G, R, D]: e [T, G, R, S, 1] * v [1, G, 1, S, D], summed over S, then scaled by 1 / sum.
    const Tensor vg = reshape(v, {Dim(1), G, Dim(1), S, D});
    const Tensor ev = mul(reshape(e, {T, G, R, S, Dim(1)}), vg);
    const Tensor visible_keys = reshape(visible, {T, Dim(1), Dim(1), S, Dim(1)});
    const Tensor weighted = named(reduce_sum(where(visible_keys, ev, zero), {3}), names::kAttnOut);
    return mul(reshape(weighted, {T, G, R, D}), inv_sum);
}

}  // namespace halogen::nn
