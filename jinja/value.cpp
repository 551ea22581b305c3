// Value construction and the dict's lookups (value.h).
#include "jinja/value.h"

#include <algorithm>

#include "jinja/value_ops.h"

namespace halogen::jinja {

Value Value::undefined(std::string name) {
    Value v;
    v.s_ = std::move(name);
    return v;
}

Value Value::none() {
    Value v;
    v.kind_ = Kind::None;
    return v;
}

Value Value::boolean(bool b) {
    Value v;
    v.kind_ = Kind::Bool;
    v.b_ = b;
    return v;
}

Value Value::integer(int64_t i) {
    Value v;
    v.kind_ = Kind::Int;
    v.i_ = i;
    return v;
}

Value Value::number(double d) {
    Value v;
    v.kind_ = Kind::Float;
    v.f_ = d;
    return v;
}

Value Value::string(std::string s) {
    Value v;
    v.kind_ = Kind::String;
    v.s_ = std::move(s);
    return v;
}

Value Value::list(List items, bool tuple) {
    Value v;
    v.kind_ = Kind::List;
    v.tuple_ = tuple;
    int depth = 0;
    for (const Value &item : items) {
        depth = std::max(depth, item.depth_);
        v.holds_ns_ = v.holds_ns_ || item.holds_ns_;
    }
    v.depth_ = depth + 1;
    v.list_ = std::make_shared<const List>(std::move(items));
    return v;
}

Value Value::dict(Dict d) {
    Value v;
    v.kind_ = Kind::Dict;
    int depth = 0;
    for (const auto &[key, item] : d.entries) {
        depth = std::max({depth, key.depth_, item.depth_});
        v.holds_ns_ = v.holds_ns_ || item.holds_ns_;
    }
    v.depth_ = depth + 1;
    v.dict_ = std::make_shared<const Dict>(std::move(d));
    return v;
}

Value Value::ns(Dict attrs) {
    Value v;
    v.kind_ = Kind::Namespace;
    v.holds_ns_ = true;
    v.depth_ = 1;
    v.ns_ = std::make_shared<Dict>(std::move(attrs));
    v.dict_ = v.ns_;
    return v;
}

Value Value::function(std::string name, std::function<Value(const CallArgs &, Evaluator &, int)> call,
                      int depth) {
    Value v;
    v.kind_ = Kind::Function;
    v.depth_ = depth;
    v.fn_ = std::make_shared<const Function>(Function{std::move(name), std::move(call)});
    return v;
}

const Value *Dict::find(const Value &key) const {
    for (const auto &entry : entries)
        if (equals(entry.first, key)) return &entry.second;
    return nullptr;
}

const Value *Dict::find(const std::string &key) const {
    for (const auto &entry : entries)
        if (entry.first.is_string() && entry.first.as_string() == key) return &entry.second;
    return nullptr;
}

void Dict::set(Value key, Value value) {
    for (auto &entry : entries)
        if (equals(entry.first, key)) {
            entry.second = std::move(value);
            return;
        }
    entries.emplace_back(std::move(key), std::move(value));
}

const char *type_name(const Value &v) {
    switch (v.kind()) {
    case Value::Kind::Undefined: return "Undefined";
    case Value::Kind::None: return "NoneType";
    case Value::Kind::Bool: return "bool";
    case Value::Kind::Int: return "int";
    case Value::Kind::Float: return "float";
    case Value::Kind::String: return "str";
    case Value::Kind::List: return v.is_tuple() ? "tuple" : "list";
    case Value::Kind::Dict: return "dict";
    case Value::Kind::Namespace: return "Namespace";
    case Value::Kind::Function: return "function";
    }
    return "?";
}

}  // namespace halogen::jinja
