// Reference interpreter: one node at a time, one element at a time.
#include "frontend/interpreter.h"

#include <cmath>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

namespace {

using Index = std::vector<int64_t>;

// Calls fn(multi_index, linear_index) for every element of `shape`, in row-major order.
template <typename Fn> void for_each_index(const Index &shape, Fn fn) {
    int64_t total = 1;
    for (int64_t d : shape) total *= d;
    Index idx(shape.size(), 0);
    for (int64_t lin = 0; lin < total; ++lin) {
        fn(idx, lin);
        for (int k = int(shape.size()) - 1; k >= 0; --k) {
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
    }
}

int64_t linear(const Index &idx, const Index &shape) {
    int64_t lin = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) lin = lin * shape[k] + idx[k];
    return lin;
}

int32_t wrap(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

// Euclidean division and remainder, as Halide defines them (remainder in [0, |b|), x/0 = x%0 = 0).
int64_t floor_div(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t q = a / b, r = a % b;
    if (r < 0) q += b > 0 ? -1 : 1;
    return q;
}
int64_t floor_mod(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t r = a % b;
    return r < 0 ? r + (b < 0 ? -b : b) : r;
}

double unary(const Node &n, DType in, double a) {
    const bool f = is_float(in);
    switch (n.op) {
    case Op::Neg: return f ? double(-float(a)) : wrap(-int64_t(a));
    case Op::Recip: return 1.0f / float(a);
    case Op::Sqrt: return std::sqrt(float(a));
    case Op::Exp2: return std::exp2(float(a));
    case Op::Log2: return std::log2(float(a));
    case Op::Sin: return std::sin(float(a));
    case Op::Not: return in == DType::Bool ? double(a == 0) : double(~int32_t(a));
    case Op::Cast:
        if (n.dtype == DType::Bool) return a != 0;
        if (n.dtype == DType::Int32) return f || in == DType::BFloat16 ? double(int32_t(float(a))) : a;
        return float(a);   // to bfloat16: Array::set rounds to nearest even
    default: break;
    }
    throw GraphError(fmt::format("interpreter: {} is not a unary op", n.label()));
}

// max as ops.h defines it: a NaN in either operand is the result (PyTorch's semantics; a plain
// `a > b ? a : b` would drop a NaN in `a`).
double max_nan(double a, double b) { return std::isnan(a) ? a : std::isnan(b) ? b : a > b ? a : b; }

double binary(const Node &n, DType in, double a, double b) {
    const bool f = is_float(in);
    const auto ia = int64_t(a), ib = int64_t(b);
    switch (n.op) {
    case Op::Add: return f ? double(float(a) + float(b)) : wrap(ia + ib);
    case Op::Mul: return f ? double(float(a) * float(b)) : wrap(ia * ib);
    case Op::Max: return max_nan(a, b);
    case Op::IDiv: return wrap(floor_div(ia, ib));
    case Op::Mod: return wrap(floor_mod(ia, ib));
    case Op::And: return wrap(ia & ib);
    case Op::Or: return wrap(ia | ib);
    case Op::Xor: return wrap(ia ^ ib);
    case Op::Ne: return a != b;
    case Op::Lt: return a < b;
    default: break;
    }
    throw GraphError(fmt::format("interpreter: {} is not a binary op", n.label()));
}

// The input index a view reads for output index `o`; false when it reads padding.
bool view_source(const Node &n, const Index &in_shape, const Index &o, Index &j) {
    switch (n.op) {
    case Op::Permute:
        for (std::size_t k = 0; k < o.size(); ++k) j[n.axes[k]] = o[k];
        return true;
    case Op::Expand:
        for (std::size_t k = 0; k < o.size(); ++k) j[k] = in_shape[k] == 1 ? 0 : o[k];
        return true;
    case Op::Slice:
        for (std::size_t k = 0; k < o.size(); ++k) j[k] = n.starts[k] + n.steps[k] * o[k];
        return true;
    case Op::Window: {
        const std::size_t ax = n.axes[0];
        for (std::size_t k = 0; k < j.size(); ++k) {
            j[k] = k < ax ? o[k] : k == ax ? o[k] * n.steps[0] + o[k + 1] * n.steps[1] : o[k + 1];
        }
        return true;
    }
    case Op::Pad:
        for (std::size_t k = 0; k < o.size(); ++k) {
            j[k] = o[k] - n.pad_lo[k];
            if (j[k] < 0 || j[k] >= in_shape[k]) return false;
        }
        return true;
    default: break;
    }
    throw GraphError(fmt::format("interpreter: {} is not a view", n.label()));
}

Array eval(const Node &n, const std::vector<const Array *> &in, const Index &shape, const Bindings &b) {
    Array out(n.dtype, shape);
    const int64_t size = out.size();
    switch (n.op) {
    case Op::Const:
        out.set(0, n.dim_value ? double(n.dim_value->eval(b, n.label())) : n.value);
        return out;
    case Op::IndexComponents:
        for (int64_t k = 0; k < size; ++k) out.set(k, wrap(k));
        return out;
    case Op::Reshape:   // row-major data: the linear index does not change
        for (int64_t k = 0; k < size; ++k) out.set(k, in[0]->get(k));
        return out;
    case Op::Gather: {
        const std::size_t ax = n.axes[0];
        const Index &src = in[0]->shape();
        for_each_index(shape, [&](const Index &i, int64_t lin) {
            const double at = in[1]->get(lin);
            if (at < 0 || at >= double(src[ax])) return;   // out of range: 0 (out is zero-filled)
            Index j = i;
            j[ax] = int64_t(at);
            out.set(lin, in[0]->get(linear(j, src)));
        });
        return out;
    }
    case Op::ReduceSum:
    case Op::ReduceMax: {
        const bool is_sum = n.op == Op::ReduceSum;
        const double lowest = is_float(n.dtype) ? -std::numeric_limits<double>::infinity()
                                                : double(std::numeric_limits<int32_t>::min());
        std::vector<double> acc(size, is_sum ? 0.0 : lowest);
        Index o(shape.size());
        for_each_index(in[0]->shape(), [&](const Index &i, int64_t lin) {
            for (std::size_t k = 0; k < i.size(); ++k) o[k] = shape[k] == 1 ? 0 : i[k];
            double &a = acc[linear(o, shape)];
            double v = in[0]->get(lin);
            a = is_sum ? a + v : max_nan(v, a);   // a NaN, once met, stays
        });
        for (int64_t k = 0; k < size; ++k) {
            out.set(k, is_sum && !is_float(n.dtype) ? wrap(int64_t(acc[k])) : acc[k]);
        }
        return out;
    }
    default: break;
    }
    if (is_view(n.op)) {
        Index j(in[0]->shape().size());
        for_each_index(shape, [&](const Index &o, int64_t lin) {
            out.set(lin, view_source(n, in[0]->shape(), o, j) ? in[0]->get(linear(j, in[0]->shape())) : n.value);
        });
        return out;
    }
    std::vector<double> operands(in.size());
    for (int64_t k = 0; k < size; ++k) {
        for (std::size_t m = 0; m < in.size(); ++m) operands[m] = in[m]->get(k);
        out.set(k, elementwise_value(n, operands));
    }
    return out;
}

}  // namespace

double elementwise_value(const Node &n, const std::vector<double> &operands) {
    if (n.op == Op::Where) return operands.at(0) != 0 ? operands.at(1) : operands.at(2);
    if (operands.size() == 1) return unary(n, n.inputs[0].dtype(), operands[0]);
    return binary(n, n.inputs[0].dtype(), operands.at(0), operands.at(1));
}

std::vector<Array> interpret(const Graph &g, const Inputs &inputs, const Bindings &bindings) {
    g.check_bindings(bindings);
    std::unordered_map<const Node *, Array> values;
    for (const Node *n : g.nodes()) {
        Index shape = eval_shape(n->shape, bindings, n->label());
        if (n->op == Op::Input) {
            auto it = inputs.find(n->name);
            if (it == inputs.end()) {
                throw BufferError(fmt::format("input '{}': no buffer given (expected {} of shape {})", n->name,
                                              dtype_name(n->dtype), shape_str(n->shape)));
            }
            check_buffer(*n, "input '" + n->name + "'", it->second.dtype(), it->second.shape(), bindings);
            values[n] = it->second;
            continue;
        }
        std::vector<const Array *> in;
        for (const Tensor &t : n->inputs) in.push_back(&values.at(t.get()));
        values[n] = eval(*n, in, shape, bindings);
    }
    std::vector<Array> out;
    for (const Tensor &t : g.outputs()) out.push_back(values.at(t.get()));
    return out;
}

Array interpret(const Tensor &out, const Inputs &inputs, const Bindings &bindings) {
    return interpret(Graph({out}), inputs, bindings).front();
}

}  // namespace halogen
