// Binding a caller's tensors to a kernel's arguments (contract.h).
#include "frontend/contract.h"

#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/errors.h"

namespace halogen {

namespace {

int64_t product(const std::vector<int64_t> &v, std::size_t from, std::size_t to) {
    int64_t p = 1;
    for (std::size_t k = from; k < to; ++k) p *= v[k];
    return p;
}

std::string output_key(std::size_t k, std::size_t count) { return count == 1 ? "out" : fmt::format("out{}", k); }

Layout exact_layout(const Shape &s) {
    Layout l;
    for (const Dim &d : s) l.push_back({d, false});
    return l;
}

// A layout for the kernel shape `kernel`: every symbol it reads must be one the kernel's shapes use.
Layout checked_layout(const std::string &who, const std::string &arg, const std::string &text) {
    try {
        return parse_layout(text);
    } catch (const ShapeError &e) {
        throw ShapeError(fmt::format("{}: layout of '{}': {}", who, arg, e.what()));
    }
}

}  // namespace

Layout parse_layout(const std::string &text) {
    auto fail = [&](const std::string &why) {
        return ShapeError(fmt::format("layout '{}': {} (write e.g. [*R, D] or [N, 32*CG, *S])", text, why));
    };
    std::size_t a = text.find_first_not_of(' '), b = text.find_last_not_of(' ');
    if (a == std::string::npos || text[a] != '[' || text[b] != ']') throw fail("not in brackets");
    Layout out;
    const std::string body = text.substr(a + 1, b - a - 1);
    if (body.find_first_not_of(' ') == std::string::npos) return out;
    std::size_t start = 0;
    while (start <= body.size()) {
        std::size_t end = body.find(',', start);
        if (end == std::string::npos) end = body.size();
        std::string item = body.substr(start, end - start);
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        LayoutAxis axis;
        if (!item.empty() && item[0] == '*') {
            axis.run = true;
            item.erase(0, 1);
        }
        if (item.empty()) throw fail("an empty axis");
        Dim d(1);
        std::size_t f = 0;
        while (f <= item.size()) {
            std::size_t g = item.find('*', f);
            if (g == std::string::npos) g = item.size();
            const std::string factor = item.substr(f, g - f);
            if (factor.empty()) throw fail(fmt::format("an empty factor in '{}'", item));
            if (std::isdigit(static_cast<unsigned char>(factor[0]))) {
                std::size_t used = 0;
                long long v = std::stoll(factor, &used);
                if (used != factor.size()) throw fail(fmt::format("'{}' is not a number", factor));
                d = d * Dim(v);
            } else {
                for (char c : factor) {
                    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
                        throw fail(fmt::format("'{}' is not a symbol", factor));
                    }
                }
                d = d * Dim::sym(factor);
            }
            f = g + 1;
        }
        if (axis.run && (d.symbols().size() != 1 || d.terms().size() != 1 || d.terms().begin()->second != 1 ||
                         d.terms().begin()->first.size() != 1)) {
            throw fail(fmt::format("a run '*{}' must be one symbol", item));
        }
        axis.dim = d;
        out.push_back(axis);
        start = end + 1;
    }
    int runs = 0;
    for (const LayoutAxis &x : out) runs += x.run;
    if (runs > 1) throw fail("more than one run of axes");
    return out;
}

std::string layout_str(const Layout &l) {
    std::vector<std::string> parts;
    for (const LayoutAxis &a : l) parts.push_back((a.run ? "*" : "") + a.dim.str());
    return fmt::format("[{}]", fmt::join(parts, ", "));
}

Contract::Contract(std::string who, Graph graph, const std::vector<std::pair<std::string, std::string>> &layouts)
    : who_(std::move(who)), graph_(std::move(graph)) {
    std::map<std::string, const Node *> by_name;
    for (const Node *n : graph_.inputs()) by_name[n->name] = n;
    const auto &outs = graph_.outputs();
    for (std::size_t k = 0; k < outs.size(); ++k) output_layouts_.push_back(exact_layout(outs[k].shape()));
    for (const auto &[name, text] : layouts) {
        bool output = false;
        for (std::size_t k = 0; k < outs.size(); ++k) {
            if (name != output_key(k, outs.size())) continue;
            if (!text.empty()) output_layouts_[k] = checked_layout(who_, name, text);
            output = true;
        }
        if (output) continue;
        auto it = by_name.find(name);
        if (it == by_name.end() || input_layouts_.count(name)) {
            throw GraphError(fmt::format("{}: a layout is given for '{}', which is no input or output, or twice", who_, name));
        }
        input_layouts_[name] = text.empty() ? exact_layout(it->second->shape) : checked_layout(who_, name, text);
        inputs_.push_back(it->second);
    }
    for (const Node *n : graph_.inputs()) {
        if (input_layouts_.count(n->name)) continue;
        input_layouts_[n->name] = exact_layout(n->shape);
        inputs_.push_back(n);
    }
}

