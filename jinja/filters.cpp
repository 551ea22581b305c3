// The filters (filters.h), each as Jinja 3.1 defines it; tojson as Hugging Face's chat
// templates define it (json.dumps(x, ensure_ascii=False, indent=None, separators=None,
// sort_keys=False)).
#include "jinja/filters.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>

#include "jinja/attributes.h"
#include "jinja/call_args.h"
#include "jinja/json_values.h"
#include "jinja/string_methods.h"
#include "jinja/template_error.h"
#include "jinja/utf8.h"
#include "jinja/value_ops.h"
#include "jinja/value_tests.h"

namespace halogen::jinja {

namespace {

using Kind = Value::Kind;
using FilterFn = Value (*)(const Value &input, const BoundArgs &args, Evaluator &ev);

// Jinja's other built-in filters: named as not supported.
const char *const kOtherFilters[] = {"batch", "center", "dictsort", "e", "escape", "filesizeformat", "forceescape",
                                     "format", "groupby", "indent", "max", "min", "pprint", "random", "round",
                                     "slice", "sort", "striptags", "truncate", "urlencode", "urlize", "wordcount",
                                     "wordwrap", "xmlattr"};

std::string str(const Value &v, Evaluator &ev) { return to_str(v, ev.limits()); }

List items_of(const Value &v, Evaluator &ev) {
    if (v.is(Kind::Namespace) || v.is(Kind::Function) || v.is_number() || v.is_none())
        throw TemplateError(0, std::string("'") + type_name(v) + "' object is not iterable");
    List items = iterate(v);
    ev.charge(static_cast<int64_t>(items.size()));
    return items;
}

// Python's int(text, base): spaces around, a sign, a prefix (0x, 0o, 0b) that base 0 reads and
// bases 16, 8 and 2 allow, digits with single underscores between them. False where Python
// raises ValueError, or past 64 bits.
bool parse_int(const std::string &text, int base, int64_t &out) {
    const std::string s = py_strip(text, Value::none(), StripSide::Both);
    size_t i = 0;
    const bool negative = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const char p = i + 1 < s.size() && s[i] == '0' ? static_cast<char>(s[i + 1] | 0x20) : 0;
    const int prefixed = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    bool after_prefix = false;
    if (prefixed && (base == 0 || base == prefixed)) {
        base = prefixed;
        i += 2;
        after_prefix = true;
    } else if (base == 0) {
        base = 10;
        for (size_t k = i; k < s.size() && s[k] != '_'; ++k)   // base 0 refuses leading zeros ("012")
            if (s[k] != '0') {
                if (s[i] == '0') return false;
                break;
            }
    }
    std::string digits;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '_') {
            if ((digits.empty() && !after_prefix) || i + 1 >= s.size() || s[i + 1] == '_') return false;
            continue;
        }
        const int d = (c >= '0' && c <= '9') ? c - '0' : ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ? (c | 0x20) - 'a' + 10 : 99;
        if (d >= base) return false;
        digits += c;
    }
    if (digits.empty()) return false;
    errno = 0;
    char *end = nullptr;
    const unsigned long long v = std::strtoull(digits.c_str(), &end, base);
    if (*end != '\0' || errno == ERANGE || v > (negative ? 9223372036854775808ULL : 9223372036854775807ULL)) return false;
    out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
    return true;
}

bool parse_float(const std::string &text, double &out) {
    const std::string s = py_strip(text, Value::none(), StripSide::Both);
    if (s.empty()) return false;
    for (char c : s)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' ||
              std::isalpha(static_cast<unsigned char>(c))))
            return false;
    char *end = nullptr;
    out = std::strtod(s.c_str(), &end);
    if (*end != '\0') return false;
    const std::string lower = py_lower(s);
    if (lower.find("x") != std::string::npos || lower.find('p') != std::string::npos) return false;   // no hex floats
    if (std::isnan(out) && lower.find("nan") == std::string::npos) return false;
    return true;
}

Value filter_abs(const Value &v, const BoundArgs &, Evaluator &) {
    if (v.is_integral()) {
        if (v.as_int() == INT64_MIN) throw TemplateError(0, "abs(): the result does not fit in 64 bits");
        return Value::integer(std::llabs(v.as_int()));
    }
    if (v.is(Kind::Float)) return Value::number(std::fabs(v.as_float()));
    if (v.is_undefined()) fail_undefined(v);
    throw TemplateError(0, std::string("bad operand type for abs(): '") + type_name(v) + "'");
}

Value filter_attr(const Value &v, const BoundArgs &a, Evaluator &ev) {
    const Value &name = a.get(0);
    if (!name.is_string()) throw TemplateError(0, "the filter 'attr' takes a string name");
    return get_attr(v, name.as_string(), ev.limits());
}

