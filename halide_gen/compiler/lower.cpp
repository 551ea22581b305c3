// Graph -> Halide Funcs, one Func per node, no schedule.
#include "halide_gen/compiler/lower.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/errors.h"
#include "frontend/constant_values.h"
#include "frontend/reshape_segments.h"
#include "halide_gen/compiler/float_math.h"
#include "halide_gen/compiler/types.h"

namespace halogen {

using Halide::Expr;
using Halide::Func;
using Halide::Var;

namespace {

// A dim's polynomial of symbols as an int32 expression, each symbol's expression given by `symbol`.
template <class Symbol>
Expr dim_polynomial(const Dim &d, Symbol symbol) {
    Expr total = 0;
    for (const auto &[mono, coeff] : d.terms()) {
        Expr term = static_cast<int32_t>(coeff);
        for (const auto &s : mono) term = term * symbol(s);
        total = total + term;
    }
    return Halide::Internal::simplify(total);
}

}  // namespace

std::vector<Halide::Argument> LoweredGraph::arguments() const {
    std::vector<Halide::Argument> args;
    for (const auto &[name, p] : inputs) args.push_back(p);
    for (const auto &[name, p] : dims) args.push_back(p);
    return args;
}

bool LoweredGraph::has_func(const std::string &name) const {
    for (const auto &[node, f] : funcs) {
        if (node->name == name) return true;
    }
    return false;
}

Halide::Expr LoweredGraph::extent(const Dim &d) const {
    return dim_polynomial(d, [&](const std::string &name) {
        auto it = symbols.find(name);
        if (it == symbols.end()) throw GraphError(fmt::format("{}: the group reads no symbolic dim '{}'", who, name));
        return it->second;
    });
}

Halide::Func LoweredGraph::func(const std::string &name) const {
    for (const auto &[node, f] : funcs) {
        if (node->name == name) return f;
    }
    std::vector<std::string> named;
    for (const auto &[node, f] : funcs) {
        if (!node->name.empty()) named.push_back(fmt::format("'{}'", node->name));
    }
    std::sort(named.begin(), named.end());
    throw ScheduleError(fmt::format("{}: the group {} has no Func named '{}' (named here: {})", who.empty() ? "schedule" : who,
                                    group.describe(), name, named.empty() ? "none" : fmt::format("{}", fmt::join(named, ", "))));
}

namespace {

Expr constant(DType t, double v) {
    switch (t) {
    case DType::Float32: return Expr(static_cast<float>(v));
    case DType::Int32: return Expr(static_cast<int32_t>(v));
    case DType::Bool: return Halide::Internal::make_bool(v != 0);
    case DType::BFloat16: return Halide::Internal::make_const(Halide::BFloat(16), v);
    }
    return Expr();
}

// Halide argument order: halogen axis k is Halide dimension rank-1-k.
std::vector<Var> args_of(const std::vector<Var> &v, std::size_t rank) {
    return std::vector<Var>(v.rbegin() + (v.size() - rank), v.rend());
}

// An index into an axis of `extent` for a read that a select masks when the index is outside:
// clamped so the (eagerly evaluated) read stays finite, and promised to lie in [0, extent - 1] so
// that bounds inference asks for no element of an empty axis (a plain clamp to
// [0, max(extent - 1, 0)] asks for element 0, which an empty input does not have).
Expr index_within(const Expr &i, const Expr &extent) {
    return Halide::unsafe_promise_clamped(Halide::clamp(i, 0, Halide::max(extent - 1, 0)), 0, extent - 1);
}

// ---- NaN in max (frontend/ops.h: a NaN operand makes max NaN, a NaN in a row its reduce_max) ----
// Halide compiles with fast-math flags that assume no NaN: its float max may keep or drop a NaN
// depending on operand order and vectorization (x86 maxps returns its second operand), and a float
// compare such as is_nan is folded away. A NaN is therefore recognized on its bits (is_nan_bits).

// Binary max of float32s: a NaN operand is the result, else Halide's max.
Expr max_nan(const Expr &a, const Expr &b) {
    return Halide::select(is_nan_bits(a), a, is_nan_bits(b), b, Halide::max(a, b));
}

// A float32 reduce_max accumulates int32 keys instead: ordered as the floats are (-0 below +0), with
// every NaN mapped to the largest key, so that the update is a plain int max -- a NaN, once met,
// stays; Halide still proves the update associative (rfactor, atomic vector reductions) and
// vectorizes it; and the loop-carried work is one integer max. A last update turns each key back
// into the float's bits, so that a reader needs one reinterpret of one load (a decode at every
// reader loads the key twice, through a vector let: the pattern whose one-lane GuardWithIf tail
// Halide 14 drops, see output_tail in halide_gen/compiler/schedule.cpp).
Expr max_key(const Expr &x) {
    Expr b = Halide::reinterpret(Halide::Int(32), x);
    return Halide::select(is_nan_bits(x), Halide::Int(32).max(), b ^ ((b >> 31) & 0x7fffffff));
}
Expr key_to_bits(const Expr &k) { return k ^ ((k >> 31) & 0x7fffffff); }   // its own inverse
Expr from_bits(const Expr &bits) { return Halide::reinterpret(Halide::Float(32), bits); }
// max_key(-inf): 0xff800000 ^ 0x7fffffff, the init of a float32 reduce_max (an empty one gives -inf).
constexpr int32_t kMinusInfKey = std::numeric_limits<int32_t>::min() + 0x7fffff;

// ---- Inf and NaN known when lowering ----
// Halide has LLVM compile float arithmetic with fast-math flags that promise operands are never
// Inf or NaN. A value computed at run time keeps IEEE behaviour in the hardware; a constant Inf or
// NaN breaks the promise where LLVM can see it, and LLVM folds the operation to poison (x +
// log2(0.0) gave 1.5e16, not -inf). The lowerer therefore knows the value of every node that is a
// constant (frontend/constant_values.h). A node whose value is a constant Inf or NaN is defined as
// that constant (so that no 1 / 0 is left for codegen). A node whose expression, inlined into its
// readers, may hold such a constant -- that node, a pad with one, anything inlined that reads one
// -- is "tainted", and the definition of every reader of a tainted node is wrapped in
// strict_float, which compiles it without those flags. A pipeline without such a constant is
// lowered as before.

class Lowerer {
public:
    Lowerer(LoweredGraph &lg, const ExternalInputs *ext) : lg_(lg), ext_(ext), known_(constant_values(lg.graph)) {
        if (ext_) lg_.symbols = ext_->dims;
    }