Contract &Contract::with_default(const std::string &input, double value) {
    const Node *n = nullptr;
    for (const Node *in : inputs_) {
        if (in->name == input) n = in;
    }
    if (!n || !n->shape.empty() || n->dtype != DType::Float32) {
        throw GraphError(fmt::format("{}: a default is given for '{}', which is no rank-0 float32 input", who_, input));
    }
    auto a = std::make_shared<Array>(DType::Float32, std::vector<int64_t>{});
    a->set(0, value);
    input_defaults_[input] = value;
    default_arrays_[input] = a;
    return *this;
}

Contract &Contract::with_parameter(const std::string &symbol, int64_t value) {
    if (!graph_.symbols().count(symbol)) {
        throw GraphError(fmt::format("{}: a parameter is given for '{}', which is no symbolic dim of the graph", who_, symbol));
    }
    parameters_[symbol] = value;
    return *this;
}

std::vector<std::string> Contract::input_names() const {
    std::vector<std::string> out;
    for (const Node *n : inputs_) out.push_back(n->name);
    return out;
}

const Layout &Contract::input_layout(const std::string &name) const { return input_layouts_.at(name); }

std::string Contract::describe() const {
    std::vector<std::string> ins, outs;
    for (const Node *n : inputs_) {
        auto d = input_defaults_.find(n->name);
        ins.push_back(fmt::format("{} {} {}{}", n->name, dtype_name(n->dtype), layout_str(input_layouts_.at(n->name)),
                                  d == input_defaults_.end() ? "" : fmt::format(" (default {})", d->second)));
    }
    for (std::size_t k = 0; k < output_layouts_.size(); ++k) {
        outs.push_back(fmt::format("{} {}", dtype_name(graph_.outputs()[k].dtype()), layout_str(output_layouts_[k])));
    }
    return fmt::format("{} -> {}", fmt::join(ins, ", "), fmt::join(outs, ", "));
}

// Symbols read off the caller's shapes so far: their values, where each was read, and the axes
// each run matched.
struct Contract::Reading {
    Bindings values;
    std::map<std::string, std::string> source;               // "input 'x' axis 2"
    std::map<std::string, std::vector<int64_t>> run_axes;    // R -> the axes *R matched
};

namespace {

// The symbol of `d` still unknown, when d is one monomial c * s * (known symbols) with s of degree
// one; "" when every symbol is known or d cannot be solved for one.
std::string solvable(const Dim &d, const Bindings &known) {
    if (d.terms().size() != 1) return "";
    std::string unknown;
    for (const std::string &s : d.terms().begin()->first) {
        if (known.count(s)) continue;
        if (!unknown.empty()) return "";   // two unknowns, or one of degree two
        unknown = s;
    }
    return unknown;
}

}  // namespace