Value filter_capitalize(const Value &v, const BoundArgs &, Evaluator &ev) { return Value::string(py_capitalize(str(v, ev))); }
Value filter_lower(const Value &v, const BoundArgs &, Evaluator &ev) { return Value::string(py_lower(str(v, ev))); }
Value filter_upper(const Value &v, const BoundArgs &, Evaluator &ev) { return Value::string(py_upper(str(v, ev))); }
Value filter_string(const Value &v, const BoundArgs &, Evaluator &ev) { return Value::string(str(v, ev)); }
Value filter_length(const Value &v, const BoundArgs &, Evaluator &) { return Value::integer(length(v)); }

Value filter_title(const Value &v, const BoundArgs &, Evaluator &ev) {
    // Jinja's title: words begin after '-', whitespace, '(', '{', '[' or '<'.
    const std::string s = str(v, ev);
    std::string out;
    bool word_start = true;
    for (size_t pos = 0; pos < s.size();) {
        const char32_t c = utf8::next(s, pos);
        const bool separator = utf8::is_space(c) || c == '-' || c == '(' || c == '{' || c == '[' || c == '<';
        utf8::append(out, separator ? c : (word_start ? utf8::to_upper(c) : utf8::to_lower(c)));
        word_start = separator;
    }
    return Value::string(std::move(out));
}

Value filter_default(const Value &v, const BoundArgs &a, Evaluator &) {
    const bool boolean = truthy(a.get_or(1, Value::boolean(false)));
    if (v.is_undefined() || (boolean && !truthy(v))) return a.get_or(0, Value::string(""));
    return v;
}

Value filter_first(const Value &v, const BoundArgs &, Evaluator &ev) {
    const List items = items_of(v, ev);
    return items.empty() ? Value::undefined("No first item, sequence was empty.") : items.front();
}

Value filter_last(const Value &v, const BoundArgs &, Evaluator &ev) {
    const List items = items_of(v, ev);
    return items.empty() ? Value::undefined("No last item, sequence was empty.") : items.back();
}

Value filter_int(const Value &v, const BoundArgs &a, Evaluator &) {
    const Value fallback = a.get_or(0, Value::integer(0));
    const Value base = a.get_or(1, Value::integer(10));
    if (v.is_integral()) return Value::integer(v.as_int());
    double d = 0;
    if (v.is_string()) {
        // Python's int(text, base); a base it refuses falls through to float(text), as in Jinja.
        int64_t i;
        const bool base_ok = base.is_integral() && (base.as_int() == 0 || (base.as_int() >= 2 && base.as_int() <= 36));
        if (base_ok && parse_int(v.as_string(), static_cast<int>(base.as_int()), i)) return Value::integer(i);
        if (!parse_float(v.as_string(), d)) return fallback;
    } else if (v.is(Kind::Float)) {
        d = v.as_float();
    } else {
        return fallback;
    }
    if (std::isnan(d)) return fallback;
    if (std::isinf(d) || std::fabs(d) >= 9.2e18) throw TemplateError(0, "int(): " + py_float_repr(d) + " does not fit in 64 bits");
    return Value::integer(static_cast<int64_t>(d));
}

Value filter_float(const Value &v, const BoundArgs &a, Evaluator &) {
    const Value fallback = a.get_or(0, Value::number(0.0));
    if (v.is_number()) return Value::number(v.as_float());
    double d;
    if (v.is_string() && parse_float(v.as_string(), d)) return Value::number(d);
    return fallback;
}

Value filter_items(const Value &v, const BoundArgs &, Evaluator &ev) {
    if (v.is_undefined()) return Value::list({});
    if (!v.is(Kind::Dict)) throw TemplateError(0, "Can only get item pairs from a mapping.");
    List out;
    for (const auto &[k, item] : v.as_dict().entries) out.push_back(Value::list({k, item}, true));
    ev.charge(static_cast<int64_t>(out.size()));
    return Value::list(std::move(out));
}

Value filter_join(const Value &v, const BoundArgs &a, Evaluator &ev) {
    const std::string sep = str(a.get_or(0, Value::string("")), ev);
    const Value attribute = a.get_or(1, Value::none());
    std::string out;
    bool first = true;
    for (const Value &item : items_of(v, ev)) {
        if (!first) out += sep;
        first = false;
        out += str(attribute.is_none() ? item : attribute_of(item, attribute_path(attribute, ev), ev.limits()), ev);
        check_string_size(out.size(), ev.limits());
    }
    ev.charge(static_cast<int64_t>(out.size() / 64));
    return Value::string(std::move(out));
}

Value filter_list(const Value &v, const BoundArgs &, Evaluator &ev) { return Value::list(items_of(v, ev)); }

