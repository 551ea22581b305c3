// JSON -> Graph, through the builder functions.
#include "frontend/graph_json.h"

#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen {

namespace {

using json = nlohmann::json;

DType parse_dtype(const json &j, int id) {
    const std::string s = j.get<std::string>();
    if (s == "float32") return DType::Float32;
    if (s == "int32") return DType::Int32;
    if (s == "bool") return DType::Bool;
    throw GraphError(fmt::format("graph: node {} has unknown dtype '{}'", id, s));
}

Shape parse_shape(const json &j) {
    Shape s;
    for (const json &d : j) s.push_back(d.is_string() ? Dim::sym(d.get<std::string>()) : Dim(d.get<int64_t>()));
    return s;
}

using Build = std::function<Tensor(const json &, const std::vector<Tensor> &)>;

const std::map<std::string, Build> &builders() {
    static const std::map<std::string, Build> table = [] {
        std::map<std::string, Build> t;
        auto unary = [](Tensor (*f)(const Tensor &)) { return [f](const json &, const std::vector<Tensor> &in) { return f(in.at(0)); }; };
        auto binary = [](Tensor (*f)(const Tensor &, const Tensor &)) {
            return [f](const json &, const std::vector<Tensor> &in) { return f(in.at(0), in.at(1)); };
        };
        t["neg"] = unary(neg), t["recip"] = unary(recip), t["sqrt"] = unary(sqrt), t["exp2"] = unary(exp2);
        t["log2"] = unary(log2), t["sin"] = unary(sin), t["not"] = unary(not_), t["exp"] = unary(exp), t["log"] = unary(log);
        t["add"] = binary(add), t["mul"] = binary(mul), t["max"] = binary(maximum), t["idiv"] = binary(idiv);
        t["mod"] = binary(mod), t["and"] = binary(and_), t["or"] = binary(or_), t["xor"] = binary(xor_);
        t["ne"] = binary(ne), t["lt"] = binary(lt), t["eq"] = binary(eq), t["sub"] = binary(sub), t["div"] = binary(div);
        t["le"] = binary(le), t["gt"] = binary(gt), t["ge"] = binary(ge), t["matmul"] = binary(matmul);
        t["where"] = [](const json &, const std::vector<Tensor> &in) { return where(in.at(0), in.at(1), in.at(2)); };
        t["cast"] = [](const json &j, const std::vector<Tensor> &in) { return cast(in.at(0), parse_dtype(j.at("dtype"), j.at("id"))); };
        auto axes = [](const json &j) { return j.at("axes").get<std::vector<int>>(); };
        t["reduce_sum"] = [axes](const json &j, const std::vector<Tensor> &in) { return reduce_sum(in.at(0), axes(j)); };
        t["reduce_max"] = [axes](const json &j, const std::vector<Tensor> &in) { return reduce_max(in.at(0), axes(j)); };
        t["sum"] = [axes](const json &j, const std::vector<Tensor> &in) { return sum(in.at(0), axes(j)); };
        t["reshape"] = [](const json &j, const std::vector<Tensor> &in) { return reshape(in.at(0), parse_shape(j.at("shape"))); };
        t["expand"] = [](const json &j, const std::vector<Tensor> &in) { return expand(in.at(0), parse_shape(j.at("shape"))); };
        t["permute"] = [axes](const json &j, const std::vector<Tensor> &in) { return permute(in.at(0), axes(j)); };
        t["slice"] = [](const json &j, const std::vector<Tensor> &in) {
            return slice(in.at(0), j.at("axis"), Dim(j.at("start").get<int64_t>()), Dim(j.at("stop").get<int64_t>()),
                         j.value("step", int64_t(1)));
        };
        t["pad"] = [](const json &j, const std::vector<Tensor> &in) {
            return pad(in.at(0), j.at("lo").get<std::vector<int64_t>>(), j.at("hi").get<std::vector<int64_t>>(),
                       j.value("value", 0.0));
        };
        t["window"] = [](const json &j, const std::vector<Tensor> &in) {
            return window(in.at(0), j.at("axis"), j.at("size"), j.value("stride", int64_t(1)), j.value("dilation", int64_t(1)));
        };
        return t;
    }();
    return table;
}

class Reader {
public:
    explicit Reader(const json &doc) {
        for (const json &n : doc.at("nodes")) {
            const int id = n.at("id");
            if (!spec_.emplace(id, n).second) throw GraphError(fmt::format("graph: node id {} is used twice", id));
        }
    }

    Tensor node(int id, int reader) {
        if (auto it = built_.find(id); it != built_.end()) return it->second;
        auto it = spec_.find(id);
        if (it == spec_.end()) {
            throw GraphError(reader < 0 ? fmt::format("graph: output {} is not a node", id)
                                        : fmt::format("graph: node {} reads node {}, which does not exist", reader, id));
        }
        if (!on_path_.insert(id).second) {
            throw GraphError(fmt::format("graph: cycle through node {} (reached again from node {})", id, reader));
        }
        const json &j = it->second;
        std::vector<Tensor> in;
        for (const json &k : j.value("inputs", json::array())) in.push_back(node(k.get<int>(), id));
        Tensor t = make(j, in);
        on_path_.erase(id);
        return built_[id] = t;
    }

private:
    std::map<int, json> spec_;
    std::map<int, Tensor> built_;
    std::set<int> on_path_;

    static Tensor make(const json &j, const std::vector<Tensor> &in) {
        const int id = j.at("id");
        const std::string op = j.at("op");
        if (op == "input") return input(j.at("name"), parse_dtype(j.at("dtype"), id), parse_shape(j.at("shape")));
        if (op == "const") {
            DType t = parse_dtype(j.at("dtype"), id);
            double v = j.at("value");
            return t == DType::Float32 ? fconst(v) : t == DType::Int32 ? iconst(int64_t(v)) : bconst(v != 0);
        }
        if (op == "index_components") return index_components(parse_shape(j.at("shape")));
        auto it = builders().find(op);
        if (it == builders().end()) throw GraphError(fmt::format("graph: node {} has unsupported op '{}'", id, op));
        return it->second(j, in);
    }
};

}  // namespace

Graph graph_from_json(const std::string &text) {
    try {
        json doc = json::parse(text);
        Reader r(doc);
        std::vector<Tensor> outs;
        for (const json &o : doc.at("outputs")) outs.push_back(r.node(o.get<int>(), -1));
        return Graph(outs);
    } catch (const json::exception &e) {
        throw GraphError(fmt::format("graph: malformed JSON: {}", e.what()));
    }
}

Graph graph_from_json_file(const std::string &path) {
    std::ifstream f(path);
    if (!f) throw GraphError(fmt::format("graph: cannot read '{}'", path));
    std::stringstream ss;
    ss << f.rdbuf();
    return graph_from_json(ss.str());
}

}  // namespace halogen
