// JSON -> Graph, through the builder functions. Every field is read with its JSON type and range
// checked (graph_json_fields.h) before a builder sees it, so a malformed node is a GraphError
// naming the node (id and op) and the field; an error a builder raises (ShapeError, AxisError, ...)
// keeps its type and gains the node's name and the fields it was built from. Nodes are built
// depth first without recursion, so a long chain of inputs cannot exhaust the stack.
#include "formats/graph_json.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "formats/strict_json.h"
#include "formats/graph_json_fields.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen {

namespace {

using namespace graph_json;

constexpr std::size_t kMaxTerms = 4096;     // terms of a shape's element count as a polynomial
// Nodes on the longest chain of inputs, as built: a builder may make several per JSON node (sub is
// add of neg; a matmul adds five to a chain). Destroying a graph releases a chain recursively, each
// node owning its inputs, so an unbounded chain overflows the stack: under AddressSanitizer (clang
// 14, 8 MiB of stack) at between 30000 and 40000 nodes. The graph is refused well before.
constexpr std::size_t kMaxDepth = 10000;

using Inputs = std::vector<Tensor>;
using Build = std::function<Tensor(const Fields &, const Inputs &)>;

// What an op takes: how many inputs, which attributes (besides "id", "op", "inputs"), and how
// its builder is called.
struct OpRule {
    std::size_t arity = 0;
    std::vector<std::string> attributes;
    Build build;
};

const std::map<std::string, OpRule> &op_rules() {
    static const std::map<std::string, OpRule> table = [] {
        std::map<std::string, OpRule> t;
        auto unary = [](Tensor (*f)(const Tensor &)) {
            return OpRule{1, {}, [f](const Fields &, const Inputs &in) { return f(in[0]); }};
        };
        auto binary = [](Tensor (*f)(const Tensor &, const Tensor &)) {
            return OpRule{2, {}, [f](const Fields &, const Inputs &in) { return f(in[0], in[1]); }};
        };
        // Each builder reads its fields in the order listed, so that the first bad one is reported.
        t["input"] = {0, {"name", "dtype", "shape"}, [](const Fields &f, const Inputs &) {
                          const std::string name = f.name("name");
                          const DType dtype = f.dtype("dtype");
                          return input(name, dtype, f.shape("shape"));
                      }};
        t["const"] = {0, {"dtype", "value"}, [](const Fields &f, const Inputs &) {
                          const DType t = f.dtype("dtype");
                          const double v = f.value("value", t);
                          return t == DType::Float32 ? fconst(v) : t == DType::Int32 ? iconst(int64_t(v)) : bconst(v != 0);
                      }};
        t["index_components"] = {0, {"shape"}, [](const Fields &f, const Inputs &) {
                                     return index_components(f.shape("shape"));
                                 }};
        t["neg"] = unary(neg), t["recip"] = unary(recip), t["sqrt"] = unary(sqrt), t["exp2"] = unary(exp2);
        t["log2"] = unary(log2), t["sin"] = unary(sin), t["not"] = unary(not_), t["exp"] = unary(exp), t["log"] = unary(log);
        t["add"] = binary(add), t["mul"] = binary(mul), t["max"] = binary(maximum), t["idiv"] = binary(idiv);
        t["mod"] = binary(mod), t["and"] = binary(and_), t["or"] = binary(or_), t["xor"] = binary(xor_);
        t["ne"] = binary(ne), t["lt"] = binary(lt), t["eq"] = binary(eq), t["sub"] = binary(sub), t["div"] = binary(div);
        t["le"] = binary(le), t["gt"] = binary(gt), t["ge"] = binary(ge), t["matmul"] = binary(matmul);
        t["where"] = {3, {}, [](const Fields &, const Inputs &in) { return where(in[0], in[1], in[2]); }};
        t["cast"] = {1, {"dtype"}, [](const Fields &f, const Inputs &in) { return cast(in[0], f.dtype("dtype")); }};
        t["reduce_sum"] = {1, {"axes"}, [](const Fields &f, const Inputs &in) { return reduce_sum(in[0], f.axes("axes")); }};
        t["reduce_max"] = {1, {"axes"}, [](const Fields &f, const Inputs &in) { return reduce_max(in[0], f.axes("axes")); }};
        t["sum"] = {1, {"axes"}, [](const Fields &f, const Inputs &in) { return sum(in[0], f.axes("axes")); }};
        t["permute"] = {1, {"axes"}, [](const Fields &f, const Inputs &in) { return permute(in[0], f.axes("axes")); }};
        t["reshape"] = {1, {"shape"}, [](const Fields &f, const Inputs &in) { return reshape(in[0], f.shape("shape")); }};
        t["expand"] = {1, {"shape"}, [](const Fields &f, const Inputs &in) { return expand(in[0], f.shape("shape")); }};
        t["slice"] = {1, {"axis", "start", "stop", "step"}, [](const Fields &f, const Inputs &in) {
                          const int axis = f.axis("axis");
                          const int64_t start = f.integer("start", 0, kInt64Max), stop = f.integer("stop", 0, kInt64Max);
                          return slice(in[0], axis, Dim(start), Dim(stop), f.integer_or("step", 1, 1, kInt64Max));
                      }};
        t["pad"] = {1, {"lo", "hi", "value"}, [](const Fields &f, const Inputs &in) {
                        const std::vector<int64_t> lo = f.integers("lo", 0, kInt64Max), hi = f.integers("hi", 0, kInt64Max);
                        return pad(in[0], lo, hi, f.value_or("value", 0, in[0].dtype()));
                    }};
        t["window"] = {1, {"axis", "size", "stride", "dilation"}, [](const Fields &f, const Inputs &in) {
                           const int axis = f.axis("axis");
                           const int64_t size = f.integer("size", 1, kInt64Max);
                           const int64_t stride = f.integer_or("stride", 1, 1, kInt64Max);
                           return window(in[0], axis, size, stride, f.integer_or("dilation", 1, 1, kInt64Max));
                       }};
        return t;
    }();
    return table;
}

// Rethrows the halogen::Error being handled as the same type, its message prefixed.
[[noreturn]] void rethrow_prefixed(const std::string &prefix) {
    try {
        throw;
    } catch (const ShapeError &e) {
        throw ShapeError(prefix + e.what());
    } catch (const DTypeError &e) {
        throw DTypeError(prefix + e.what());
    } catch (const AxisError &e) {
        throw AxisError(prefix + e.what());
    } catch (const ViewError &e) {
        throw ViewError(prefix + e.what());
    } catch (const BindingError &e) {
        throw BindingError(prefix + e.what());
    } catch (const BufferError &e) {
        throw BufferError(prefix + e.what());
    } catch (const GraphError &e) {
        throw GraphError(prefix + e.what());
    } catch (const Error &e) {
        throw Error(prefix + e.what());
    }
}

// Every product of a shape's extents must be computable by the passes that follow (the grouping
// multiplies runs of them into strides and collapsed loops): the product of the non-zero extents,
// which bounds every such run, has at most kMaxTerms terms and every coefficient within int64.
void check_extent_products(const Shape &s) {
    std::size_t terms = 1;
    for (const Dim &d : s) {
        if (d == Dim(0)) continue;
        terms *= d.terms().size();
        if (terms > kMaxTerms) {
            throw ShapeError(fmt::format("the product of the extents of shape {} is a polynomial of more than {} terms",
                                         shape_str(s), kMaxTerms));
        }
    }
    Dim product = 1;
    try {
        for (const Dim &d : s) product = d == Dim(0) ? product : product * d;
    } catch (const ShapeError &) {
        throw ShapeError(fmt::format("the product of the non-zero extents of shape {} overflows int64", shape_str(s)));
    }
}

// A node of the file, as indexed before anything is built.
struct Spec {
    const json *j = nullptr;
    std::size_t position = 0;   // in "nodes"
    std::string op;
    std::string shown_op;       // as messages show it (shown_name)
};

class Reader {
public:
    explicit Reader(const json &nodes) {
        for (std::size_t p = 0; p < nodes.size(); ++p) {
            const json &n = nodes[p];
            const std::string where = fmt::format("nodes[{}]", p);
            if (!n.is_object()) throw GraphError(fmt::format("graph: {} must be an object, got {}", where, shown(n)));
            const int64_t id = Fields(n, where).integer("id", 0, kInt64Max);
            const json *op = Fields(n, where).find("op");
            if (!op || !op->is_string()) {
                Fields(n, fmt::format("node {}", id)).fail("op", op ? "must be a string, got " + shown(*op) : "is missing");
            }
            Spec spec{&n, p, op->get<std::string>(), shown_name(op->get<std::string>())};
            auto [it, fresh] = specs_.emplace(id, spec);
            order_.push_back(id);
            if (!fresh) {
                Fields(n, fmt::format("node {} ({}) at {}", id, spec.shown_op, where))
                    .fail("id", fmt::format("is already the id of the node at nodes[{}] ({})", it->second.position,
                                            it->second.shown_op));
            }
        }
    }