Value filter_reverse(const Value &v, const BoundArgs &, Evaluator &ev) {
    if (v.is_string()) {
        std::vector<char32_t> chars = utf8::decode(v.as_string());
        std::reverse(chars.begin(), chars.end());
        return Value::string(utf8::encode(chars, 0, chars.size()));
    }
    List items = items_of(v, ev);
    std::reverse(items.begin(), items.end());
    return Value::list(std::move(items));
}

Value filter_replace(const Value &v, const BoundArgs &a, Evaluator &ev) {
    const Value count = a.get_or(2, Value::none());
    if (!count.is_none() && !count.is_integral()) throw TemplateError(0, "the filter 'replace' takes an integer count");
    return Value::string(py_replace(str(v, ev), str(a.get(0), ev), str(a.get(1), ev),
                                    count.is_none() ? -1 : count.as_int(), ev.limits()));
}

Value filter_trim(const Value &v, const BoundArgs &a, Evaluator &ev) {
    return Value::string(py_strip(str(v, ev), a.get_or(0, Value::none()), StripSide::Both));
}

Value filter_sum(const Value &v, const BoundArgs &a, Evaluator &ev) {
    const Value attribute = a.get_or(0, Value::none());
    Value total = a.get_or(1, Value::integer(0));
    for (const Value &item : items_of(v, ev))
        total = binary(BinaryOp::Add, total, attribute.is_none() ? item : attribute_of(item, attribute_path(attribute, ev), ev.limits()),
                       ev.limits());
    return total;
}

Value filter_unique(const Value &v, const BoundArgs &a, Evaluator &ev) {
    const bool case_sensitive = truthy(a.get_or(0, Value::boolean(false)));
    const Value attribute = a.get_or(1, Value::none());
    List out, seen;
    for (const Value &item : items_of(v, ev)) {
        Value key = attribute.is_none() ? item : attribute_of(item, attribute_path(attribute, ev), ev.limits());
        if (key.is_string() && !case_sensitive) key = Value::string(py_lower(key.as_string()));
        ev.charge(static_cast<int64_t>(seen.size()));
        if (std::any_of(seen.begin(), seen.end(), [&](const Value &s) { return equals(s, key); })) continue;
        seen.push_back(key);
        out.push_back(item);
    }
    return Value::list(std::move(out));
}

Value filter_tojson(const Value &v, const BoundArgs &a, Evaluator &ev) {
    JsonStyle style;
    style.ensure_ascii = truthy(a.get_or(0, Value::boolean(false)));
    const Value indent = a.get_or(1, Value::none());
    if (indent.is_integral()) style.indent = std::string(static_cast<size_t>(std::clamp<int64_t>(indent.as_int(), 0, 256)), ' ');
    else if (indent.is_string()) style.indent = indent.as_string();
    else if (!indent.is_none()) throw TemplateError(0, "tojson(): indent must be an integer or a string");
    const Value separators = a.get_or(2, Value::none());
    if (!separators.is_none()) {
        if (!separators.is(Kind::List) || separators.as_list().size() != 2 || !separators.as_list()[0].is_string() ||
            !separators.as_list()[1].is_string())
            throw TemplateError(0, "tojson(): separators must be a pair of strings");
        style.item_separator = separators.as_list()[0].as_string();
        style.key_separator = separators.as_list()[1].as_string();
    }
    style.sort_keys = truthy(a.get_or(3, Value::boolean(false)));
    std::string text = to_json(v, style, ev.limits());
    ev.charge(static_cast<int64_t>(text.size() / 64));
    return Value::string(std::move(text));
}

// select / reject: the items for which the test (truth, when none is named) holds, or does not.
Value select_items(const Value &v, const CallArgs &args, Evaluator &ev, bool keep, bool by_attribute, const char *filter) {
    CallArgs rest;
    rest.keyword = args.keyword;
    size_t next = 0;
    std::string attribute;
    if (by_attribute) {
        if (args.positional.empty()) throw TemplateError(0, std::string("the filter '") + filter + "' needs an attribute name");
        attribute = attribute_path(args.positional[0], ev);
        next = 1;
    }
    std::string test;
    if (next < args.positional.size()) {
        if (!args.positional[next].is_string()) throw TemplateError(0, std::string("the filter '") + filter + "' needs a test name");
        test = args.positional[next].as_string();
        if (!is_test(test)) throw TemplateError(0, unknown_test_message(test));
        rest.positional.assign(args.positional.begin() + static_cast<std::ptrdiff_t>(next) + 1, args.positional.end());
    }
    List out;
    for (const Value &item : items_of(v, ev)) {
        const Value subject = by_attribute ? attribute_of(item, attribute, ev.limits()) : item;
        const bool holds = test.empty() ? truthy(subject) : run_test(test, subject, rest, ev);
        if (holds == keep) out.push_back(item);
    }
    return Value::list(std::move(out));
}

