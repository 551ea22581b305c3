// Python's semantics for template values (value_ops.h).
#include "jinja/value_ops.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "jinja/template_error.h"
#include "jinja/utf8.h"

namespace halogen::jinja {

namespace {

using Kind = Value::Kind;

[[noreturn]] void fail(const std::string &what) { throw TemplateError(0, what); }

// Exact comparison of an int with a float, as Python makes it: -1, 0, 1, or 2 for a NaN.
int compare_int_float(int64_t i, double f) {
    if (std::isnan(f)) return 2;
    if (f >= 9223372036854775808.0) return -1;
    if (f < -9223372036854775808.0) return 1;
    const double t = std::trunc(f);
    const auto ti = static_cast<int64_t>(t);
    if (i != ti) return i < ti ? -1 : 1;
    return t == f ? 0 : (f > t ? -1 : 1);
}

// -1, 0, 1, or 2 when unordered (a NaN).
int compare_numbers(const Value &a, const Value &b) {
    if (a.is_integral() && b.is_integral()) return a.as_int() < b.as_int() ? -1 : (a.as_int() > b.as_int() ? 1 : 0);
    if (a.is_integral()) return compare_int_float(a.as_int(), b.as_float());
    if (b.is_integral()) {
        const int c = compare_int_float(b.as_int(), a.as_float());
        return c == 2 ? 2 : -c;
    }
    const double x = a.as_float(), y = b.as_float();
    if (std::isnan(x) || std::isnan(y)) return 2;
    return x < y ? -1 : (x > y ? 1 : 0);
}

void append_checked(std::string &out, std::string_view text, const Limits &limits) {
    check_string_size(out.size() + text.size(), limits);
    out.append(text);
}

void repr_string(std::string &out, const std::string &s, const Limits &limits) {
    const bool has_single = s.find('\'') != std::string::npos, has_double = s.find('"') != std::string::npos;
    const char quote = (has_single && !has_double) ? '"' : '\'';
    std::string text(1, quote);
    for (size_t pos = 0; pos < s.size();) {
        const char32_t c = utf8::next(s, pos);
        char buf[16];
        if (c == static_cast<char32_t>(quote) || c == '\\') {
            text += '\\';
            text += static_cast<char>(c);
        } else if (c == '\n') {
            text += "\\n";
        } else if (c == '\r') {
            text += "\\r";
        } else if (c == '\t') {
            text += "\\t";
        } else if (utf8::is_printable(c)) {
            utf8::append(text, c);
        } else {
            const unsigned long u = c >= utf8::kRawByteBase ? c - utf8::kRawByteBase : c;
            if (u < 0x100) std::snprintf(buf, sizeof buf, "\\x%02lx", u);
            else if (u < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04lx", u);
            else std::snprintf(buf, sizeof buf, "\\U%08lx", u);
            text += buf;
        }
    }
    text += quote;
    append_checked(out, text, limits);
}

void write_repr(std::string &out, const Value &v, const Limits &limits);

void write_items(std::string &out, const List &items, const Limits &limits) {
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) append_checked(out, ", ", limits);
        write_repr(out, items[i], limits);
    }
}

void write_dict(std::string &out, const Dict &d, const Limits &limits) {
    append_checked(out, "{", limits);
    for (size_t i = 0; i < d.entries.size(); ++i) {
        if (i) append_checked(out, ", ", limits);
        write_repr(out, d.entries[i].first, limits);
        append_checked(out, ": ", limits);
        write_repr(out, d.entries[i].second, limits);
    }
    append_checked(out, "}", limits);
}

void write_repr(std::string &out, const Value &v, const Limits &limits) {
    switch (v.kind()) {
    case Kind::Undefined: append_checked(out, "Undefined", limits); return;
    case Kind::String: repr_string(out, v.as_string(), limits); return;
    case Kind::List:
        append_checked(out, v.is_tuple() ? "(" : "[", limits);
        write_items(out, v.as_list(), limits);
        append_checked(out, v.is_tuple() ? (v.as_list().size() == 1 ? ",)" : ")") : "]", limits);
        return;
    case Kind::Dict: write_dict(out, v.as_dict(), limits); return;
    case Kind::Namespace:
        append_checked(out, "<Namespace ", limits);
        write_dict(out, v.as_dict(), limits);
        append_checked(out, ">", limits);
        return;
    case Kind::Function: fail("the function " + v.as_function().name + " cannot be printed (call it)");
    default: append_checked(out, to_str(v, limits), limits); return;
    }
}

// a op b on int64, or a TemplateError when Python's result would not fit in 64 bits.
template <typename F>
int64_t checked(F op_with_overflow, int64_t a, int64_t b, const char *op) {
    int64_t result = 0;
    if (op_with_overflow(a, b, &result)) fail(std::string("the integer result of '") + op + "' does not fit in 64 bits");
    return result;
}
bool add_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
bool sub_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_sub_overflow(a, b, r); }
bool mul_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }

