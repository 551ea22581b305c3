// JSON in and out of template values (json_values.h).
#include "jinja/json_values.h"

#include <algorithm>
#include <cstdio>

#include "jinja/template_error.h"
#include "jinja/utf8.h"
#include "jinja/value_ops.h"

namespace halogen::jinja {

namespace {

using Kind = Value::Kind;

Value convert(const nlohmann::ordered_json &j, const Limits &limits, int depth) {
    if (depth > limits.max_nesting)
        throw TemplateError(0, "the JSON input nests deeper than " + std::to_string(limits.max_nesting) + " levels");
    switch (j.type()) {
    case nlohmann::ordered_json::value_t::null: return Value::none();
    case nlohmann::ordered_json::value_t::boolean: return Value::boolean(j.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer: return Value::integer(j.get<int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned: {
        const auto u = j.get<uint64_t>();
        if (u > static_cast<uint64_t>(INT64_MAX)) throw TemplateError(0, "the JSON integer " + std::to_string(u) + " does not fit in 64 bits");
        return Value::integer(static_cast<int64_t>(u));
    }
    case nlohmann::ordered_json::value_t::number_float: return Value::number(j.get<double>());
    case nlohmann::ordered_json::value_t::string: return Value::string(j.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
        List items;
        for (const auto &item : j) items.push_back(convert(item, limits, depth + 1));
        return Value::list(std::move(items));
    }
    case nlohmann::ordered_json::value_t::object: {
        Dict d;
        for (const auto &[key, item] : j.items()) d.entries.emplace_back(Value::string(key), convert(item, limits, depth + 1));
        return Value::dict(std::move(d));
    }
    default: throw TemplateError(0, "a JSON value of an unsupported kind (binary)");
    }
}

class JsonWriter {
public:
    JsonWriter(const JsonStyle &style, const Limits &limits) : style_(style), limits_(limits) {
        item_sep_ = style.item_separator.value_or(style.indent ? "," : ", ");
        key_sep_ = style.key_separator.value_or(": ");
    }

    void write(const Value &v, int level) {
        switch (v.kind()) {
        case Kind::None: put("null"); return;
        case Kind::Bool: put(v.as_bool() ? "true" : "false"); return;
        case Kind::Int: put(std::to_string(v.as_int())); return;
        case Kind::Float: put(number(v.as_float())); return;
        case Kind::String: string(v.as_string()); return;
        case Kind::List: {
            const List &items = v.as_list();
            if (items.empty()) return put("[]");
            put("[");
            for (size_t i = 0; i < items.size(); ++i) {
                if (i) put(item_sep_);
                newline(level + 1);
                write(items[i], level + 1);
            }
            newline(level);
            put("]");
            return;
        }
        case Kind::Dict: {
            std::vector<const std::pair<Value, Value> *> entries;
            for (const auto &entry : v.as_dict().entries) entries.push_back(&entry);
            if (entries.empty()) return put("{}");
            if (style_.sort_keys) sort(entries);
            put("{");
            for (size_t i = 0; i < entries.size(); ++i) {
                if (i) put(item_sep_);
                newline(level + 1);
                key(entries[i]->first);
                put(key_sep_);
                write(entries[i]->second, level + 1);
            }
            newline(level);
            put("}");
            return;
        }
        default:
            throw TemplateError(0, std::string("Object of type ") + type_name(v) + " is not JSON serializable");
        }
    }

    std::string take() { return std::move(out_); }

private:
    void put(std::string_view text) {
        check_string_size(out_.size() + text.size(), limits_);
        out_.append(text);
    }

    void newline(int level) {
        if (!style_.indent) return;
        put("\n");
        for (int i = 0; i < level; ++i) put(*style_.indent);
    }

    static std::string number(double d) {
        if (std::isnan(d)) return "NaN";
        if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
        return py_float_repr(d);
    }

    void string(const std::string &s) {
        std::string text = "\"";
        char buf[16];
        for (size_t pos = 0; pos < s.size();) {
            const char32_t c = utf8::next(s, pos);
            switch (c) {
            case '"': text += "\\\""; continue;
            case '\\': text += "\\\\"; continue;
            case '\n': text += "\\n"; continue;
            case '\r': text += "\\r"; continue;
            case '\t': text += "\\t"; continue;
            case '\b': text += "\\b"; continue;
            case '\f': text += "\\f"; continue;
            default: break;
            }
            if (c < 0x20 || (style_.ensure_ascii && c >= 0x7F && c < utf8::kRawByteBase)) {
                if (c >= 0x10000) {
                    const char32_t v = c - 0x10000;
                    std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", static_cast<unsigned>(0xD800 + (v >> 10)),
                                  static_cast<unsigned>(0xDC00 + (v & 0x3FF)));
                } else {
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                }
                text += buf;
            } else {
                utf8::append(text, c);
            }
        }
        text += '"';
        put(text);
    }

    // A key as json.dumps writes it: strings as they are, numbers, booleans and None as text.
    void key(const Value &k) {
        switch (k.kind()) {
        case Kind::String: return string(k.as_string());
        case Kind::None: return string("null");
        case Kind::Bool: return string(k.as_bool() ? "true" : "false");
        case Kind::Int: return string(std::to_string(k.as_int()));
        case Kind::Float: return string(number(k.as_float()));
        default: throw TemplateError(0, std::string("keys must be str, int, float, bool or None, not ") + type_name(k));
        }
    }

    static void sort(std::vector<const std::pair<Value, Value> *> &entries) {
        for (const auto *e : entries)
            if (!e->first.is_string()) throw TemplateError(0, "tojson(sort_keys=true) sorts string keys only");
        std::stable_sort(entries.begin(), entries.end(),
                         [](const auto *a, const auto *b) { return a->first.as_string() < b->first.as_string(); });
    }

    const JsonStyle &style_;
    const Limits &limits_;
    std::string item_sep_, key_sep_, out_;
};

}  // namespace

Value from_json(const nlohmann::ordered_json &j, const Limits &limits) { return convert(j, limits, 0); }

std::string to_json(const Value &v, const JsonStyle &style, const Limits &limits) {
    JsonWriter writer(style, limits);
    writer.write(v, 0);
    return writer.take();
}

}  // namespace halogen::jinja
