// isl sets and maps for graph nodes, written as isl's textual notation and parsed.
#include "frontend/grouping/access.h"

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/reshape_segments.h"

namespace halogen {

namespace {

struct NotAffine {};

// Builds one isl object's text, collecting the parameters it mentions.
class Text {
public:
    // A dim as an affine expression of parameters; a product of symbols becomes its own parameter.
    // Its name spells each symbol with its length, "S1_B1_S" for B*S: one name per product, and
    // none equal to a variable of the texts (o0, i0, j0, g), a parameter (R.., G..) or a keyword
    // of isl's (and, mod, infty, ...), whatever the symbols are called.
    std::string dim(const Dim &d) {
        std::string out;
        for (const auto &[mono, coeff] : d.terms()) {
            std::string name;
            for (const auto &s : mono) name += (name.empty() ? "S" : "") + std::to_string(s.size()) + "_" + s;
            if (!name.empty()) params_.insert(name);
            std::string term = name.empty() ? std::to_string(coeff) : fmt::format("{}*{}", coeff, name);
            out += (out.empty() ? "" : " + ") + term;
        }
        return out.empty() ? "0" : "(" + out + ")";
    }
    std::string param(const std::string &name) {
        params_.insert(name);
        return name;
    }
    static std::string tuple(const std::string &name, const std::string &var, std::size_t rank) {
        std::string out = name + "[";
        for (std::size_t k = 0; k < rank; ++k) out += (k ? ", " : "") + var + std::to_string(k);
        return out + "]";
    }
    static std::string tuple(const std::string &name, const std::vector<std::string> &exprs) {
        return name + "[" + fmt::format("{}", fmt::join(exprs, ", ")) + "]";
    }
    // "0 <= o0 < e0 and ..." for a shape.
    std::string inside(const Shape &s, const std::string &var) {
        std::vector<std::string> parts;
        for (std::size_t k = 0; k < s.size(); ++k) parts.push_back(fmt::format("0 <= {0}{1} < {2}", var, k, dim(s[k])));
        return parts.empty() ? "" : fmt::format("{}", fmt::join(parts, " and "));
    }
    std::string finish(const std::string &body) const {
        return "[" + fmt::format("{}", fmt::join(params_, ", ")) + "] -> { " + body + " }";
    }

private:
    std::set<std::string> params_;
};

std::string V(const Node &n) { return "V" + std::to_string(n.id); }
std::string I(const Node &n) { return "I" + std::to_string(n.id); }

std::string where_clause(const std::vector<std::string> &conds) {
    std::vector<std::string> nonempty;
    for (const auto &c : conds) {
        if (!c.empty()) nonempty.push_back(c);
    }
    return nonempty.empty() ? "" : " : " + fmt::format("{}", fmt::join(nonempty, " and "));
}

// Input index expressions of a view or elementwise consumer, in terms of its output vars o<k>.
std::vector<std::string> view_index(Text &t, const Node &c, std::vector<std::string> &extra) {
    const Shape &in = c.inputs[0].shape();
    const std::size_t r = c.shape.size();
    auto o = [](std::size_t k) { return "o" + std::to_string(k); };
    std::vector<std::string> j(in.size(), "0");
    switch (c.op) {
    case Op::Permute:
        for (std::size_t k = 0; k < r; ++k) j[c.axes[k]] = o(k);
        return j;
    case Op::Expand:
        for (std::size_t k = 0; k < r; ++k) j[k] = in[k] == Dim(1) ? "0" : o(k);
        return j;
    case Op::Slice:
        for (std::size_t k = 0; k < r; ++k) j[k] = fmt::format("{} + {}*{}", c.starts[k], c.steps[k], o(k));
        return j;
    case Op::Pad:
        for (std::size_t k = 0; k < r; ++k) {
            j[k] = fmt::format("{} - {}", o(k), c.pad_lo[k]);
            extra.push_back(fmt::format("{0} <= {1} < {0} + {2}", c.pad_lo[k], o(k), t.dim(in[k])));
        }
        return j;
    case Op::Window: {
        const std::size_t ax = c.axes[0];
        for (std::size_t k = 0; k < in.size(); ++k) {
            j[k] = k < ax ? o(k) : k == ax ? fmt::format("{}*{} + {}*{}", c.steps[0], o(k), c.steps[1], o(k + 1)) : o(k + 1);
        }
        return j;
    }
    case Op::Reshape: {
        auto segs = reshape_segments(in, c.shape);
        if (!segs) throw NotAffine{};
        auto constant = [](const Dim &d) {
            auto v = d.constant();
            if (!v) throw NotAffine{};   // isl cannot multiply or divide a variable by a parameter
            return *v;
        };
        return reshape_index<std::string>(
            in, c.shape, *segs,
            [&](const std::vector<std::pair<int, Dim>> &terms) {
                std::string lin;
                for (const auto &[k, st] : terms) lin += fmt::format("{}{}*{}", lin.empty() ? "" : " + ", constant(st), o(k));
                return lin.empty() ? std::string("0") : lin;
            },
            [&](const std::string &lin, const Dim &st, const Dim &extent, bool first) {
                std::string q = fmt::format("floor(({})/{})", lin, constant(st));
                return first ? q : fmt::format("({}) mod {}", q, constant(extent));
            },
            [] { return std::string("0"); });
    }
    default:
        if (is_elementwise(c.op)) {
            for (std::size_t k = 0; k < r; ++k) j[k] = o(k);
            return j;
        }
    }
    throw GraphError(fmt::format("grouping: unsupported view or op {} reading {}", c.label(), shape_str(in)));
}

}  // namespace

AccessModel::AccessModel() : ctx_(isl_ctx_alloc()) {}
AccessModel::~AccessModel() { isl_ctx_free(ctx_.release()); }

isl::set AccessModel::value_domain(const Node &n) {
    Text t;
    std::string body = Text::tuple(V(n), "o", n.shape.size()) + where_clause({t.inside(n.shape, "o")});
    return isl::set(ctx_, t.finish(body));
}

isl::map AccessModel::identity(const Node &n) {
    Text t;
    std::string tup = Text::tuple(V(n), "o", n.shape.size());
    return isl::map(ctx_, t.finish(tup + " -> " + tup + where_clause({t.inside(n.shape, "o")})));
}

isl::map AccessModel::produce(const Node &n, bool pin_reduction_axes) {
    if (!is_reduce(n.op)) return identity(n);
    Text t;
    const Shape &in = n.inputs[0].shape();
    std::vector<std::string> conds = {t.inside(in, "i")};
    for (std::size_t k = 0; k < in.size(); ++k) {
        bool reduced = std::find(n.axes.begin(), n.axes.end(), int(k)) != n.axes.end();
        conds.push_back(fmt::format("o{} = {}", k, reduced ? "0" : "i" + std::to_string(k)));
        if (reduced && pin_reduction_axes) conds.push_back(fmt::format("i{} = {}", k, t.param(fmt::format("R{}_{}", n.id, k))));
    }
    std::string body = Text::tuple(V(n), "o", n.shape.size()) + " -> " + Text::tuple(I(n), "i", in.size()) + where_clause(conds);
    return isl::map(ctx_, t.finish(body));
}

std::optional<isl::map> AccessModel::read(const Node &c, std::size_t k, bool pin) {
    const Node &p = c.inputs.at(k).node();
    Text t;
    if (c.op == Op::Gather) {
        std::vector<std::string> j, conds = {t.inside(c.shape, "o")};
        const std::size_t ax = c.axes[0];
        for (std::size_t m = 0; m < c.shape.size(); ++m) j.push_back(k == 0 && m == ax ? "g" : "o" + std::to_string(m));
        if (k == 0) {
            conds.push_back(fmt::format("0 <= g < {}", t.dim(p.shape[ax])));
            if (pin) conds.push_back(fmt::format("g = {}", t.param(fmt::format("G{}", c.id))));
        }
        // g names the output dim along the gathered axis: any row, or the pinned one.
        std::string body = Text::tuple(V(c), "o", c.shape.size()) + " -> " + Text::tuple(V(p), j) + where_clause(conds);
        return isl::map(ctx_, t.finish(body));
    }
    if (is_reduce(c.op)) {
        std::string body = Text::tuple(I(c), "i", p.shape.size()) + " -> " + Text::tuple(V(p), "i", p.shape.size()) +
                           where_clause({t.inside(p.shape, "i")});
        return isl::map(ctx_, t.finish(body));
    }
    try {
        std::vector<std::string> extra = {t.inside(c.shape, "o")};
        auto j = view_index(t, c, extra);
        std::string body = Text::tuple(V(c), "o", c.shape.size()) + " -> " + Text::tuple(V(p), j) + where_clause(extra);
        return isl::map(ctx_, t.finish(body));
    } catch (const NotAffine &) {
        return std::nullopt;
    }
}

std::optional<isl::map> compose_read(AccessModel &m, const isl::map &need_c, const Node &c, std::size_t k,
                                     bool pin_reduction_axes) {
    auto r = m.read(c, k, pin_reduction_axes);
    if (!r) return std::nullopt;
    return need_c.apply_range(m.produce(c, pin_reduction_axes)).apply_range(*r);
}

bool injective_at_level(const isl::map &need, int level) {
    const int r = isl_map_dim(need.get(), isl_dim_in);
    if (level >= r) return need.is_injective();
    isl::map prefix = isl::manage(isl_map_project_out(need.copy(), isl_dim_in, level, r - level));
    return prefix.is_injective();
}

std::optional<std::vector<std::vector<int64_t>>> affine_coefficients(const isl::map &map) {
    if (!map.is_single_valued()) return std::nullopt;
    const int n_in = isl_map_dim(map.get(), isl_dim_in), n_out = isl_map_dim(map.get(), isl_dim_out);
    isl_pw_multi_aff *pma = isl_pw_multi_aff_from_map(map.copy());
    struct State {
        int n_in, n_out;
        std::optional<std::vector<std::vector<int64_t>>> coeffs;
        bool ok = true;
    } st{n_in, n_out, std::nullopt, true};
    isl_pw_multi_aff_foreach_piece(
        pma,
        [](isl_set *set, isl_multi_aff *ma, void *user) -> isl_stat {
            auto &s = *static_cast<State *>(user);
            std::vector<std::vector<int64_t>> c(s.n_out, std::vector<int64_t>(s.n_in, 0));
            for (int m = 0; m < s.n_out && s.ok; ++m) {
                isl_aff *aff = isl_multi_aff_get_aff(ma, m);
                if (isl_aff_dim(aff, isl_dim_div) > 0) s.ok = false;
                for (int k = 0; k < s.n_in && s.ok; ++k) {
                    isl_val *v = isl_aff_get_coefficient_val(aff, isl_dim_in, k);
                    if (!isl_val_is_int(v)) s.ok = false;
                    else c[m][k] = isl_val_get_num_si(v);
                    isl_val_free(v);
                }
                isl_aff_free(aff);
            }
            if (s.coeffs && *s.coeffs != c) s.ok = false;
            s.coeffs = std::move(c);
            isl_set_free(set);
            isl_multi_aff_free(ma);
            return isl_stat_ok;
        },
        &st);
    isl_pw_multi_aff_free(pma);
    if (!st.ok) return std::nullopt;
    if (!st.coeffs) return std::vector<std::vector<int64_t>>(n_out, std::vector<int64_t>(n_in, 0));
    return st.coeffs;
}

}  // namespace halogen
