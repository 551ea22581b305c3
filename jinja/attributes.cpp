// Attribute and item lookup, and the string and dict methods (attributes.h).
#include "jinja/attributes.h"

#include <algorithm>
#include <cstring>

#include "jinja/call_args.h"
#include "jinja/evaluator.h"
#include "jinja/string_methods.h"
#include "jinja/template_error.h"
#include "jinja/value_ops.h"

namespace halogen::jinja {

namespace {

using Kind = Value::Kind;

// Python's other str, dict and list methods: named in an error rather than left undefined.
const char *const kOtherStrMethods[] = {
    "casefold", "center", "encode", "expandtabs", "format", "format_map", "index", "isalnum", "isalpha",
    "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace",
    "istitle", "isupper", "ljust", "maketrans", "partition", "rfind", "rindex", "rjust", "rpartition",
    "splitlines", "swapcase", "translate", "zfill"};
const char *const kOtherDictMethods[] = {"clear", "copy", "fromkeys", "pop", "popitem", "setdefault", "update"};
const char *const kListMethods[] = {"append", "clear", "copy", "count", "extend", "index", "insert", "pop",
                                    "remove", "reverse", "sort"};

bool listed(const std::string &name, const char *const *begin, const char *const *end) {
    return std::any_of(begin, end, [&](const char *m) { return name == m; });
}

Value dict_method(const Value &obj, const std::string &name) {
    auto bound = [&](auto body) {
        return Value::function("dict." + name,
                               [obj, name, body](const CallArgs &args, Evaluator &ev, int) { return body(obj, name, args, ev); },
                               obj.depth() + 1);
    };
    if (name == "items")
        return bound([](const Value &d, const std::string &n, const CallArgs &args, Evaluator &ev) {
            BoundArgs bound_args(args, "dict." + n + "()", {});
            List out;
            for (const auto &[k, v] : d.as_dict().entries) out.push_back(Value::list({k, v}, true));
            ev.charge(static_cast<int64_t>(out.size()));
            return Value::list(std::move(out));
        });
    if (name == "keys" || name == "values")
        return bound([](const Value &d, const std::string &n, const CallArgs &args, Evaluator &ev) {
            BoundArgs bound_args(args, "dict." + n + "()", {});
            List out;
            for (const auto &[k, v] : d.as_dict().entries) out.push_back(n == "keys" ? k : v);
            ev.charge(static_cast<int64_t>(out.size()));
            return Value::list(std::move(out));
        });
    if (name == "get")
        return bound([](const Value &d, const std::string &, const CallArgs &args, Evaluator &) {
            BoundArgs a(args, "dict.get()", {"key", "default"});
            const Value *found = d.as_dict().find(a.get(0));
            return found ? *found : a.get_or(1, Value::none());
        });
    if (listed(name, std::begin(kOtherDictMethods), std::end(kOtherDictMethods)))
        throw TemplateError(0, "the dict method '" + name + "' is not supported (templates cannot change a dict)");
    return Value();   // not a method
}

Value attribute_of_kind(const Value &obj, const std::string &name, const Limits &limits, bool *found) {
    *found = true;
    switch (obj.kind()) {
    case Kind::String:
        if (is_string_method(name))
            return Value::function("str." + name,
                                   [obj, name](const CallArgs &args, Evaluator &ev, int) {
                                       return call_string_method(obj.as_string(), name, args, ev);
                                   },
                                   1);
        if (listed(name, std::begin(kOtherStrMethods), std::end(kOtherStrMethods)))
            throw TemplateError(0, "the string method '" + name + "' is not supported");
        break;
    case Kind::Dict: {
        Value m = dict_method(obj, name);
        if (m.is(Kind::Function)) return m;
        break;
    }
    case Kind::List:
        if (listed(name, std::begin(kListMethods), std::end(kListMethods)))
            throw TemplateError(0, "the list method '" + name + "' is not supported");
        break;
    default: break;
    }
    *found = false;
    return Value();
}

// Jinja's name of an object in its undefined messages: "'dict object'", "'None'".
std::string object_name(const Value &obj) {
    return obj.is_none() ? "'None'" : std::string("'") + type_name(obj) + " object'";
}

}  // namespace

Value get_attr(const Value &obj, const std::string &name, const Limits &limits) {
    if (obj.is_undefined()) fail_undefined(obj);
    bool found;
    Value method = attribute_of_kind(obj, name, limits, &found);
    if (found) return method;
    if (obj.is(Kind::Dict) || obj.is(Kind::Namespace)) {
        if (const Value *v = obj.as_dict().find(name)) return *v;
    }
    return Value::undefined(object_name(obj) + " has no attribute " + repr(Value::string(name), limits));
}

Value get_item(const Value &obj, const Value &key, const Limits &limits) {
    if (obj.is_undefined()) fail_undefined(obj);
    if (key.is_undefined() && !obj.is(Kind::Dict)) fail_undefined(key);
    switch (obj.kind()) {
    case Kind::Dict:
    case Kind::Namespace:
        if (const Value *v = obj.as_dict().find(key)) return *v;
        break;
    case Kind::List:
    case Kind::String:
        if (key.is_integral()) return index(obj, key.as_int());
        break;
    default: break;
    }
    if (key.is_string()) {
        bool found;
        Value method = attribute_of_kind(obj, key.as_string(), limits, &found);
        if (found) return method;
        return Value::undefined(object_name(obj) + " has no attribute " + repr(key, limits));
    }
    const std::string name = object_name(obj);
    return Value::undefined(name.substr(1, name.size() - 2) + " has no element " + repr(key, limits));
}

}  // namespace halogen::jinja