    const std::vector<int64_t> &ids() const { return order_; }   // in file order
    bool has(int64_t id) const { return specs_.count(id) > 0; }

    // Node `id` and every node it reads, built in depth-first order without recursion.
    Tensor build(int64_t id) {
        if (auto it = built_.find(id); it != built_.end()) return it->second;
        std::vector<Frame> stack;
        push(stack, id);
        while (!stack.empty()) {
            Frame &f = stack.back();
            if (f.next < f.inputs.size()) {
                const int64_t in = f.inputs[f.next++];
                if (built_.count(in)) continue;
                if (!specs_.count(in)) f.fields.fail("inputs", fmt::format("names node {}, which does not exist", in));
                if (on_path_.count(in)) {
                    f.fields.fail("inputs", fmt::format("names node {} ({}), which closes a cycle", in, specs_.at(in).shown_op));
                }
                push(stack, in);   // invalidates f
                continue;
            }
            Inputs in;
            for (int64_t k : f.inputs) in.push_back(built_.at(k));
            Tensor t = make(f, in);
            if (depth_.at(t.get()) > kMaxDepth) {
                f.fields.fail("inputs", fmt::format("ends a chain of {} nodes as built, more than the {} a graph may hold",
                                                    depth_.at(t.get()), kMaxDepth));
            }
            if (specs_.at(f.id).op == "input") {   // two inputs of one name would be one buffer
                auto [it, fresh] = input_names_.emplace(t.node().name, f.id);
                if (!fresh) {
                    f.fields.fail("name", fmt::format("is \"{}\", already the name of node {} (input)", t.node().name,
                                                      it->second));
                }
            }
            on_path_.erase(f.id);
            built_[f.id] = t;
            stack.pop_back();
        }
        return built_.at(id);
    }

private:
    struct Frame {
        int64_t id;
        const OpRule *rule;
        Fields fields;
        std::vector<int64_t> inputs;
        std::size_t next = 0;
    };