    void define(const Node &n, bool read_from_buffer);
    void constrain_output();
    // Whether n's Func holds a float's bits as int32 (a float32 reduce_max computed here), read through from_bits.
    bool keyed(const Node *n) const { return keyed_.count(n) > 0; }

private:
    LoweredGraph &lg_;
    const ExternalInputs *ext_;
    std::unordered_set<const Node *> keyed_;
    std::unordered_map<const Node *, double> known_;   // node -> its value, where a constant
    std::unordered_set<const Node *> tainted_;         // may hold a constant Inf or NaN once inlined

    bool known_non_finite(const Node &n) const {
        auto it = known_.find(&n);
        return it != known_.end() && !std::isfinite(it->second);
    }
    static bool pads_non_finite(const Node &n) { return n.op == Op::Pad && !std::isfinite(n.value); }
    void record_taint(const Node &n);
    bool reads_tainted(const Node &n) const {
        return std::any_of(n.inputs.begin(), n.inputs.end(), [&](const Tensor &t) { return tainted_.count(t.get()); });
    }
    // A definition's value, compiled without fast-math where it reads a constant Inf or NaN.
    Expr guarded(const Node &n, const Expr &value) const {
        return reads_tainted(n) || pads_non_finite(n) ? Halide::strict_float(value) : value;
    }

