// A graph as one Halide pipeline (pipeline.h).
#include "halide_gen/compiler/pipeline.h"

#include <algorithm>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/grouping/grouping.h"
#include "frontend/rewrites/one_hot_gather.h"
#include "halide_gen/compiler/autoschedule.h"
#include "halide_gen/compiler/types.h"

namespace halogen {

namespace {

// Where each symbolic dim is read: (input, Halide dimension) of the first input holding it as an axis.
std::map<std::string, std::pair<const Node *, int>> dims_on_inputs(const Graph &g) {
    std::map<std::string, std::pair<const Node *, int>> at;
    for (const Node *n : g.inputs()) {
        const int rank = int(n->shape.size());
        for (int axis = 0; axis < rank; ++axis) {
            const Dim &d = n->shape[axis];
            if (d.terms().size() != 1 || d.terms().begin()->second != 1 || d.terms().begin()->first.size() != 1) continue;
            at.emplace(d.terms().begin()->first[0], std::make_pair(n, halide_dim(rank, axis)));
        }
    }
    return at;
}

Halide::Expr dim_expr(const Dim &d, const std::map<std::string, Halide::Expr> &dims) {
    Halide::Expr e = 0;
    for (const auto &[monomial, coeff] : d.terms()) {
        Halide::Expr t = Halide::Expr(static_cast<int32_t>(coeff));
        for (const std::string &s : monomial) t = t * dims.at(s);
        e = e + t;
    }
    return Halide::Internal::simplify(e);
}

// A buffer's own extent by its bare name. A constraint is stored in the buffer's Parameter, and
// an Expr from dim(h).extent() carries that Parameter: a stride or extent written with the
// buffer's own extents that way would be a reference cycle, never freed. Another buffer's extent
// keeps its Parameter, which is how Halide finds that buffer when the pipeline reads it nowhere
// else (and a dim is read off the first input that has it, so two inputs never point at each other).
Halide::Expr extent_name(const std::string &buffer, int h) {
    return Halide::Internal::Variable::make(Halide::Int(32), fmt::format("{}.extent.{}", buffer, h));
}

// Where each symbolic dim is read (dims_on_inputs) and its value there.
struct DimSource {
    std::string buffer;
    int dim;
    Halide::Expr extent;
};

// Mins at 0, dense row-major strides, extents as `shape` says (an extent read off this very
// dimension is left as it is).
void constrain(Halide::OutputImageParam p, const Shape &shape, const std::map<std::string, DimSource> &sources,
               const std::map<std::string, Halide::Expr> &scalar_dims) {
    std::map<std::string, Halide::Expr> dims = scalar_dims;
    for (const auto &[sym, src] : sources) dims[sym] = src.buffer == p.name() ? extent_name(p.name(), src.dim) : src.extent;
    const int rank = int(shape.size());
    Halide::Expr stride = 1;
    for (int h = 0; h < rank; ++h) {
        Halide::Expr extent = dim_expr(shape[halide_dim(rank, h)], dims);
        const Halide::Expr own = extent_name(p.name(), h);
        p.dim(h).set_min(0).set_stride(stride);
        if (!Halide::Internal::equal(extent, own)) p.dim(h).set_extent(extent);
        stride = stride * own;
    }
}

}  // namespace

std::vector<std::string> scalar_dims(const Graph &g) {
    const auto at = dims_on_inputs(g);
    std::vector<std::string> out;
    for (const std::string &s : g.symbols()) {
        if (!at.count(s)) out.push_back(s);
    }
    return out;
}

Pipeline build_pipeline(const Graph &g, const Recipe &recipe, const PipelineInputs &in, const Halide::Target &target) {
    const bool autoscheduled = !recipe.autoscheduler.empty();
    Pipeline p{recipe.rewrite_one_hot ? rewrite_one_hot_reductions(g) : g, {}, {}, {}};
    p.groups = group_graph(p.graph, GroupingOptions{recipe.fuse_reductions});

    ExternalInputs ext;
    ext.dims = in.scalar_dims;
    std::map<std::string, DimSource> sources;
    for (const auto &[sym, where] : dims_on_inputs(p.graph)) {
        const Halide::ImageParam &param = in.buffers.at(where.first->name);
        ext.dims[sym] = param.dim(where.second).extent();
        sources[sym] = DimSource{param.name(), where.second, ext.dims[sym]};
    }
    for (const std::string &s : p.graph.symbols()) {
        if (!ext.dims.count(s)) throw GraphError(fmt::format("{}: no value for symbolic dim '{}'", recipe.name, s));
    }
    for (const Node *n : p.graph.inputs()) {
        auto it = in.buffers.find(n->name);
        if (it == in.buffers.end()) throw GraphError(fmt::format("{}: no buffer for input '{}'", recipe.name, n->name));
        Halide::ImageParam param = it->second;
        constrain(param, n->shape, sources, in.scalar_dims);
        // An autoscheduler's tiles, or a hand schedule's whole register tiles, may outrun a small
        // input: reading it through repeat_edge changes no output point and lets the kernel take
        // every extent but an empty one (a clamped read asks for one element).
        ext.buffers[n->name] = autoscheduled || recipe.clamp_inputs ? Halide::BoundaryConditions::repeat_edge(param)
                                                                    : Halide::Func(param);
        if (in.prefetchable) ext.prefetchable.emplace(n->name, param);
    }

    const auto &outs = p.graph.outputs();
    std::map<const Node *, Halide::Func> anchors;
    for (std::size_t k = 0; k < p.groups.size(); ++k) {
        LoweredGraph lg = lower(p.graph, p.groups[k], &ext);
        lg.who = recipe.name;
        if (!autoscheduled && recipe.schedule) recipe.schedule(lg, target);
        const Node *anchor = p.groups[k].anchor;
        // A graph output that later groups read is computed into a buffer of Halide's own, and
        // the output is a copy of it: Halide 14 may read a Func back with aligned vector loads,
        // which fault on a caller's buffer that is not aligned.
        const bool read_later = std::any_of(p.groups.begin() + k + 1, p.groups.end(), [&](const Group &g) {
            return std::find(g.reads.begin(), g.reads.end(), anchor) != g.reads.end();
        });
        const bool is_output = std::any_of(outs.begin(), outs.end(), [&](const Tensor &t) { return t.get() == anchor; });
        if ((!is_output || read_later) && !autoscheduled) lg.out.compute_root();
        ext.buffers[buffer_name(*anchor)] = lg.out;   // read by the groups after it
        if (is_output && read_later) {
            Halide::Func copy(lg.out.name() + "_output");
            copy(Halide::_) = lg.out(Halide::_);
            anchors[anchor] = copy;
        } else {
            anchors[anchor] = lg.out;
        }
        p.lowered.push_back(std::move(lg));
    }
    for (std::size_t k = 0; k < outs.size(); ++k) {
        const Node *n = outs[k].get();
        Halide::Func f = anchors.count(n) ? anchors.at(n) : ext.buffers.at(buffer_name(*n));
        const bool taken = std::any_of(p.outputs.begin(), p.outputs.end(), [&](const Halide::Func &o) { return o.name() == f.name(); });
        if (n->op == Op::Input || taken) {   // an input returned as it is, or a node listed twice
            Halide::Func copy(fmt::format("output_{}", k));
            copy(Halide::_) = f(Halide::_);
            f = copy;
        }
        constrain(f.output_buffer(), n->shape, sources, in.scalar_dims);
        p.outputs.push_back(f);
    }
    if (autoscheduled) {
        load_autoscheduler(recipe.autoscheduler);
        for (const Node *n : p.graph.inputs()) {
            Halide::ImageParam p = in.buffers.at(n->name);
            p.set_estimates(estimated_region(n->shape, in.estimates));
        }
        for (std::size_t k = 0; k < outs.size(); ++k) {
            p.outputs[k].set_estimates(estimated_region(outs[k].shape(), in.estimates));
        }
        autoschedule(p.outputs, recipe.autoscheduler, target);
    }
    return p;
}

}  // namespace halogen
