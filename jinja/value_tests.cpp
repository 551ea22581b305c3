// The tests (value_tests.h), each as Jinja 3.1 defines it.
#include "jinja/value_tests.h"

#include <algorithm>
#include <map>

#include "jinja/call_args.h"
#include "jinja/filters.h"
#include "jinja/template_error.h"
#include "jinja/utf8.h"
#include "jinja/value_ops.h"

namespace halogen::jinja {

namespace {

using Kind = Value::Kind;
using TestFn = bool (*)(const Value &v, const BoundArgs &args, Evaluator &ev);

bool kind_in(const Value &v, std::initializer_list<Kind> kinds) {
    return std::find(kinds.begin(), kinds.end(), v.kind()) != kinds.end();
}

bool is_lower_text(const std::string &s) {
    bool cased = false;
    for (size_t pos = 0; pos < s.size();) {
        const char32_t c = utf8::next(s, pos);
        if (utf8::is_cased_upper(c)) return false;
        cased = cased || utf8::is_cased_lower(c);
    }
    return cased;
}

bool is_upper_text(const std::string &s) {
    bool cased = false;
    for (size_t pos = 0; pos < s.size();) {
        const char32_t c = utf8::next(s, pos);
        if (utf8::is_cased_lower(c)) return false;
        cased = cased || utf8::is_cased_upper(c);
    }
    return cased;
}

bool same_as(const Value &a, const Value &b) {
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
    case Kind::None: case Kind::Undefined: return true;
    case Kind::Bool: return a.as_bool() == b.as_bool();
    case Kind::Int: return a.as_int() == b.as_int() && a.as_int() >= -5 && a.as_int() <= 256;   // Python's cached ints
    case Kind::List: return &a.as_list() == &b.as_list();
    case Kind::Dict: case Kind::Namespace: return &a.as_dict() == &b.as_dict();
    case Kind::Function: return &a.as_function() == &b.as_function();
    default: return false;
    }
}

bool number_mod(const Value &v, const Value &m, Evaluator &ev, int64_t want) {
    const Value r = binary(BinaryOp::Mod, v, m, ev.limits());
    return equals(r, Value::integer(want));
}

const std::map<std::string, std::pair<TestFn, std::vector<const char *>>> &test_table() {
    static const std::map<std::string, std::pair<TestFn, std::vector<const char *>>> table = {
        {"defined", {[](const Value &v, const BoundArgs &, Evaluator &) { return !v.is_undefined(); }, {}}},
        {"undefined", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is_undefined(); }, {}}},
        {"none", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is_none(); }, {}}},
        {"boolean", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is(Kind::Bool); }, {}}},
        {"true", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is(Kind::Bool) && v.as_bool(); }, {}}},
        {"false", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is(Kind::Bool) && !v.as_bool(); }, {}}},
        {"integer", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is(Kind::Int); }, {}}},
        {"float", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is(Kind::Float); }, {}}},
        {"number", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is_number(); }, {}}},
        {"string", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is_string(); }, {}}},
        {"mapping", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is(Kind::Dict); }, {}}},
        {"iterable", {[](const Value &v, const BoundArgs &, Evaluator &) {
             return kind_in(v, {Kind::Undefined, Kind::String, Kind::List, Kind::Dict});
         }, {}}},
        {"sequence", {[](const Value &v, const BoundArgs &, Evaluator &) {
             return kind_in(v, {Kind::Undefined, Kind::String, Kind::List, Kind::Dict});
         }, {}}},
        {"callable", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is(Kind::Function); }, {}}},
        {"escaped", {[](const Value &, const BoundArgs &, Evaluator &) { return false; }, {}}},
        {"sameas", {[](const Value &v, const BoundArgs &a, Evaluator &) { return same_as(v, a.get(0)); }, {"other"}}},
        {"eq", {[](const Value &v, const BoundArgs &a, Evaluator &) { return equals(v, a.get(0)); }, {"other"}}},
        {"ne", {[](const Value &v, const BoundArgs &a, Evaluator &) { return !equals(v, a.get(0)); }, {"other"}}},
        {"lt", {[](const Value &v, const BoundArgs &a, Evaluator &) { return order(v, a.get(0), "<") == -1; }, {"other"}}},
        {"le", {[](const Value &v, const BoundArgs &a, Evaluator &) {
             const int o = order(v, a.get(0), "<=");
             return o == -1 || o == 0;
         }, {"other"}}},
        {"gt", {[](const Value &v, const BoundArgs &a, Evaluator &) { return order(v, a.get(0), ">") == 1; }, {"other"}}},
        {"ge", {[](const Value &v, const BoundArgs &a, Evaluator &) {
             const int o = order(v, a.get(0), ">=");
             return o == 1 || o == 0;
         }, {"other"}}},
        {"in", {[](const Value &v, const BoundArgs &a, Evaluator &) { return contains(a.get(0), v); }, {"seq"}}},
        {"odd", {[](const Value &v, const BoundArgs &, Evaluator &ev) { return number_mod(v, Value::integer(2), ev, 1); }, {}}},
        {"even", {[](const Value &v, const BoundArgs &, Evaluator &ev) { return number_mod(v, Value::integer(2), ev, 0); }, {}}},
        {"divisibleby", {[](const Value &v, const BoundArgs &a, Evaluator &ev) { return number_mod(v, a.get(0), ev, 0); }, {"num"}}},
        {"lower", {[](const Value &v, const BoundArgs &, Evaluator &ev) { return is_lower_text(to_str(v, ev.limits())); }, {}}},
        {"upper", {[](const Value &v, const BoundArgs &, Evaluator &ev) { return is_upper_text(to_str(v, ev.limits())); }, {}}},
        {"filter", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is_string() && is_filter(v.as_string()); }, {}}},
        {"test", {[](const Value &v, const BoundArgs &, Evaluator &) { return v.is_string() && is_test(v.as_string()); }, {}}},
    };
    return table;
}

// Jinja's aliases of the comparison tests.
std::string canonical(const std::string &name) {
    static const std::map<std::string, std::string> aliases = {
        {"equalto", "eq"}, {"==", "eq"}, {"!=", "ne"}, {"lessthan", "lt"}, {"<", "lt"}, {"<=", "le"},
        {"greaterthan", "gt"}, {">", "gt"}, {">=", "ge"}};
    const auto it = aliases.find(name);
    return it == aliases.end() ? name : it->second;
}

}  // namespace

bool is_test(const std::string &name) { return test_table().count(canonical(name)) != 0; }

std::string unknown_test_message(const std::string &name) { return "no test named " + repr(Value::string(name), Limits{}); }

bool run_test(const std::string &name, const Value &input, const CallArgs &args, Evaluator &ev) {
    ev.charge(1);
    const auto it = test_table().find(canonical(name));
    if (it == test_table().end()) throw TemplateError(0, unknown_test_message(name));
    const BoundArgs bound(args, "the test '" + name + "'", it->second.second);
    return it->second.first(input, bound, ev);
}

}  // namespace halogen::jinja