    // A dim as an int32 expression of the symbolic-dim Params (or of the caller's expressions).
    Expr dim(const Dim &d) {
        return dim_polynomial(d, [&](const std::string &name) { return symbol(name); });
    }

    Expr symbol(const std::string &name) {
        if (ext_) {
            auto it = ext_->dims.find(name);
            if (it == ext_->dims.end()) throw GraphError(fmt::format("lower: no expression given for symbolic dim '{}'", name));
            return it->second;
        }
        return lg_.symbols[name] = param(name);
    }

    Halide::Param<int32_t> &param(const std::string &name) {
        auto it = lg_.dims.find(name);
        if (it == lg_.dims.end()) {
            it = lg_.dims.emplace(name, Halide::Param<int32_t>(name)).first;
            it->second.set_range(0, Halide::Int(32).max());
        }
        return it->second;
    }

    std::vector<Expr> dims(const Shape &s) {
        std::vector<Expr> out;
        for (const auto &d : s) out.push_back(dim(d));
        return out;
    }

    // Row-major strides of a shape.
    std::vector<Expr> strides(const Shape &s) {
        std::vector<Expr> out(s.size());
        Expr st = 1;
        for (int k = int(s.size()) - 1; k >= 0; --k) {
            out[k] = st;
            st = Halide::Internal::simplify(st * dim(s[k]));
        }
        return out;
    }

    Expr call(const Tensor &t, std::vector<Expr> idx) {
        std::reverse(idx.begin(), idx.end());
        Expr v = lg_.funcs.at(t.get())(idx);
        return keyed(t.get()) ? from_bits(v) : v;
    }
    std::vector<Expr> pure_index(std::size_t rank) { return {lg_.vars.begin(), lg_.vars.begin() + rank}; }

