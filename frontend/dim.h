// A tensor dimension: a constant or a polynomial over named symbolic dims ("B", "2*S", "B*S").
// Symbolic dims are named when a graph is built and bound to numbers at run time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace halogen {

// Values for symbolic dims, by name.
using Bindings = std::map<std::string, int64_t>;

class Dim {
public:
    Dim(int64_t value = 0);                  // NOLINT: a number is a constant dim
    static Dim sym(const std::string &name); // a named symbolic dim

    bool is_constant() const;
    std::optional<int64_t> constant() const; // the value when the dim is a constant
    std::set<std::string> symbols() const;
    // The value under `b`; throws BindingError naming `what` when a symbol is unbound.
    int64_t eval(const Bindings &b, const std::string &what = "dim") const;
    std::string str() const;

    // Polynomial arithmetic; a coefficient beyond int64 is a ShapeError (no wrapping).
    Dim operator+(const Dim &o) const;
    Dim operator-(const Dim &o) const;
    Dim operator*(const Dim &o) const;
    // This dim divided by k when every coefficient is a multiple of k (32*C / 32 = C), else nullopt.
    std::optional<Dim> divided_by(int64_t k) const;
    bool operator==(const Dim &o) const { return terms_ == o.terms_; }
    bool operator!=(const Dim &o) const { return !(*this == o); }

    // Monomials (sorted symbol names, empty for the constant term) and their coefficients.
    const std::map<std::vector<std::string>, int64_t> &terms() const { return terms_; }

private:
    std::map<std::vector<std::string>, int64_t> terms_;
    void normalize();
};

using Shape = std::vector<Dim>;

std::string shape_str(const Shape &s);                 // "[B, 30]"
Dim numel(const Shape &s);                             // product of the dims
std::vector<int64_t> eval_shape(const Shape &s, const Bindings &b, const std::string &what);
std::set<std::string> shape_symbols(const Shape &s);

}  // namespace halogen
