// Shape rules of the view ops.
#include "frontend/views.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/bfloat16.h"

namespace halogen {

namespace {

std::string ints_str(const std::vector<int> &v) {
    return "[" + fmt::format("{}", fmt::join(v, ", ")) + "]";
}

Node view_node(Op op, const Tensor &a, Shape shape) {
    Node n;
    n.op = op;
    n.dtype = a.dtype();
    n.shape = std::move(shape);
    n.inputs = {a};
    return n;
}

bool is_one(const Dim &d) { return d == Dim(1); }

bool known_negative(const Dim &d) {
    auto c = d.constant();
    return c && *c < 0;
}

}  // namespace

std::vector<int> normalize_axes(const std::string &op, const std::vector<int> &axes, const Shape &shape) {
    const int r = static_cast<int>(shape.size());
    std::vector<int> out;
    for (int ax : axes) {
        int a = ax < 0 ? ax + r : ax;
        if (a < 0 || a >= r) {
            throw AxisError(fmt::format("{}: axis {} is out of range for shape {}", op, ax, shape_str(shape)));
        }
        if (std::find(out.begin(), out.end(), a) != out.end()) {
            throw AxisError(fmt::format("{}: axis {} is repeated in {} for shape {}", op, ax, ints_str(axes),
                                        shape_str(shape)));
        }
        out.push_back(a);
    }
    std::sort(out.begin(), out.end());
    return out;
}

Shape broadcast_shapes(const std::string &op, const std::vector<Shape> &shapes) {
    std::size_t r = 0;
    for (const auto &s : shapes) r = std::max(r, s.size());
    Shape out(r, Dim(1));
    for (std::size_t k = 0; k < r; ++k) {
        for (const auto &s : shapes) {
            if (k + s.size() < r) continue;
            const Dim &d = s[k + s.size() - r];
            Dim &o = out[k];
            if (is_one(d) || d == o) continue;
            if (!is_one(o)) {
                std::string all;
                for (const auto &x : shapes) all += (all.empty() ? "" : " and ") + shape_str(x);
                throw ShapeError(fmt::format("{}: cannot broadcast shapes {}", op, all));
            }
            o = d;
        }
    }
    return out;
}

Tensor broadcast_to(const Tensor &a, const Shape &shape) {
    return a.shape() == shape ? a : expand(a, shape);
}

Tensor reshape(const Tensor &a, const Shape &shape) {
    for (const auto &d : shape) {   // symbolic extents are checked once bound (Graph::check_bindings)
        if (known_negative(d)) {
            throw ViewError(fmt::format("reshape: negative extent {} in target shape {} (from {})", d.str(),
                                        shape_str(shape), shape_str(a.shape())));
        }
    }
    if (numel(a.shape()) != numel(shape)) {
        throw ViewError(fmt::format("reshape: cannot reshape {} ({} elements) to {} ({} elements)",
                                    shape_str(a.shape()), numel(a.shape()).str(), shape_str(shape),
                                    numel(shape).str()));
    }
    if (a.shape() == shape) return a;
    return make_node(view_node(Op::Reshape, a, shape));
}

Tensor permute(const Tensor &a, const std::vector<int> &perm) {
    std::vector<int> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> iota(a.shape().size());
    std::iota(iota.begin(), iota.end(), 0);
    if (sorted != iota) {
        throw ViewError(fmt::format("permute: {} is not a permutation of the {} axes of {}", ints_str(perm),
                                    a.shape().size(), shape_str(a.shape())));
    }
    if (perm == iota) return a;
    Shape s;
    for (int p : perm) s.push_back(a.shape()[p]);
    Node n = view_node(Op::Permute, a, s);
    n.axes = perm;
    return make_node(std::move(n));
}

Tensor expand(const Tensor &a, const Shape &shape) {
    const auto &in = a.shape();
    auto fail = [&] {
        return ViewError(fmt::format("expand: cannot expand {} to {}", shape_str(in), shape_str(shape)));
    };
    if (in.size() > shape.size()) throw fail();
    Tensor src = a;
    if (in.size() < shape.size()) {   // add leading axes of extent 1
        Shape padded(shape.size() - in.size(), Dim(1));
        padded.insert(padded.end(), in.begin(), in.end());
        src = reshape(a, padded);
    }
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (!(src.shape()[k] == shape[k] || is_one(src.shape()[k]))) throw fail();
    }
    if (src.shape() == shape) return src;
    return make_node(view_node(Op::Expand, src, shape));
}

