// Shape and dtype rules of the primitive ops.
#include "frontend/primitives.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/views.h"

namespace halogen {

namespace {

Node leaf(Op op, DType dtype, Shape shape) {
    Node n;
    n.op = op;
    n.dtype = dtype;
    n.shape = std::move(shape);
    return n;
}

// bfloat16 is a storage type: only casts, views, where and gather take it.
void check_not_storage_only(Op op, const Tensor &a) {
    if (a.dtype() == DType::BFloat16) {
        throw DTypeError(fmt::format("{}: bfloat16 of shape {} is a storage type; cast it to float32 first", op_name(op),
                                     shape_str(a.shape())));
    }
}

Tensor unary(Op op, const Tensor &a, DType out, bool float_only) {
    if (op != Op::Cast) check_not_storage_only(op, a);
    if (float_only && !is_float(a.dtype())) {
        throw DTypeError(fmt::format("{}: needs float32, got {} of shape {}", op_name(op),
                                     dtype_name(a.dtype()), shape_str(a.shape())));
    }
    Node n = leaf(op, out, a.shape());
    n.inputs = {a};
    return make_node(std::move(n));
}

enum class Kinds { Numeric, Int, Logic, Any };

Tensor binary(Op op, const Tensor &a, const Tensor &b, Kinds kinds, bool to_bool) {
    auto mismatch = [&](const std::string &why) {
        return DTypeError(fmt::format("{}: {} (got {} of shape {} and {} of shape {})", op_name(op), why,
                                      dtype_name(a.dtype()), shape_str(a.shape()),
                                      dtype_name(b.dtype()), shape_str(b.shape())));
    };
    if (a.dtype() != b.dtype()) throw mismatch("operands must share a dtype; cast one first");
    check_not_storage_only(op, a);
    DType t = a.dtype();
    if (kinds == Kinds::Numeric && !is_numeric(t)) throw mismatch("needs float32 or int32");
    if (kinds == Kinds::Int && t != DType::Int32) throw mismatch("needs int32");
    if (kinds == Kinds::Logic && is_float(t)) throw mismatch("needs bool or int32");
    Shape s = broadcast_shapes(op_name(op), {a.shape(), b.shape()});
    Node n = leaf(op, to_bool ? DType::Bool : t, s);
    n.inputs = {broadcast_to(a, s), broadcast_to(b, s)};
    return make_node(std::move(n));
}

Tensor reduce(Op op, const Tensor &a, const std::vector<int> &axes) {
    if (!is_numeric(a.dtype())) {
        throw DTypeError(fmt::format("{}: needs float32 or int32, got {} of shape {}", op_name(op),
                                     dtype_name(a.dtype()), shape_str(a.shape())));
    }
    Node n = leaf(op, a.dtype(), a.shape());
    n.axes = normalize_axes(op_name(op), axes, a.shape());
    for (int ax : n.axes) n.shape[ax] = 1;
    n.inputs = {a};
    return make_node(std::move(n));
}

}  // namespace

Tensor named(const Tensor &t, const std::string &name) {
    if (t.node().op == Op::Input) {
        throw GraphError(fmt::format("named: input '{}' keeps its own name (asked for '{}')", t.node().name, name));
    }
    Node n = t.node();
    n.name = name;
    return make_node(std::move(n));
}

Tensor materialize(const Tensor &t) {
    if (t.node().op == Op::Input) {
        throw GraphError(fmt::format("materialize: input '{}' is already a buffer", t.node().name));
    }
    Node n = t.node();
    n.materialized = true;
    return make_node(std::move(n));
}

Tensor input(const std::string &name, DType dtype, const Shape &shape) {
    if (name.empty()) throw GraphError("input: a graph input needs a name");
    for (const auto &d : shape) {
        auto c = d.constant();
        if (c && *c < 0) {
            throw ShapeError(fmt::format("input '{}': negative extent in shape {}", name, shape_str(shape)));
        }
    }
    Node n = leaf(Op::Input, dtype, shape);
    n.name = name;
    return make_node(std::move(n));
}

Tensor fconst(double value) {
    Node n = leaf(Op::Const, DType::Float32, {});
    n.value = static_cast<float>(value);
    return make_node(std::move(n));
}

Tensor iconst(int64_t value) {
    if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max()) {
        throw DTypeError(fmt::format("const: {} does not fit in int32", value));
    }
    Node n = leaf(Op::Const, DType::Int32, {});
    n.value = static_cast<double>(value);
    return make_node(std::move(n));
}

Tensor bconst(bool value) {
    Node n = leaf(Op::Const, DType::Bool, {});
    n.value = value ? 1 : 0;
    return make_node(std::move(n));
}

Tensor dim_const(const Dim &d, DType dtype) {
    if (dtype == DType::Bool) throw DTypeError("const: a dim's value cannot be bool");
    if (auto c = d.constant()) return dtype == DType::Int32 ? iconst(*c) : fconst(double(*c));
    Node n = leaf(Op::Const, dtype, {});
    n.dim_value = d;
    return make_node(std::move(n));
}

