// Python's str methods on UTF-8 strings (string_methods.h).
#include "jinja/string_methods.h"

#include <algorithm>

#include "jinja/call_args.h"
#include "jinja/template_error.h"
#include "jinja/utf8.h"
#include "jinja/value_ops.h"

namespace halogen::jinja {

namespace {

const char *const kMethods[] = {"strip", "lstrip", "rstrip", "split", "rsplit", "startswith", "endswith",
                                "upper", "lower", "title", "capitalize", "replace", "find", "count",
                                "join", "removeprefix", "removesuffix"};

const std::string &string_arg(const Value &v, const std::string &what) {
    if (v.is_undefined()) fail_undefined(v);
    if (!v.is_string()) throw TemplateError(0, what + " takes a string, not '" + type_name(v) + "'");
    return v.as_string();
}

bool is_cased(char32_t c) { return utf8::is_cased_upper(c) || utf8::is_cased_lower(c); }

List split_whitespace(const std::string &s, int64_t maxsplit) {
    List out;
    size_t pos = 0;
    while (pos < s.size()) {
        pos += utf8::space_prefix_end(std::string_view(s).substr(pos));
        if (pos >= s.size()) break;
        if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
            out.push_back(Value::string(s.substr(pos)));   // Python keeps the rest's trailing spaces
            return out;
        }
        size_t end = pos;
        while (end < s.size()) {
            size_t after = end;
            if (utf8::is_space(utf8::next(s, after))) break;
            end = after;
        }
        out.push_back(Value::string(s.substr(pos, end - pos)));
        pos = end;
    }
    return out;
}

List split_on(const std::string &s, const std::string &sep, int64_t maxsplit) {
    if (sep.empty()) throw TemplateError(0, "str.split(): empty separator");
    List out;
    size_t pos = 0;
    for (size_t at; (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) &&
                    (at = find_text(s, sep, pos)) != std::string::npos;
         pos = at + sep.size())
        out.push_back(Value::string(s.substr(pos, at - pos)));
    out.push_back(Value::string(s.substr(pos)));
    return out;
}

// rsplit is split from the right: split of the reversed bytes, each piece reversed back. (A
// match of valid UTF-8 in valid UTF-8 is a match of whole characters either way round.)
List rsplit_on(const std::string &s, const std::string &sep, int64_t maxsplit) {
    if (sep.empty()) throw TemplateError(0, "str.rsplit(): empty separator");
    const std::string rs(s.rbegin(), s.rend()), rsep(sep.rbegin(), sep.rend());
    List out;
    size_t pos = 0;
    for (size_t at; (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) &&
                    (at = find_text(rs, rsep, pos)) != std::string::npos;
         pos = at + rsep.size())
        out.push_back(Value::string(std::string(rs.rbegin() + static_cast<std::ptrdiff_t>(rs.size() - at), rs.rbegin() + static_cast<std::ptrdiff_t>(rs.size() - pos))));
    out.push_back(Value::string(std::string(rs.rbegin(), rs.rbegin() + static_cast<std::ptrdiff_t>(rs.size() - pos))));
    std::reverse(out.begin(), out.end());
    return out;
}

bool affix_matches(const std::string &s, const Value &affix, bool prefix, const std::string &what) {
    auto one = [&](const Value &v) {
        const std::string &a = string_arg(v, what);
        if (a.size() > s.size()) return false;
        return prefix ? s.compare(0, a.size(), a) == 0 : s.compare(s.size() - a.size(), a.size(), a) == 0;
    };
    if (affix.is(Value::Kind::List) && affix.is_tuple())
        return std::any_of(affix.as_list().begin(), affix.as_list().end(), one);
    return one(affix);
}

int64_t count_of(const std::string &s, const std::string &sub) {
    if (sub.empty()) return static_cast<int64_t>(utf8::length(s)) + 1;
    int64_t n = 0;
    for (size_t at = find_text(s, sub); at != std::string::npos; at = find_text(s, sub, at + sub.size())) ++n;
    return n;
}

}  // namespace

bool is_string_method(const std::string &name) {
    return std::any_of(std::begin(kMethods), std::end(kMethods), [&](const char *m) { return name == m; });
}

std::string py_strip(const std::string &s, const Value &chars, StripSide side) {
    if (chars.is_none() || chars.is_undefined()) {
        size_t begin = 0, end = s.size();
        if (side != StripSide::Right) begin = utf8::space_prefix_end(s);
        if (side != StripSide::Left) end = begin + utf8::space_suffix_begin(std::string_view(s).substr(begin));
        return s.substr(begin, end - begin);
    }
    const std::vector<char32_t> set = utf8::decode(string_arg(chars, "str.strip()"));
    const std::vector<char32_t> text = utf8::decode(s);
    std::vector<char32_t> sorted = set;
    std::sort(sorted.begin(), sorted.end());
    auto in_set = [&](char32_t c) { return std::binary_search(sorted.begin(), sorted.end(), c); };
    size_t begin = 0, end = text.size();
    if (side != StripSide::Right)
        while (begin < end && in_set(text[begin])) ++begin;
    if (side != StripSide::Left)
        while (end > begin && in_set(text[end - 1])) --end;
    return utf8::encode(text, begin, end);
}

std::string py_upper(std::string_view s) {
    std::string out;
    for (size_t pos = 0; pos < s.size();) utf8::append(out, utf8::to_upper(utf8::next(s, pos)));
    return out;
}

std::string py_lower(std::string_view s) {
    std::string out;
    for (size_t pos = 0; pos < s.size();) utf8::append(out, utf8::to_lower(utf8::next(s, pos)));
    return out;
}