[[noreturn]] void unsupported(BinaryOp op, const Value &a, const Value &b) {
    fail(std::string("unsupported operand type(s) for ") + op_text(op) + ": '" + type_name(a) + "' and '" +
         type_name(b) + "'");
}

Value repeat(const Value &seq, int64_t n, const Limits &limits) {
    if (n < 0) n = 0;
    if (seq.is_string()) {
        const std::string &s = seq.as_string();
        if (s.empty() || n == 0) return Value::string("");   // and no loop of n empty appends
        if (!s.empty() && static_cast<uint64_t>(n) > limits.max_string_bytes / s.size() + 1)
            check_string_size(limits.max_string_bytes + 1, limits);
        check_string_size(s.size() * static_cast<size_t>(n), limits);
        std::string out;
        out.reserve(s.size() * static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) out += s;
        return Value::string(std::move(out));
    }
    const List &items = seq.as_list();
    if (items.empty() || n == 0) return Value::list({}, seq.is_tuple());
    if (!items.empty() && static_cast<uint64_t>(n) > limits.max_list_items / items.size() + 1)
        check_list_size(limits.max_list_items + 1, limits);
    check_list_size(items.size() * static_cast<size_t>(n), limits);
    List out;
    out.reserve(items.size() * static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.insert(out.end(), items.begin(), items.end());
    return Value::list(std::move(out), seq.is_tuple());
}

int64_t int_floor_div(int64_t a, int64_t b) {
    if (b == 0) fail("integer division or modulo by zero");
    if (a == std::numeric_limits<int64_t>::min() && b == -1) fail("the integer result of '//' does not fit in 64 bits");
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

int64_t int_mod(int64_t a, int64_t b) {
    if (b == 0) fail("integer division or modulo by zero");
    if (b == -1) return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

// Python's float divmod.
void float_divmod(double x, double y, double &floordiv, double &mod) {
    mod = std::fmod(x, y);
    double div = (x - mod) / y;
    if (mod != 0) {
        if ((y < 0) != (mod < 0)) {
            mod += y;
            div -= 1.0;
        }
    } else {
        mod = std::copysign(0.0, y);
    }
    if (div != 0) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
    } else {
        floordiv = std::copysign(0.0, x / y);
    }
}

Value int_pow(int64_t base, int64_t exp) {
    int64_t result = 1;
    bool overflow = false;
    while (exp > 0 && !overflow) {
        if (exp & 1) overflow = __builtin_mul_overflow(result, base, &result);
        exp >>= 1;
        if (exp > 0 && !overflow) overflow = __builtin_mul_overflow(base, base, &base);
    }
    if (overflow) fail("the integer result of '**' does not fit in 64 bits");
    return Value::integer(result);
}

Value float_pow(double x, double y) {
    if (x == 0 && y < 0) fail("0.0 cannot be raised to a negative power");
    if (x < 0 && std::isfinite(y) && y != std::floor(y)) fail("a negative number to a fractional power is not a real number");
    const double r = std::pow(x, y);
    if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) fail("the result of '**' is too large for a float");
    return Value::number(r);
}

}  // namespace

namespace {
thread_local int64_t g_work = 0;
}  // namespace

void count_work(int64_t units) { g_work += units; }

int64_t take_work() {
    const int64_t w = g_work;
    g_work = 0;
    return w;
}

size_t find_text(std::string_view text, std::string_view needle, size_t from) {
    if (from > text.size()) return std::string_view::npos;
    count_work(static_cast<int64_t>((text.size() - from) / 64));
    if (needle.size() <= 16) return text.find(needle, from);   // at most 16 compares a position
    const auto begin = text.begin() + static_cast<std::ptrdiff_t>(from);
    const auto at = std::search(begin, text.end(), std::boyer_moore_searcher(needle.begin(), needle.end()));
    return at == text.end() ? std::string_view::npos : static_cast<size_t>(at - text.begin());
}

void check_string_size(size_t bytes, const Limits &limits) {
    if (bytes > limits.max_string_bytes)
        fail("a string longer than " + std::to_string(limits.max_string_bytes) + " bytes (the limit)");
}