Tensor index_components(const Shape &shape) {
    for (const auto &d : shape) {
        auto c = d.constant();
        if (c && *c < 0) {
            throw ShapeError(fmt::format("index_components: negative extent in shape {}", shape_str(shape)));
        }
    }
    return make_node(leaf(Op::IndexComponents, DType::Int32, shape));
}

Tensor arange(const Dim &n) { return index_components({n}); }

Tensor neg(const Tensor &a) {
    if (!is_numeric(a.dtype())) {
        throw DTypeError(fmt::format("neg: needs float32 or int32, got {} of shape {}", dtype_name(a.dtype()), shape_str(a.shape())));
    }
    return unary(Op::Neg, a, a.dtype(), false);
}
Tensor recip(const Tensor &a) { return unary(Op::Recip, a, a.dtype(), true); }
Tensor sqrt(const Tensor &a) { return unary(Op::Sqrt, a, a.dtype(), true); }
Tensor exp2(const Tensor &a) { return unary(Op::Exp2, a, a.dtype(), true); }
Tensor log2(const Tensor &a) { return unary(Op::Log2, a, a.dtype(), true); }
Tensor sin(const Tensor &a) { return unary(Op::Sin, a, a.dtype(), true); }
Tensor not_(const Tensor &a) {
    if (is_float(a.dtype())) {
        throw DTypeError(fmt::format("not: needs bool or int32, got float32 of shape {}", shape_str(a.shape())));
    }
    return unary(Op::Not, a, a.dtype(), false);
}
Tensor cast(const Tensor &a, DType to) {
    if (a.dtype() == to) return a;
    return unary(Op::Cast, a, to, false);
}

Tensor add(const Tensor &a, const Tensor &b) { return binary(Op::Add, a, b, Kinds::Numeric, false); }
Tensor mul(const Tensor &a, const Tensor &b) { return binary(Op::Mul, a, b, Kinds::Numeric, false); }
Tensor maximum(const Tensor &a, const Tensor &b) { return binary(Op::Max, a, b, Kinds::Numeric, false); }
Tensor idiv(const Tensor &a, const Tensor &b) { return binary(Op::IDiv, a, b, Kinds::Int, false); }
Tensor mod(const Tensor &a, const Tensor &b) { return binary(Op::Mod, a, b, Kinds::Int, false); }
Tensor and_(const Tensor &a, const Tensor &b) { return binary(Op::And, a, b, Kinds::Logic, false); }
Tensor or_(const Tensor &a, const Tensor &b) { return binary(Op::Or, a, b, Kinds::Logic, false); }
Tensor xor_(const Tensor &a, const Tensor &b) { return binary(Op::Xor, a, b, Kinds::Logic, false); }
Tensor ne(const Tensor &a, const Tensor &b) { return binary(Op::Ne, a, b, Kinds::Any, true); }
Tensor lt(const Tensor &a, const Tensor &b) { return binary(Op::Lt, a, b, Kinds::Numeric, true); }

Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b) {
    if (cond.dtype() != DType::Bool) {
        throw DTypeError(fmt::format("where: the condition must be bool, got {} of shape {}",
                                     dtype_name(cond.dtype()), shape_str(cond.shape())));
    }
    if (a.dtype() != b.dtype()) {
        throw DTypeError(fmt::format("where: branches must share a dtype (got {} of shape {} and {} of shape {})",
                                     dtype_name(a.dtype()), shape_str(a.shape()), dtype_name(b.dtype()),
                                     shape_str(b.shape())));
    }
    Shape s = broadcast_shapes("where", {cond.shape(), a.shape(), b.shape()});
    Node n = leaf(Op::Where, a.dtype(), s);
    n.inputs = {broadcast_to(cond, s), broadcast_to(a, s), broadcast_to(b, s)};
    return make_node(std::move(n));
}

Tensor gather(const Tensor &a, int axis, const Tensor &idx) {
    const int ax = normalize_axes("gather", {axis}, a.shape())[0];
    Shape want = a.shape();
    want[ax] = 1;
    if (idx.dtype() != DType::Int32 || idx.shape() != want) {
        throw ShapeError(fmt::format("gather: index must be int32 of shape {} (axis {} of {}), got {} of shape {}",
                                     shape_str(want), axis, shape_str(a.shape()), dtype_name(idx.dtype()),
                                     shape_str(idx.shape())));
    }
    Node n = leaf(Op::Gather, a.dtype(), want);
    n.axes = {ax};
    n.inputs = {a, idx};
    return make_node(std::move(n));
}

Tensor reduce_sum(const Tensor &a, const std::vector<int> &axes) { return reduce(Op::ReduceSum, a, axes); }
Tensor reduce_max(const Tensor &a, const std::vector<int> &axes) { return reduce(Op::ReduceMax, a, axes); }

}  // namespace halogen
