// Field getters of graph files: JSON types and ranges checked, errors naming the object and field.
#include "formats/graph_json_fields.h"

#include <cctype>
#include <cfloat>
#include <cmath>

#include <fmt/format.h>

namespace halogen::graph_json {

namespace {

bool out_of_int64(const json &v) {
    return v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(kInt64Max);
}

}  // namespace

std::string shown(const json &v) {
    if (v.is_array()) return fmt::format("an array of {}", v.size());
    if (v.is_object()) return "an object";
    std::string s = v.dump(-1, ' ', true, json::error_handler_t::replace);
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

std::string shown_name(const std::string &s) { return is_identifier(s) ? s : shown(json(s)); }

bool is_identifier(const std::string &s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    }
    return true;
}

void Fields::fail(const std::string &field, const std::string &problem) const {
    throw FieldError(fmt::format("graph: {}: field '{}' {}", who_, shown_name(field), problem));
}

const json *Fields::find(const std::string &field) const {
    auto it = j_.find(field);
    return it == j_.end() ? nullptr : &*it;
}

const json &Fields::need(const std::string &field) const {
    if (const json *v = find(field)) return *v;
    fail(field, "is missing");
}

const json &Fields::array(const std::string &field) const {
    const json &v = need(field);
    if (!v.is_array()) fail(field, fmt::format("must be an array, got {}", shown(v)));
    return v;
}

int64_t Fields::integer(const std::string &field, int64_t lo, int64_t hi) const {
    return integer_in(need(field), field, "", lo, hi);
}

int64_t Fields::integer_or(const std::string &field, int64_t fallback, int64_t lo, int64_t hi) const {
    const json *v = find(field);
    return v ? integer_in(*v, field, "", lo, hi) : fallback;
}

std::vector<int64_t> Fields::integers(const std::string &field, int64_t lo, int64_t hi) const {
    const json &v = array(field);
    std::vector<int64_t> out;
    for (std::size_t k = 0; k < v.size(); ++k) out.push_back(integer_in(v[k], field, fmt::format("entry {} ", k), lo, hi));
    return out;
}

int Fields::axis(const std::string &field) const { return static_cast<int>(integer(field, kInt32Min, kInt32Max)); }

std::vector<int> Fields::axes(const std::string &field) const {
    std::vector<int> out;
    for (int64_t a : integers(field, kInt32Min, kInt32Max)) out.push_back(static_cast<int>(a));
    return out;
}

std::string Fields::name(const std::string &field) const {
    const json &v = need(field);
    if (!v.is_string() || !is_identifier(v.get<std::string>())) {
        fail(field, fmt::format("must be a name (a letter or '_', then letters, digits or '_'), got {}", shown(v)));
    }
    return v.get<std::string>();
}

DType Fields::dtype(const std::string &field) const {
    const json &v = need(field);
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "float32") return DType::Float32;
        if (s == "int32") return DType::Int32;
        if (s == "bool") return DType::Bool;
        if (s == "bfloat16") return DType::BFloat16;
    }
    fail(field, fmt::format("must be \"float32\", \"int32\", \"bool\" or \"bfloat16\", got {}", shown(v)));
}

Shape Fields::shape(const std::string &field) const {
    const json &v = array(field);
    if (v.size() > kMaxRank) fail(field, fmt::format("has {} axes, more than {}", v.size(), kMaxRank));
    Shape s;
    for (std::size_t k = 0; k < v.size(); ++k) {
        const json &d = v[k];
        if (d.is_string() && is_identifier(d.get<std::string>())) {
            s.push_back(Dim::sym(d.get<std::string>()));
        } else if (d.is_number_integer() && !out_of_int64(d) && d.get<int64_t>() >= 0) {
            s.push_back(Dim(d.get<int64_t>()));
        } else {
            fail(field, fmt::format("entry {} must be an integer in [0, {}] or a symbol's name, got {}", k, kInt64Max,
                                    shown(d)));
        }
    }
    return s;
}

double Fields::value(const std::string &field, DType t) const { return value_in(need(field), field, t); }

double Fields::value_or(const std::string &field, double fallback, DType t) const {
    const json *v = find(field);
    return v ? value_in(*v, field, t) : fallback;
}

int64_t Fields::integer_in(const json &v, const std::string &field, const std::string &entry, int64_t lo,
                           int64_t hi) const {
    const bool ok = v.is_number_integer() && !out_of_int64(v) && v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
    if (!ok) fail(field, fmt::format("{}must be an integer in [{}, {}], got {}", entry, lo, hi, shown(v)));
    return v.get<int64_t>();
}

double Fields::value_in(const json &v, const std::string &field, DType t) const {
    if (t == DType::Bool && v.is_boolean()) return v.get<bool>() ? 1 : 0;
    const double x = v.is_number() ? v.get<double>() : std::nan("");
    if (t == DType::Float32 && v.is_number() && std::fabs(x) <= FLT_MAX) return x;
    if (t == DType::Int32 && v.is_number() && x == std::trunc(x) && x >= kInt32Min && x <= kInt32Max) return x;
    if (t == DType::Bool && (x == 0 || x == 1)) return x;
    const char *want = t == DType::Float32 ? "a number within float32's range"
                       : t == DType::Int32 ? "an integer in [-2147483648, 2147483647]"
                                           : "true, false, 0 or 1";
    fail(field, fmt::format("must be {} for {}, got {}", want, dtype_name(t), shown(v)));
}

}  // namespace halogen::graph_json