Contract::Reading Contract::read_inputs(const std::map<std::string, std::pair<DType, std::vector<int64_t>>> &inputs,
                                        const Bindings &given) const {
    Reading r;
    // Each input in order: a run takes what the fixed axes leave; a fixed axis binds its unknown
    // symbol or is checked against what is known. Axes left unsolved are retried once at the end.
    struct Pending {
        const Node *node;
        std::size_t axis;
        Dim dim;
        int64_t value;
    };
    std::vector<Pending> pending;
    auto mismatch = [&](const Node *n, const std::vector<int64_t> &shape, const std::string &why) {
        const Layout &l = input_layouts_.at(n->name);
        std::string wanted = layout_str(l);
        bool known = true;
        for (const LayoutAxis &a : l) {
            for (const std::string &s : a.dim.symbols()) known = known && !a.run && r.values.count(s);
        }
        if (known && !l.empty()) {
            std::vector<int64_t> want;
            for (const LayoutAxis &a : l) want.push_back(a.dim.eval(r.values));
            if (layout_str(l) != dims_str(want)) wanted += " = " + dims_str(want);
        }
        return BufferError(fmt::format("{}: input '{}' has shape {}, expected {}: {}", who_, n->name, dims_str(shape),
                                       wanted, why));
    };
    auto settle = [&](const Node *n, const std::vector<int64_t> &shape, std::size_t axis, const Dim &d, int64_t v,
                      bool final) {
        const std::string where = fmt::format("input '{}' axis {}", n->name, axis);
        const std::string unknown = solvable(d, r.values);
        if (unknown.empty() && !d.symbols().empty()) {
            bool all_known = true;
            for (const std::string &s : d.symbols()) all_known = all_known && r.values.count(s);
            if (!all_known) {
                if (!final) return pending.push_back({n, axis, d, v});
                throw BindingError(fmt::format("{}: {} = {} cannot be read off input '{}' axis {}", who_, d.str(), v,
                                               n->name, axis));
            }
        }
        if (unknown.empty()) {
            const int64_t want = d.eval(r.values, where);
            if (want != v) {
                std::vector<std::string> from;
                for (const std::string &s : d.symbols()) {
                    from.push_back(fmt::format("{} = {} from {}", s, r.values.at(s), r.source.at(s)));
                }
                throw mismatch(n, shape, fmt::format("axis {} is {}, {} = {}{}", axis, v, d.str(), want,
                                                     from.empty() ? "" : fmt::format(" ({})", fmt::join(from, ", "))));
            }
            return;
        }
        // c * unknown * (known symbols) = v
        Bindings trial = r.values;
        trial[unknown] = 1;
        const int64_t unit = d.eval(trial, where);
        if (unit == 0 || v % unit != 0) {
            throw mismatch(n, shape, fmt::format("axis {} is {}, not a multiple of {}", axis, v, unit));
        }
        r.values[unknown] = v / unit;
        r.source[unknown] = where;
    };
    for (const auto &[sym, v] : given) {
        r.values[sym] = v;
        r.source[sym] = parameters_.count(sym) && parameters_.at(sym) == v
                            ? fmt::format("the parameter {} (default {})", sym, v)
                            : "the call's bindings";
    }
    for (const Node *n : inputs_) {
        const auto &[dtype, shape] = inputs.at(n->name);
        const Layout &l = input_layouts_.at(n->name);
        if (dtype != n->dtype) {
            throw BufferError(fmt::format("{}: input '{}' is {}, expected {} {}", who_, n->name, dtype_name(dtype),
                                          dtype_name(n->dtype), layout_str(l)));
        }
        std::size_t run_at = l.size();
        for (std::size_t k = 0; k < l.size(); ++k) {
            if (l[k].run) run_at = k;
        }
        const std::size_t fixed = l.size() - (run_at < l.size() ? 1 : 0);
        if (run_at == l.size() ? shape.size() != l.size() : shape.size() < fixed) {
            throw mismatch(n, shape, run_at == l.size()
                                         ? fmt::format("rank {}, expected rank {}", shape.size(), l.size())
                                         : fmt::format("rank {}, expected at least {}", shape.size(), fixed));
        }
        const std::size_t run_len = shape.size() - fixed;
        std::size_t axis = 0;
        for (std::size_t k = 0; k < l.size(); ++k) {
            if (l[k].run) {
                const std::string s = *l[k].dim.symbols().begin();
                const int64_t v = product(shape, axis, axis + run_len);
                std::vector<int64_t> axes(shape.begin() + axis, shape.begin() + axis + run_len);
                if (r.values.count(s) && r.values.at(s) != v) {
                    throw mismatch(n, shape, fmt::format("axes {}..{} hold {} elements, {} = {} from {}", axis,
                                                         axis + run_len, v, s, r.values.at(s), r.source.at(s)));
                }
                r.values[s] = v;
                r.source.emplace(s, fmt::format("input '{}' axes {}", n->name, dims_str(axes)));
                r.run_axes.emplace(s, axes);
                axis += run_len;
                continue;
            }
            settle(n, shape, axis, l[k].dim, shape[axis], false);
            ++axis;
        }
    }
    for (const Pending &p : std::vector<Pending>(pending)) {
        settle(p.node, inputs.at(p.node->name).second, p.axis, p.dim, p.value, true);
    }
    return r;
}