    Expr elementwise(const Node &n, const std::vector<Expr> &in);
    Expr view(const Node &n, const std::vector<Expr> &o);
    std::vector<Expr> source_index(const Node &n, const std::vector<Expr> &o);   // a view's index into its input
    std::vector<Expr> reshape_source(const Node &n, const std::vector<Expr> &o);
    // A reduction's operand where(cond, x, identity): x's node, cond and x at the reduction's index.
    struct Masked {
        const Node *source;
        Expr cond, value;
    };
    std::optional<Masked> masked_operand(const Node &reduction, std::vector<Expr> j);
    std::optional<Expr> index_expr(const Tensor &t, const std::vector<Expr> &o);
    void reduction(const Node &n, Func &f, const std::vector<Var> &args);
    Expr buffer(const Node &n);
    void constrain(Halide::OutputImageParam p, const Shape &shape);
};

Expr Lowerer::elementwise(const Node &n, const std::vector<Expr> &in) {
    const DType t = n.inputs[0].dtype();
    const bool logic = t == DType::Bool;
    switch (n.op) {
    case Op::Neg: return -in[0];
    case Op::Recip: return 1.0f / in[0];
    case Op::Sqrt: return Halide::sqrt(in[0]);
    case Op::Exp2: return exp2_f32(in[0]);
    case Op::Log2: return Halide::log(in[0]) * float(1.0 / std::log(2.0));
    case Op::Sin: return Halide::sin(in[0]);
    case Op::Not: return logic ? !in[0] : ~in[0];
    case Op::Cast:
        if (n.dtype == DType::Bool) return in[0] != Halide::Internal::make_zero(halide_type(t));
        return Halide::cast(halide_type(n.dtype), in[0]);
    case Op::Add: return in[0] + in[1];
    case Op::Mul: return in[0] * in[1];
    case Op::Max: return t == DType::Float32 ? max_nan(in[0], in[1]) : Halide::max(in[0], in[1]);
    case Op::IDiv: return in[0] / in[1];   // Halide's int division is Euclidean, x/0 == 0
    case Op::Mod: return in[0] % in[1];    // remainder in [0, |b|), x%0 == 0
    case Op::And: return logic ? (in[0] && in[1]) : (in[0] & in[1]);
    case Op::Or: return logic ? (in[0] || in[1]) : (in[0] | in[1]);
    case Op::Xor: return logic ? (in[0] != in[1]) : (in[0] ^ in[1]);
    case Op::Ne: return in[0] != in[1];
    case Op::Lt: return in[0] < in[1];
    case Op::Where: return Halide::select(in[0], in[1], in[2]);
    default: break;
    }
    throw GraphError(fmt::format("lower: {} is not elementwise", n.label()));
}

std::vector<Expr> Lowerer::reshape_source(const Node &n, const std::vector<Expr> &o) {
    const Shape &in = n.inputs[0].shape();
    auto segs = reshape_segments(in, n.shape);
    if (!segs) segs = std::vector<ReshapeSegment>{{0, int(in.size()), 0, int(n.shape.size())}};
    return reshape_index<Expr>(
        in, n.shape, *segs,
        [&](const std::vector<std::pair<int, Dim>> &terms) {
            Expr lin = 0;
            for (const auto &[k, st] : terms) lin = lin + o[k] * dim(st);
            return Halide::Internal::simplify(lin);
        },
        [&](const Expr &lin, const Dim &st, const Dim &extent, bool first) {
            Expr q = lin / dim(st);
            return first ? q : q % dim(extent);
        },
        [] { return Expr(0); });
}

std::vector<Expr> Lowerer::source_index(const Node &n, const std::vector<Expr> &o) {
    const Shape &in = n.inputs[0].shape();
    std::vector<Expr> j(in.size());
    switch (n.op) {
    case Op::Reshape: return reshape_source(n, o);
    case Op::Permute:
        for (std::size_t k = 0; k < o.size(); ++k) j[n.axes[k]] = o[k];
        return j;
    case Op::Expand:
        for (std::size_t k = 0; k < o.size(); ++k) j[k] = in[k] == Dim(1) ? Expr(0) : o[k];
        return j;
    case Op::Slice:
        for (std::size_t k = 0; k < o.size(); ++k) {
            j[k] = n.steps[k] == 1 && n.starts[k] == 0
                       ? o[k]
                       : Expr(int32_t(n.starts[k])) + Expr(int32_t(n.steps[k])) * o[k];
        }
        return j;
    case Op::Window: {
        const std::size_t ax = n.axes[0];
        for (std::size_t k = 0; k < j.size(); ++k) {
            j[k] = k < ax    ? o[k]
                   : k == ax ? o[k] * int32_t(n.steps[0]) + o[k + 1] * int32_t(n.steps[1])
                             : o[k + 1];
        }
        return j;
    }
    default: break;
    }
    throw GraphError(fmt::format("lower: {} is not an index-mapping view", n.label()));
}

Expr Lowerer::view(const Node &n, const std::vector<Expr> &o) {
    const Shape &in = n.inputs[0].shape();
    std::vector<Expr> j(in.size());
    switch (n.op) {
    case Op::Pad: {
        Expr inside = Halide::Internal::const_true();
        for (std::size_t k = 0; k < o.size(); ++k) {
            if (n.pad_lo[k] == 0 && n.pad_hi[k] == 0) {
                j[k] = o[k];
                continue;
            }
            Expr lo = int32_t(n.pad_lo[k]), extent = dim(in[k]);
            inside = inside && o[k] >= lo && o[k] < lo + extent;
            j[k] = index_within(o[k] - lo, extent);
        }
        return Halide::select(inside, call(n.inputs[0], j), constant(n.dtype, n.value));
    }
    default: return call(n.inputs[0], source_index(n, o));
    }
}

// ---- Masked reductions ---------------------------------------------------------------------------
// A reduction over where(cond, x, identity) -- the identity of the reduction: 0 for a sum, the
// lowest value for a max -- reached from the reduction through views only, in this group, equals
// the reduction of x over the points where cond holds. Lowered that way (an RDom with
// where(cond)), cond becomes a bound of the reduction loop wherever Halide can solve it for the
// reduction variables, and what the skipped points would read is neither computed nor asked for
// by bounds inference: a causal mask's masked keys are skipped, not multiplied by 0. For the
// latter, x reads the reduction variables clamped to where cond holds (within_condition): bounds
// inference does not always apply the RDom's predicate to what x reads (a max, or a reduction
// split into blocks, asked for every key of a tile of rows). cond must be
// computable from indices and constants alone (index_expr); otherwise the reduction is lowered as
// written.

// x with the reduction variable v clamped to the interval where cond surely holds, when cond gives
// one (Halide's solver): the same value at every point where cond holds, which is the only place
// a masked reduction reads it. Bounds inference then sees how far the reads go: a causal mask
// s <= p0 + t makes a tile of queries ask its operand (scores, exp) for the keys it sees, not for
// every key (it does not apply the RDom's predicate to the operand in every case).
Expr within_condition(const Expr &x, const Expr &cond, const Halide::RVar &v) {
    const Halide::Internal::Interval iv = Halide::Internal::solve_for_inner_interval(cond, v.name());
    if (iv.is_empty() || iv.is_everything()) return x;
    Expr clamped = Expr(v);
    if (iv.has_upper_bound()) clamped = Halide::min(clamped, iv.max);
    if (iv.has_lower_bound()) clamped = Halide::max(clamped, iv.min);
    return Halide::Internal::substitute(v.name(), clamped, x);
}

// The value of the int32 or bool node t at index o as an expression of indices, symbolic dims
// and constants, with no Func call; none when t depends on anything else.
std::optional<Expr> Lowerer::index_expr(const Tensor &t, const std::vector<Expr> &o) {
    const Node &n = *t.get();
    if (n.dtype != DType::Int32 && n.dtype != DType::Bool) return std::nullopt;
    if (n.op == Op::Const) return n.dim_value ? Halide::cast(Halide::Int(32), dim(*n.dim_value)) : constant(n.dtype, n.value);
    if (n.op == Op::IndexComponents) {
        auto st = strides(n.shape);
        Expr lin = 0;
        for (std::size_t k = 0; k < o.size(); ++k) lin = lin + o[k] * st[k];
        return lin;
    }
    if (is_view(n.op) && n.op != Op::Pad) return index_expr(n.inputs[0], source_index(n, o));
    if (!is_elementwise(n.op) || n.op == Op::Where) return std::nullopt;
    std::vector<Expr> in;
    for (const Tensor &a : n.inputs) {
        if (a.dtype() != DType::Int32 && a.dtype() != DType::Bool) return std::nullopt;
        std::optional<Expr> e = index_expr(a, o);
        if (!e) return std::nullopt;
        in.push_back(*e);
    }
    return elementwise(n, in);
}

std::optional<Lowerer::Masked> Lowerer::masked_operand(const Node &reduction, std::vector<Expr> j) {
    const Tensor *t = &reduction.inputs[0];
    while (lg_.group.contains(t->get()) && is_view(t->get()->op) && t->get()->op != Op::Pad) {
        j = source_index(*t->get(), j);
        t = &t->get()->inputs[0];
    }
    const Node &w = *t->get();
    if (!lg_.group.contains(&w) || w.op != Op::Where) return std::nullopt;
    auto other = known_.find(w.inputs[2].get());
    if (other == known_.end()) return std::nullopt;
    const double identity = reduction.op == Op::ReduceSum ? 0.0
                            : w.dtype == DType::Float32   ? -std::numeric_limits<double>::infinity()
                                                          : double(std::numeric_limits<int32_t>::min());
    if (other->second != identity) return std::nullopt;
    std::optional<Expr> cond = index_expr(w.inputs[0], j);
    if (!cond) return std::nullopt;
    return Masked{w.inputs[1].get(), *cond, call(w.inputs[1], j)};
}

void Lowerer::reduction(const Node &n, Func &f, const std::vector<Var> &args) {
    const Shape &in = n.inputs[0].shape();
    const Halide::Type t = halide_type(n.dtype);
    Halide::Region region;
    for (int ax : n.axes) region.push_back({Expr(0), dim(in[ax])});
    Halide::RDom r(region, f.name() + "_r");
    std::vector<Expr> j = pure_index(in.size());
    for (std::size_t m = 0; m < n.axes.size(); ++m) j[n.axes[m]] = r[int(m)];
    const std::optional<Masked> masked = masked_operand(n, j);
    Expr value = masked ? masked->value : call(n.inputs[0], j);
    if (masked) {
        r.where(masked->cond);
        for (int m = 0; m < r.dimensions(); ++m) value = within_condition(value, masked->cond, r[m]);
    }
    const bool strict = masked ? tainted_.count(masked->source) > 0 : reads_tainted(n);
    if (n.op == Op::ReduceSum) {
        f(args) = Halide::Internal::make_zero(t);
        f(args) = strict ? Halide::strict_float(f(args) + value) : f(args) + value;
    } else if (t.is_float()) {
        f(args) = Expr(kMinusInfKey);
        f(args) = Halide::max(f(args), max_key(value));
        f(args) = key_to_bits(f(args));
        keyed_.insert(&n);
    } else {
        f(args) = t.min();
        f(args) = Halide::max(f(args), value);
    }
}

// Buffer contract of an input or output: dense row-major, mins at 0, extents as the graph says.
void Lowerer::constrain(Halide::OutputImageParam p, const Shape &shape) {
    const int rank = int(shape.size());
    auto ext = dims(shape);
    auto st = strides(shape);
    for (int h = 0; h < rank; ++h) {
        const int axis = halide_dim(rank, h);
        p.dim(h).set_min(0).set_extent(ext[axis]).set_stride(st[axis]);
    }
}

void Lowerer::constrain_output() { constrain(lg_.out.output_buffer(), lg_.output->shape); }

// A buffer the group reads (a graph input or another group's output) as an ImageParam.
Expr Lowerer::buffer(const Node &n) {
    const int rank = int(n.shape.size());
    std::vector<Expr> idx;
    for (auto &v : args_of(lg_.vars, rank)) idx.push_back(v);
    if (ext_) {
        auto it = ext_->buffers.find(buffer_name(n));
        if (it == ext_->buffers.end()) throw GraphError(fmt::format("lower: no Func given for buffer '{}'", buffer_name(n)));
        return it->second(idx);
    }
    Halide::ImageParam p(halide_type(n.dtype), rank, buffer_name(n));
    constrain(p, n.shape);
    lg_.inputs.emplace(buffer_name(n), p);
    return p(idx);
}

void Lowerer::define(const Node &n, bool read_from_buffer) {
    const std::size_t rank = n.shape.size();
    Func f(fmt::format("{}_{}", op_name(n.op), n.id));
    auto args = args_of(lg_.vars, rank);
    auto o = pure_index(rank);
    if (read_from_buffer) {
        f(args) = buffer(n);
    } else if (n.op == Op::Const) {
        f(args) = n.dim_value ? Halide::cast(halide_type(n.dtype), dim(*n.dim_value)) : constant(n.dtype, n.value);
    } else if (known_non_finite(n)) {
        f(args) = constant(n.dtype, known_.at(&n));   // readers see inf, not a 1 / 0 left to codegen
    } else if (n.op == Op::IndexComponents) {
        auto st = strides(n.shape);
        Expr lin = 0;
        for (std::size_t k = 0; k < rank; ++k) lin = lin + o[k] * st[k];
        f(args) = lin;
    } else if (n.op == Op::Gather) {
        const std::size_t ax = n.axes[0];
        Expr at = call(n.inputs[1], o), extent = dim(n.inputs[0].shape()[ax]);
        std::vector<Expr> j = o;
        j[ax] = index_within(at, extent);   // masked below
        f(args) = guarded(n, Halide::select(at >= 0 && at < extent, call(n.inputs[0], j), constant(n.dtype, 0)));
    } else if (is_view(n.op)) {
        f(args) = guarded(n, view(n, o));
    } else if (is_reduce(n.op)) {
        reduction(n, f, args);
    } else {
        std::vector<Expr> in;
        for (const Tensor &t : n.inputs) in.push_back(call(t, o));
        f(args) = guarded(n, elementwise(n, in));
    }
    lg_.funcs.emplace(&n, f);
    if (!read_from_buffer) record_taint(n);
}

void Lowerer::record_taint(const Node &n) {
    const bool inlined = !is_reduce(n.op);   // a reduction is realized, its readers load it
    if (known_non_finite(n) || pads_non_finite(n) || (inlined && reads_tainted(n))) {
        tainted_.insert(&n);
    }
}

}  // namespace

std::string buffer_name(const Node &n) {
    return n.op == Op::Input ? n.name : fmt::format("buf_{}_{}", op_name(n.op), n.id);
}

Group whole_graph_group(const Graph &g) {
    if (g.outputs().size() != 1) {
        throw GraphError(fmt::format("lower: a pipeline has exactly one output, the graph has {}",
                                     g.outputs().size()));
    }
    Group grp;
    grp.anchor = g.outputs()[0].get();
    for (const Node *n : g.nodes()) (n->op == Op::Input ? grp.reads : grp.members).push_back(n);
    for (int k = 0; k < int(grp.anchor->shape.size()); ++k) {
        grp.collapsed_axes.push_back({k});
        grp.collapsed_shape.push_back(grp.anchor->shape[k]);
    }
    return grp;
}

LoweredGraph lower(const Graph &g, const Group &grp, const ExternalInputs *ext) {
    LoweredGraph lg{g, grp, grp.anchor, {}, {}, {}, {}, {}, {}, {}};
    std::size_t max_rank = 0;
    for (const Node *n : g.nodes()) max_rank = std::max(max_rank, n->shape.size());
    for (std::size_t k = 0; k < max_rank; ++k) lg.vars.emplace_back(fmt::format("a{}", k));
    Lowerer lw(lg, ext);
    for (const Node *n : g.nodes()) {
        const bool read = std::find(grp.reads.begin(), grp.reads.end(), n) != grp.reads.end();
        if (read || grp.contains(n)) lw.define(*n, read);
    }
    lg.out = lg.funcs.at(lg.output);
    if (is_reduce(lg.output->op)) {
        // A reduction never accumulates in the caller's buffer: the output is a pure copy of it.
        // (Halide 14 on AVX-512 reads a vectorized accumulator back with an aligned masked load,
        // which faults on caller memory that is not 64-byte aligned; Halide's own allocations are.)
        Func copy(lg.out.name() + "_out");
        auto args = args_of(lg.vars, lg.output->shape.size());
        copy(args) = lw.keyed(lg.output) ? from_bits(lg.out(args)) : lg.out(args);
        lg.out = copy;
    }
    for (const auto &[name, p] : lg.inputs) {
        if (lg.dims.count(name)) {
            throw GraphError(fmt::format("lower: input '{}' has the name of a symbolic dim", name));
        }
    }
    if (ext) lg.prefetchable = ext->prefetchable;
    if (!ext) lw.constrain_output();   // a generator states its own output contract
    return lg;
}

LoweredGraph lower(const Graph &g) { return lower(g, whole_graph_group(g)); }

}  // namespace halogen
