// Symbolic dimension arithmetic: polynomials with integer coefficients.
#include "frontend/dim.h"

#include <algorithm>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

namespace {

// Coefficient arithmetic is checked: a coefficient beyond int64 is a ShapeError naming the
// operands, never a wrapped (and undefined) value such as 2^40 * 2^40 = 0.
[[noreturn]] void overflow(const Dim &a, const char *op, const Dim &b) {
    throw ShapeError(fmt::format("dim: ({}) {} ({}) overflows int64", a.str(), op, b.str()));
}

}  // namespace

Dim::Dim(int64_t value) {
    if (value != 0) terms_[{}] = value;
}

Dim Dim::sym(const std::string &name) {
    Dim d;
    d.terms_[{name}] = 1;
    return d;
}

void Dim::normalize() {
    for (auto it = terms_.begin(); it != terms_.end();) {
        it = it->second == 0 ? terms_.erase(it) : std::next(it);
    }
}

bool Dim::is_constant() const {
    return terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty());
}

std::optional<int64_t> Dim::constant() const {
    if (!is_constant()) return std::nullopt;
    return terms_.empty() ? 0 : terms_.begin()->second;
}

std::set<std::string> Dim::symbols() const {
    std::set<std::string> out;
    for (const auto &[mono, coeff] : terms_) out.insert(mono.begin(), mono.end());
    return out;
}

int64_t Dim::eval(const Bindings &b, const std::string &what) const {
    int64_t total = 0;
    for (const auto &[mono, coeff] : terms_) {
        int64_t v = coeff;
        for (const auto &s : mono) {
            auto it = b.find(s);
            if (it == b.end()) {
                throw BindingError(fmt::format("{}: symbolic dim '{}' is not bound", what, s));
            }
            v *= it->second;
        }
        total += v;
    }
    return total;
}

std::string Dim::str() const {
    if (terms_.empty()) return "0";
    std::string out;
    // Highest-degree monomials first, the constant last: "B*S + 2".
    std::vector<std::pair<std::vector<std::string>, int64_t>> ordered(terms_.begin(), terms_.end());
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
    for (const auto &[mono, coeff] : ordered) {
        int64_t c = coeff;
        if (!out.empty()) {
            out += c < 0 ? " - " : " + ";
            c = c < 0 ? -c : c;
        }
        std::string m;
        for (const auto &s : mono) m += (m.empty() ? "" : "*") + s;
        if (m.empty()) {
            out += std::to_string(c);
        } else {
            out += (c == 1 ? "" : c == -1 ? "-" : std::to_string(c) + "*") + m;
        }
    }
    return out;
}

Dim Dim::operator+(const Dim &o) const {
    Dim r = *this;
    for (const auto &[mono, coeff] : o.terms_) {
        int64_t &c = r.terms_[mono];
        if (__builtin_add_overflow(c, coeff, &c)) overflow(*this, "+", o);
    }
    r.normalize();
    return r;
}

Dim Dim::operator-(const Dim &o) const {
    Dim r = *this;
    for (const auto &[mono, coeff] : o.terms_) {
        int64_t &c = r.terms_[mono];
        if (__builtin_sub_overflow(c, coeff, &c)) overflow(*this, "-", o);
    }
    r.normalize();
    return r;
}

Dim Dim::operator*(const Dim &o) const {
    Dim r;
    for (const auto &[ma, ca] : terms_) {
        for (const auto &[mb, cb] : o.terms_) {
            std::vector<std::string> m = ma;
            m.insert(m.end(), mb.begin(), mb.end());
            std::sort(m.begin(), m.end());
            int64_t p = 0;
            int64_t &c = r.terms_[m];
            if (__builtin_mul_overflow(ca, cb, &p) || __builtin_add_overflow(c, p, &c)) overflow(*this, "*", o);
        }
    }
    r.normalize();
    return r;
}

std::optional<Dim> Dim::divided_by(int64_t k) const {
    if (k == 0) return std::nullopt;
    Dim r;
    for (const auto &[mono, coeff] : terms_) {
        if (coeff % k != 0) return std::nullopt;
        r.terms_[mono] = coeff / k;
    }
    return r;
}

std::string shape_str(const Shape &s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + s[i].str();
    return out + "]";
}

Dim numel(const Shape &s) {
    Dim n = 1;
    for (const auto &d : s) n = n * d;
    return n;
}

std::vector<int64_t> eval_shape(const Shape &s, const Bindings &b, const std::string &what) {
    std::vector<int64_t> out;
    for (const auto &d : s) {
        int64_t v = d.eval(b, what);
        if (v < 0) {
            throw BindingError(fmt::format("{}: shape {} has a negative extent {} under the bindings",
                                           what, shape_str(s), v));
        }
        out.push_back(v);
    }
    return out;
}

std::set<std::string> shape_symbols(const Shape &s) {
    std::set<std::string> out;
    for (const auto &d : s) {
        auto syms = d.symbols();
        out.insert(syms.begin(), syms.end());
    }
    return out;
}

}  // namespace halogen
