// Derived ops, written with primitive ops and views only.
#include "frontend/derived.h"

#include <cmath>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen {

Tensor sub(const Tensor &a, const Tensor &b) { return add(a, neg(b)); }
Tensor div(const Tensor &a, const Tensor &b) {
    if (a.dtype() == DType::Int32 && b.dtype() == DType::Int32) return idiv(a, b);
    return mul(a, recip(b));
}
Tensor eq(const Tensor &a, const Tensor &b) { return not_(ne(a, b)); }
Tensor le(const Tensor &a, const Tensor &b) { return not_(lt(b, a)); }
Tensor gt(const Tensor &a, const Tensor &b) { return lt(b, a); }
Tensor ge(const Tensor &a, const Tensor &b) { return not_(lt(a, b)); }
Tensor exp(const Tensor &a) { return exp2(mul(a, fconst(1.0 / std::log(2.0)))); }
Tensor log(const Tensor &a) { return mul(log2(a), fconst(std::log(2.0))); }
Tensor square(const Tensor &a) { return mul(a, a); }

namespace {

Tensor drop_axes(const Tensor &reduced, const std::vector<int> &axes) {
    Shape s;
    for (int k = 0; k < reduced.rank(); ++k) {
        bool dropped = false;
        for (int ax : axes) dropped |= (ax == k);
        if (!dropped) s.push_back(reduced.shape()[k]);
    }
    return reshape(reduced, s);
}

}  // namespace

Tensor sum(const Tensor &a, const std::vector<int> &axes, bool keepdim) {
    Tensor r = reduce_sum(a, axes);
    return keepdim ? r : drop_axes(r, normalize_axes("sum", axes, a.shape()));
}

Tensor max(const Tensor &a, const std::vector<int> &axes, bool keepdim) {
    Tensor r = reduce_max(a, axes);
    return keepdim ? r : drop_axes(r, normalize_axes("max", axes, a.shape()));
}

Tensor mean(const Tensor &a, const std::vector<int> &axes, bool keepdim) {
    if (!is_float(a.dtype())) {
        throw DTypeError(fmt::format("mean: needs float32, got {} of shape {}", dtype_name(a.dtype()),
                                     shape_str(a.shape())));
    }
    Dim count = 1;
    for (int ax : normalize_axes("mean", axes, a.shape())) count = count * a.shape()[ax];
    return mul(sum(a, axes, keepdim), recip(dim_const(count, DType::Float32)));
}

Tensor matmul(const Tensor &a, const Tensor &b) {
    if (a.rank() < 2 || b.rank() < 2 || a.shape()[a.rank() - 1] != b.shape()[b.rank() - 2]) {
        throw ShapeError(fmt::format("matmul: cannot multiply {} by {}", shape_str(a.shape()),
                                     shape_str(b.shape())));
    }
    Shape as = a.shape(), bs = b.shape();
    as.push_back(1);                        // [..., M, K, 1]
    bs.insert(bs.end() - 2, Dim(1));        // [..., 1, K, N]
    Tensor r = reduce_sum(mul(reshape(a, as), reshape(b, bs)), {-2});   // [..., M, 1, N]
    Shape out = r.shape();
    out.erase(out.end() - 2);
    return reshape(r, out);
}

Tensor operator+(const Tensor &a, const Tensor &b) { return add(a, b); }
Tensor operator-(const Tensor &a, const Tensor &b) { return sub(a, b); }
Tensor operator*(const Tensor &a, const Tensor &b) { return mul(a, b); }
Tensor operator/(const Tensor &a, const Tensor &b) { return div(a, b); }
Tensor operator-(const Tensor &a) { return neg(a); }

Tensor concat(const std::vector<Tensor> &parts, int axis) {
    auto shapes = [&] {
        std::vector<std::string> s;
        for (const Tensor &t : parts) s.push_back(shape_str(t.shape()) + " " + dtype_name(t.dtype()));
        return fmt::format("{}", fmt::join(s, ", "));
    };
    if (parts.empty()) throw ShapeError("concat: no tensors");
    const int rank = int(parts[0].rank());
    if (axis < 0 || axis >= rank) throw ShapeError(fmt::format("concat: axis {} of rank-{} tensors ({})", axis, rank, shapes()));
    std::vector<int64_t> ends;
    int64_t total = 0;
    for (const Tensor &t : parts) {
        Shape a = t.shape(), b = parts[0].shape();
        const std::optional<int64_t> extent = int(t.rank()) == rank ? t.shape()[axis].constant() : std::nullopt;
        if (extent) a[axis] = b[axis] = Dim(0);
        if (!extent || a != b || t.dtype() != parts[0].dtype()) {
            throw ShapeError(fmt::format("concat: along axis {}, tensors must agree on every other axis and the dtype, "
                                         "with a constant extent along it: {}", axis, shapes()));
        }
        total += *extent;
        ends.push_back(total);
    }
    Shape index_shape(rank, Dim(1));
    index_shape[axis] = Dim(total);
    const Tensor index = reshape(arange(Dim(total)), index_shape);
    Tensor out;
    for (std::size_t k = parts.size(); k-- > 0;) {
        std::vector<int64_t> lo(rank, 0), hi(rank, 0);
        lo[axis] = k ? ends[k - 1] : 0;
        hi[axis] = total - ends[k];
        const Tensor padded = pad(parts[k], lo, hi);
        out = out.defined() ? where(lt(index, iconst(ends[k])), padded, out) : padded;
    }
    return out;
}

}  // namespace halogen