std::string py_capitalize(std::string_view s) {
    std::string out;
    bool first = true;
    for (size_t pos = 0; pos < s.size(); first = false) {
        const char32_t c = utf8::next(s, pos);
        utf8::append(out, first ? utf8::to_upper(c) : utf8::to_lower(c));
    }
    return out;
}

std::string py_title(std::string_view s) {
    std::string out;
    bool previous_cased = false;
    for (size_t pos = 0; pos < s.size();) {
        const char32_t c = utf8::next(s, pos);
        const bool cased = is_cased(c);
        utf8::append(out, cased ? (previous_cased ? utf8::to_lower(c) : utf8::to_upper(c)) : c);
        previous_cased = cased;
    }
    return out;
}

std::string py_replace(const std::string &s, const std::string &old, const std::string &repl, int64_t count,
                       const Limits &limits) {
    std::string out;
    auto put = [&](std::string_view text) {
        check_string_size(out.size() + text.size(), limits);
        out.append(text);
    };
    int64_t done = 0;
    if (old.empty()) {
        // Python puts `repl` before every code point and at the end.
        size_t pos = 0;
        while (pos < s.size()) {
            if (count >= 0 && done >= count) break;
            put(repl);
            ++done;
            const size_t start = pos;
            utf8::next(s, pos);
            put(std::string_view(s).substr(start, pos - start));
        }
        if (pos < s.size()) put(std::string_view(s).substr(pos));
        else if (count < 0 || done < count) put(repl);
        return out;
    }
    size_t pos = 0;
    for (size_t at; (count < 0 || done < count) && (at = find_text(s, old, pos)) != std::string::npos; pos = at + old.size(), ++done) {
        put(std::string_view(s).substr(pos, at - pos));
        put(repl);
    }
    put(std::string_view(s).substr(pos));
    return out;
}

Value call_string_method(const std::string &s, const std::string &name, const CallArgs &args, Evaluator &ev) {
    const std::string what = "str." + name + "()";
    ev.charge(static_cast<int64_t>(s.size() / 64) + 1);
    if (name == "strip" || name == "lstrip" || name == "rstrip") {
        BoundArgs a(args, what, {"chars"});
        const StripSide side = name == "strip" ? StripSide::Both : (name == "lstrip" ? StripSide::Left : StripSide::Right);
        return Value::string(py_strip(s, a.get_or(0, Value::none()), side));
    }
    if (name == "split" || name == "rsplit") {
        BoundArgs a(args, what, {"sep", "maxsplit"});
        const Value sep = a.get_or(0, Value::none());
        const Value max = a.get_or(1, Value::integer(-1));
        if (!max.is_integral()) throw TemplateError(0, what + ": maxsplit must be an integer");
        List parts = sep.is_none() ? split_whitespace(s, max.as_int())
                     : name == "split" ? split_on(s, string_arg(sep, what), max.as_int())
                                       : rsplit_on(s, string_arg(sep, what), max.as_int());
        if (sep.is_none() && name == "rsplit" && max.as_int() >= 0)
            throw TemplateError(0, "str.rsplit() with no separator and a maxsplit is not supported");
        ev.charge(static_cast<int64_t>(parts.size()));
        return Value::list(std::move(parts));
    }
    if (name == "startswith" || name == "endswith") {
        BoundArgs a(args, what, {"affix"});
        return Value::boolean(affix_matches(s, a.get(0), name == "startswith", what));
    }
    if (name == "upper" || name == "lower" || name == "title" || name == "capitalize") {
        BoundArgs a(args, what, {});
        if (name == "upper") return Value::string(py_upper(s));
        if (name == "lower") return Value::string(py_lower(s));
        if (name == "title") return Value::string(py_title(s));
        return Value::string(py_capitalize(s));
    }
    if (name == "replace") {
        BoundArgs a(args, what, {"old", "new", "count"});
        const Value count = a.get_or(2, Value::integer(-1));
        if (!count.is_integral()) throw TemplateError(0, what + ": count must be an integer");
        return Value::string(py_replace(s, string_arg(a.get(0), what), string_arg(a.get(1), what), count.as_int(), ev.limits()));
    }
    if (name == "find") {
        BoundArgs a(args, what, {"sub"});
        const size_t at = find_text(s, string_arg(a.get(0), what));
        return Value::integer(at == std::string::npos ? -1 : static_cast<int64_t>(utf8::length(s.substr(0, at))));
    }
    if (name == "count") {
        BoundArgs a(args, what, {"sub"});
        return Value::integer(count_of(s, string_arg(a.get(0), what)));
    }
    if (name == "removeprefix" || name == "removesuffix") {
        BoundArgs a(args, what, {"affix"});
        const std::string &affix = string_arg(a.get(0), what);
        if (name == "removeprefix") return Value::string(s.compare(0, affix.size(), affix) == 0 ? s.substr(affix.size()) : s);
        if (affix.size() <= s.size() && s.compare(s.size() - affix.size(), affix.size(), affix) == 0)
            return Value::string(s.substr(0, s.size() - affix.size()));
        return Value::string(s);
    }
    if (name == "join") {
        BoundArgs a(args, what, {"iterable"});
        const Value &items = a.get(0);
        if (items.is_undefined()) fail_undefined(items);
        std::string out;
        bool first = true;
        for (const Value &item : iterate(items)) {
            if (!first) out += s;
            first = false;
            out += string_arg(item, "str.join()");
            check_string_size(out.size(), ev.limits());
        }
        return Value::string(std::move(out));
    }
    throw TemplateError(0, "the string method '" + name + "' is not supported");
}

}  // namespace halogen::jinja
