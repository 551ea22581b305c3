// Typed access to the fields of one JSON object of a graph file (a node, or the document), for the
// reader in graph_json.cpp. Each getter checks the field's JSON type and range before anything is
// built from it; a bad field is a FieldError (a GraphError) naming the object and the field:
// "graph: node 3 (sum): field 'axes' entry 0 must be an integer in [-2147483648, 2147483647], got 1.5".
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "frontend/dim.h"
#include "frontend/dtype.h"
#include "frontend/errors.h"

namespace halogen::graph_json {

using json = nlohmann::json;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr std::size_t kMaxRank = 64;   // axes of a shape, as the .npy reader allows

// A malformed field: a GraphError whose message already names the object and the field.
struct FieldError : GraphError {
    using GraphError::GraphError;
};

// A JSON value as a message shows it: a scalar as written (ASCII, a string quoted and escaped, cut
// at 40 characters), a container by its kind ("an array of 3").
std::string shown(const json &v);

// A name from the file (an op, a field) as a message shows it: as is when it is an identifier,
// else as shown() shows the string, quoted and escaped, so that a message stays one line.
std::string shown_name(const std::string &s);

// Names (an input's, a symbolic extent's) are identifiers: a letter or '_', then letters, digits
// or '_'. They appear in shapes ("B*S"), messages and isl's text, where anything else would be
// read as something else.
bool is_identifier(const std::string &s);

// One JSON object, read field by field; `who` names it in messages ("node 3 (add)").
class Fields {
public:
    Fields(const json &j, std::string who) : j_(j), who_(std::move(who)) {}
    const std::string &who() const { return who_; }

    [[noreturn]] void fail(const std::string &field, const std::string &problem) const;
    const json *find(const std::string &field) const;   // nullptr when absent
    const json &need(const std::string &field) const;
    const json &array(const std::string &field) const;

    // JSON integers (2.0 is not one) within [lo, hi]; `_or` gives `fallback` when the field is absent.
    int64_t integer(const std::string &field, int64_t lo, int64_t hi) const;
    int64_t integer_or(const std::string &field, int64_t fallback, int64_t lo, int64_t hi) const;
    std::vector<int64_t> integers(const std::string &field, int64_t lo, int64_t hi) const;
    // An axis or axes: int32, negative counting from the end (the builders check the rank).
    int axis(const std::string &field) const;
    std::vector<int> axes(const std::string &field) const;

    std::string name(const std::string &field) const;   // an identifier
    DType dtype(const std::string &field) const;        // "float32", "int32" or "bool"
    Shape shape(const std::string &field) const;        // extents >= 0 and symbols' names, <= kMaxRank
    // A number to be stored as an element of type `t`: exactly (int32: an integer; bool: true,
    // false, 0 or 1) or within range (float32).
    double value(const std::string &field, DType t) const;
    double value_or(const std::string &field, double fallback, DType t) const;

private:
    const json &j_;
    std::string who_;

    int64_t integer_in(const json &v, const std::string &field, const std::string &entry, int64_t lo, int64_t hi) const;
    double value_in(const json &v, const std::string &field, DType t) const;
};

}  // namespace halogen::graph_json