Tensor slice(const Tensor &a, int axis, const Dim &start, const Dim &stop, int64_t step) {
    const Shape &in = a.shape();
    int ax = normalize_axes("slice", {axis}, in)[0];
    const Dim &n = in[ax];
    auto fail = [&](const std::string &why) {
        return ViewError(fmt::format("slice: {} (axis {}, start {}, stop {}, step {}, shape {})", why, axis,
                                     start.str(), stop.str(), step, shape_str(in)));
    };
    if (step < 1) throw fail("step must be at least 1");
    if (!start.is_constant()) throw fail("start must be a constant");
    // Symbolic bounds are checked again once the dims are bound (Graph::bind).
    if (known_negative(start) || known_negative(stop - start) || known_negative(n - stop)) {
        throw fail("need 0 <= start <= stop <= extent");
    }
    Dim extent = stop - start;
    if (step > 1) {
        auto e = extent.constant();
        if (!e) throw fail("a step above 1 needs constant bounds");
        extent = Dim(*e / step + (*e % step != 0));   // ceil(e / step), without overflowing e + step - 1
    }
    Shape s = in;
    s[ax] = extent;
    if (s == in) return a;
    Node node = view_node(Op::Slice, a, s);
    node.starts.assign(in.size(), 0);
    node.steps.assign(in.size(), 1);
    node.starts[ax] = *start.constant();
    node.steps[ax] = step;
    return make_node(std::move(node));
}

Tensor stride(const Tensor &a, const std::vector<int64_t> &steps) {
    if (steps.size() != a.shape().size()) {
        throw ViewError(fmt::format("stride: {} steps for the {} axes of {}", steps.size(), a.shape().size(),
                                    shape_str(a.shape())));
    }
    Tensor out = a;
    for (std::size_t k = 0; k < steps.size(); ++k) {
        if (steps[k] != 1) out = slice(out, int(k), 0, out.shape()[k], steps[k]);
    }
    return out;
}

Tensor window(const Tensor &a, int axis, int64_t size, int64_t stride, int64_t dilation) {
    const Shape &in = a.shape();
    int ax = normalize_axes("window", {axis}, in)[0];
    auto fail = [&](const std::string &why) {
        return ViewError(fmt::format("window: {} (axis {}, size {}, stride {}, dilation {}, shape {})", why, axis,
                                     size, stride, dilation, shape_str(in)));
    };
    if (size < 1 || stride < 1 || dilation < 1) throw fail("size, stride and dilation must be at least 1");
    Dim span = in[ax] - Dim(dilation) * Dim(size - 1);   // positions where a whole window fits (checked)
    if (known_negative(span - 1)) throw fail("the window is larger than the axis");
    Dim out = span;
    if (stride > 1) {
        auto c = span.constant();
        if (!c) throw fail("a stride above 1 needs a constant extent");
        out = Dim((*c - 1) / stride + 1);
    }
    Shape s(in.begin(), in.begin() + ax);
    s.push_back(out);
    s.push_back(size);
    s.insert(s.end(), in.begin() + ax + 1, in.end());
    Node n = view_node(Op::Window, a, s);
    n.axes = {ax};
    n.steps = {stride, dilation};
    return make_node(std::move(n));
}

Tensor pad(const Tensor &a, const std::vector<int64_t> &lo, const std::vector<int64_t> &hi, double value) {
    const Shape &in = a.shape();
    if (lo.size() != in.size() || hi.size() != in.size()) {
        throw ViewError(fmt::format("pad: {} / {} pad widths for the {} axes of {}", lo.size(), hi.size(),
                                    in.size(), shape_str(in)));
    }
    Shape s = in;
    for (std::size_t k = 0; k < in.size(); ++k) {
        if (lo[k] < 0 || hi[k] < 0) {
            throw ViewError(fmt::format("pad: negative width ({}, {}) on axis {} of {}; use slice", lo[k],
                                        hi[k], k, shape_str(in)));
        }
        s[k] = in[k] + Dim(lo[k]) + Dim(hi[k]);   // checked: a width near int64's limit is a ShapeError
    }
    if (s == in) return a;
    if (a.dtype() == DType::Int32 && !(value >= -2147483648.0 && value < 2147483648.0)) {   // NaN too
        throw ViewError(fmt::format("pad: value {} does not fit the int32 input {}", value, shape_str(in)));
    }
    if (a.dtype() == DType::Int32) value = static_cast<int32_t>(value);
    if (a.dtype() == DType::Bool) value = value != 0;
    if (a.dtype() == DType::Float32) value = static_cast<float>(value);
    if (a.dtype() == DType::BFloat16) value = bfloat16_bits_to_float(float_to_bfloat16_bits(static_cast<float>(value)));
    Node n = view_node(Op::Pad, a, s);
    n.pad_lo = lo;
    n.pad_hi = hi;
    n.value = value;
    return make_node(std::move(n));
}

}  // namespace halogen