void check_list_size(size_t items, const Limits &limits) {
    if (items > limits.max_list_items)
        fail("a list longer than " + std::to_string(limits.max_list_items) + " items (the limit)");
}

[[noreturn]] void fail_undefined(const Value &v) {
    fail(v.as_string().empty() ? std::string("a value is undefined") : v.as_string());
}

bool truthy(const Value &v) {
    switch (v.kind()) {
    case Kind::Undefined: case Kind::None: return false;
    case Kind::Bool: return v.as_bool();
    case Kind::Int: return v.as_int() != 0;
    case Kind::Float: return v.as_float() != 0;
    case Kind::String: return !v.as_string().empty();
    case Kind::List: return !v.as_list().empty();
    case Kind::Dict: return !v.as_dict().entries.empty();
    case Kind::Namespace: case Kind::Function: return true;
    }
    return false;
}

bool equals(const Value &a, const Value &b) {
    count_work(1);
    if (a.is_number() && b.is_number()) return compare_numbers(a, b) == 0;
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
    case Kind::Undefined: case Kind::None: return true;
    case Kind::String:
        count_work(static_cast<int64_t>(a.as_string().size() / 64));
        return a.as_string() == b.as_string();
    case Kind::List: {
        if (&a.as_list() == &b.as_list()) return true;   // one list (Python compares items by identity first, too)
        if (a.is_tuple() != b.is_tuple() || a.as_list().size() != b.as_list().size()) return false;
        for (size_t i = 0; i < a.as_list().size(); ++i)
            if (!equals(a.as_list()[i], b.as_list()[i])) return false;
        return true;
    }
    case Kind::Dict: {
        const Dict &x = a.as_dict(), &y = b.as_dict();
        if (x.entries.size() != y.entries.size()) return false;
        for (const auto &[key, value] : x.entries) {
            const Value *other = y.find(key);
            if (!other || !equals(value, *other)) return false;
        }
        return true;
    }
    case Kind::Namespace: return &a.namespace_attrs() == &b.namespace_attrs();
    case Kind::Function: return &a.as_function() == &b.as_function();
    default: return false;
    }
}