Value map_items(const Value &v, const CallArgs &args, Evaluator &ev, int line) {
    List out;
    const List items = items_of(v, ev);
    if (args.positional.empty()) {
        BoundArgs a(args, "the filter 'map'", {"attribute", "default"});
        const Value &attribute = a.get(0);
        const std::string path = attribute_path(attribute, ev);
        for (const Value &item : items) {
            Value got = attribute_of(item, path, ev.limits());
            out.push_back(got.is_undefined() && a.has(1) ? a.get(1) : got);
        }
        return Value::list(std::move(out));
    }
    if (!args.positional[0].is_string()) throw TemplateError(0, "the filter 'map' takes a filter name");
    const std::string name = args.positional[0].as_string();
    if (!is_filter(name)) throw TemplateError(0, unknown_filter_message(name));
    CallArgs rest;
    rest.positional.assign(args.positional.begin() + 1, args.positional.end());
    rest.keyword = args.keyword;
    for (const Value &item : items) out.push_back(apply_filter(name, item, rest, ev, line));
    return Value::list(std::move(out));
}

struct FilterSpec {
    FilterFn fn;
    std::vector<const char *> params;
};

const std::map<std::string, FilterSpec> &filter_table() {
    static const std::map<std::string, FilterSpec> table = {
        {"abs", {filter_abs, {}}},
        {"attr", {filter_attr, {"name"}}},
        {"capitalize", {filter_capitalize, {}}},
        {"count", {filter_length, {}}},
        {"d", {filter_default, {"default_value", "boolean"}}},
        {"default", {filter_default, {"default_value", "boolean"}}},
        {"first", {filter_first, {}}},
        {"float", {filter_float, {"default"}}},
        {"int", {filter_int, {"default", "base"}}},
        {"items", {filter_items, {}}},
        {"join", {filter_join, {"d", "attribute"}}},
        {"last", {filter_last, {}}},
        {"length", {filter_length, {}}},
        {"list", {filter_list, {}}},
        {"lower", {filter_lower, {}}},
        {"replace", {filter_replace, {"old", "new", "count"}}},
        {"reverse", {filter_reverse, {}}},
        {"safe", {filter_string, {}}},
        {"string", {filter_string, {}}},
        {"sum", {filter_sum, {"attribute", "start"}}},
        {"title", {filter_title, {}}},
        {"tojson", {filter_tojson, {"ensure_ascii", "indent", "separators", "sort_keys"}}},
        {"trim", {filter_trim, {"chars"}}},
        {"unique", {filter_unique, {"case_sensitive", "attribute"}}},
        {"upper", {filter_upper, {}}},
    };
    return table;
}

}  // namespace

bool is_filter(const std::string &name) {
    return filter_table().count(name) || name == "map" || name == "select" || name == "reject" ||
           name == "selectattr" || name == "rejectattr";
}

std::string unknown_filter_message(const std::string &name) {
    for (const char *other : kOtherFilters)
        if (name == other) return "the filter '" + name + "' is not supported";
    return "no filter named " + repr(Value::string(name), Limits{});
}

std::string attribute_path(const Value &attribute, Evaluator &ev) {
    if (attribute.is_integral()) return std::to_string(attribute.as_int());
    return to_str(attribute, ev.limits());
}

Value attribute_of(const Value &item, const std::string &path, const Limits &limits) {
    Value v = item;
    size_t start = 0;
    for (;;) {
        const size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        const bool number = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (v.is_undefined()) return v;
        v = get_item(v, number && part.size() < 18 ? Value::integer(std::stoll(part)) : Value::string(part), limits);
        if (dot == std::string::npos) return v;
        start = dot + 1;
    }
}

Value apply_filter(const std::string &name, const Value &input, const CallArgs &args, Evaluator &ev, int line) {
    ev.charge(1 + (input.is_string() ? static_cast<int64_t>(input.as_string().size() / 64) : 0));
    if (name == "map") return map_items(input, args, ev, line);
    if (name == "select" || name == "reject") return select_items(input, args, ev, name == "select", false, name.c_str());
    if (name == "selectattr" || name == "rejectattr")
        return select_items(input, args, ev, name == "selectattr", true, name.c_str());
    const auto it = filter_table().find(name);
    if (it == filter_table().end()) throw TemplateError(line, unknown_filter_message(name));
    const BoundArgs bound(args, "the filter '" + name + "'", it->second.params);
    return it->second.fn(input, bound, ev);
}

}  // namespace halogen::jinja