std::vector<int64_t> Contract::expand(const Layout &layout, const Reading &r, const std::string &what) const {
    std::vector<int64_t> out;
    for (const LayoutAxis &a : layout) {
        if (a.run) {
            const std::string s = *a.dim.symbols().begin();
            auto it = r.run_axes.find(s);
            if (it != r.run_axes.end()) out.insert(out.end(), it->second.begin(), it->second.end());
            else out.push_back(a.dim.eval(r.values, what));
            continue;
        }
        out.push_back(a.dim.eval(r.values, what));
    }
    return out;
}

BoundCall Contract::bind(const BufferRefs &given_inputs, const std::vector<BufferRef> &outputs,
                         const Bindings &given_dims) const {
    BufferRefs inputs = given_inputs;
    for (const auto &[name, a] : default_arrays_) {
        if (!inputs.count(name)) inputs.emplace(name, BufferRef{const_cast<void *>(static_cast<const void *>(a->data<float>())), DType::Float32, {}});
    }
    Bindings given = parameters_;
    for (const auto &[sym, v] : given_dims) given[sym] = v;
    std::map<std::string, std::pair<DType, std::vector<int64_t>>> held;
    for (const auto &[name, ref] : inputs) {
        if (!input_layouts_.count(name)) {
            throw BufferError(fmt::format("{}: unknown input '{}' (it takes {})", who_, name, describe()));
        }
        held[name] = {ref.dtype, ref.shape};
    }
    for (const Node *n : inputs_) {
        if (!held.count(n->name)) {
            throw BufferError(fmt::format("{}: input '{}' is missing (it takes {})", who_, n->name, describe()));
        }
    }
    if (outputs.size() != output_layouts_.size()) {
        throw BufferError(fmt::format("{}: {} output buffers for {} output(s)", who_, outputs.size(),
                                      output_layouts_.size()));
    }
    const Reading r = read_inputs(held, given);
    BoundCall call;
    call.dims = r.values;
    for (const std::string &s : graph_.symbols()) {
        if (!call.dims.count(s)) {
            throw BindingError(fmt::format("{}: symbolic dim '{}' is not bound (no input's shape holds it)", who_, s));
        }
    }
    graph_.check_bindings(call.dims);
    for (const Node *n : graph_.inputs()) {
        BufferRef view = inputs.at(n->name);
        view.shape = eval_shape(n->shape, call.dims, fmt::format("{} input '{}'", who_, n->name));
        call.inputs.emplace(n->name, view);
    }
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        const Tensor &o = graph_.outputs()[k];
        const std::string role = outputs.size() == 1 ? "output" : fmt::format("output {}", k);
        const std::vector<int64_t> want = expand(output_layouts_[k], r, role);
        if (outputs[k].dtype != o.dtype() || outputs[k].shape != want) {
            throw BufferError(fmt::format("{}: {} is {} {}, expected {} {} = {}", who_, role, dtype_name(outputs[k].dtype),
                                          dims_str(outputs[k].shape), dtype_name(o.dtype()), dims_str(want),
                                          layout_str(output_layouts_[k])));
        }
        BufferRef view = outputs[k];
        view.shape = eval_shape(o.shape(), call.dims, who_ + " " + role);
        call.outputs.push_back(view);
    }
    return call;
}

std::vector<std::vector<int64_t>> Contract::output_shapes(const std::map<std::string, std::vector<int64_t>> &inputs,
                                                          const Bindings &given_dims) const {
    Bindings given = parameters_;
    for (const auto &[sym, v] : given_dims) given[sym] = v;
    std::map<std::string, std::pair<DType, std::vector<int64_t>>> held;
    for (const Node *n : inputs_) {
        auto it = inputs.find(n->name);
        if (it == inputs.end() && input_defaults_.count(n->name)) {
            held[n->name] = {n->dtype, {}};
            continue;
        }
        if (it == inputs.end()) {
            throw BufferError(fmt::format("{}: input '{}' is missing (it takes {})", who_, n->name, describe()));
        }
        held[n->name] = {n->dtype, it->second};
    }
    const Reading r = read_inputs(held, given);
    std::vector<std::vector<int64_t>> out;
    for (std::size_t k = 0; k < output_layouts_.size(); ++k) out.push_back(expand(output_layouts_[k], r, "output"));
    return out;
}

}  // namespace halogen