int order(const Value &a, const Value &b, const char *op) {
    count_work(1);
    if (a.is_undefined()) fail_undefined(a);
    if (b.is_undefined()) fail_undefined(b);
    if (a.is_number() && b.is_number()) return compare_numbers(a, b);
    if (a.is_string() && b.is_string()) {
        count_work(static_cast<int64_t>(std::min(a.as_string().size(), b.as_string().size()) / 64));
        const int c = a.as_string().compare(b.as_string());
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    if (a.is(Kind::List) && b.is(Kind::List) && a.is_tuple() == b.is_tuple()) {
        const List &x = a.as_list(), &y = b.as_list();
        for (size_t i = 0; i < x.size() && i < y.size(); ++i)
            if (!equals(x[i], y[i])) return order(x[i], y[i], op);
        return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
    }
    fail(std::string("'") + op + "' not supported between instances of '" + type_name(a) + "' and '" +
         type_name(b) + "'");
}

bool contains(const Value &container, const Value &item) {
    switch (container.kind()) {
    case Kind::Undefined: return false;
    case Kind::String:
        if (item.is_undefined()) fail_undefined(item);
        if (!item.is_string())
            fail(std::string("'in <string>' requires string as left operand, not ") + type_name(item));
        return find_text(container.as_string(), item.as_string()) != std::string_view::npos;
    case Kind::List:
        for (const Value &v : container.as_list())
            if (equals(v, item)) return true;
        return false;
    case Kind::Dict: return container.as_dict().find(item) != nullptr;
    default: fail(std::string("argument of type '") + type_name(container) + "' is not iterable");
    }
}

std::string py_float_repr(double d) {
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string sci(buf, res.ptr);   // [-]d[.ddd]e[+-]XX, the shortest digits that round-trip
    const bool negative = sci[0] == '-';
    if (negative) sci.erase(0, 1);
    const size_t e = sci.find('e');
    const int exp = std::stoi(sci.substr(e + 1));
    std::string digits = sci.substr(0, e);
    if (digits.size() > 1) digits.erase(1, 1);   // drop the point
    std::string out = negative ? "-" : "";
    if (exp >= -4 && exp < 16) {
        if (exp < 0) {
            out += "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
        } else if (static_cast<int>(digits.size()) <= exp + 1) {
            out += digits + std::string(static_cast<size_t>(exp + 1) - digits.size(), '0') + ".0";
        } else {
            out += digits.substr(0, static_cast<size_t>(exp + 1)) + "." + digits.substr(static_cast<size_t>(exp + 1));
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char ebuf[16];
    std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out + ebuf;
}

std::string to_str(const Value &v, const Limits &limits) {
    switch (v.kind()) {
    case Kind::Undefined: return "";
    case Kind::None: return "None";
    case Kind::Bool: return v.as_bool() ? "True" : "False";
    case Kind::Int: return std::to_string(v.as_int());
    case Kind::Float: return py_float_repr(v.as_float());
    case Kind::String: return v.as_string();
    default: {
        std::string out;
        write_repr(out, v, limits);
        return out;
    }
    }
}

std::string repr(const Value &v, const Limits &limits) {
    std::string out;
    write_repr(out, v, limits);
    return out;
}

const char *op_text(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::FloorDiv: return "//";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Pow: return "**";
    }
    return "?";
}

Value binary(BinaryOp op, const Value &a, const Value &b, const Limits &limits) {
    if (a.is_undefined()) fail_undefined(a);
    if (b.is_undefined()) fail_undefined(b);
    const bool ints = a.is_integral() && b.is_integral();
    const bool numbers = a.is_number() && b.is_number();
    switch (op) {
    case BinaryOp::Add:
        if (ints) return Value::integer(checked(add_overflow, a.as_int(), b.as_int(), "+"));
        if (numbers) return Value::number(a.as_float() + b.as_float());
        if (a.is_string() && b.is_string()) {
            check_string_size(a.as_string().size() + b.as_string().size(), limits);
            return Value::string(a.as_string() + b.as_string());
        }
        if (a.is(Kind::List) && b.is(Kind::List) && a.is_tuple() == b.is_tuple()) {
            check_list_size(a.as_list().size() + b.as_list().size(), limits);
            List items = a.as_list();
            items.insert(items.end(), b.as_list().begin(), b.as_list().end());
            return Value::list(std::move(items), a.is_tuple());
        }
        if (a.is_string()) fail(std::string("can only concatenate str (not \"") + type_name(b) + "\") to str");
        if (a.is(Kind::List))
            fail(std::string("can only concatenate ") + type_name(a) + " (not \"" + type_name(b) + "\") to " + type_name(a));
        unsupported(op, a, b);
    case BinaryOp::Sub:
        if (ints) return Value::integer(checked(sub_overflow, a.as_int(), b.as_int(), "-"));
        if (numbers) return Value::number(a.as_float() - b.as_float());
        unsupported(op, a, b);
    case BinaryOp::Mul:
        if (ints) return Value::integer(checked(mul_overflow, a.as_int(), b.as_int(), "*"));
        if (numbers) return Value::number(a.as_float() * b.as_float());
        if ((a.is_string() || a.is(Kind::List)) && b.is_integral()) return repeat(a, b.as_int(), limits);
        if ((b.is_string() || b.is(Kind::List)) && a.is_integral()) return repeat(b, a.as_int(), limits);
        if ((a.is_string() || a.is(Kind::List)) && b.is_number())
            fail(std::string("can't multiply sequence by non-int of type '") + type_name(b) + "'");
        unsupported(op, a, b);
    case BinaryOp::Div:
        if (numbers) {
            if (b.as_float() == 0) fail(ints ? "division by zero" : "float division by zero");
            return Value::number(a.as_float() / b.as_float());
        }
        unsupported(op, a, b);
    case BinaryOp::FloorDiv:
        if (ints) return Value::integer(int_floor_div(a.as_int(), b.as_int()));
        if (numbers) {
            if (b.as_float() == 0) fail("float floor division by zero");
            double q, m;
            float_divmod(a.as_float(), b.as_float(), q, m);
            return Value::number(q);
        }
        unsupported(op, a, b);
    case BinaryOp::Mod:
        if (ints) return Value::integer(int_mod(a.as_int(), b.as_int()));
        if (numbers) {
            if (b.as_float() == 0) fail("float modulo");
            double q, m;
            float_divmod(a.as_float(), b.as_float(), q, m);
            return Value::number(m);
        }
        if (a.is_string()) fail("printf-style string formatting ('...' % value) is not supported");
        unsupported(op, a, b);
    case BinaryOp::Pow:
        if (ints && b.as_int() >= 0) return int_pow(a.as_int(), b.as_int());
        if (numbers) return float_pow(a.as_float(), b.as_float());
        unsupported(op, a, b);
    }
    unsupported(op, a, b);
}

Value negate(const Value &v) {
    if (v.is_undefined()) fail_undefined(v);
    if (v.is_integral()) {
        if (v.as_int() == std::numeric_limits<int64_t>::min()) fail("the integer result of '-' does not fit in 64 bits");
        return Value::integer(-v.as_int());
    }
    if (v.is(Kind::Float)) return Value::number(-v.as_float());
    fail(std::string("bad operand type for unary -: '") + type_name(v) + "'");
}

Value unary_plus(const Value &v) {
    if (v.is_undefined()) fail_undefined(v);
    if (v.is_integral()) return Value::integer(v.as_int());
    if (v.is(Kind::Float)) return v;
    fail(std::string("bad operand type for unary +: '") + type_name(v) + "'");
}

int64_t length(const Value &v) {
    switch (v.kind()) {
    case Kind::Undefined: return 0;
    case Kind::String: return static_cast<int64_t>(utf8::length(v.as_string()));
    case Kind::List: return static_cast<int64_t>(v.as_list().size());
    case Kind::Dict: return static_cast<int64_t>(v.as_dict().entries.size());
    default: fail(std::string("object of type '") + type_name(v) + "' has no len()");
    }
}

List iterate(const Value &v) {
    switch (v.kind()) {
    case Kind::Undefined: return {};
    case Kind::List: return v.as_list();
    case Kind::String: {
        List out;
        for (size_t pos = 0; pos < v.as_string().size();) out.push_back(Value::string(utf8::encode(utf8::next(v.as_string(), pos))));
        return out;
    }
    case Kind::Dict: {
        List out;
        for (const auto &entry : v.as_dict().entries) out.push_back(entry.first);
        return out;
    }
    default: fail(std::string("'") + type_name(v) + "' object is not iterable");
    }
}

namespace {

// Python's PySlice_AdjustIndices: the first index, the step and the count a slice visits.
void adjust_slice(int64_t length, std::optional<int64_t> start, std::optional<int64_t> stop,
                  std::optional<int64_t> step, int64_t &first, int64_t &by, int64_t &count) {
    by = step.value_or(1);
    if (by == 0) fail("slice step cannot be zero");
    const int64_t lo = by < 0 ? -1 : 0, hi = by < 0 ? length - 1 : length;
    auto clamp = [&](std::optional<int64_t> x, int64_t dflt) {
        if (!x) return dflt;
        int64_t i = *x;
        if (i < 0) {
            i = (i < -length) ? lo : i + length;
            if (i < lo) i = lo;
        } else if (i > hi) {
            i = hi;
        }
        return i;
    };
    first = clamp(start, by < 0 ? hi : lo);
    const int64_t last = clamp(stop, by < 0 ? lo : hi);
    if (by > 0) count = last > first ? (last - first - 1) / by + 1 : 0;
    else count = first > last ? (first - last - 1) / (-by) + 1 : 0;
}

}  // namespace

Value slice(const Value &v, const std::optional<int64_t> &start, const std::optional<int64_t> &stop,
            const std::optional<int64_t> &step) {
    if (v.is_undefined()) fail_undefined(v);
    int64_t first, by, count;
    if (v.is_string()) {
        const std::vector<char32_t> chars = utf8::decode(v.as_string());
        adjust_slice(static_cast<int64_t>(chars.size()), start, stop, step, first, by, count);
        std::string out;
        for (int64_t k = 0, i = first; k < count; ++k, i += by) utf8::append(out, chars[static_cast<size_t>(i)]);
        return Value::string(std::move(out));
    }
    if (v.is(Kind::List)) {
        const List &items = v.as_list();
        adjust_slice(static_cast<int64_t>(items.size()), start, stop, step, first, by, count);
        List out;
        for (int64_t k = 0, i = first; k < count; ++k, i += by) out.push_back(items[static_cast<size_t>(i)]);
        return Value::list(std::move(out), v.is_tuple());
    }
    fail(std::string("'") + type_name(v) + "' object is not subscriptable with a slice");
}

Value index(const Value &v, int64_t i) {
    const int64_t given = i;
    if (v.is_string()) {
        const std::vector<char32_t> chars = utf8::decode(v.as_string());
        const auto n = static_cast<int64_t>(chars.size());
        if (i < 0) i += n;
        if (i < 0 || i >= n) return Value::undefined("str object has no element " + std::to_string(given));
        return Value::string(utf8::encode(chars[static_cast<size_t>(i)]));
    }
    const List &items = v.as_list();
    const auto n = static_cast<int64_t>(items.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) return Value::undefined(std::string(type_name(v)) + " object has no element " + std::to_string(given));
    return items[static_cast<size_t>(i)];
}

}  // namespace halogen::jinja