    std::map<int64_t, Spec> specs_;
    std::vector<int64_t> order_;
    std::map<int64_t, Tensor> built_;
    std::set<int64_t> on_path_;
    // Every node built so far (the builders' own included), its shape checked by
    // check_extent_products: the nodes on the longest chain of inputs ending at it.
    std::unordered_map<const Node *, std::size_t> depth_;
    std::map<std::string, int64_t> input_names_;  // of the "input" nodes built so far

    // Checks node `id`'s op, its fields and its inputs' count, and puts it on the stack.
    void push(std::vector<Frame> &stack, int64_t id) {
        const Spec &spec = specs_.at(id);
        Fields fields(*spec.j, fmt::format("node {} ({})", id, spec.shown_op));
        auto rule = op_rules().find(spec.op);
        if (rule == op_rules().end()) {
            throw GraphError(fmt::format("graph: {}: unsupported op {}", fields.who(), shown(json(spec.op))));
        }
        for (const auto &[key, value] : spec.j->items()) {
            const auto &attrs = rule->second.attributes;
            if (key != "id" && key != "op" && key != "inputs" && std::find(attrs.begin(), attrs.end(), key) == attrs.end()) {
                fields.fail(key, fmt::format("is not one of {}", fmt::join(allowed(rule->second), ", ")));
            }
        }
        std::vector<int64_t> inputs;
        if (rule->second.arity > 0 || fields.find("inputs")) inputs = fields.integers("inputs", 0, kInt64Max);
        if (inputs.size() != rule->second.arity) {
            fields.fail("inputs", fmt::format("must name {} node(s), got {}", rule->second.arity, inputs.size()));
        }
        on_path_.insert(id);
        stack.push_back(Frame{id, &rule->second, fields, std::move(inputs)});
    }

