// The built-in functions (builtins.h).
#include "jinja/builtins.h"

#include <ctime>

#include "jinja/call_args.h"
#include "jinja/template_error.h"
#include "jinja/value_ops.h"

namespace halogen::jinja {

namespace {

Value make_namespace(const CallArgs &args, Evaluator &, int line) {
    Dict attrs;
    if (args.positional.size() > 1) throw TemplateError(line, "namespace() takes at most one dict, then keywords");
    if (!args.positional.empty()) {
        if (!args.positional[0].is(Value::Kind::Dict)) throw TemplateError(line, "namespace() takes a dict as its positional argument");
        attrs = args.positional[0].as_dict();
    }
    for (const auto &[key, value] : args.keyword) attrs.set(Value::string(key), value);
    for (const auto &entry : attrs.entries)
        if (entry.second.holds_namespace()) throw TemplateError(line, "a namespace cannot hold another namespace");
    return Value::ns(std::move(attrs));
}

Value make_dict(const CallArgs &args, Evaluator &, int line) {
    if (!args.positional.empty()) throw TemplateError(line, "dict() takes keyword arguments only");
    Dict d;
    for (const auto &[key, value] : args.keyword) d.set(Value::string(key), value);
    return Value::dict(std::move(d));
}

Value raise_exception(const CallArgs &args, Evaluator &ev, int line) {
    const BoundArgs a(args, "raise_exception()", {"message"});
    throw TemplateRaised(line, to_str(a.get_or(0, Value::string("")), ev.limits()));
}

Value strftime_now(const CallArgs &args, Evaluator &ev, int line) {
    const BoundArgs a(args, "strftime_now()", {"format"});
    const Value &format = a.get(0);
    if (!format.is_string()) throw TemplateError(line, "strftime_now() takes a format string");
    std::tm when{};
    if (ev.options().now) {
        when = *ev.options().now;
    } else {
        const std::time_t t = std::time(nullptr);
        localtime_r(&t, &when);
    }
    if (format.as_string().empty()) return Value::string("");
    char buf[1024];
    const size_t n = std::strftime(buf, sizeof buf, format.as_string().c_str(), &when);
    if (n == 0) throw TemplateError(line, "strftime_now(): the format gives nothing or more than 1023 bytes");
    return Value::string(std::string(buf, n));
}

Value range(const CallArgs &args, Evaluator &ev, int line) {
    if (!args.keyword.empty() || args.positional.empty() || args.positional.size() > 3)
        throw TemplateError(line, "range() takes 1 to 3 integers");
    int64_t bounds[3] = {0, 0, 1};
    for (size_t i = 0; i < args.positional.size(); ++i) {
        if (!args.positional[i].is_integral()) throw TemplateError(line, std::string("range() takes integers, not '") + type_name(args.positional[i]) + "'");
        bounds[args.positional.size() == 1 ? 1 : i] = args.positional[i].as_int();
    }
    const int64_t start = bounds[0], stop = bounds[1], step = bounds[2];
    if (step == 0) throw TemplateError(line, "range() arg 3 must not be zero");
    const long double span = step > 0 ? (static_cast<long double>(stop) - start) : (static_cast<long double>(start) - stop);
    const long double count = span <= 0 ? 0 : (span + (step > 0 ? step : -step) - 1) / (step > 0 ? step : -step);
    if (count > static_cast<long double>(ev.limits().max_list_items)) check_list_size(ev.limits().max_list_items + 1, ev.limits());
    const auto n = static_cast<int64_t>(count);
    ev.charge(n);
    List out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.push_back(Value::integer(start + i * step));
    return Value::list(std::move(out));
}

Value not_supported(const std::string &name) {
    return Value::function(name, [name](const CallArgs &, Evaluator &, int line) -> Value {
        throw TemplateError(line, "the function '" + name + "' is not supported");
    });
}

}  // namespace

Variables builtin_functions() {
    Variables v;
    v["namespace"] = Value::function("namespace", make_namespace);
    v["dict"] = Value::function("dict", make_dict);
    v["raise_exception"] = Value::function("raise_exception", raise_exception);
    v["strftime_now"] = Value::function("strftime_now", strftime_now);
    v["range"] = Value::function("range", range);
    for (const char *name : {"cycler", "joiner", "lipsum"}) v[name] = not_supported(name);
    return v;
}

}  // namespace halogen::jinja