    static std::vector<std::string> allowed(const OpRule &rule) {
        std::vector<std::string> out = {"id", "op"};
        if (rule.arity > 0) out.push_back("inputs");
        out.insert(out.end(), rule.attributes.begin(), rule.attributes.end());
        return out;
    }

    // Checks the nodes a builder just made (those not in depth_), inputs first, and records their depths.
    void settle(const Node *root) {
        std::vector<std::pair<const Node *, bool>> todo = {{root, false}};   // (node, inputs settled)
        while (!todo.empty()) {
            auto [n, ready] = todo.back();
            if (depth_.count(n)) {
                todo.pop_back();
            } else if (!ready) {
                todo.back().second = true;
                for (const Tensor &k : n->inputs) todo.push_back({k.get(), false});
            } else {
                check_extent_products(n->shape);
                std::size_t depth = 1;
                for (const Tensor &k : n->inputs) depth = std::max(depth, depth_.at(k.get()) + 1);
                depth_[n] = depth;
                todo.pop_back();
            }
        }
    }

    // The node from its built inputs; a builder's error, or a shape too large to compute with (of
    // the node or of one a builder made on the way, as matmul's product), named after the node
    // and the fields it was built from.
    Tensor make(const Frame &f, const Inputs &in) {
        std::vector<std::string> from;
        if (f.rule->arity > 0) from.push_back("'inputs'");
        for (const std::string &a : f.rule->attributes) {
            if (f.fields.find(a)) from.push_back("'" + a + "'");
        }
        const std::string prefix = fmt::format("graph: {}, field{} {}: ", f.fields.who(), from.size() == 1 ? "" : "s",
                                               fmt::join(from, ", "));
        try {
            Tensor t = f.rule->build(f.fields, in);
            settle(t.get());
            return t;
        } catch (const FieldError &) {
            throw;   // already naming the node and the field
        } catch (const Error &) {
            rethrow_prefixed(prefix);
        }
    }
};

}  // namespace

Graph graph_from_json(const std::string &text) {
    // Read strictly: a key given twice in one object is ambiguous, a NUL byte would end the text.
    json doc;
    try {
        doc = parse_strict_json(text);
    } catch (const StrictJsonError &e) {
        if (e.kind == StrictJsonError::Kind::RepeatedKey) {
            throw GraphError(fmt::format("graph: malformed JSON: key {} appears twice in one object", shown(json(e.key))));
        }
        throw GraphError(fmt::format("graph: malformed JSON: {}", e.kind == StrictJsonError::Kind::Syntax ? e.reason : e.what()));
    }
    if (!doc.is_object()) throw GraphError(fmt::format("graph: malformed document: must be an object, got {}", shown(doc)));
    const Fields fields(doc, "malformed document");
    Reader reader(fields.array("nodes"));
    // Every node is built, read or not, so that none is left unchecked.
    for (int64_t id : reader.ids()) reader.build(id);
    const std::vector<int64_t> ids = fields.integers("outputs", 0, kInt64Max);
    if (ids.empty()) fields.fail("outputs", "is empty; a graph needs at least one output");
    std::vector<Tensor> outs;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        if (!reader.has(ids[k])) fields.fail("outputs", fmt::format("entry {} names node {}, which does not exist", k, ids[k]));
        outs.push_back(reader.build(ids[k]));
    }
    return Graph(outs);
}

Graph graph_from_json_file(const std::string &path) {
    std::ifstream f(path);
    if (!f) throw GraphError(fmt::format("graph: cannot read '{}'", path));
    std::stringstream ss;
    ss << f.rdbuf();
    return graph_from_json(ss.str());
}

}  // namespace halogen
